package kmsrollback

import (
	"context"
	"errors"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
)

// TestNotManagedWritesNothing: while spec.managementState is not Managed, a KMS-attributed failure is reported and
// not reverted, and a held revert overwritten by the state controller is not written again. Managed again, the
// controller acts as before.
func TestNotManagedWritesNothing(t *testing.T) {
	scenarios := []struct {
		name  string
		state operatorv1.ManagementState
		// heldFirst: a revert is made while Managed, then the state controller overwrites the target.
		heldFirst  bool
		wantReason Reason
	}{
		{name: "Unmanaged, new failure", state: operatorv1.Unmanaged, wantReason: ReasonNotReverted},
		{name: "Removed, new failure", state: operatorv1.Removed, wantReason: ReasonNotReverted},
		{name: "Unmanaged, held revert overwritten", state: operatorv1.Unmanaged, heldFirst: true, wantReason: ReasonRevertedFailingKMSConfig},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t, failedStatus(5, 4),
				newHealth([]string{"1", "2"}, healthy("master-0", "1"), healthy("master-1", "1"), unreachable("master-0", "2"), healthy("master-1", "2")),
				revisionSecret(t, 4, goodConfig), revisionSecret(t, 5, failedConfig))
			if s.heldFirst {
				f.sync()
				if len(f.holds()) != 1 {
					t.Fatalf("the Managed sync did not revert: holds %v", f.holds())
				}
				if err := ManagedEncryptionConfig(f.kube.CoreV1(), "kube-apiserver").Apply(context.Background(), configData(t, failedConfig), f.recorder); err != nil {
					t.Fatal(err)
				}
			}
			holdsBefore := len(f.holds())
			f.kube.ClearActions()
			conventionstest.SetStaticPodManagementState(t, f.operator, s.state)

			f.sync()
			if w := conventionstest.Writes(f.kube.Actions()); len(w) > 0 {
				t.Errorf("wrote while %s: %v", s.state, w)
			}
			if got := len(f.holds()); got != holdsBefore {
				t.Errorf("holds changed from %d to %d", holdsBefore, got)
			}
			if c := f.condition(); c.Status != operatorv1.ConditionTrue || c.Reason != string(s.wantReason) {
				t.Errorf("condition %s %s %q, want True %s", c.Status, c.Reason, c.Message, s.wantReason)
			}
			// The condition says why nothing was reverted (TestConditionRendering): the failure is the one a Managed
			// sync reverts.
			if failed, ok := f.verdict().(*KMSRolloutFailedError); s.wantReason == ReasonNotReverted && (!ok || failed.Revision != 5 || failed.LastGood != 4) {
				t.Errorf("verdict %v, want the revert of revision 5 to 4 that was not made", f.verdict())
			}

			conventionstest.SetStaticPodManagementState(t, f.operator, operatorv1.Managed)
			f.sync()
			if f.targetWrites() == 0 {
				t.Errorf("Managed again, the controller did not write the reverted config")
			}
			if c := f.condition(); c.Reason != string(ReasonRevertedFailingKMSConfig) {
				t.Errorf("Managed again: condition %s %s, want RevertedFailingKMSConfig", c.Status, c.Reason)
			}
		})
	}
}

// TestFailedSyncIsReported: a sync that cannot read its inputs sets KMSRollbackControllerDegraded with the error,
// and the next successful sync clears it.
func TestFailedSyncIsReported(t *testing.T) {
	f := newFixture(t, convergedStatus(4), newHealth([]string{"1"}, healthy("master-0", "1"), healthy("master-1", "1")),
		revisionSecret(t, 4, goodConfig))
	rolloutErr := errors.New("pods: connection refused")
	scenarios := []struct {
		name       string
		rolloutErr error
		// wantMessage is the sync's failure; "" when it succeeds.
		wantMessage string
	}{
		{name: "rollout unreadable", rolloutErr: rolloutErr, wantMessage: rolloutErr.Error()},
		{name: "readable again"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			f.rolloutErr = s.rolloutErr
			err := f.controller.sync(context.Background(), factory.NewSyncContext("test", f.recorder))
			conventionstest.ExpectSyncReported(t, f.operator, ConditionControllerDegraded, err, s.wantMessage)
		})
	}
}

// TestNewControllerValidates: each missing required option is named, instead of a panic on first use; the
// optional ones may be left out.
func TestNewControllerValidates(t *testing.T) {
	f := newFixture(t, convergedStatus(4), newHealth(nil), []runtime.Object{}...)
	scenarios := []conventionstest.MissingOptions[Options]{
		{Name: "Rollout", Clear: func(o *Options) { o.Rollout = nil }, Missing: "Rollout"},
		{Name: "Configs", Clear: func(o *Options) { o.Configs = nil }, Missing: "Configs"},
		{Name: "Target", Clear: func(o *Options) { o.Target = nil }, Missing: "Target"},
		{Name: "Health", Clear: func(o *Options) { o.Health = nil }, Missing: "Health"},
		{Name: "Store", Clear: func(o *Options) { o.Store = nil }, Missing: "Store"},
		{Name: "OperatorClient", Clear: func(o *Options) { o.OperatorClient = nil }, Missing: "OperatorClient"},
		{Name: "Recorder", Clear: func(o *Options) { o.Recorder = nil }, Missing: "Recorder"},
		{Name: "two missing", Clear: func(o *Options) { o.Store, o.Health = nil, nil }, Missing: "Health, Store"},
		{Name: "optional ones missing", Clear: func(o *Options) { o.Preflight, o.AdminConfig, o.Clock = nil, nil, nil }},
	}
	newController := func(o Options) (*Controller, error) { return NewController("kube-apiserver", o) }
	conventionstest.RequiredOptions(t, f.options(), newController, scenarios)
}
