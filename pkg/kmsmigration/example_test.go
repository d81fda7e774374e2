package kmsmigration_test

import (
	"context"
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	"github.com/openshift/library-go/pkg/operator/encryption/controllers/migrators"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// The Migrator is library-go's migrator: kube-apiserver-operator passes it
// to encryption.NewControllers in place of migrators.NewInProcessMigrator.
var _ migrators.Migrator = (*kmsmigration.Migrator)(nil)

// Example shows the wiring in an operator starter. Dynamic, Mapper and the
// kube client are what the starter already has (in a cluster: a
// restmapper.NewDeferredDiscoveryRESTMapper over a cached discovery client);
// kmsstate's controller, here of a config without KMS keys, gives the
// migrator the health of its write key.
func Example() {
	scheme := runtime.NewScheme()
	_ = corev1.AddToScheme(scheme)
	dynamicClient := dynamicfake.NewSimpleDynamicClient(scheme,
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-etcd", Name: "etcd-client"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "app"}})
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(corev1.SchemeGroupVersion.WithKind("Secret"), meta.RESTScopeNamespace)
	kubeClient := kubefake.NewClientset()
	operatorClient := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)
	recorder := events.NewInMemoryRecorder("kms-migration", clock.RealClock{})

	// kmsstate's controller: the migrator pauses on its verdict, the census
	// reads its settled KEK ids, the migration controller its rotations.
	kmsState, err := kmsstate.NewController("kube-apiserver", kmsstate.Options{
		OperatorClient: v1helpers.NewFakeStaticPodOperatorClient(&operatorv1.StaticPodOperatorSpec{}, &operatorv1.StaticPodOperatorStatus{}, nil, nil),
		StatusProvider: encryptionstatus.NewKubeAPIServer(operatorfake.NewClientset(&operatorv1.KubeAPIServer{ObjectMeta: metav1.ObjectMeta{Name: "cluster"}}).OperatorV1().KubeAPIServers()),
		Nodes:          kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return nil, nil }),
		Keys:           kmsstate.KeyListerFunc(func(context.Context) (kmsstate.Keys, error) { return kmsstate.Keys{}, nil }),
		Recorder:       recorder,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go kmsState.Run(ctx, 1)

	// The wiring.
	migrator, err := kmsmigration.New(kmsmigration.Options{
		Dynamic: dynamicClient,
		Mapper:  mapper,
		// Progress survives operator restarts in a ConfigMap of the operator's namespace.
		Checkpoints: kmsmigration.ConfigMapCheckpoints{Client: kubeClient.CoreV1(), Namespace: "openshift-kube-apiserver-operator", Name: "kmsguard-migration"},
		// A migration pauses while kmsstate does not know its write key's
		// plugin healthy on every node (a stale verdict included).
		KMS: kmsState,
	})
	if err != nil {
		panic(err)
	}
	// Publishes KMSMigrationProgressing/Degraded and migrates again after
	// kmsstate sees a remote key rotation complete; run it with the other
	// controllers: go controller.Run(ctx, 1).
	if _, err := kmsmigration.NewController("kube-apiserver", kmsmigration.ControllerOptions{
		Migrator:       migrator,
		OperatorClient: operatorClient,
		Recorder:       recorder,
		// WriteKeys: kmsmigration.WriteKeysFromDeployer(deployer, kubeClient.CoreV1(), keySelector, encryptedGRs),
		// Rotations: kmsState,
	}); err != nil {
		panic(err)
	}

	// The census: KMSEncryptionVerified from raw etcd, and the rollout gate's
	// evidence for dropping a read key (kmsprecondition.Options.Evidence).
	// The configs are read as the gate reads them; kmsState settles the KEK
	// id of each KMS v2 write key; OpenShift's kube-apiserver stores under
	// /kubernetes.io.
	etcd, err := clientv3.New(clientv3.Config{Endpoints: []string{"https://etcd.openshift-etcd.svc:2379"}})
	if err != nil {
		panic(err)
	}
	defer etcd.Close()
	configs := revisions.Secrets(kubeClient.CoreV1(), "openshift-kube-apiserver", operatorClient)
	census, err := kmsmigration.NewVerificationController("kube-apiserver", kmsmigration.VerificationOptions{
		// The API's object count confirms that the scan looked where the
		// objects are (the starter's rest config in place of this one).
		Verifier: evidence.NewVerifier(etcd, evidence.Options{Counter: &evidence.MetadataCounter{
			Client: metadata.NewForConfigOrDie(&rest.Config{Host: "https://api.example.com:6443"}), Mapper: mapper}}),
		Targets:        kmsmigration.TargetsFromConfig(configs, kmsState, kmsmigration.TargetOptions{EtcdPrefix: "/kubernetes.io"}),
		OperatorClient: operatorClient,
		Recorder:       recorder,
		Migrator:       migrator,
		// library-go records its migrations in its key secrets; this
		// Migrator's own rotation migrations come later.
		MigrationFinished: kmsmigration.LatestFinished(
			kmsmigration.MigratedTimestamps(informers.NewSharedInformerFactory(kubeClient, 0).Core().V1().Secrets().Lister(), "openshift-kube-apiserver"),
			migrator.LastFinished),
		ScanTimeout: kmsmigration.DefaultScanTimeout,
	})
	if err != nil {
		panic(err)
	}
	// go census.Run(ctx, 1); pass census to kmsprecondition.NewGate as Evidence.
	var _ kmsprecondition.ReadKeyEvidence = census

	// What library-go's migration controller does on each sync.
	gr := schema.GroupResource{Resource: "secrets"}
	for {
		finished, result, _, err := migrator.EnsureMigration(gr, "2")
		if err != nil || finished {
			fmt.Println(result, err)
			break
		}
	}
	progress := migrator.Progress()[0]
	// The fake client does not model the apiserver's stale-value check: it
	// stores nothing on a no-op update, so both objects count as current.
	fmt.Println(progress.Counts.Listed, progress.Counts.Done())
	// Output:
	// <nil> <nil>
	// 2 2
}
