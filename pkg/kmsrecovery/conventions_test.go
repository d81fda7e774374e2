package kmsrecovery_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
)

// writes are the actions of fake clientsets that change anything.
func writes(actions []clienttesting.Action) []string {
	var out []string
	for _, a := range actions {
		switch a.GetVerb() {
		case "get", "list", "watch":
		default:
			out = append(out, a.GetVerb()+" "+a.GetResource().Resource)
		}
	}
	return out
}

func (e *controllerEnv) setManagementState(t *testing.T, state operatorv1.ManagementState) {
	t.Helper()
	spec, _, rv, err := e.operator.GetOperatorState()
	if err != nil {
		t.Fatal(err)
	}
	spec = spec.DeepCopy()
	spec.ManagementState = state
	if _, _, err := e.operator.UpdateOperatorSpec(context.Background(), rv, spec); err != nil {
		t.Fatal(err)
	}
}

// TestNotManagedDeletesNothing: with a consent that would delete, an Unmanaged or Removed operator deletes nothing
// and writes no ConfigMap, and says so; Managed again, the same consent deletes.
func TestNotManagedDeletesNothing(t *testing.T) {
	const n = 30
	for _, state := range []operatorv1.ManagementState{operatorv1.Unmanaged, operatorv1.Removed} {
		t.Run(string(state), func(t *testing.T) {
			cluster := recoverytest.NewCluster()
			addSecrets(cluster, "app", "lost", n, lostKey, false)
			addSecrets(cluster, "app", "ok", 5, liveKey, true)
			env := newControllerEnv(t, cluster, lostKey)
			env.setManagementState(t, state)

			env.sync(t)
			if w := append(writes(cluster.Fake.Actions()), writes(env.kube.Actions())...); len(w) > 0 {
				t.Errorf("wrote or deleted while %s: %v", state, w)
			}
			if got := len(cluster.UnsafeDeleted()); got != 0 {
				t.Errorf("%d objects deleted while %s", got, state)
			}
			cond := env.condition(t)
			if cond == nil || cond.Status != operatorv1.ConditionTrue || cond.Reason != string(kmsrecovery.ReasonNotManaged) {
				t.Fatalf("condition %+v, want True %s", cond, kmsrecovery.ReasonNotManaged)
			}
			if !strings.Contains(cond.Message, "spec.managementState is "+string(state)) {
				t.Errorf("message does not say why nothing was deleted: %s", cond.Message)
			}

			env.setManagementState(t, operatorv1.Managed)
			env.sync(t)
			if got := len(cluster.UnsafeDeleted()); got != n {
				t.Errorf("Managed again: %d objects deleted, want %d", got, n)
			}
			if cond := env.condition(t); cond.Status != operatorv1.ConditionFalse {
				t.Errorf("Managed again: condition %s %s: %s", cond.Status, cond.Reason, cond.Message)
			}
		})
	}
}

// TestFailedSyncIsReported: a sync whose report cannot be written sets KMSRecoveryControllerDegraded with the
// error; the next sync retries at once, and its success clears it.
func TestFailedSyncIsReported(t *testing.T) {
	cluster := recoverytest.NewCluster()
	addSecrets(cluster, "app", "lost", 3, lostKey, false)
	env := newControllerEnv(t, cluster, "")
	var failWrites error
	env.kube.PrependReactor("*", "configmaps", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if failWrites != nil && a.GetVerb() != "get" {
			return true, nil, failWrites
		}
		return false, nil, nil
	})
	scenarios := []struct {
		name       string
		failWrites error
		wantStatus operatorv1.ConditionStatus
		wantReason string
	}{
		{name: "the ConfigMap cannot be written", failWrites: errors.New("etcdserver: request timed out"), wantStatus: operatorv1.ConditionTrue, wantReason: "Error"},
		{name: "it can again", wantStatus: operatorv1.ConditionFalse, wantReason: "AsExpected"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			failWrites = s.failWrites
			err := env.ctrl.Sync(context.Background(), factory.NewSyncContext("test", env.recorder))
			if (err != nil) != (s.failWrites != nil) {
				t.Fatalf("sync error %v, want %v", err, s.failWrites)
			}
			_, status, _, _ := env.operator.GetOperatorState()
			c := v1helpers.FindOperatorCondition(status.Conditions, kmsrecovery.ConditionControllerDegraded)
			if c == nil || c.Status != s.wantStatus || c.Reason != s.wantReason {
				t.Fatalf("%s = %+v, want %s %s", kmsrecovery.ConditionControllerDegraded, c, s.wantStatus, s.wantReason)
			}
			if s.failWrites != nil && !strings.Contains(c.Message, s.failWrites.Error()) {
				t.Errorf("message %q does not carry the error", c.Message)
			}
		})
	}
	if env.configMap(t) == nil {
		t.Errorf("the retried sync did not write the ConfigMap")
	}
}

func TestNewControllerValidates(t *testing.T) {
	valid := func() kmsrecovery.Options {
		return kmsrecovery.Options{
			OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
			Dynamic:        recoverytest.NewCluster().Dynamic,
			Resources:      []kmsrecovery.Resource{recoverytest.Secrets},
			ConfigMaps:     kubefake.NewClientset().CoreV1(),
			Namespace:      operatorNamespace,
			Recorder:       events.NewInMemoryRecorder("test", nil),
		}
	}
	scenarios := []struct {
		name   string
		clear  func(*kmsrecovery.Options)
		wantIn string
	}{
		{name: "OperatorClient", clear: func(o *kmsrecovery.Options) { o.OperatorClient = nil }, wantIn: "OperatorClient"},
		{name: "Dynamic", clear: func(o *kmsrecovery.Options) { o.Dynamic = nil }, wantIn: "Dynamic"},
		{name: "Resources", clear: func(o *kmsrecovery.Options) { o.Resources = nil }, wantIn: "Resources"},
		{name: "ConfigMaps", clear: func(o *kmsrecovery.Options) { o.ConfigMaps = nil }, wantIn: "ConfigMaps"},
		{name: "Namespace", clear: func(o *kmsrecovery.Options) { o.Namespace = "" }, wantIn: "Namespace"},
		{name: "Recorder", clear: func(o *kmsrecovery.Options) { o.Recorder = nil }, wantIn: "Recorder"},
		{name: "optional ones missing", clear: func(o *kmsrecovery.Options) { o.Raw, o.KMS, o.Clock = nil, nil, nil }},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			opts := valid()
			s.clear(&opts)
			c, err := kmsrecovery.NewController("kube-apiserver", opts)
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
