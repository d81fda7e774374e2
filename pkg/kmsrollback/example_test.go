package kmsrollback_test

import (
	"context"
	"fmt"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/encryption"
	encryptioncontrollers "github.com/openshift/library-go/pkg/operator/encryption/controllers"
	"github.com/openshift/library-go/pkg/operator/encryption/controllers/migrators"
	"github.com/openshift/library-go/pkg/operator/encryption/deployer"
	kmspreflight "github.com/openshift/library-go/pkg/operator/encryption/kms/preflight"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

const (
	revision4 = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: 1_secrets, endpoint: "unix:///var/run/kmsplugin/kms-1.sock", timeout: 10s}
  - identity: {}
`
	revision5 = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: 1_secrets, endpoint: "unix:///var/run/kmsplugin/kms-1.sock", timeout: 10s}
  - kms: {apiVersion: v2, name: 2_secrets, endpoint: "unix:///var/run/kmsplugin/kms-2.sock", timeout: 10s}
  - identity: {}
`
)

type provider struct{}

func (provider) EncryptedGRs() []schema.GroupResource {
	return []schema.GroupResource{{Resource: "secrets"}}
}
func (provider) ShouldRunEncryptionControllers() (bool, error) { return true, nil }

// Example shows kube-apiserver-operator's wiring: the HoldingDeployer goes between library-go's revisioned pod
// deployer and its encryption controllers, and the rollback controller runs beside them, fed by kmsstate. The
// fakes stand in for what the operator's starter has; the cluster has just failed revision 5, which added KMS key
// 2 as a read key, on master-0, whose plugin for key 2 is unreachable.
func Example() {
	const operandNamespace, operatorNamespace = "openshift-kube-apiserver", "openshift-kube-apiserver-operator"
	secret := func(name, config string) runtime.Object {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: operandNamespace, Name: name}, Data: map[string][]byte{"encryption-config": []byte(config)}}
	}
	kubeClient := kubefake.NewClientset(secret("encryption-config-4", revision4), secret("encryption-config-5", revision5))
	kubeInformers := v1helpers.NewKubeInformersForNamespaces(kubeClient, operandNamespace, operatorNamespace, "openshift-config-managed")
	configClient := configfake.NewClientset()
	configInformers := configinformers.NewSharedInformerFactory(configClient, 0)
	_ = configInformers.Config().V1().APIServers().Informer().GetIndexer().Add(&configv1.APIServer{ObjectMeta: metav1.ObjectMeta{Name: "cluster"}})
	operatorClient := v1helpers.NewFakeStaticPodOperatorClient(
		&operatorv1.StaticPodOperatorSpec{OperatorSpec: operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}},
		&operatorv1.StaticPodOperatorStatus{
			OperatorStatus: operatorv1.OperatorStatus{LatestAvailableRevision: 5},
			NodeStatuses: []operatorv1.NodeStatus{
				{NodeName: "master-0", CurrentRevision: 4, TargetRevision: 5, LastFailedRevision: 5, LastFailedReason: "OperandFailedFallback", LastFallbackCount: 1},
				{NodeName: "master-1", CurrentRevision: 4},
			},
		}, nil, nil)
	recorder := events.NewInMemoryRecorder("kube-apiserver-operator", clock.RealClock{})

	// The wiring: one store, read by the deployer wrapper and written by the controller.
	store := kmsrollback.NewHoldStore(kubeClient.CoreV1(), operatorNamespace, "kmsguard-rollback")
	podDeployer, _ := deployer.NewRevisionLabelPodDeployer("revision", operandNamespace, kubeInformers, kubeClient.CoreV1(), kubeClient.CoreV1(),
		deployer.StaticPodNodeProvider{OperatorClient: operatorClient})
	holdingDeployer := kmsrollback.NewHoldingDeployer(podDeployer, store, kubeInformers.InformersFor(operatorNamespace).Core().V1().ConfigMaps().Informer())
	_, err := encryption.NewControllers(operandNamespace, nil, provider{}, holdingDeployer,
		migrators.NewInProcessMigrator(dynamicfake.NewSimpleDynamicClient(runtime.NewScheme()), kubeClient.Discovery()),
		operatorClient, configClient.ConfigV1().APIServers(), configInformers.Config().V1().APIServers(), kubeInformers,
		kubeClient.CoreV1(), kubeClient.CoreV1(), recorder, nil,
		encryptionstatus.NewKubeAPIServer(operatorfake.NewClientset().OperatorV1().KubeAPIServers()),
		kmspreflight.NewAlwaysSucceedKMSPreflightDeployer(), encryptioncontrollers.NoopEncryptionConfigurationComputer{})
	fmt.Println("encryption controllers built:", err)

	// kmsstate's verdict; in the operator this is the *kmsstate.Controller, whose KeyLister adds
	// store.HeldKeyIDs to the keys of the current config.
	now := time.Now()
	state, _ := kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{Now: now, Nodes: []string{"master-0", "master-1"}, KeyIDs: []string{"1", "2"},
		Reports: []operatorv1.KMSPluginHealthReport{{NodeName: "master-0", KeyID: "2", Status: operatorv1.KMSPluginHealthStatusError, Detail: "connection refused", LastCheckedTime: metav1.NewTime(now)}}})

	rollback, err := kmsrollback.NewController("kube-apiserver", kmsrollback.Options{
		Rollout: kmsrollback.StaticPodRollout(operatorClient, kubeInformers.InformersFor(operandNamespace).Core().V1().Pods().Lister().Pods(operandNamespace),
			labels.SelectorFromSet(labels.Set{"apiserver": "true"}), 0, nil),
		Configs: revisions.Secrets(kubeClient.CoreV1(), operandNamespace, operatorClient),
		// library-go's encryption component is the operand namespace.
		Target:         kmsrollback.ManagedEncryptionConfig(kubeClient.CoreV1(), operandNamespace),
		Health:         &state,
		AdminConfig:    kmsrollback.APIServerEncryption(configInformers.Config().V1().APIServers().Lister()),
		Store:          store,
		OperatorClient: operatorClient,
		Recorder:       recorder,
		Informers:      []factory.Informer{kubeInformers.InformersFor(operandNamespace).Core().V1().Pods().Informer()},
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	// What the next sync does.
	if err := rollback.Sync(context.Background(), factory.NewSyncContext("example", recorder)); err != nil {
		fmt.Println(err)
		return
	}
	_, status, _, _ := operatorClient.GetOperatorState()
	cond := v1helpers.FindOperatorCondition(status.Conditions, kmsrollback.ConditionDegraded)
	fmt.Println(cond.Type, cond.Status, cond.Reason)
	desired, _ := kubeClient.CoreV1().Secrets("openshift-config-managed").Get(context.Background(), "encryption-config-"+operandNamespace, metav1.GetOptions{})
	fmt.Println("desired encryption config is revision 4's:", string(desired.Data["encryption-config"]) == revision4)
	holds, _, _ := store.Load(context.Background())
	fmt.Printf("held: revision %d, keys %v\n", holds.Active().FailedRevision, holds.Active().KeyIDs)
	// Output:
	// encryption controllers built: <nil>
	// KMSRollbackDegraded True RevertedFailingKMSConfig
	// desired encryption config is revision 4's: true
	// held: revision 5, keys [2]
}
