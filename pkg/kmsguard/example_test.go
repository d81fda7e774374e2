package kmsguard_test

import (
	"context"
	"fmt"
	"net/http"

	operatorv1 "github.com/openshift/api/operator/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	"github.com/openshift/library-go/pkg/operator/encryption"
	"github.com/openshift/library-go/pkg/operator/encryption/controllers/migrators"
	"github.com/openshift/library-go/pkg/operator/encryption/deployer"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/resourcesynccontroller"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/kmsguard"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/kmsstate/apiserverprobe"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// Example wires kmsguard into kube-apiserver-operator's starter: the clients and informers below are fakes standing
// in for what the starter has when it builds library-go's encryption and static-pod controllers.
func Example() {
	const operandNamespace, operatorNamespace = "openshift-kube-apiserver", "openshift-kube-apiserver-operator"
	encrypted := []schema.GroupResource{{Resource: "secrets"}, {Resource: "configmaps"}}
	kubeClient := kubefake.NewClientset()
	kubeInformers := v1helpers.NewKubeInformersForNamespaces(kubeClient, operandNamespace, operatorNamespace, "openshift-config-managed")
	configClient := configfake.NewClientset()
	configInformers := configinformers.NewSharedInformerFactory(configClient, 0)
	operatorClient := v1helpers.NewFakeStaticPodOperatorClient(
		&operatorv1.StaticPodOperatorSpec{OperatorSpec: operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}},
		&operatorv1.StaticPodOperatorStatus{}, nil, nil)
	recorder := events.NewInMemoryRecorder("kube-apiserver-operator", clock.RealClock{})
	operatorConfigClient := operatorfake.NewClientset(&operatorv1.KubeAPIServer{ObjectMeta: metav1.ObjectMeta{Name: "cluster"}})
	statusProvider := encryptionstatus.NewKubeAPIServer(operatorConfigClient.OperatorV1().KubeAPIServers())
	podDeployer, _ := deployer.NewRevisionLabelPodDeployer("revision", operandNamespace, kubeInformers, kubeClient.CoreV1(), kubeClient.CoreV1(),
		deployer.StaticPodNodeProvider{OperatorClient: operatorClient})
	// kube-apiserver-operator's is migrators.NewKubeStorageVersionMigrator.
	migrator := migrators.NewInProcessMigrator(dynamicfake.NewSimpleDynamicClient(runtime.NewScheme()), kubeClient.Discovery())
	// The operator's cluster-scoped informer of Nodes (kube-apiserver-operator's clusterInformers).
	nodes := informers.NewSharedInformerFactory(kubeClient, 0).Core().V1().Nodes()
	etcd, err := etcdclient.NewSecretKV(etcdclient.SecretKVOptions{Secrets: kubeClient.CoreV1(), ConfigMaps: kubeClient.CoreV1(),
		Namespace: operandNamespace, EndpointsFrom: etcdclient.OpenShiftEndpoints(kubeClient.CoreV1())})
	if err != nil {
		fmt.Println(err)
		return
	}
	// kube-apiserver-operator's kmsRevisionReadinessCheck: a revision's pod has the KMS sidecars its config needs.
	operatorReadiness := func(context.Context, int32) (bool, error) { return true, nil }

	guard, err := kmsguard.NewStaticPodControllers(kmsguard.StaticPodOptions{
		Options: kmsguard.Options{
			InstanceName:      "kube-apiserver",
			OperandNamespace:  operandNamespace,
			OperatorNamespace: operatorNamespace,
			// What must outlive a KMS fault (rollback holds, the KEK id memory, finished migrations, the recovery
			// record) is kept on the operator resource, which the KMS never encrypts.
			OperatorResource:   operatorstate.KubeAPIServer(operatorConfigClient.OperatorV1().KubeAPIServers()),
			EncryptedResources: encrypted,
			// featureGates.Enabled(features.FeatureGateKMSEncryption)
			KMSEncryptionEnabled: true,
			KubeClient:           kubeClient,
			KubeInformers:        kubeInformers,
			APIServerInformer:    configInformers.Config().V1().APIServers(),
			StatusProvider:       statusProvider,
			Deployer:             podDeployer,
			Migrator:             migrator,
			Recorder:             recorder,
			// library-go's pod preflight: a new KMS configuration's plugin is checked before a key is made for it.
			Preflight: &kmsguard.PreflightOptions{
				Image: "quay.io/openshift/origin-cluster-kube-apiserver-operator", Command: []string{"cluster-kube-apiserver-operator", "kms-preflight"},
				APIServers: configClient.ConfigV1(),
			},
			// Each kube-apiserver's own view of its KMS providers, asked at https://<node InternalIP>:6443. The
			// client is rest.HTTPClientFor of the operator's in-cluster config with TLSClientConfig.ServerName set to
			// apiserverprobe.ServiceNetworkServerName.
			APIServers: apiserverprobe.ForNodes(http.DefaultClient, kmsstate.StaticPodNodes(operatorClient),
				nodes.Lister(), apiserverprobe.NodeOptions{}),
			// The census of etcd, read-only, with the etcd client credentials the operator syncs for its operand, at
			// the members cluster-etcd-operator lists. With Metadata and Mapper it counts through the API too, and
			// with Dynamic and Discovery it runs lost-key recovery.
			Etcd: &kmsguard.EtcdOptions{KV: etcd, Prefix: "kubernetes.io"},
			// Optional: Migration (kmsguard's migrator in place of the operator's).
		},
		OperatorClient:     operatorClient,
		OperandPodSelector: labels.Set{"apiserver": "true"}.AsSelector(),
		// A drained and rebooted node's silent plugins are KMSPluginsProgressing NodeUnavailable, not Degraded.
		NodeInformer: nodes,
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	// library-go's encryption controllers take kmsguard's deployer and migrator in place of the operator's, and its
	// KMS preflight.
	resourceSyncer := resourcesynccontroller.NewResourceSyncController("kube-apiserver", operatorClient, kubeInformers,
		kubeClient.CoreV1(), kubeClient.CoreV1(), recorder)
	_, err = encryption.NewControllers(operandNamespace, nil, encryption.StaticEncryptionProvider(encrypted),
		guard.Deployer, guard.Migrator, operatorClient, configClient.ConfigV1().APIServers(), configInformers.Config().V1().APIServers(),
		kubeInformers, kubeClient.CoreV1(), kubeClient.CoreV1(), recorder, resourceSyncer,
		statusProvider, guard.PreflightDeployer, guard.PreflightConfiguration)
	fmt.Println("encryption controllers:", err)
	// After encryption.NewControllers, which registers the sync of encryption-config: a KMS change the gate refuses
	// then waits before encryption-config, and the revisions of other changes go on.
	fmt.Println("encryption config sync held:", guard.HoldEncryptionConfigSync(resourceSyncer))

	// The static-pod builder takes the gate; its one readiness slot takes the operator's check and kmsguard's:
	//	staticpod.NewBuilder(...).
	//		WithRevisionControllerPrecondition(guard.Precondition).
	//		WithRevisionControllerReadinessCheck(readiness).
	readiness := kmsguard.AllReady(operatorReadiness, guard.ReadinessCheck)
	ready, err := readiness(context.Background(), 1)
	fmt.Println("revision 1 without encryption ready:", ready, err)
	// Then, with the informers: go guard.Run(ctx, 1)

	// Output:
	// encryption controllers: <nil>
	// encryption config sync held: <nil>
	// revision 1 without encryption ready: true <nil>
}
