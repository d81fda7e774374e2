package kmsmigration

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// newTestController is NewController for options a test knows to be complete.
func newTestController(t testing.TB, options ControllerOptions) *Controller {
	t.Helper()
	c, err := NewController("test", options)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newTestVerificationController is NewVerificationController for options a test knows to be complete.
func newTestVerificationController(t testing.TB, instanceName string, options VerificationOptions) *VerificationController {
	t.Helper()
	c, err := NewVerificationController(instanceName, options)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func setManagementState(t *testing.T, client v1helpers.OperatorClient, state operatorv1.ManagementState) {
	t.Helper()
	spec, _, rv, err := client.GetOperatorState()
	if err != nil {
		t.Fatal(err)
	}
	spec = spec.DeepCopy()
	spec.ManagementState = state
	if _, _, err := client.UpdateOperatorSpec(context.Background(), rv, spec); err != nil {
		t.Fatal(err)
	}
}

// TestControllerNotManagedStartsNoRotationMigration: while spec.managementState is not Managed, a completed KMS key
// rotation starts no migration (nothing is written to etcd) and the conditions are still published; Managed again,
// the next sync starts it.
func TestControllerNotManagedStartsNoRotationMigration(t *testing.T) {
	scenarios := []struct {
		name  string
		state operatorv1.ManagementState
	}{
		{name: "Unmanaged", state: operatorv1.Unmanaged},
		{name: "Removed", state: operatorv1.Removed},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			c := apiservertest.NewStaleSecrets(1, 20)
			m := newTestMigrator(t, testOptions(t, c))
			rotation := kmsstate.Rotation{KeyID: "2", From: "kek-a", To: "kek-b", Started: t0.Add(-2 * time.Hour), Completed: t0.Add(-time.Hour)}
			rotationTarget := Target{WriteKey: "2", KEKID: "kek-b"}
			operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{ManagementState: s.state}, &operatorv1.OperatorStatus{}, nil)
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
				t.Errorf("a migration started while %s: %v", s.state, p)
			}
			for _, e := range recorder.Events() {
				if e.Reason == EventRotationMigration {
					t.Errorf("rotation migration announced while %s: %s", s.state, e.Message)
				}
			}
			if n := c.UpdateCount(); n != 0 {
				t.Errorf("%d updates sent while %s", n, s.state)
			}
			_, status, _, err := operatorClient.GetOperatorState()
			if err != nil {
				t.Fatal(err)
			}
			if cond := v1helpers.FindOperatorCondition(status.Conditions, ConditionProgressing); cond == nil {
				t.Errorf("no %s published while %s", ConditionProgressing, s.state)
			}

			setManagementState(t, operatorClient, operatorv1.Managed)
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
		wantStatus  operatorv1.ConditionStatus
		wantMessage string
	}{
		{name: "success", writeKeyErr: []error{nil}, wantStatus: operatorv1.ConditionFalse},
		{name: "failure after success", writeKeyErr: []error{nil, readErr}, wantStatus: operatorv1.ConditionTrue, wantMessage: "reading the write keys: " + readErr.Error()},
		{name: "success after failure", writeKeyErr: []error{nil, readErr, nil}, wantStatus: operatorv1.ConditionFalse},
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
			if (err != nil) != (s.wantStatus == operatorv1.ConditionTrue) {
				t.Errorf("sync error %v, want one: %v", err, s.wantStatus == operatorv1.ConditionTrue)
			}
			_, status, _, getErr := operatorClient.GetOperatorState()
			if getErr != nil {
				t.Fatal(getErr)
			}
			cond := v1helpers.FindOperatorCondition(status.Conditions, ConditionControllerDegraded)
			if cond == nil || cond.Status != s.wantStatus || cond.Message != s.wantMessage {
				t.Errorf("%s = %+v, want %s %q", ConditionControllerDegraded, cond, s.wantStatus, s.wantMessage)
			}
			if degraded := v1helpers.FindOperatorCondition(status.Conditions, ConditionDegraded); degraded == nil || degraded.Status != operatorv1.ConditionFalse {
				t.Errorf("%s = %+v, want the last sync's False kept", ConditionDegraded, degraded)
			}
		})
	}
}

