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
	// Each batch is named whole, in order: the message is the batch's results by outcome.
	var first, second []string
	for i := range 20 {
		first = append(first, fmt.Sprintf("secrets app/lost-%04d", i))
		second = append(second, fmt.Sprintf("secrets app/lost-%04d", 20+i))
	}
	const prefix = "kmsguard recover, undecryptable objects stored under key kms:key-lost, unsafe delete " +
		"(ignoreStoreReadErrorWithClusterBreakingPotential; the data of deleted objects was lost with the key): "
	want := []string{
		prefix + "Deleted 20: " + strings.Join(first, ", "),
		prefix + "Deleted 20: " + strings.Join(second, ", "),
		prefix + "Deleted 3: secrets app/lost-0040, secrets app/lost-0041, secrets app/lost-0042; Failed 1: secrets app/forbidden (missing verb); SkippedReadable 1: secrets app/readable",
	}
	for i, e := range got {
		if e.Reason != kmsrecovery.EventObjectsDeletedBatch || e.Type != corev1.EventTypeWarning || e.Message != want[i] {
			t.Errorf("event %d: %s %s %q, want a Warning %s %q", i, e.Type, e.Reason, e.Message, kmsrecovery.EventObjectsDeletedBatch, want[i])
		}
	}

	// A batch with nothing deleted or failed is Normal.
	batch.Add(result("readable-again", kmsrecovery.OutcomeReadable))
	batch.Flush()
	if got := recorder.Events(); len(got) != 4 || got[3].Type != corev1.EventTypeNormal ||
		got[3].Message != prefix+"SkippedReadable 1: secrets app/readable-again" {
		t.Errorf("events %+v, want a fourth, Normal, for the batch that deleted nothing", got)
	}
}
