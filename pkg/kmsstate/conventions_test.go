package kmsstate

import (
	"context"
	"errors"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/client-go/kubernetes/fake"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// newTestController is NewController for options a test knows to be complete. When the test ends, the reasons of
// the conditions it left are checked against the package's registry (ConditionReasons).
func newTestController(t testing.TB, opts Options) *Controller {
	t.Helper()
	c, err := NewController("test", opts)
	if err != nil {
		t.Fatal(err)
	}
	conventionstest.ExpectRegisteredReasonsAtEnd(t, opts.OperatorClient, ConditionReasons())
	return c
}

// TestNotManagedWritesNothing: while spec.managementState is not Managed, the controller still evaluates and sets
// its conditions, but removes no orphaned health report and writes neither its memory nor the published state.
// Managed again, the next sync does both.
func TestNotManagedWritesNothing(t *testing.T) {
	for _, state := range conventionstest.NotManagedStates() {
		t.Run(string(state), func(t *testing.T) {
			clock := clocktesting.NewFakeClock(t0)
			kube := fake.NewClientset()
			store := ConfigMapPublisher{Client: kube.CoreV1(), Namespace: "operator", Name: DefaultConfigMapName}
			resource := operatorstate.NewFakeResource()
			operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{ManagementState: state}, &operatorv1.OperatorStatus{}, nil)
			statusProvider := &fakeStatusProvider{reports: []operatorv1.KMSPluginHealthReport{
				healthy("master-0", "1", "a"),
				report("master-9", "1", operatorv1.KMSPluginHealthStatusHealthy, "a", time.Hour),
			}}
			recorder := events.NewInMemoryRecorder("test", clock)
			c := newTestController(t, Options{
				OperatorClient: operatorClient, StatusProvider: statusProvider, Nodes: staticNodes{"master-0"},
				Keys: staticKeys{IDs: []string{"1"}}, Recorder: recorder, Clock: clock, Memory: NewAnnotationMemory(resource), Publisher: store,
			})
			sync := func() {
				t.Helper()
				if err := c.sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
					t.Fatal(err)
				}
			}

			sync()
			if len(statusProvider.applies) != 0 {
				t.Errorf("removed orphaned reports while %s: %v", state, statusProvider.applies)
			}
			if w := conventionstest.Writes(kube.Actions()); len(w) != 0 || resource.Writes() != 0 {
				t.Errorf("wrote while %s: %v and %d memory writes", state, w, resource.Writes())
			}
			_, status, _, err := operatorClient.GetOperatorState()
			if err != nil {
				t.Fatal(err)
			}
			if cond := v1helpers.FindOperatorCondition(status.Conditions, ConditionKMSPluginsDegraded); cond == nil || cond.Status != operatorv1.ConditionFalse {
				t.Errorf("%s while %s: %+v, want it reported False", ConditionKMSPluginsDegraded, state, cond)
			}
			if _, ok := c.State(); !ok {
				t.Errorf("no state evaluated while %s", state)
			}

			conventionstest.SetManagementState(t, operatorClient, operatorv1.Managed)
			clock.Step(time.Second)
			sync()
			if _, ok := statusProvider.applies[encryptionstatus.ReporterFieldManager("master-9")]; !ok {
				t.Errorf("Managed again, the orphaned report of master-9 was not removed: %v", statusProvider.applies)
			}
			if resource.Writes() == 0 {
				t.Errorf("Managed again, the memory was not written")
			}
			if _, ok, err := store.ReadPublished(context.Background()); err != nil || !ok {
				t.Errorf("Managed again, no published state: %v %v", ok, err)
			}
		})
	}
}

// TestFailedSyncReported: a sync that cannot read its inputs sets KMSStateControllerDegraded with the error and
// leaves the KMS conditions of the last good sync; the next good sync clears it.
func TestFailedSyncReported(t *testing.T) {
	readErr := errors.New("etcdserver: request timed out")
	scenarios := []struct {
		name    string
		getErrs []error
		// wantMessage is the last sync's failure; "" when it succeeds.
		wantMessage string
	}{
		{name: "success", getErrs: []error{nil}},
		{name: "failure after success", getErrs: []error{nil, readErr}, wantMessage: "reading KMS health reports: " + readErr.Error()},
		{name: "success after failure", getErrs: []error{nil, readErr, nil}},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			clock := clocktesting.NewFakeClock(t0)
			operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}, &operatorv1.OperatorStatus{}, nil)
			statusProvider := &fakeStatusProvider{reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "a")}}
			recorder := events.NewInMemoryRecorder("test", clock)
			c := newTestController(t, Options{
				OperatorClient: operatorClient, StatusProvider: statusProvider, Nodes: staticNodes{"master-0"},
				Keys: staticKeys{IDs: []string{"1"}}, Recorder: recorder, Clock: clock,
			})
			var err error
			for _, getErr := range s.getErrs {
				statusProvider.getErr = getErr
				err = c.sync(context.Background(), factory.NewSyncContext("test", recorder))
			}
			conventionstest.ExpectSyncReported(t, operatorClient, ConditionControllerDegraded, err, s.wantMessage)
			_, status, _, getErr := operatorClient.GetOperatorState()
			if getErr != nil {
				t.Fatal(getErr)
			}
			if plugins := v1helpers.FindOperatorCondition(status.Conditions, ConditionKMSPluginsDegraded); plugins == nil || plugins.Status != operatorv1.ConditionFalse {
				t.Errorf("%s = %+v, want the last good sync's False kept", ConditionKMSPluginsDegraded, plugins)
			}
		})
	}
}

// TestNewControllerRequiredOptions: each missing required option is named, instead of a panic on first use.
func TestNewControllerRequiredOptions(t *testing.T) {
	complete := Options{
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		StatusProvider: &fakeStatusProvider{}, Nodes: staticNodes{"master-0"}, Keys: staticKeys{},
		Recorder: events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0)),
	}
	scenarios := []conventionstest.MissingOptions[Options]{
		{Name: "no OperatorClient", Clear: func(o *Options) { o.OperatorClient = nil }, Missing: "OperatorClient"},
		{Name: "no StatusProvider", Clear: func(o *Options) { o.StatusProvider = nil }, Missing: "StatusProvider"},
		{Name: "no Nodes", Clear: func(o *Options) { o.Nodes = nil }, Missing: "Nodes"},
		{Name: "no Keys", Clear: func(o *Options) { o.Keys = nil }, Missing: "Keys"},
		{Name: "no Recorder", Clear: func(o *Options) { o.Recorder = nil }, Missing: "Recorder"},
		{Name: "none", Clear: func(o *Options) { *o = Options{} }, Missing: "Keys, Nodes, OperatorClient, Recorder, StatusProvider"},
	}
	newController := func(o Options) (*Controller, error) { return NewController("test", o) }
	conventionstest.RequiredOptions(t, complete, newController, scenarios)
}
