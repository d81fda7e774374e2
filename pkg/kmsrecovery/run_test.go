package kmsrecovery_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	discoveryfake "k8s.io/client-go/discovery/fake"
	clienttesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
)

// errStopped is the cause a test stops a run with, as `kmsguard recover` does on a signal.
var errStopped = errors.New("interrupted")

var (
	secretsGR    = schema.GroupResource{Resource: "secrets"}
	configMapsGR = schema.GroupResource{Resource: "configmaps"}
	routesGR     = schema.GroupResource{Group: "route.openshift.io", Resource: "routes"}
)

// coreDiscovery serves secrets and configmaps only, as a plain Kubernetes apiserver.
func coreDiscovery() *discoveryfake.FakeDiscovery {
	return &discoveryfake.FakeDiscovery{Fake: &clienttesting.Fake{Resources: []*metav1.APIResourceList{{
		GroupVersion: "v1",
		APIResources: []metav1.APIResource{{Name: "secrets", Namespaced: true}, {Name: "configmaps", Namespaced: true}},
	}}}}
}

// runCallbacks records the callbacks of a run in order, a run of OnResult calls as one entry.
type runCallbacks struct {
	calls   []string
	results []kmsrecovery.Result
	// remainingAtDeletion is the report's Remaining when OnDeletion was called.
	remainingAtDeletion *int
	// scanned is the last progress of each resource's scans; atFindings that of secrets when OnFindings was called.
	scanned    map[schema.GroupResource][2]int
	atFindings [2]int
}

func (c *runCallbacks) install(o *kmsrecovery.RunOptions) {
	c.scanned = map[schema.GroupResource][2]int{}
	o.Progress = func(gr schema.GroupResource, readable, unreadable int) { c.scanned[gr] = [2]int{readable, unreadable} }
	o.OnFindings = func(r *kmsrecovery.RunReport) {
		c.calls = append(c.calls, fmt.Sprintf("findings %d", r.Findings.Count()))
		c.atFindings = c.scanned[secretsGR]
	}
	o.OnResult = func(r kmsrecovery.Result) {
		c.results = append(c.results, r)
		if n := len(c.calls); n > 0 && strings.HasPrefix(c.calls[n-1], "results ") {
			c.calls[n-1] = fmt.Sprintf("results %d", len(c.results))
			return
		}
		c.calls = append(c.calls, "results 1")
	}
	o.OnDeletion = func(r *kmsrecovery.RunReport) {
		c.calls = append(c.calls, "deletion "+r.Deletion.ConsentID)
		c.remainingAtDeletion = r.Remaining
	}
}

func intPtr(n int) *int { return &n }

