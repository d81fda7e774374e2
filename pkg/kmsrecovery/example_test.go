package kmsrecovery_test

import (
	"context"
	"fmt"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	discoveryfake "k8s.io/client-go/discovery/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// Example shows how kube-apiserver-operator wires the recovery controller. The fakes stand in for what the
// operator's starter has: its operator client, a discovery and a dynamic client (the operator's service account
// bound to bindata.RecoveryClusterRole), an etcd client built from the etcd-client secret (see `kmsguard
// verify`), the kube client for its own namespace, an event recorder and its kmsstate controller. Here two
// Secrets were written under KMS key "7"; the KMS rotated to key "8" and then lost "7".
func Example() {
	ctx := context.Background()
	cluster := recoverytest.NewCluster()
	cluster.Add(recoverytest.Secrets, "openshift-ingress", "router-certs", "7", false)
	cluster.Add(recoverytest.Secrets, "team-a", "db-password", "7", false)
	discovery := &discoveryfake.FakeDiscovery{Fake: &clienttesting.Fake{Resources: []*metav1.APIResourceList{{
		GroupVersion: "v1", APIResources: []metav1.APIResource{{Name: "secrets", Namespaced: true}, {Name: "configmaps", Namespaced: true}},
	}}}}
	operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}, &operatorv1.OperatorStatus{}, nil)
	kubeClient := kubefake.NewClientset()
	recorder := events.NewInMemoryRecorder("kube-apiserver-operator", clock.RealClock{})
	// The operator passes kmsrecovery.KMSStateView(kmsStateController); here, kmsstate's evaluation of the one
	// report its node's plugin writes: healthy, serving key "8".
	kmsState, _ := kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{
		Now: time.Now(), Nodes: []string{"master-0"}, KeyIDs: []string{"1"},
		Reports: []operatorv1.KMSPluginHealthReport{{NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy,
			RemoteKeyID: "8", LastCheckedTime: metav1.Now()}},
	})
	kmsView := kmsrecovery.KMSViewFunc(func(context.Context) (kmsrecovery.KMSSnapshot, error) {
		return kmsrecovery.SnapshotFromKMSState(kmsState), nil
	})

	// The wiring: the resources the operator encrypts, as the server serves them.
	resources, skipped, err := kmsrecovery.Resolve(discovery, kmsrecovery.DefaultResources)
	if err != nil {
		panic(err)
	}
	fmt.Println("skipped:", len(skipped))
	controller, err := kmsrecovery.NewController("kube-apiserver", kmsrecovery.Options{
		OperatorClient: operatorClient,
		Dynamic:        cluster.Dynamic,
		Resources:      resources,
		Raw:            cluster.Raw(), // kmsrecovery.EtcdValues(etcdClient)
		KMS:            kmsView,
		ConfigMaps:     kubeClient.CoreV1(),
		Namespace:      "openshift-kube-apiserver-operator",
		Recorder:       recorder,
	})
	if err != nil {
		panic(err)
	}
	// The operator runs it with the others: go controller.Run(ctx, 1). Here, one sync at a time.
	sync := func() {
		if err := controller.Sync(ctx, factory.NewSyncContext("example", recorder)); err != nil {
			panic(err)
		}
		_, status, _, _ := operatorClient.GetOperatorState()
		c := v1helpers.FindOperatorCondition(status.Conditions, kmsrecovery.ConditionDegraded)
		fmt.Println(c.Type, c.Status, c.Reason)
	}
	sync()

	// The admin reads the condition (it names kms:7, provider "kms", KEK id 7), cannot restore key 7, and
	// consents.
	_, _, rv, _ := operatorClient.GetOperatorState()
	spec := &operatorv1.OperatorSpec{ManagementState: operatorv1.Managed,
		UnsupportedConfigOverrides: runtime.RawExtension{Raw: []byte(`{"kmsguard":{"confirmDataLoss":"kms:7"}}`)}}
	if _, _, err := operatorClient.UpdateOperatorSpec(ctx, rv, spec); err != nil {
		panic(err)
	}
	sync()
	fmt.Println("unsafe deletes:", cluster.UnsafeDeleted())
	// Output:
	// skipped: 3
	// KMSRecoveryDegraded True UndecryptableObjects
	// KMSRecoveryDegraded False AsExpected
	// unsafe deletes: [/registry/secrets/openshift-ingress/router-certs /registry/secrets/team-a/db-password]
}
