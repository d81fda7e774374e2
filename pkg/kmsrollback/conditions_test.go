package kmsrollback

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// TestConditionRendering is the wording of KMSRollbackDegraded: each row renders the typed verdict and Hold the
// controller decided into the whole condition an admin reads. The controller tests assert the typed data.
func TestConditionRendering(t *testing.T) {
	const fix = "make the KMS plugins of keys [2] reachable and healthy on every control-plane node (see KMSPluginsDegraded), or change spec.encryption of apiserver.config.openshift.io/cluster"
	failed := &KMSRolloutFailedError{Revision: 5, LastGood: 4, Hash: "h5", LastGoodHash: "h4", Nodes: []string{"master-0"}, KeyIDs: []string{"2"},
		Failures: []kmsstate.Failure{{Reason: kmsstate.ReasonPluginUnreachable, Node: "master-0", KeyID: "2", Detail: "connection refused"}},
		Rollout:  []NodeFailure{{Node: "master-0", Revision: 5, LastGood: 4, Source: SourceStartupMonitor, Detail: "kube-apiserver not ready"}}}
	held := func(reverts int, change func(*Hold)) *Hold {
		h := &Hold{Hash: "h5", FailedRevision: 5, RevertedTo: 4, RevertedToHash: "h4", Nodes: []string{"master-0"}, KeyIDs: []string{"2"},
			Error: failuresString(failed.Failures), RevertedAt: t0, Reverts: reverts}
		if change != nil {
			change(h)
		}
		return h
	}
	released := t0.Add(10 * time.Minute)
	const reverted = "revision 5 (encryption config h5) failed on nodes [master-0] because its KMS keys [2] fail there: " +
		"PluginUnreachable: node master-0 key 2: connection refused. The encryption config was reverted to that of revision 4 (h4) at 2026-12-02T12:00:00Z"
	scenarios := []struct {
		name    string
		verdict Verdict
		latest  *Hold
		now     time.Time
		want    operatorv1.OperatorCondition
	}{
		{name: "nothing failed", now: t0,
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected)}},
		{name: "held inside the backoff: says when health may release it", verdict: failed, latest: held(1, nil), now: t0.Add(9 * time.Minute),
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(ReasonRevertedFailingKMSConfig), Message: reverted +
				" (revert 1 of this config). It stays held out until the encryption configuration changes, or the plugins of keys [2] are healthy on every node after 2026-12-02T12:10:00Z. To fix: " + fix}},
		{name: "held after the backoff of a second revert: no time left to name", latest: held(2, nil), now: t0.Add(25 * time.Minute),
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(ReasonRevertedFailingKMSConfig), Message: reverted +
				" (revert 2 of this config). It stays held out until the encryption configuration changes, or the plugins of keys [2] are healthy on every node. To fix: " + fix}},
		{name: "released: the revert is reported until the next config rolls out",
			latest: held(1, func(h *Hold) {
				h.Released, h.ReleaseReason = &released, "the admin changed the encryption configuration"
			}), now: released,
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(ReasonRevertedFailingKMSConfig), Message: reverted +
				" (revert 1 of this config). Released at 2026-12-02T12:10:00Z: the admin changed the encryption configuration; waiting for the next encryption config to roll out healthy"}},
		{name: "an outstanding revert wins over a newer verdict", verdict: &NotAttributedError{Revision: 6, Rollout: failed.Rollout, Why: "w"}, latest: held(1, nil), now: t0.Add(time.Hour),
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(ReasonRevertedFailingKMSConfig), Message: reverted +
				" (revert 1 of this config). It stays held out until the encryption configuration changes, or the plugins of keys [2] are healthy on every node. To fix: " + fix}},
		{name: "cleared by the next healthy revision",
			latest: held(1, func(h *Hold) { h.Released, h.ReleaseReason, h.Cleared, h.ClearedBy = &released, "r", &released, 7 }), now: released,
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected),
				Message: "revision 7 rolled out healthy after the revert of revision 5 (h5)"}},
		{name: "nothing to revert to", verdict: &CannotRevertError{Failed: failed, Why: "revision 4 ran without an encryption config"}, now: t0,
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionTrue, Reason: string(ReasonCannotRevertKMSConfig),
				Message: "cannot revert: revision 4 ran without an encryption config; revision 5 (h5) failed on nodes [master-0] while its KMS keys [2] fail there: " +
					"PluginUnreachable: node master-0 key 2: connection refused; rollout: node master-0 revision 5 (StartupMonitorFallback): kube-apiserver not ready; to fix: " + fix}},
		{name: "not KMS's", verdict: &NotAttributedError{Revision: 5, Rollout: failed.Rollout, Why: "it does not change the KMS providers of revision 4", cause: causeNoKMSChange}, now: t0,
			want: operatorv1.OperatorCondition{Status: operatorv1.ConditionFalse, Reason: string(ReasonFailureNotAttributedToKMS),
				Message: "revision 5 failed on nodes [master-0], not because of KMS: it does not change the KMS providers of revision 4"}},
	}
	c := &Controller{options: Options{Backoff: Backoff{Initial: 10 * time.Minute, Max: time.Hour}}}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			s.want.Type = ConditionDegraded
			got := c.condition(s.verdict, s.latest, s.now)
			if diff := cmp.Diff(s.want, got); diff != "" {
				t.Errorf("condition (-want +got):\n%s", diff)
			}
			conventionstest.ExpectRegisteredReasons(t, ConditionReasons(), got)
		})
	}

	// Not Managed, a failure that would be reverted says why it was not.
	for _, state := range []operatorv1.ManagementState{operatorv1.Unmanaged, operatorv1.Removed} {
		want := operatorv1.OperatorCondition{Type: ConditionDegraded, Status: operatorv1.ConditionTrue, Reason: string(ReasonNotReverted),
			Message: "revision 5 (h5) failed on nodes [master-0] while its KMS keys [2] fail there: PluginUnreachable: node master-0 key 2: connection refused; " +
				"rollout: node master-0 revision 5 (StartupMonitorFallback): kube-apiserver not ready; not reverted: spec.managementState is " + string(state) +
				", and nothing is written unless it is Managed; to fix: " + fix}
		if diff := cmp.Diff(want, c.unmanagedCondition(failed, nil, t0, state)); diff != "" {
			t.Errorf("%s: condition (-want +got):\n%s", state, diff)
		}
	}
}
