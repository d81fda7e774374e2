package e2e

import (
	"context"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/operator/encryption/controllers/migrators"
	encryptiondeployer "github.com/openshift/library-go/pkg/operator/encryption/deployer"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsguard"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// kube-apiserver-operator's namespaces: the operand's (its encryption-config secrets, the encryption component)
// and the operator's (kmsguard's state).
const (
	operandNamespace  = "openshift-kube-apiserver"
	operatorNamespace = "openshift-kube-apiserver-operator"
)

// guardOptions are the parts of kmsguard's options a test chooses; newGuard builds the rest from the apiserver.
type guardOptions struct {
	// Migration runs kmsguard's migrator (Controllers.KMSMigrator).
	Migration bool
	// Etcd runs the census and, with Dynamic and Discovery, lost-key recovery.
	Etcd *kmsguard.EtcdOptions
	// APIServers adds each apiserver's own view to kmsstate.
	APIServers kmsstate.APIServerProber
	Intervals  kmsguard.Intervals
	// EncryptedResources default to Secrets.
	EncryptedResources []schema.GroupResource
}

// guard is kmsguard as kube-apiserver-operator wires it, through kmsguard.NewStaticPodControllers, against the
// test's apiserver and the real KubeAPIServer resource. Only the parts of the operator a test plays itself are
// missing: library-go's encryption and static-pod controllers.
type guard struct {
	*kmsguard.Controllers
	Operator  v1helpers.StaticPodOperatorClient
	Provider  kms.EncryptionStatusProvider
	Recorder  events.InMemoryRecorder
	Informers v1helpers.KubeInformersForNamespaces

	kube              kubernetes.Interface
	nodes             []string
	operatorInformers dynamicinformer.DynamicSharedInformerFactory
	configInformers   configinformers.SharedInformerFactory
}

// newGuard installs the KubeAPIServer resource with nodes, the config.openshift.io CRDs with the APIServer
// "cluster", and the operator's namespaces, and builds kmsguard's controllers; start runs them.
func newGuard(ctx context.Context, t *testing.T, a *kmsenv.APIServer, nodes []string, opts guardOptions) *guard {
	t.Helper()
	operator, operatorInformers, err := a.InstallKubeAPIServerOperator(ctx, nodes...)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.InstallConfigCRDs(); err != nil {
		t.Fatal(err)
	}
	configClient := configclient.NewForConfigOrDie(a.RESTConfig())
	if _, err := configClient.ConfigV1().APIServers().Create(ctx, &configv1.APIServer{ObjectMeta: metav1.ObjectMeta{Name: "cluster"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, ns := range []string{operandNamespace, operatorNamespace, "openshift-config", "openshift-config-managed"} {
		if _, err := a.Client().CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	return buildGuard(t, a, operator, operatorInformers, nodes, opts)
}

// restartedGuard is kmsguard in a new operator process, against what newGuard installed: new clients, informers and
// controllers, nothing kept in memory.
func restartedGuard(t *testing.T, a *kmsenv.APIServer, nodes []string, opts guardOptions) *guard {
	t.Helper()
	operator, operatorInformers, err := a.KubeAPIServerOperatorClient()
	if err != nil {
		t.Fatal(err)
	}
	return buildGuard(t, a, operator, operatorInformers, nodes, opts)
}

// buildGuard builds kmsguard's controllers on the installed resources.
func buildGuard(t *testing.T, a *kmsenv.APIServer, operator v1helpers.StaticPodOperatorClient, operatorInformers dynamicinformer.DynamicSharedInformerFactory, nodes []string, opts guardOptions) *guard {
	t.Helper()
	cfg := a.RESTConfig()
	kubeClient := a.Client()
	configClient := configclient.NewForConfigOrDie(cfg)

	g := &guard{
		Operator:          operator,
		Provider:          encryptionstatus.NewKubeAPIServer(operatorclient.NewForConfigOrDie(cfg).OperatorV1().KubeAPIServers()),
		Recorder:          events.NewInMemoryRecorder("kube-apiserver-operator", clock.RealClock{}),
		Informers:         v1helpers.NewKubeInformersForNamespaces(kubeClient, operandNamespace, operatorNamespace, "openshift-config", "openshift-config-managed"),
		kube:              kubeClient,
		nodes:             nodes,
		operatorInformers: operatorInformers,
		configInformers:   configinformers.NewSharedInformerFactory(configClient, 10*time.Minute),
	}
	deployer, err := encryptiondeployer.NewRevisionLabelPodDeployer("revision", operandNamespace, g.Informers, kubeClient.CoreV1(), kubeClient.CoreV1(),
		encryptiondeployer.StaticPodNodeProvider{OperatorClient: operator})
	if err != nil {
		t.Fatal(err)
	}
	resources := opts.EncryptedResources
	if len(resources) == 0 {
		resources = []schema.GroupResource{secretsGR}
	}
	options := kmsguard.Options{
		InstanceName:         "kube-apiserver",
		OperandNamespace:     operandNamespace,
		OperatorNamespace:    operatorNamespace,
		OperatorResource:     operatorstate.KubeAPIServer(operatorclient.NewForConfigOrDie(cfg).OperatorV1().KubeAPIServers()),
		EncryptedResources:   resources,
		KMSEncryptionEnabled: true,
		KubeClient:           kubeClient,
		KubeInformers:        g.Informers,
		APIServerInformer:    g.configInformers.Config().V1().APIServers(),
		StatusProvider:       g.Provider,
		Deployer:             deployer,
		Migrator:             migrators.NewInProcessMigrator(dynamic.NewForConfigOrDie(cfg), kubeClient.Discovery()),
		Recorder:             g.Recorder,
		Etcd:                 opts.Etcd,
		APIServers:           opts.APIServers,
		Intervals:            opts.Intervals,
		// No kube-apiserver-operator image runs the checker here; the lab runs the real preflight.
		StubPreflight: true,
	}
	if opts.Migration {
		options.Migration = &kmsguard.MigrationOptions{Dynamic: migratorClient(a), Mapper: secretsMapper()}
	}
	g.Controllers, err = kmsguard.NewStaticPodControllers(kmsguard.StaticPodOptions{
		Options:            options,
		OperatorClient:     operator,
		OperandPodSelector: labels.Set{"apiserver": "true"}.AsSelector(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// start starts the informers and runs the controllers until ctx ends.
func (g *guard) start(ctx context.Context) {
	g.operatorInformers.Start(ctx.Done())
	g.Informers.Start(ctx.Done())
	g.configInformers.Start(ctx.Done())
	g.operatorInformers.WaitForCacheSync(ctx.Done())
	g.configInformers.WaitForCacheSync(ctx.Done())
	go g.Run(ctx, 1)
}

// deployed records config as revision on every node, as library-go's revision controller and installers would
// once the revision rolled out: encryption-config-<revision>, latestAvailableRevision and each node's
// currentRevision.
func (g *guard) deployed(ctx context.Context, t *testing.T, revision int32, config *apiserverv1.EncryptionConfiguration) {
	t.Helper()
	createRevisionConfig(t, g.kube.CoreV1().Secrets(operandNamespace), int(revision), config)
	status := applyoperatorv1.StaticPodOperatorStatus().WithLatestAvailableRevision(revision)
	for _, node := range g.nodes {
		status.WithNodeStatuses(applyoperatorv1.NodeStatus().WithNodeName(node).WithCurrentRevision(revision))
	}
	if err := g.Operator.ApplyStaticPodOperatorStatus(ctx, "e2e-installer", status); err != nil {
		t.Fatal(err)
	}
}

// eventReasons are the reasons of the recorded events that are among reasons, in order.
func (g *guard) eventReasons(reasons ...string) []string {
	want := map[string]bool{}
	for _, r := range reasons {
		want[r] = true
	}
	var got []string
	for _, e := range g.Recorder.Events() {
		if want[e.Reason] {
			got = append(got, e.Reason)
		}
	}
	return got
}

// migratorClient is the dynamic client of kmsguard's migrator (migratorConfig).
func migratorClient(a *kmsenv.APIServer) dynamic.Interface {
	return dynamic.NewForConfigOrDie(migratorConfig(a))
}

// migratorConfig is the client config of kmsguard's migrator: room for its workers (client-go's default is
// 5 QPS), and its writes show as kmsguard-migrator in managedFields.
func migratorConfig(a *kmsenv.APIServer) *rest.Config {
	config := a.RESTConfig()
	config.QPS, config.Burst = -1, 100
	config.UserAgent = "kmsguard-migrator"
	return config
}

// secretsMapper maps Secrets, the one resource these tests encrypt.
func secretsMapper() meta.RESTMapper {
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(corev1.SchemeGroupVersion.WithKind("Secret"), meta.RESTScopeNamespace)
	return mapper
}
