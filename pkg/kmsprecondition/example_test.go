package kmsprecondition_test

import (
	"context"
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/revisioncontroller"
	"github.com/openshift/library-go/pkg/operator/staticpod"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// The gate's hooks have library-go's types.
var (
	_ revisioncontroller.PreconditionFunc   = (*kmsprecondition.Gate)(nil).Precondition
	_ revisioncontroller.ReadinessCheckFunc = (*kmsprecondition.Gate)(nil).ReadinessCheck
)

const candidateConfig = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: 1_secrets, endpoint: "unix:///var/run/kmsplugin/kms-1.sock", timeout: 10s}
  - identity: {}
`

// Example shows how kube-apiserver-operator wires the gate into its static pod controllers. The fakes stand in
// for what the operator's starter already has; the kmsstate controller is the one the operator runs (see
// kmsstate's example), here before its first evaluation, so nothing is known healthy yet.
func Example() {
	const operandNamespace = "openshift-kube-apiserver"
	// What the operator starter already has.
	kubeClient := kubefake.NewClientset(&corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: operandNamespace, Name: encryptiondata.EncryptionConfSecretName},
		Data:       map[string][]byte{encryptiondata.EncryptionConfSecretKey: []byte(candidateConfig)},
	})
	kubeInformers := v1helpers.NewKubeInformersForNamespaces(kubeClient, operandNamespace, "openshift-config-managed")
	operatorClient := v1helpers.NewFakeStaticPodOperatorClient(
		&operatorv1.StaticPodOperatorSpec{OperatorSpec: operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}},
		&operatorv1.StaticPodOperatorStatus{NodeStatuses: []operatorv1.NodeStatus{{NodeName: "master-0"}, {NodeName: "master-1"}}},
		nil, nil)
	kmsState, err := kmsstate.NewController("kube-apiserver", kmsstate.Options{
		OperatorClient: operatorClient,
		StatusProvider: encryptionstatus.NewKubeAPIServer(operatorfake.NewClientset().OperatorV1().KubeAPIServers()),
		Nodes:          kmsstate.StaticPodNodes(operatorClient),
		Keys:           kmsstate.KeyListerFunc(func(context.Context) (kmsstate.Keys, error) { return kmsstate.Keys{}, nil }),
		Recorder:       events.NewInMemoryRecorder("kms-state", clock.RealClock{}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	// The operator's etcd client (the etcd-client secret of openshift-etcd); the client connects lazily.
	etcd, err := clientv3.New(clientv3.Config{Endpoints: []string{"https://etcd.openshift-etcd.svc:2379"}})
	if err != nil {
		panic(err)
	}
	defer etcd.Close()
	keySecrets := kubeInformers.InformersFor("openshift-config-managed").Core().V1().Secrets().Lister()

	// The wiring.
	configs := revisions.Secrets(kubeClient.CoreV1(), operandNamespace, operatorClient)
	// The census of raw etcd values: the gate's evidence that no value is left under a dropped read key. Run it
	// with the other controllers (go census.Run(ctx, 1)).
	census, err := kmsmigration.NewVerificationController("kube-apiserver", kmsmigration.VerificationOptions{
		// The API's object count confirms that the scan looked where the objects are (the starter's rest config
		// and REST mapper in place of these).
		Verifier: evidence.NewVerifier(etcd, evidence.Options{Counter: &evidence.MetadataCounter{
			Client: metadata.NewForConfigOrDie(&rest.Config{Host: "https://api.example.com:6443"}), Mapper: meta.NewDefaultRESTMapper(nil)}}),
		Targets:           kmsmigration.TargetsFromConfig(configs, kmsState, kmsmigration.TargetOptions{EtcdPrefix: "/kubernetes.io"}),
		OperatorClient:    operatorClient,
		Recorder:          events.NewInMemoryRecorder("kms-encryption-verification", clock.RealClock{}),
		MigrationFinished: kmsmigration.MigratedTimestamps(keySecrets, operandNamespace),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	gate, err := kmsprecondition.NewGate("kube-apiserver", kmsprecondition.Options{
		Configs: configs,
		Nodes:   kmsstate.StaticPodNodes(operatorClient),
		Health:  kmsState,
		// Preflight: kmsprecondition.PreflightFromStatus(statusProvider) reads library-go's preflight from
		// status.encryptionStatus.preflight; with the always-succeed preflight deployer it proves nothing.
		Evidence: census,
		// Only where the operator has no etcd access: leave Evidence nil, and library-go's annotations decide
		// (the conditions then say so).
		// library-go labels its key secrets with its encryption component, the operand namespace.
		Migration:      kmsprecondition.KeySecretMigrations(keySecrets, operandNamespace),
		RollbackWindow: kmsprecondition.DefaultRollbackWindow,
		OperatorClient: operatorClient,
		Recorder:       events.NewInMemoryRecorder("kms-rollout-gate", clock.RealClock{}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = staticpod.NewBuilder(operatorClient, kubeClient, kubeInformers,
		informers.NewSharedInformerFactory(kubeClient, 0), configinformers.NewSharedInformerFactory(configfake.NewClientset(), 0), clock.RealClock{}).
		WithEvents(events.NewInMemoryRecorder("static-pod-controllers", clock.RealClock{})).
		WithInstaller([]string{"cluster-kube-apiserver-operator", "installer"}).
		WithRevisionedResources(operandNamespace, "kube-apiserver",
			[]revisioncontroller.RevisionResource{{Name: "kube-apiserver-pod"}},
			[]revisioncontroller.RevisionResource{{Name: encryptiondata.EncryptionConfSecretName, Optional: true}}).
		WithRevisionControllerPrecondition(gate.Precondition).
		WithRevisionControllerReadinessCheck(gate.ReadinessCheck).
		ToControllers()
	fmt.Println("controllers built:", err)

	// What the revision controller's next sync sees: encryption-config adds KMS key 1, unproven.
	allowed, err := gate.Precondition(context.Background())
	fmt.Println("revision allowed:", allowed, err)
	_, status, _, _ := operatorClient.GetOperatorState()
	for _, c := range []string{kmsprecondition.ConditionProgressing, kmsprecondition.ConditionDegraded} {
		cond := v1helpers.FindOperatorCondition(status.Conditions, c)
		fmt.Println(cond.Type, cond.Status, cond.Reason)
	}
	// Output:
	// controllers built: <nil>
	// revision allowed: false <nil>
	// KMSRolloutGateProgressing True KMSPluginsNotHealthy
	// KMSRolloutGateDegraded False AsExpected
}
