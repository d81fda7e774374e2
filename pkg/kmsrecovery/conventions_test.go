package kmsrecovery_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// TestNotManagedDeletesNothing: with a consent that would delete, an Unmanaged or Removed operator deletes nothing
// and writes no ConfigMap, and says so; Managed again, the same consent deletes.
func TestNotManagedDeletesNothing(t *testing.T) {
	const n = 30
	for _, state := range conventionstest.NotManagedStates() {
		t.Run(string(state), func(t *testing.T) {
			cluster := recoverytest.NewCluster()
			addSecrets(cluster, "app", "lost", n, lostKey, false)
			addSecrets(cluster, "app", "ok", 5, liveKey, true)
			env := newControllerEnv(t, cluster, lostKey)
			conventionstest.SetManagementState(t, env.operator, state)

			env.sync(t)
			if w := append(conventionstest.Writes(cluster.Fake.Actions()), conventionstest.Writes(env.kube.Actions())...); len(w) > 0 {
				t.Errorf("wrote or deleted while %s: %v", state, w)
			}
			if got := len(cluster.UnsafeDeleted()); got != 0 {
				t.Errorf("%d objects deleted while %s", got, state)
			}
			cond := env.condition(t)
			if cond == nil || cond.Status != operatorv1.ConditionTrue || cond.Reason != string(kmsrecovery.ReasonNotManaged) {
				t.Fatalf("condition %+v, want True %s", cond, kmsrecovery.ReasonNotManaged)
			}
			// The refusal says why nothing was deleted (TestConditionRendering words it).
			want := &kmsrecovery.ConsentError{Why: kmsrecovery.ReasonNotManaged, Consent: lostKey, Found: []string{"kms:" + lostKey}, Count: n,
				Detail: "spec.managementState is " + string(state)}
			if diff := cmp.Diff(want, refusal(t, env.ctrl.LastVerdict())); diff != "" {
				t.Errorf("refusal (-want +got):\n%s", diff)
			}

			conventionstest.SetManagementState(t, env.operator, operatorv1.Managed)
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
	writeErr := errors.New("etcdserver: request timed out")
	scenarios := []struct {
		name       string
		failWrites error
		// wantMessage is the sync's failure; "" when it succeeds.
		wantMessage string
	}{
		{name: "the ConfigMap cannot be written", failWrites: writeErr,
			wantMessage: "writing configmap " + operatorNamespace + "/" + kmsrecovery.ConfigMapName + ": " + writeErr.Error()},
		{name: "it can again"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			failWrites = s.failWrites
			err := env.ctrl.Sync(context.Background(), factory.NewSyncContext("test", env.recorder))
			conventionstest.ExpectSyncReported(t, env.operator, kmsrecovery.ConditionControllerDegraded, err, s.wantMessage)
		})
	}
	if env.configMap(t) == nil {
		t.Errorf("the retried sync did not write the ConfigMap")
	}
}

// TestNewControllerValidates: each missing required option is named, instead of a panic on first use; the
// optional ones may be left out.
func TestNewControllerValidates(t *testing.T) {
	complete := kmsrecovery.Options{
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		Dynamic:        recoverytest.NewCluster().Dynamic,
		Resources:      []kmsrecovery.Resource{recoverytest.Secrets},
		ConfigMaps:     kubefake.NewClientset().CoreV1(),
		Namespace:      operatorNamespace,
		Record:         kmsrecovery.NewRecordStore(operatorstate.NewFakeResource()),
		Recorder:       events.NewInMemoryRecorder("test", nil),
	}
	scenarios := []conventionstest.MissingOptions[kmsrecovery.Options]{
		{Name: "OperatorClient", Clear: func(o *kmsrecovery.Options) { o.OperatorClient = nil }, Missing: "OperatorClient"},
		{Name: "Dynamic", Clear: func(o *kmsrecovery.Options) { o.Dynamic = nil }, Missing: "Dynamic"},
		{Name: "Record", Clear: func(o *kmsrecovery.Options) { o.Record = nil }, Missing: "Record"},
		{Name: "Resources", Clear: func(o *kmsrecovery.Options) { o.Resources = nil }, Missing: "Resources"},
		{Name: "ConfigMaps", Clear: func(o *kmsrecovery.Options) { o.ConfigMaps = nil }, Missing: "ConfigMaps"},
		{Name: "Namespace", Clear: func(o *kmsrecovery.Options) { o.Namespace = "" }, Missing: "Namespace"},
		{Name: "Recorder", Clear: func(o *kmsrecovery.Options) { o.Recorder = nil }, Missing: "Recorder"},
		{Name: "optional ones missing", Clear: func(o *kmsrecovery.Options) { o.Raw, o.KMS, o.Clock = nil, nil, nil }},
	}
	newController := func(o kmsrecovery.Options) (*kmsrecovery.Controller, error) {
		return kmsrecovery.NewController("kube-apiserver", o)
	}
	conventionstest.RequiredOptions(t, complete, newController, scenarios)
}
