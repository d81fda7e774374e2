package evidence_test

import (
	"context"
	"errors"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// newTestCensusController is NewCensusController for options a test knows to be complete.
func newTestCensusController(t testing.TB, instanceName string, options evidence.CensusControllerOptions) *evidence.CensusController {
	t.Helper()
	c, err := evidence.NewCensusController(instanceName, options)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCensusControllerFailedSyncReported: a scan that cannot read the write keys sets
// KMSEncryptionCensusControllerDegraded with the error; the next good sync clears it.
func TestCensusControllerFailedSyncReported(t *testing.T) {
	readErr := errors.New("plugin key_id not observed yet")
	scenarios := []struct {
		name       string
		targetErrs []error
		// wantMessage is the last sync's failure; "" when it succeeds.
		wantMessage string
	}{
		{name: "success", targetErrs: []error{nil}},
		{name: "failure", targetErrs: []error{readErr}, wantMessage: readErr.Error()},
		{name: "success after failure", targetErrs: []error{readErr, nil}},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kv := etcdtest.NewKV()
			operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
			var targetErr error
			c := newTestCensusController(t, "test", evidence.CensusControllerOptions{
				Census:         evidence.NewCensus(kv, evidence.CensusOptions{Counter: newStoreCounter(kv)}),
				Targets:        func(context.Context) ([]evidence.Target, error) { return nil, targetErr },
				OperatorClient: operatorClient,
				Recorder:       recorder,
			})
			var err error
			for _, e := range s.targetErrs {
				targetErr = e
				err = c.Sync(context.Background(), factory.NewSyncContext("test", recorder))
			}
			conventionstest.ExpectSyncReported(t, operatorClient, evidence.ConditionCensusControllerDegraded, err, s.wantMessage)
		})
	}
}

// TestNewCensusControllerRequiredOptions: each missing required option is named, instead of a panic on first use.
func TestNewCensusControllerRequiredOptions(t *testing.T) {
	operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	kv := etcdtest.NewKV()
	complete := evidence.CensusControllerOptions{
		Census:         evidence.NewCensus(kv, evidence.CensusOptions{Counter: newStoreCounter(kv)}),
		Targets:        func(context.Context) ([]evidence.Target, error) { return nil, nil },
		OperatorClient: operatorClient,
		Recorder:       recorder,
	}
	scenarios := []conventionstest.MissingOptions[evidence.CensusControllerOptions]{
		{Name: "no Census", Clear: func(o *evidence.CensusControllerOptions) { o.Census = nil }, Missing: "Census"},
		{Name: "no Targets", Clear: func(o *evidence.CensusControllerOptions) { o.Targets = nil }, Missing: "Targets"},
		{Name: "no OperatorClient", Clear: func(o *evidence.CensusControllerOptions) { o.OperatorClient = nil }, Missing: "OperatorClient"},
		{Name: "no Recorder", Clear: func(o *evidence.CensusControllerOptions) { o.Recorder = nil }, Missing: "Recorder"},
		{Name: "none", Clear: func(o *evidence.CensusControllerOptions) { *o = evidence.CensusControllerOptions{} }, Missing: "Census, OperatorClient, Recorder, Targets"},
	}
	newController := func(o evidence.CensusControllerOptions) (*evidence.CensusController, error) {
		return evidence.NewCensusController("test", o)
	}
	conventionstest.RequiredOptions(t, complete, newController, scenarios)
}
