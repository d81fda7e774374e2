package kmsrollback

import (
	"context"
	"errors"
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/runtime"
)

// writes are the fake clientset's actions that change anything.
func (f *fixture) writes() []string {
	var out []string
	for _, a := range f.kube.Actions() {
		switch a.GetVerb() {
		case "get", "list", "watch":
		default:
			out = append(out, a.GetVerb()+" "+a.GetResource().Resource+" "+a.GetNamespace())
		}
	}
	return out
}

func (f *fixture) setManagementState(state operatorv1.ManagementState) {
	f.t.Helper()
	spec, _, rv, err := f.operator.GetStaticPodOperatorState()
	if err != nil {
		f.t.Fatal(err)
	}
	spec = spec.DeepCopy()
	spec.ManagementState = state
	if _, _, err := f.operator.UpdateStaticPodOperatorSpec(context.Background(), rv, spec); err != nil {
		f.t.Fatal(err)
	}
}

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
			f.setManagementState(s.state)

			f.sync()
			if w := f.writes(); len(w) > 0 {
				t.Errorf("wrote while %s: %v", s.state, w)
			}
			if got := len(f.holds()); got != holdsBefore {
				t.Errorf("holds changed from %d to %d", holdsBefore, got)
			}
			if c := f.condition(); c.Status != operatorv1.ConditionTrue || c.Reason != string(s.wantReason) {
				t.Errorf("condition %s %s %q, want True %s", c.Status, c.Reason, c.Message, s.wantReason)
			}
			if s.wantReason == ReasonNotReverted && !strings.Contains(f.condition().Message, "spec.managementState is "+string(s.state)) {
				t.Errorf("message does not say why nothing was reverted: %q", f.condition().Message)
			}

			f.setManagementState(operatorv1.Managed)
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
	scenarios := []struct {
		name       string
		rolloutErr error
		wantStatus operatorv1.ConditionStatus
		wantReason string
	}{
		{name: "rollout unreadable", rolloutErr: errors.New("pods: connection refused"), wantStatus: operatorv1.ConditionTrue, wantReason: "Error"},
		{name: "readable again", wantStatus: operatorv1.ConditionFalse, wantReason: "AsExpected"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			f.rolloutErr = s.rolloutErr
			err := f.controller.sync(context.Background(), factory.NewSyncContext("test", f.recorder))
			if (err != nil) != (s.rolloutErr != nil) {
				t.Fatalf("sync error %v, want %v", err, s.rolloutErr)
			}
			_, status, _, _ := f.operator.GetOperatorState()
			c := v1helpers.FindOperatorCondition(status.Conditions, ConditionControllerDegraded)
			if c == nil || c.Status != s.wantStatus || c.Reason != s.wantReason {
				t.Fatalf("%s = %+v, want %s %s", ConditionControllerDegraded, c, s.wantStatus, s.wantReason)
			}
			if s.rolloutErr != nil && !strings.Contains(c.Message, s.rolloutErr.Error()) {
				t.Errorf("message %q does not carry the error", c.Message)
			}
		})
	}
}

func TestNewControllerValidates(t *testing.T) {
	scenarios := []struct {
		name   string
		clear  func(*Options)
		wantIn string
	}{
		{name: "Rollout", clear: func(o *Options) { o.Rollout = nil }, wantIn: "Rollout"},
		{name: "Configs", clear: func(o *Options) { o.Configs = nil }, wantIn: "Configs"},
		{name: "Target", clear: func(o *Options) { o.Target = nil }, wantIn: "Target"},
		{name: "Health", clear: func(o *Options) { o.Health = nil }, wantIn: "Health"},
		{name: "Store", clear: func(o *Options) { o.Store = nil }, wantIn: "Store"},
		{name: "OperatorClient", clear: func(o *Options) { o.OperatorClient = nil }, wantIn: "OperatorClient"},
		{name: "Recorder", clear: func(o *Options) { o.Recorder = nil }, wantIn: "Recorder"},
		{name: "two missing", clear: func(o *Options) { o.Store, o.Health = nil, nil }, wantIn: "Health, Store"},
		{name: "optional ones missing", clear: func(o *Options) { o.Preflight, o.AdminConfig, o.Clock = nil, nil, nil }},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t, convergedStatus(4), newHealth(nil), []runtime.Object{}...)
			opts := f.options()
			s.clear(&opts)
			c, err := NewController("kube-apiserver", opts)
			switch {
			case s.wantIn == "" && (err != nil || c == nil):
				t.Fatalf("NewController: %v", err)
			case s.wantIn != "" && (err == nil || !strings.Contains(err.Error(), s.wantIn)):
				t.Fatalf("NewController error %v, want one naming %s", err, s.wantIn)
			case s.wantIn != "" && c != nil:
				t.Fatalf("NewController returned a controller with an error")
			}
		})
	}
}
