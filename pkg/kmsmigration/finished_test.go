package kmsmigration

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// TestFinishedMigrationOutlivesItsProgressCache: a migration finishes while the KMS that encrypts the progress
// ConfigMap is down. Its record goes to the operator resource, so that a restarted operator knows the migration
// finished and does not run it again; nothing needs the progress cache.
func TestFinishedMigrationOutlivesItsProgressCache(t *testing.T) {
	c := apiservertest.NewStaleSecrets(2, 10)
	kube := kubefake.NewClientset()
	apiservertest.FailEncrypted(kube, "configmaps")
	resource := operatorstate.NewFakeResource()
	store := func() CheckpointStore {
		return NewDurableFinish(resource, ConfigMapCheckpoints{Client: kube.CoreV1(), Namespace: "openshift-kube-apiserver-operator", Name: "kmsguard-migration"})
	}
	opts := testOptions(t, c)
	opts.Checkpoints = store()
	first := newTestMigrator(t, opts)
	if _, _, _, err := first.EnsureMigration(secretsGR, "2"); err != nil {
		t.Fatal(err)
	}
	finishedAt := time.Time{}
	if finished, at, result := waitFinished(t, first, "2"); !finished || result != nil {
		t.Fatalf("finished=%v result=%v", finished, result)
	} else {
		finishedAt = at
	}

	// A restarted operator: the migration is finished, at the same time, and nothing is rewritten again.
	updates := c.UpdateCount()
	opts.Checkpoints = store()
	second := newTestMigrator(t, opts)
	finished, result, at, err := second.EnsureMigration(secretsGR, "2")
	if err != nil || !finished || result != nil || !at.Equal(finishedAt) {
		t.Fatalf("after a restart EnsureMigration = finished %v at %v, %v, %v; want finished at %v", finished, at, result, err, finishedAt)
	}
	if got := c.UpdateCount(); got != updates {
		t.Errorf("%d more updates after the restart, want none", got-updates)
	}
}

// TestDurableFinishLoad: Load answers with the newest of the finished record and the progress, and with what it
// can read.
func TestDurableFinishLoad(t *testing.T) {
	t0 := time.Date(2026, 12, 5, 8, 0, 0, 0, time.UTC)
	finished := &Checkpoint{Target: Target{WriteKey: "2"}, ListedAll: true, Started: t0, Finished: t0.Add(time.Minute), Counts: Counts{Listed: 20, Rewritten: 20}}
	newer := &Checkpoint{Target: Target{WriteKey: "3"}, Continue: "token", Started: t0.Add(time.Hour)}
	scenarios := []struct {
		name             string
		record, progress *Checkpoint
		recordErr        error
		progressErr      bool
		want             *Checkpoint
		wantErr          bool
	}{
		{name: "nothing", want: nil},
		{name: "only the record", record: finished, want: finished},
		{name: "a migration started after the record", record: finished, progress: newer, want: newer},
		{name: "the progress cache cannot be read", record: finished, progress: newer, progressErr: true, want: finished},
		{name: "the record cannot be read", record: finished, progress: newer, recordErr: fmt.Errorf("unavailable"), want: newer},
		{name: "neither can be read", record: finished, recordErr: fmt.Errorf("unavailable"), progressErr: true, wantErr: true},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kube := kubefake.NewClientset()
			resource := operatorstate.NewFakeResource()
			store := NewDurableFinish(resource, ConfigMapCheckpoints{Client: kube.CoreV1(), Namespace: "operator", Name: "kmsguard-migration"})
			if s.record != nil {
				if err := store.Save(t.Context(), secretsGR, s.record); err != nil {
					t.Fatal(err)
				}
			}
			if s.progress != nil {
				if err := store.Save(t.Context(), secretsGR, s.progress); err != nil {
					t.Fatal(err)
				}
			}
			resource.FailReads(s.recordErr)
			if s.progressErr {
				apiservertest.FailEncrypted(kube, "configmaps")
			}
			got, err := store.Load(t.Context(), secretsGR)
			if (err != nil) != s.wantErr {
				t.Fatalf("Load error %v, want an error: %v", err, s.wantErr)
			}
			switch {
			case s.want == nil && got != nil:
				t.Errorf("Load = %+v, want nothing", got)
			case s.want != nil && (got == nil || got.Target != s.want.Target || !got.Finished.Equal(s.want.Finished)):
				t.Errorf("Load = %+v, want %+v", got, s.want)
			}
		})
	}
}

// TestFinishedRecordsFitTheirStore: the records of many resources, each listing as many undecryptable and failed
// keys as a migration keeps, fit one store; Delete forgets a resource's record and its progress.
func TestFinishedRecordsFitTheirStore(t *testing.T) {
	resource := operatorstate.NewFakeResource()
	kube := kubefake.NewClientset()
	store := NewDurableFinish(resource, ConfigMapCheckpoints{Client: kube.CoreV1(), Namespace: "operator", Name: "kmsguard-migration"})
	keys := make([]string, DefaultMaxListedKeys)
	for i := range keys {
		keys[i] = "/kubernetes.io/secrets/" + strings.Repeat("n", 60) + fmt.Sprintf("/%s-%03d", strings.Repeat("s", 60), i)
	}
	t0 := time.Date(2026, 12, 5, 8, 0, 0, 0, time.UTC)
	resources := []string{"secrets", "configmaps", "routes", "oauthaccesstokens", "oauthauthorizetokens", "extra-1", "extra-2", "extra-3"}
	for _, r := range resources {
		cp := &Checkpoint{Target: Target{WriteKey: "12", KEKID: strings.Repeat("k", 100)}, ListedAll: true, Started: t0, Finished: t0.Add(time.Hour),
			Counts: Counts{Listed: 200000, Undecryptable: 150, Failed: 150}, UndecryptableKeys: keys, FailedKeys: keys,
			Result: strings.Repeat("a long error message; ", 200)}
		if err := store.Save(t.Context(), schema.GroupResource{Resource: r}, cp); err != nil {
			t.Fatalf("saving the record of %s: %v", r, err)
		}
	}
	got, err := store.Load(t.Context(), schema.GroupResource{Resource: "secrets"})
	if err != nil || got == nil || len(got.UndecryptableKeys) != maxFinishedKeys || got.Counts.Undecryptable != 150 || len(got.Result) > maxFinishedResultBytes+len(" ... (cut)") {
		t.Fatalf("Load = %+v, %v; want the record with %d keys listed, the whole count and the result cut", got, err, maxFinishedKeys)
	}
	if err := store.Delete(t.Context(), schema.GroupResource{Resource: "secrets"}); err != nil {
		t.Fatal(err)
	}
	if got, err := store.Load(t.Context(), schema.GroupResource{Resource: "secrets"}); err != nil || got != nil {
		t.Errorf("Load after Delete = %+v, %v; want nothing", got, err)
	}
}