// TestRun is the lost-key recovery flow of `kmsguard recover`, against a fake apiserver with 150 undecryptable
// Secrets under kms:key-lost (more than one StorageReadError names; 10 of them in openshift-config) and 20 under
// key-live that read fine: each RunOutcome, what is deleted (and that a refused consent or a dry run deletes
// nothing), the callbacks in order, the batch events, and a run stopped or failing after its deletion.
func TestRun(t *testing.T) {
	const lost = 150
	stopAt := func(n int) func(c *recoverytest.Cluster, cancel context.CancelCauseFunc) {
		return func(c *recoverytest.Cluster, cancel context.CancelCauseFunc) {
			seen := 0
			c.BeforeDelete(func(kmsrecovery.Resource, string, string) {
				if seen++; seen == n {
					cancel(errStopped)
				}
			})
		}
	}
	scenarios := []struct {
		name   string
		noLost bool
		setup  func(c *recoverytest.Cluster, cancel context.CancelCauseFunc)
		// opts changes the run's options; consent and dryRun are its Consent and DryRun.
		opts    func(o *kmsrecovery.RunOptions)
		consent string
		dryRun  bool

		// wantErr is Run's own error: nothing was scanned, no report.
		wantErr     string
		wantOutcome kmsrecovery.RunOutcome
		// wantRefusal is the reason of a refused consent.
		wantRefusal kmsrecovery.Reason
		// wantRunErr is in the report's Err.
		wantRunErr string
		// wantResults counts the deletion's results per outcome; nil wants no deletion tried.
		wantResults map[kmsrecovery.Outcome]int
		wantStopped string
		// wantDeleted is the number of unsafe deletes; all must be of lost Secrets.
		wantDeleted   int
		wantRemaining *int
		wantCalls     []string
		// wantBatches are the batch events; each result of a deletion that is not a dry run is named in one.
		wantBatches int
	}{
		{
			name:        "nothing undecryptable",
			noLost:      true,
			consent:     lostKey,
			wantOutcome: kmsrecovery.RunClean,
			wantCalls:   []string{"findings 0"},
		},
		{
			name:        "no consent: reported, nothing deleted",
			wantOutcome: kmsrecovery.RunRefused,
			wantRefusal: kmsrecovery.ReasonUndecryptableObjects,
			wantCalls:   []string{"findings 150"},
		},
		{
			name:        "a consent naming no undecryptable object: refused, nothing deleted",
			consent:     liveKey,
			wantOutcome: kmsrecovery.RunRefused,
			wantRefusal: kmsrecovery.ReasonConsentMismatch,
			wantCalls:   []string{"findings 150"},
		},
		{
			name:        "without etcd the key is unknown, and a consent for unknown deletes nothing",
			opts:        func(o *kmsrecovery.RunOptions) { o.Raw = nil },
			consent:     kmsrecovery.UnknownConsentID,
			wantOutcome: kmsrecovery.RunRefused,
			wantRefusal: kmsrecovery.ReasonConsentUnprovable,
			wantCalls:   []string{"findings 150"},
		},
		{
			name:        "a consent naming the KEK id the plugins serve: refused, nothing deleted",
			opts:        func(o *kmsrecovery.RunOptions) { o.KMS = stateView(kmsState(healthyOn(lostKey))) },
			consent:     lostKey,
			wantOutcome: kmsrecovery.RunRefused,
			wantRefusal: kmsrecovery.ReasonConsentNamesCurrentKey,
			wantCalls:   []string{"findings 150"},
		},
		{
			name: "a consent while the current key's plugin is unreachable: refused, nothing deleted",
			opts: func(o *kmsrecovery.RunOptions) {
				o.KMS = stateView(kmsState([]operatorv1.KMSPluginHealthReport{
					healthReport("master-0", operatorv1.KMSPluginHealthStatusHealthy, liveKey),
					healthReport("master-1", operatorv1.KMSPluginHealthStatusError, kmsrecovery.UnknownConsentID),
				}))
			},
			consent:     lostKey,
			wantOutcome: kmsrecovery.RunRefused,
			wantRefusal: kmsrecovery.ReasonKMSUnhealthy,
			wantCalls:   []string{"findings 150"},
		},
		{
			name:        "a consent without a KMS view: refused, nothing deleted",
			opts:        func(o *kmsrecovery.RunOptions) { o.KMS = nil },
			consent:     lostKey,
			wantOutcome: kmsrecovery.RunRefused,
			wantRefusal: kmsrecovery.ReasonKMSUnhealthy,
			wantCalls:   []string{"findings 150"},
		},
		{
			name: "a bare KEK id two providers have: refused, nothing deleted",
			setup: func(c *recoverytest.Cluster, _ context.CancelCauseFunc) {
				c.AddKMS(recoverytest.ConfigMaps, "app", "twin", "other-kms", lostKey, false)
			},
			consent:     lostKey,
			wantOutcome: kmsrecovery.RunRefused,
			wantRefusal: kmsrecovery.ReasonConsentAmbiguous,
			wantCalls:   []string{"findings 151"},
		},
		{
			name:        "a dry run re-checks each object and deletes nothing",
			consent:     lostKey,
			dryRun:      true,
			wantOutcome: kmsrecovery.RunUndecryptableRemain,
			wantResults: map[kmsrecovery.Outcome]int{kmsrecovery.OutcomeWouldDelete: lost},
			// No scan after a dry run, and no event: nothing was done.
			wantCalls: []string{"findings 150", "results 150", "deletion kms:key-lost"},
		},
		{
			name:          "consent: exactly the 150 are deleted, and nothing is left",
			consent:       "kms:" + lostKey,
			wantOutcome:   kmsrecovery.RunClean,
			wantResults:   map[kmsrecovery.Outcome]int{kmsrecovery.OutcomeDeleted: lost},
			wantDeleted:   lost,
			wantRemaining: intPtr(0),
			wantCalls:     []string{"findings 150", "results 150", "deletion kms:key-lost"},
			wantBatches:   8,
		},
		{
			name: "consent: objects under another key remain",
			setup: func(c *recoverytest.Cluster, _ context.CancelCauseFunc) {
				c.Add(recoverytest.ConfigMaps, "app", "other", "key-other", false)
			},
			consent:       lostKey,
			wantOutcome:   kmsrecovery.RunUndecryptableRemain,
			wantResults:   map[kmsrecovery.Outcome]int{kmsrecovery.OutcomeDeleted: lost},
			wantDeleted:   lost,
			wantRemaining: intPtr(1),
			wantCalls:     []string{"findings 151", "results 150", "deletion kms:key-lost"},
			wantBatches:   8,
		},
		{
			name: "an object that reads again before its delete is skipped, not deleted",
			setup: func(c *recoverytest.Cluster, _ context.CancelCauseFunc) {
				c.BeforeDelete(func(r kmsrecovery.Resource, ns, name string) {
					if name == "lost-0003" {
						c.SetReadable(r, ns, name, true)
					}
				})
			},
			consent:       lostKey,
			wantOutcome:   kmsrecovery.RunClean,
			wantResults:   map[kmsrecovery.Outcome]int{kmsrecovery.OutcomeDeleted: lost - 1, kmsrecovery.OutcomeReadable: 1},
			wantDeleted:   lost - 1,
			wantRemaining: intPtr(0),
			wantCalls:     []string{"findings 150", "results 150", "deletion kms:key-lost"},
			wantBatches:   8,
		},
		{
			name:        "consent without the RBAC verb: every delete fails",
			setup:       func(c *recoverytest.Cluster, _ context.CancelCauseFunc) { c.ForbidUnsafeDelete() },
			consent:     lostKey,
			wantOutcome: kmsrecovery.RunFailed,
			wantRunErr:  "150 deletes failed",
			wantResults: map[kmsrecovery.Outcome]int{kmsrecovery.OutcomeFailed: lost},
			wantCalls:   []string{"findings 150", "results 150", "deletion kms:key-lost"},
			wantBatches: 8,
		},
		{
			name: "the scan after the deletion fails: the deletion is reported",
			setup: func(c *recoverytest.Cluster, _ context.CancelCauseFunc) {
				failing := false
				c.Fake.PrependReactor("list", "*", func(clienttesting.Action) (bool, runtimeObject, error) {
					return failing, nil, apierrors.NewServiceUnavailable("apiserver restarting")
				})
				c.BeforeDelete(func(kmsrecovery.Resource, string, string) { failing = true })
			},
			consent:     lostKey,
			wantOutcome: kmsrecovery.RunFailed,
			wantRunErr:  "scanning after the deletion (what was deleted is reported): listing secrets: apiserver restarting",
			wantResults: map[kmsrecovery.Outcome]int{kmsrecovery.OutcomeDeleted: lost},
			wantDeleted: lost,
			wantCalls:   []string{"findings 150", "results 150", "deletion kms:key-lost"},
			wantBatches: 8,
		},
		{
			name:        "stopped during the 5th delete: it completes, nothing after it is tried",
			setup:       stopAt(5),
			consent:     lostKey,
			wantOutcome: kmsrecovery.RunFailed,
			wantRunErr:  "stopped (interrupted): 145 objects not tried",
			wantResults: map[kmsrecovery.Outcome]int{kmsrecovery.OutcomeDeleted: 5},
			wantStopped: "interrupted",
			wantDeleted: 5,
			wantCalls:   []string{"findings 150", "results 5", "deletion kms:key-lost"},
			wantBatches: 1,
		},
		{
			name:    "stopped before the first scan: an error, nothing deleted",
			setup:   func(_ *recoverytest.Cluster, cancel context.CancelCauseFunc) { cancel(errStopped) },
			consent: lostKey,
			wantErr: "context canceled",
		},
		{
			name: "discovery fails: an error, nothing scanned",
			opts: func(o *kmsrecovery.RunOptions) {
				d := coreDiscovery()
				d.PrependReactor("get", "group", func(clienttesting.Action) (bool, runtimeObject, error) {
					return true, nil, errors.New("connection refused")
				})
				o.Discovery = d
			},
			consent: lostKey,
			wantErr: "discovering API groups: connection refused",
		},
		{
			name:    "the server serves none of the resources: an error, nothing scanned",
			opts:    func(o *kmsrecovery.RunOptions) { o.Resources = []schema.GroupResource{routesGR} },
			consent: lostKey,
			wantErr: "the server serves none of routes.route.openshift.io",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			cluster := recoverytest.NewCluster()
			addSecrets(cluster, "app", "live", 20, liveKey, true)
			if !s.noLost {
				addSecrets(cluster, "app", "lost", lost-10, lostKey, false)
				for i := lost - 10; i < lost; i++ {
					cluster.Add(recoverytest.Secrets, "openshift-config", fmt.Sprintf("lost-%04d", i), lostKey, false)
				}
			}
			if s.setup != nil {
				s.setup(cluster, cancel)
			}
			recorder := events.NewInMemoryRecorder("kmsguard-recover", clocktesting.NewFakePassiveClock(t0))
			opts := kmsrecovery.RunOptions{
				Discovery: coreDiscovery(), Dynamic: cluster.Dynamic, Raw: cluster.Raw(), KMS: healthyKMS(), Recorder: recorder,
				Resources: []schema.GroupResource{secretsGR, configMapsGR, routesGR},
				Consent:   s.consent, DryRun: s.dryRun, PageSize: 7,
			}
			var callbacks runCallbacks
			callbacks.install(&opts)
			if s.opts != nil {
				s.opts(&opts)
			}

			report, err := kmsrecovery.Run(ctx, opts)
			deletes := 0
			for _, a := range cluster.Fake.Actions() {
				if a.GetVerb() == "delete" {
					deletes++
				}
			}
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) || report != nil {
					t.Fatalf("Run returned %+v, %v; want no report and an error containing %q", report, err, s.wantErr)
				}
				if deletes != 0 || len(callbacks.calls) != 0 {
					t.Errorf("a run that failed before its scan sent %d DELETEs and called %v", deletes, callbacks.calls)
				}
				return
			}
			if err != nil {
				t.Fatalf("Run: %v", err)
			}

			if report.Outcome != s.wantOutcome {
				t.Errorf("outcome %s, want %s", report.Outcome, s.wantOutcome)
			}
			if diff := cmp.Diff([]kmsrecovery.Skipped{{Resource: routesGR, Reason: "not served"}}, report.Skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
			// The count of the first scan is in wantCalls, as OnFindings was given it.
			if report.Findings == nil {
				t.Fatal("no findings in the report")
			}
			wantScanned := [2]int{20, lost}
			if s.noLost {
				wantScanned = [2]int{20, 0}
			}
			if callbacks.atFindings != wantScanned {
				t.Errorf("the first scan's progress of secrets ended at %v readable, unreadable; want %v", callbacks.atFindings, wantScanned)
			}
			switch {
			case s.wantRefusal == "" && report.Refusal != nil:
				t.Errorf("refused: %v", report.Refusal)
			case s.wantRefusal != "" && (report.Refusal == nil || report.Refusal.Reason() != s.wantRefusal || report.Refusal.Consent != s.consent):
				t.Errorf("refusal %v, want %s of consent %q", report.Refusal, s.wantRefusal, s.consent)
			}
			if (report.Err != nil) != (s.wantRunErr != "") || (report.Err != nil && !strings.Contains(report.Err.Error(), s.wantRunErr)) {
				t.Errorf("report error %v, want %q", report.Err, s.wantRunErr)
			}
			if (report.Err != nil) != (report.Outcome == kmsrecovery.RunFailed) {
				t.Errorf("report error %v with outcome %s: an error goes with Failed, and only with it", report.Err, report.Outcome)
			}

			// The deletion: tried only with consent, exactly the consented objects, nothing in a dry run.
			if s.wantResults == nil {
				if report.Deletion != nil || deletes != 0 || len(callbacks.results) != 0 {
					t.Errorf("deletion %v, %d DELETEs and %d results, want nothing tried", report.Deletion, deletes, len(callbacks.results))
				}
			} else {
				d := report.Deletion
				if d == nil {
					t.Fatal("no deletion report")
				}
				got := map[kmsrecovery.Outcome]int{}
				for _, r := range d.Results {
					got[r.Outcome]++
					if r.ConsentID != "kms:"+lostKey {
						t.Errorf("%s under %s was tried", r.ObjectRef, r.ConsentID)
					}
				}
				if diff := cmp.Diff(s.wantResults, got); diff != "" {
					t.Errorf("results (-want +got):\n%s", diff)
				}
				if d.DryRun != s.dryRun || d.ConsentID != "kms:"+lostKey || d.Stopped != s.wantStopped || d.NotTried != lost-len(d.Results) {
					t.Errorf("deletion dry run %v, key %s, stopped %q with %d not tried; want %v, kms:%s, %q with %d",
						d.DryRun, d.ConsentID, d.Stopped, d.NotTried, s.dryRun, lostKey, s.wantStopped, lost-len(d.Results))
				}
				if !cmp.Equal(d.Results, callbacks.results) {
					t.Errorf("OnResult was given %d results, the report holds %d", len(callbacks.results), len(d.Results))
				}
			}
			unsafe := cluster.UnsafeDeleted()
			if len(unsafe) != s.wantDeleted {
				t.Errorf("%d unsafe deletes, want %d", len(unsafe), s.wantDeleted)
			}
			for _, key := range unsafe {
				if !strings.HasPrefix(key, "/registry/secrets/") || !strings.Contains(key, "/lost-") {
					t.Errorf("deleted %s, which is not under the consented key", key)
				}
			}
			if s.wantDeleted == 0 && s.dryRun && deletes != 0 {
				t.Errorf("a dry run sent %d DELETEs", deletes)
			}
			switch {
			case s.wantRemaining == nil && report.Remaining != nil:
				t.Errorf("%d remaining, want no scan after the deletion", *report.Remaining)
			case s.wantRemaining != nil && (report.Remaining == nil || *report.Remaining != *s.wantRemaining):
				t.Errorf("remaining %v, want %d", report.Remaining, *s.wantRemaining)
			}

			// The callbacks, as they happened: OnDeletion before the scan after the deletion.
			if diff := cmp.Diff(s.wantCalls, callbacks.calls); diff != "" {
				t.Errorf("callbacks (-want +got):\n%s", diff)
			}
			if callbacks.remainingAtDeletion != nil {
				t.Errorf("OnDeletion was called after the scan that followed the deletion")
			}

			// Each result of a deletion that is not a dry run is in one batch event, in the order tried
			// (TestBatchRecorder words a batch).
			var messages []string
			for _, e := range recorder.Events() {
				if e.Reason != kmsrecovery.EventObjectsDeletedBatch {
					t.Errorf("unexpected event %s: %s", e.Reason, e.Message)
					continue
				}
				messages = append(messages, e.Message)
			}
			if len(messages) != s.wantBatches {
				t.Errorf("%d batch events, want %d", len(messages), s.wantBatches)
			}
			var want []string
			for tried := callbacks.results; !s.dryRun && len(tried) > 0; tried = tried[min(kmsrecovery.DefaultEventBatch, len(tried)):] {
				want = append(want, kmsrecovery.BatchMessage(tried[:min(kmsrecovery.DefaultEventBatch, len(tried))]))
			}
			if diff := cmp.Diff(want, messages, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("batch events, against the batches of the results tried (-want +got):\n%s", diff)
			}
		})
	}
}