// TestVerificationControllerFailedSyncReported: a scan that cannot read the write keys sets
// KMSEncryptionVerificationControllerDegraded with the error; the next good sync clears it.
func TestVerificationControllerFailedSyncReported(t *testing.T) {
	readErr := errors.New("plugin key_id not observed yet")
	scenarios := []struct {
		name        string
		targetErrs  []error
		wantStatus  operatorv1.ConditionStatus
		wantMessage string
	}{
		{name: "success", targetErrs: []error{nil}, wantStatus: operatorv1.ConditionFalse},
		{name: "failure", targetErrs: []error{readErr}, wantStatus: operatorv1.ConditionTrue, wantMessage: readErr.Error()},
		{name: "success after failure", targetErrs: []error{readErr, nil}, wantStatus: operatorv1.ConditionFalse},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kv := etcdtest.NewKV()
			operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
			var targetErr error
			c := newTestVerificationController(t, "test", VerificationOptions{
				Verifier:       evidence.NewVerifier(kv, evidence.Options{Counter: storeCounter{kv}}),
				Targets:        func(context.Context) ([]VerifyTarget, error) { return nil, targetErr },
				OperatorClient: operatorClient,
				Recorder:       recorder,
			})
			var err error
			for _, e := range s.targetErrs {
				targetErr = e
				err = c.sync(context.Background(), factory.NewSyncContext("test", recorder))
			}
			if (err != nil) != (s.wantStatus == operatorv1.ConditionTrue) {
				t.Errorf("sync error %v, want one: %v", err, s.wantStatus == operatorv1.ConditionTrue)
			}
			_, status, _, getErr := operatorClient.GetOperatorState()
			if getErr != nil {
				t.Fatal(getErr)
			}
			cond := v1helpers.FindOperatorCondition(status.Conditions, ConditionVerificationControllerDegraded)
			if cond == nil || cond.Status != s.wantStatus || cond.Message != s.wantMessage {
				t.Errorf("%s = %+v, want %s %q", ConditionVerificationControllerDegraded, cond, s.wantStatus, s.wantMessage)
			}
		})
	}
}

// TestNewControllersRequiredOptions: each missing required option is named, instead of a panic on first use.
func TestNewControllersRequiredOptions(t *testing.T) {
	m := newTestMigrator(t, testOptions(t, apiservertest.NewStaleSecrets(1, 1)))
	operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	kv := etcdtest.NewKV()
	verifier := evidence.NewVerifier(kv, evidence.Options{Counter: storeCounter{kv}})
	targets := func(context.Context) ([]VerifyTarget, error) { return nil, nil }
	scenarios := []struct {
		name    string
		build   func() (any, error)
		wantErr string
	}{
		{name: "controller complete", build: func() (any, error) {
			return NewController("test", ControllerOptions{Migrator: m, OperatorClient: operatorClient, Recorder: recorder})
		}},
		{name: "controller without Migrator", wantErr: "Migrator", build: func() (any, error) {
			return NewController("test", ControllerOptions{OperatorClient: operatorClient, Recorder: recorder})
		}},
		{name: "controller without OperatorClient", wantErr: "OperatorClient", build: func() (any, error) {
			return NewController("test", ControllerOptions{Migrator: m, Recorder: recorder})
		}},
		{name: "controller without Recorder", wantErr: "Recorder", build: func() (any, error) {
			return NewController("test", ControllerOptions{Migrator: m, OperatorClient: operatorClient})
		}},
		{name: "controller without any", wantErr: "Migrator, OperatorClient, Recorder", build: func() (any, error) {
			return NewController("test", ControllerOptions{})
		}},
		{name: "verification complete", build: func() (any, error) {
			return NewVerificationController("test", VerificationOptions{Verifier: verifier, Targets: targets, OperatorClient: operatorClient, Recorder: recorder})
		}},
		{name: "verification without Verifier", wantErr: "Verifier", build: func() (any, error) {
			return NewVerificationController("test", VerificationOptions{Targets: targets, OperatorClient: operatorClient, Recorder: recorder})
		}},
		{name: "verification without Targets", wantErr: "Targets", build: func() (any, error) {
			return NewVerificationController("test", VerificationOptions{Verifier: verifier, OperatorClient: operatorClient, Recorder: recorder})
		}},
		{name: "verification without OperatorClient", wantErr: "OperatorClient", build: func() (any, error) {
			return NewVerificationController("test", VerificationOptions{Verifier: verifier, Targets: targets, Recorder: recorder})
		}},
		{name: "verification without Recorder", wantErr: "Recorder", build: func() (any, error) {
			return NewVerificationController("test", VerificationOptions{Verifier: verifier, Targets: targets, OperatorClient: operatorClient})
		}},
		{name: "verification without any", wantErr: "OperatorClient, Recorder, Targets, Verifier", build: func() (any, error) {
			return NewVerificationController("test", VerificationOptions{})
		}},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			_, err := s.build()
			switch {
			case s.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case s.wantErr != "" && (err == nil || !strings.HasSuffix(err.Error(), "options: "+s.wantErr)):
				t.Errorf("error %v, want one naming exactly %s", err, s.wantErr)
			}
		})
	}
}
