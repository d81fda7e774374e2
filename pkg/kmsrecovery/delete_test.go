package kmsrecovery_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
)

type runtimeObject = runtime.Object

var t0 = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// TestDeleter: exactly the objects of the consented key are deleted, each with the unsafe option, and only
// after a re-check; nothing is written in a dry run.
func TestDeleter(t *testing.T) {
	ref := func(name string) string { return recoverytest.EtcdKey(recoverytest.Secrets, "app", name) }
	scenarios := []struct {
		name   string
		dryRun bool
		// setup runs after the scan, before the delete.
		setup func(c *recoverytest.Cluster)
		// noRaw runs the deleter without etcd access; interruptAt cancels the run's context while the DELETE
		// of that object is in flight, as Ctrl-C does.
		noRaw        bool
		interruptAt  string
		wantNotTried int
		wantOutcomes map[string]kmsrecovery.Outcome
		wantDeleted  []string
		wantEvents   []string
	}{
		{
			name:         "dry run deletes nothing",
			dryRun:       true,
			wantOutcomes: map[string]kmsrecovery.Outcome{"lost-0000": kmsrecovery.OutcomeWouldDelete, "lost-0001": kmsrecovery.OutcomeWouldDelete},
		},
		{
			name:         "deletes the objects of the consented key only",
			wantOutcomes: map[string]kmsrecovery.Outcome{"lost-0000": kmsrecovery.OutcomeDeleted, "lost-0001": kmsrecovery.OutcomeDeleted},
			wantDeleted:  []string{ref("lost-0000"), ref("lost-0001")},
			wantEvents:   []string{kmsrecovery.EventObjectDeleted, kmsrecovery.EventObjectDeleted, kmsrecovery.EventDeletionFinished},
		},
		{
			name:         "an object that reads again is skipped",
			setup:        func(c *recoverytest.Cluster) { c.SetReadable(recoverytest.Secrets, "app", "lost-0000", true) },
			wantOutcomes: map[string]kmsrecovery.Outcome{"lost-0000": kmsrecovery.OutcomeReadable, "lost-0001": kmsrecovery.OutcomeDeleted},
			wantDeleted:  []string{ref("lost-0001")},
			wantEvents:   []string{kmsrecovery.EventObjectSkipped, kmsrecovery.EventObjectDeleted, kmsrecovery.EventDeletionFinished},
		},
		{
			name: "an object that reads again between the check and the delete is refused by the apiserver, and skipped",
			setup: func(c *recoverytest.Cluster) {
				c.BeforeDelete(func(r kmsrecovery.Resource, ns, name string) {
					if name == "lost-0001" {
						c.SetReadable(r, ns, name, true)
					}
				})
			},
			wantOutcomes: map[string]kmsrecovery.Outcome{"lost-0000": kmsrecovery.OutcomeDeleted, "lost-0001": kmsrecovery.OutcomeReadable},
			wantDeleted:  []string{ref("lost-0000")},
			wantEvents:   []string{kmsrecovery.EventObjectDeleted, kmsrecovery.EventObjectSkipped, kmsrecovery.EventDeletionFinished},
		},
		{
			name: "an object rewritten under another key since the scan is skipped",
			setup: func(c *recoverytest.Cluster) {
				c.Add(recoverytest.Secrets, "app", "lost-0000", "key-other", false)
			},
			wantOutcomes: map[string]kmsrecovery.Outcome{"lost-0000": kmsrecovery.OutcomeOtherKey, "lost-0001": kmsrecovery.OutcomeDeleted},
			wantDeleted:  []string{ref("lost-0001")},
			wantEvents:   []string{kmsrecovery.EventObjectSkipped, kmsrecovery.EventObjectDeleted, kmsrecovery.EventDeletionFinished},
		},
		{
			name:         "without etcd access nothing is deleted: the stored key cannot be re-read",
			noRaw:        true,
			wantOutcomes: map[string]kmsrecovery.Outcome{"lost-0000": kmsrecovery.OutcomeFailed, "lost-0001": kmsrecovery.OutcomeFailed},
			wantEvents:   []string{kmsrecovery.EventObjectDeletionFailed, kmsrecovery.EventObjectDeletionFailed, kmsrecovery.EventDeletionFinished},
		},
		{
			name:         "interrupted during the first delete: that delete completes, the next is not tried",
			interruptAt:  "lost-0000",
			wantOutcomes: map[string]kmsrecovery.Outcome{"lost-0000": kmsrecovery.OutcomeDeleted},
			wantDeleted:  []string{ref("lost-0000")},
			wantNotTried: 1,
			wantEvents:   []string{kmsrecovery.EventObjectDeleted, kmsrecovery.EventDeletionFinished},
		},
		{
			name: "without the RBAC verb every delete fails and is reported",
			setup: func(c *recoverytest.Cluster) {
				c.ForbidUnsafeDelete()
			},
			wantOutcomes: map[string]kmsrecovery.Outcome{"lost-0000": kmsrecovery.OutcomeFailed, "lost-0001": kmsrecovery.OutcomeFailed},
			wantEvents:   []string{kmsrecovery.EventObjectDeletionFailed, kmsrecovery.EventObjectDeletionFailed, kmsrecovery.EventDeletionFinished},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			cluster := recoverytest.NewCluster()
			addSecrets(cluster, "app", "lost", 2, lostKey, false)
			cluster.Add(recoverytest.Secrets, "app", "other-key", "key-other", false)
			cluster.Add(recoverytest.Secrets, "app", "readable", liveKey, true)
			resources := []kmsrecovery.Resource{recoverytest.Secrets}
			findings, err := (&kmsrecovery.Scanner{Client: cluster.Dynamic, Raw: cluster.Raw()}).Scan(context.Background(), resources, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s.setup != nil {
				s.setup(cluster)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if s.interruptAt != "" {
				cluster.BeforeDelete(func(_ kmsrecovery.Resource, _, name string) {
					if name == s.interruptAt {
						cancel()
					}
				})
			}
			cluster.Fake.ClearActions()
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
			var streamed []kmsrecovery.Result
			deleter := &kmsrecovery.Deleter{Client: cluster.Dynamic, Raw: cluster.Raw(), Resources: resources, Recorder: recorder, Now: func() time.Time { return t0 },
				OnResult: func(r kmsrecovery.Result) { streamed = append(streamed, r) }}
			if s.noRaw {
				deleter.Raw = nil
			}

			// Every undecryptable object is passed: the deleter itself keeps to the consented key.
			report := deleter.Delete(ctx, findings.Objects(), "kms:"+lostKey, s.dryRun)

			outcomes := map[string]kmsrecovery.Outcome{}
			for _, r := range report.Results {
				outcomes[r.Name] = r.Outcome
			}
			if diff := cmp.Diff(s.wantOutcomes, outcomes); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(s.wantDeleted, cluster.UnsafeDeleted()); diff != "" {
				t.Errorf("unsafe deletes (-want +got):\n%s", diff)
			}
			if !cluster.Exists(recoverytest.Secrets, "app", "other-key") || !cluster.Exists(recoverytest.Secrets, "app", "readable") {
				t.Error("an object not under the consented key was deleted")
			}
			for _, a := range cluster.Fake.Actions() {
				if del, ok := a.(clienttesting.DeleteAction); ok {
					if s.dryRun {
						t.Errorf("dry run sent %v", a)
					}
					if !ptr.Deref(del.GetDeleteOptions().IgnoreStoreReadErrorWithClusterBreakingPotential, false) {
						t.Errorf("delete of %s without ignoreStoreReadErrorWithClusterBreakingPotential", del.GetName())
					}
					if del.GetName() == "other-key" || del.GetName() == "readable" {
						t.Errorf("delete sent for %s", del.GetName())
					}
				}
			}
			var reasons []string
			for _, e := range recorder.Events() {
				reasons = append(reasons, e.Reason)
			}
			if diff := cmp.Diff(s.wantEvents, reasons); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if report.DryRun != s.dryRun || report.ConsentID != "kms:"+lostKey || !report.Time.Equal(t0) {
				t.Errorf("report header %+v", report)
			}
			if diff := cmp.Diff(report.Results, streamed); diff != "" {
				t.Errorf("results given to OnResult differ from the report (-report +streamed):\n%s", diff)
			}
			if report.NotTried != s.wantNotTried || (s.wantNotTried > 0) != (report.Stopped != "") {
				t.Errorf("report stopped %q with %d not tried, want %d not tried", report.Stopped, report.NotTried, s.wantNotTried)
			}
			if s.dryRun && !strings.HasPrefix(report.String(), "would delete 2 ") {
				t.Errorf("dry run report %q", report)
			}
		})
	}
}
