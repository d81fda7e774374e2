package kmsmigration

import (
	"context"
	"errors"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// newTestController is NewController for options a test knows to be complete. When the test ends, the reasons of
// the conditions it left are checked against the package's registry (ConditionReasons).
func newTestController(t testing.TB, options ControllerOptions) *Controller {
	t.Helper()
	c, err := NewController("test", options)
	if err != nil {
		t.Fatal(err)
	}
	conventionstest.ExpectRegisteredReasonsAtEnd(t, options.OperatorClient, ConditionReasons())
	return c
}

// TestControllerNotManagedStartsNoRotationMigration: while spec.managementState is not Managed, a completed KMS key
// rotation starts no migration (nothing is written to etcd) and the conditions are still published; Managed again,
// the next sync starts it.
func TestControllerNotManagedStartsNoRotationMigration(t *testing.T) {
	for _, state := range conventionstest.NotManagedStates() {
		t.Run(string(state), func(t *testing.T) {
			c := apiservertest.NewStaleSecrets(1, 20)
			m := newTestMigrator(t, testOptions(t, c))
			rotation := kmsstate.Rotation{KeyID: "2", From: "kek-a", To: "kek-b", Started: t0.Add(-2 * time.Hour), Completed: t0.Add(-time.Hour)}
			rotationTarget := Target{WriteKey: "2", KEKID: "kek-b"}
			operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{ManagementState: state}, &operatorv1.OperatorStatus{}, nil)
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
			controller := newTestController(t, ControllerOptions{
				Migrator: m, OperatorClient: operatorClient, Recorder: recorder,
				WriteKeys: func(context.Context) (map[schema.GroupResource]string, error) {
					return map[schema.GroupResource]string{secretsGR: "2"}, nil
				},
				Rotations: rotationsFunc(func(string) (kmsstate.Rotation, bool) { return rotation, true }),
			})
			sync := func() {
				t.Helper()
				if err := controller.sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
					t.Fatal(err)
				}
			}

			sync()
			if p := m.Progress(); len(p) != 0 {
				t.Errorf("a migration started while %s: %v", state, p)
			}
			for _, e := range recorder.Events() {
				if e.Reason == EventRotationMigration {
					t.Errorf("rotation migration announced while %s: %s", state, e.Message)
				}
			}
			if n := c.UpdateCount(); n != 0 {
				t.Errorf("%d updates sent while %s", n, state)
			}
			_, status, _, err := operatorClient.GetOperatorState()
			if err != nil {
				t.Fatal(err)
			}
			if cond := v1helpers.FindOperatorCondition(status.Conditions, ConditionProgressing); cond == nil {
				t.Errorf("no %s published while %s", ConditionProgressing, state)
			}

			conventionstest.SetManagementState(t, operatorClient, operatorv1.Managed)
			sync()
			if p := m.Progress(); len(p) != 1 || p[0].Target != rotationTarget {
				t.Fatalf("Managed again, progress %v, want the rotation migration to %s", p, rotationTarget)
			}
			if _, _, result := waitTarget(t, m, rotationTarget); result != nil {
				t.Errorf("rotation migration: %v", result)
			}
		})
	}
}

// TestControllerFailedSyncReported: a sync that cannot read the write keys sets KMSMigrationControllerDegraded
// with the error and leaves KMSMigrationDegraded as it was; the next good sync clears it.
func TestControllerFailedSyncReported(t *testing.T) {
	readErr := errors.New("secrets is forbidden")
	scenarios := []struct {
		name        string
		writeKeyErr []error
		// wantMessage is the last sync's failure; "" when it succeeds.
		wantMessage string
	}{
		{name: "success", writeKeyErr: []error{nil}},
		{name: "failure after success", writeKeyErr: []error{nil, readErr}, wantMessage: "reading the write keys: " + readErr.Error()},
		{name: "success after failure", writeKeyErr: []error{nil, readErr, nil}},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			m := newTestMigrator(t, testOptions(t, apiservertest.NewStaleSecrets(1, 1)))
			operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}, &operatorv1.OperatorStatus{}, nil)
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
			var writeKeyErr error
			controller := newTestController(t, ControllerOptions{
				Migrator: m, OperatorClient: operatorClient, Recorder: recorder,
				WriteKeys: func(context.Context) (map[schema.GroupResource]string, error) {
					return map[schema.GroupResource]string{}, writeKeyErr
				},
				Rotations: rotationsFunc(func(string) (kmsstate.Rotation, bool) { return kmsstate.Rotation{}, false }),
			})
			var err error
			for _, e := range s.writeKeyErr {
				writeKeyErr = e
				err = controller.sync(context.Background(), factory.NewSyncContext("test", recorder))
			}
			conventionstest.ExpectSyncReported(t, operatorClient, ConditionControllerDegraded, err, s.wantMessage)
			_, status, _, getErr := operatorClient.GetOperatorState()
			if getErr != nil {
				t.Fatal(getErr)
			}
			if degraded := v1helpers.FindOperatorCondition(status.Conditions, ConditionDegraded); degraded == nil || degraded.Status != operatorv1.ConditionFalse {
				t.Errorf("%s = %+v, want the last sync's False kept", ConditionDegraded, degraded)
			}
		})
	}
}

// TestNewControllerRequiredOptions: each missing required option is named, instead of a panic on first use.
func TestNewControllerRequiredOptions(t *testing.T) {
	operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))

	t.Run("Controller", func(t *testing.T) {
		complete := ControllerOptions{
			Migrator:       newTestMigrator(t, testOptions(t, apiservertest.NewStaleSecrets(1, 1))),
			OperatorClient: operatorClient,
			Recorder:       recorder,
		}
		scenarios := []conventionstest.MissingOptions[ControllerOptions]{
			{Name: "no Migrator", Clear: func(o *ControllerOptions) { o.Migrator = nil }, Missing: "Migrator"},
			{Name: "no OperatorClient", Clear: func(o *ControllerOptions) { o.OperatorClient = nil }, Missing: "OperatorClient"},
			{Name: "no Recorder", Clear: func(o *ControllerOptions) { o.Recorder = nil }, Missing: "Recorder"},
			{Name: "none", Clear: func(o *ControllerOptions) { *o = ControllerOptions{} }, Missing: "Migrator, OperatorClient, Recorder"},
		}
		newController := func(o ControllerOptions) (*Controller, error) { return NewController("test", o) }
		conventionstest.RequiredOptions(t, complete, newController, scenarios)
	})
}
