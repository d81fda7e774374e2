package kmsstate_test

import (
	"context"
	"fmt"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// Example shows how kube-apiserver-operator wires the kmsstate controller next to library-go's encryption
// controllers. The fakes stand in for what the operator's starter already has: its StaticPodOperatorClient,
// its operator clientset, the current encryption config and an event recorder.
func Example() {
	now := time.Now()
	// What the operator starter already has.
	operatorClient := v1helpers.NewFakeStaticPodOperatorClient(
		&operatorv1.StaticPodOperatorSpec{},
		&operatorv1.StaticPodOperatorStatus{NodeStatuses: []operatorv1.NodeStatus{{NodeName: "master-0"}, {NodeName: "master-1"}}},
		nil, nil)
	operatorClientset := operatorfake.NewClientset(&operatorv1.KubeAPIServer{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Status: operatorv1.KubeAPIServerStatus{EncryptionStatus: operatorv1.KMSEncryptionStatus{HealthReports: []operatorv1.KMSPluginHealthReport{
			{NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy, RemoteKeyID: "arn:kek-7", LastCheckedTime: metav1.NewTime(now)},
			{NodeName: "master-1", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusError, RemoteKeyID: "arn:kek-7", Detail: "connection refused", LastCheckedTime: metav1.NewTime(now)},
		}}},
	})
	currentEncryptionConfig := func(context.Context) (*apiserverv1.EncryptionConfiguration, error) {
		return &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{{
			Resources: []string{"secrets"},
			Providers: []apiserverv1.ProviderConfiguration{{KMS: &apiserverv1.KMSConfiguration{
				APIVersion: "v2", Name: "1_secrets", Endpoint: "unix:///var/run/kmsplugin/kms-1.sock"}}},
		}}}, nil
	}
	kubeClient := kubefake.NewClientset()
	recorder := events.NewInMemoryRecorder("kube-apiserver-operator", clock.RealClock{})

	// The wiring.
	controller, err := kmsstate.NewController("kube-apiserver", kmsstate.Options{
		OperatorClient: operatorClient,
		StatusProvider: encryptionstatus.NewKubeAPIServer(operatorClientset.OperatorV1().KubeAPIServers()),
		Nodes:          kmsstate.StaticPodNodes(operatorClient),
		Keys: kmsstate.KeyListerFunc(func(ctx context.Context) (kmsstate.Keys, error) {
			config, err := currentEncryptionConfig(ctx)
			if err != nil {
				return kmsstate.Keys{}, err
			}
			return encryptionconfig.KMSKeysOf(config), nil
		}),
		// APIServers: apiserverprobe.NewForConfig(...) adds each kube-apiserver's own view.
		Recorder: recorder,
		// Remote key_ids and rotations survive operator restarts, so that a rotation completed while no
		// operator ran is still reported (and migrated for by kmsmigration).
		Memory: kmsstate.ConfigMapMemory{Client: kubeClient.CoreV1(), Namespace: "openshift-kube-apiserver-operator", Name: kmsstate.DefaultConfigMapName},
		// Each evaluation is published beside the memory, where `kmsguard status` reads the operator's own
		// verdict instead of evaluating the reports again.
		Publisher: kmsstate.ConfigMapMemory{Client: kubeClient.CoreV1(), Namespace: "openshift-kube-apiserver-operator", Name: kmsstate.DefaultConfigMapName},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		controller.Run(ctx, 1)
	}()

	// Other packages read the result; kmsprecondition asks before a rollout.
	for {
		if _, ok := controller.State(); ok {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println(controller.Healthy([]string{"master-0"}, []string{"1"}))
	fmt.Println(controller.Healthy([]string{"master-0", "master-1"}, []string{"1"}))

	// The fake operator client is not safe for concurrent use: stop the controller before reading it.
	cancel()
	<-stopped
	_, status, _, _ := operatorClient.GetStaticPodOperatorState()
	degraded := v1helpers.FindOperatorCondition(status.Conditions, kmsstate.ConditionKMSPluginsDegraded)
	fmt.Println(degraded.Type, degraded.Status, degraded.Reason)
	// Output:
	// <nil>
	// KMS plugins not healthy: PluginUnreachable: node master-1 key 1: connection refused
	// KMSPluginsDegraded True PluginUnreachable
}
