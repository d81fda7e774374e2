package kmsrecovery_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/openshift/library-go/pkg/operator/events"
	corev1 "k8s.io/api/core/v1"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
)

// TestBatchRecorder: one event per DefaultEventBatch results as they come, the rest on Flush, each naming its
// objects and outcomes; nothing for dry-run results; Warning when something was deleted or failed.
func TestBatchRecorder(t *testing.T) {
	result := func(name string, outcome kmsrecovery.Outcome) kmsrecovery.Result {
		return kmsrecovery.Result{Outcome: outcome, Object: kmsrecovery.Object{
			ObjectRef: kmsrecovery.ObjectRef{Resource: recoverytest.Secrets.GroupResource(), Namespace: "app", Name: name},
			KEKID:     lostKey, Provider: recoverytest.Provider, Kind: etcdvalue.KindKMSv2, ConsentID: recoverytest.Provider + ":" + lostKey,
		}}
	}
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	batch := &kmsrecovery.BatchRecorder{Recorder: recorder}
	for i := 0; i < 43; i++ {
		batch.Add(result(fmt.Sprintf("lost-%04d", i), kmsrecovery.OutcomeDeleted))
		if i == 19 && len(recorder.Events()) != 1 {
			t.Fatalf("%d events after 20 results, want 1", len(recorder.Events()))
		}
	}
	batch.Add(result("would", kmsrecovery.OutcomeWouldDelete))
	r := result("forbidden", kmsrecovery.OutcomeFailed)
	r.Error = "missing verb"
	batch.Add(r)
	batch.Add(result("readable", kmsrecovery.OutcomeReadable))
	if got := len(recorder.Events()); got != 2 {
		t.Fatalf("%d events before Flush, want 2", got)
	}
	batch.Flush()
	batch.Flush()
	got := recorder.Events()
	if len(got) != 3 {
		t.Fatalf("%d events, want 3", len(got))
	}
	for i, want := range []string{
		"Deleted 20: secrets app/lost-0000, ",
		"Deleted 20: secrets app/lost-0020, ",
		"Deleted 3: secrets app/lost-0040, secrets app/lost-0041, secrets app/lost-0042; Failed 1: secrets app/forbidden (missing verb); SkippedReadable 1: secrets app/readable",
	} {
		e := got[i]
		if e.Reason != kmsrecovery.EventObjectsDeletedBatch || e.Type != corev1.EventTypeWarning || !strings.Contains(e.Message, want) ||
			!strings.Contains(e.Message, "stored under key kms:key-lost") {
			t.Errorf("event %d: %s %s %q, want a Warning containing %q", i, e.Type, e.Reason, e.Message, want)
		}
		if strings.Contains(e.Message, "would") {
			t.Errorf("event %d records a dry-run result: %s", i, e.Message)
		}
	}
}
