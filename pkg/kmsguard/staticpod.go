package kmsguard

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	configv1client "github.com/openshift/client-go/config/clientset/versioned/typed/config/v1"
	configv1informers "github.com/openshift/client-go/config/informers/externalversions/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	encryptioncontrollers "github.com/openshift/library-go/pkg/operator/encryption/controllers"
	"github.com/openshift/library-go/pkg/operator/encryption/controllers/migrators"
	encryptiondeployer "github.com/openshift/library-go/pkg/operator/encryption/deployer"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	kmspreflight "github.com/openshift/library-go/pkg/operator/encryption/kms/preflight"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/encryption/statemachine"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/revisioncontroller"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	corev1informers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// MigrationConfigMapName is the ConfigMap in the operator namespace that caches the migrations' progress. It is
// only a cache: what must outlive a KMS fault is on Options.OperatorResource.
const MigrationConfigMapName = "kmsguard-migration"

// CacheConfigMapNames are kmsguard's caches, ConfigMaps in Options.OperatorNamespace. The KMS encrypts them; one the
// apiserver cannot read is deleted by kmsguard without a consent and started over, which needs the verb
// unsafe-delete-ignore-read-errors on these names (cluster-admin, as both operators run, or bindata.CachesRole).
var CacheConfigMapNames = []string{kmsstate.DefaultConfigMapName, MigrationConfigMapName, kmsrecovery.ConfigMapName}

// Options are what every operator's starter already has, whatever runs its operand. Migration, Etcd, APIServers,
// UnverifiedKMSReadKeys and Intervals are optional; exactly one of Preflight and StubPreflight is required; every
// other field is required.
type Options struct {
	// InstanceName prefixes kmsguard's controller names, field managers and events, as library-go's instanceName
	// does ("kube-apiserver").
	InstanceName string
	// OperandNamespace is the operand's namespace, library-go's encryption component ("openshift-kube-apiserver"):
	// its encryption-config and encryption-config-<revision> secrets, its pods.
	OperandNamespace string
	// OperatorNamespace holds kmsguard's caches, ConfigMaps ("openshift-kube-apiserver-operator").
	OperatorNamespace string
	// OperatorResource is where kmsguard keeps what must outlive a KMS fault (the rollback's holds, the KEK id
	// memory, finished migrations, the recovery record): annotations of the operator resource, which the KMS never
	// encrypts (operatorstate.KubeAPIServer(operatorClient.OperatorV1().KubeAPIServers())).
	OperatorResource operatorstate.Resource
	// EncryptedResources are what the operator passes to encryption.StaticEncryptionProvider.
	EncryptedResources []schema.GroupResource
	// KMSEncryptionEnabled is the operator's KMSEncryption feature gate. False starts nothing (see the package
	// doc).
	KMSEncryptionEnabled bool

	KubeClient kubernetes.Interface
	// KubeInformers must cover OperandNamespace and openshift-config-managed; the operator starts them, as it
	// starts its own. kmsguard keeps no informer on OperatorNamespace: one ConfigMap there that the KMS cannot
	// decrypt would keep it from ever syncing.
	KubeInformers     v1helpers.KubeInformersForNamespaces
	APIServerInformer configv1informers.APIServerInformer
	// StatusProvider is the operator's kms.EncryptionStatusProvider, the one it passes to encryption.NewControllers.
	StatusProvider kms.EncryptionStatusProvider
	// Deployer is the deployer the operator would pass to encryption.NewControllers; Controllers.Deployer wraps it.
	Deployer statemachine.Deployer
	// Migrator is the operator's own migrator; Controllers.Migrator is it unless Migration is set and the feature
	// gate is on. It is required with Migration too: it is what library-go migrates with while KMSEncryption is off.
	Migrator migrators.Migrator
	Recorder events.Recorder

	// Migration, when set, runs kmsguard's migrator in place of Migrator.
	Migration *MigrationOptions
	// Etcd, when set, runs the census of etcd (KMSEncryptionVerified, the gate's evidence for dropping a read key)
	// and, with Dynamic and Discovery, lost-key recovery.
	Etcd *EtcdOptions
	// APIServers, when set, adds each kube-apiserver's own view of its KMS plugins to kmsstate
	// (apiserverprobe.Prober).
	APIServers kmsstate.APIServerProber
	// Preflight runs library-go's KMS preflight for real, and is kmsguard's default: Controllers.PreflightDeployer is
	// library-go's pod deployer, which runs a new KMS configuration's plugin in a kms-preflight pod and checks
	// Status, Encrypt and Decrypt through it before library-go's key controller makes a key, and
	// Controllers.PreflightConfiguration computes the configuration it checks. A configuration that fails is
	// refused before any key, config or revision exists, and kmsprecondition.PreflightReporter says on which node
	// and with which plugin error (KMSPreflightDegraded). Set it, or StubPreflight.
	Preflight *PreflightOptions
	// StubPreflight wires library-go's always-succeed preflight deployer and its placeholder computer instead,
	// what both operators wire today, for an operator that cannot run the checker (it registers no kms-preflight
	// command, or has no image to give). What is lost: a configuration whose plugin cannot reach its KMS,
	// authenticate or round-trip becomes a key and a revision that fails on the first node; the gate admits the key
	// unverified (UnverifiedKMSReadKeys), and kmsrollback reverts the revision once its pod has not been ready for
	// Intervals.NotReadyAfter (or the startup monitor falls back, on a single node). The key stays the newest, and
	// library-go makes no new one for a corrected configuration until it is migrated (hack/upstream, LG-2).
	StubPreflight bool
	// UnverifiedKMSReadKeys is the rollout gate's policy for a new KMS read key that neither a preflight nor a
	// health report has verified (kmsprecondition.UnverifiedReadKeyPolicy). Empty blocks it with Preflight and
	// admits it, with a Warning event, with StubPreflight: with library-go's always-succeed preflight deployer every
	// new key is unverified, and blocking would stop every KMS enablement.
	UnverifiedKMSReadKeys kmsprecondition.UnverifiedReadKeyPolicy
	// Intervals tune the controllers; zero fields keep each package's default.
	Intervals Intervals
}

// StaticPodOptions are what a static-pod operator's starter (kube-apiserver-operator's) has.
type StaticPodOptions struct {
	Options
	OperatorClient v1helpers.StaticPodOperatorClient
	// OperandPodSelector selects the operand's mirror pods ("apiserver=true"), which the rollback reads the startup
	// monitor's verdict from.
	OperandPodSelector labels.Selector
	// NodeInformer is optional (the operator's cluster-scoped informer of Nodes): with it, kmsstate tells a node
	// that is down on purpose (cordoned for a drain, NotReady in a reboot, its operand pod missing, Pending,
	// terminating or just started) from a reporter that stopped, and reports the first as KMSPluginsProgressing NodeUnavailable instead
	// of KMSPluginsDegraded: every upgrade drains and reboots every control-plane node.
	NodeInformer corev1informers.NodeInformer
}

// DeploymentOptions are what an operator whose operand is a Deployment (openshift-apiserver-operator) has.
type DeploymentOptions struct {
	Options
	OperatorClient v1helpers.OperatorClient
	// NodeProvider names the nodes that run the operand: the one the operator gives library-go's
	// RevisionLabelPodDeployer (encryptiondeployer.NewDeploymentNodeProvider).
	NodeProvider encryptiondeployer.MasterNodeProvider
}

// PreflightOptions are what library-go's pod preflight deployer needs besides Options.
type PreflightOptions struct {
	// Image and Command run the checker container: the operator's image, and the command under which the operator
	// registers library-go's kms/preflight.NewCommand (kube-apiserver-operator: {"cluster-kube-apiserver-operator",
	// "kms-preflight"}).
	Image   string
	Command []string
	// APIServers reads the APIServer resource live, as library-go's key and preflight controllers do: the
	// configuration checked must be the one they hashed, not an informer's older copy.
	APIServers configv1client.APIServersGetter
	// CallTimeout bounds each of the checker's calls to the plugin; zero is 10 s, the timeout library-go writes
	// for each KMS provider.
	CallTimeout time.Duration
}

// MigrationOptions are what kmsguard's migrator needs.
type MigrationOptions struct {
	// Dynamic rewrites the objects: give it a client of its own, whose rate limiter then throttles only the
	// migration.
	Dynamic dynamic.Interface
	// RESTConfig, when set, is the config Dynamic was built from: the migrator then lists and rewrites the
	// built-in resources in protobuf without decoding them (kmsmigration.Options.RESTConfig), the cheapest
	// rewrite for the apiserver, and custom resources through Dynamic.
	RESTConfig *rest.Config
	Mapper     meta.RESTMapper
}

// EtcdOptions give kmsguard read access to etcd, for the raw values no API shows.
type EtcdOptions struct {
	// KV reads etcd. In a cluster it is etcdclient.NewSecretKV over the operand namespace's etcd-client Secret,
	// which keeps working, and says why not, when the KMS cannot decrypt that Secret.
	KV clientv3.KV
	// Prefix is kube-apiserver's --etcd-prefix ("/kubernetes.io" on OpenShift).
	Prefix string
	// Metadata and Mapper count the objects through the API, which confirms that a scan looked where they are.
	Metadata metadata.Interface
	Mapper   meta.RESTMapper
	// Dynamic and Discovery, when both set, run lost-key recovery (bindata.RecoveryClusterRole's verbs).
	Dynamic   dynamic.Interface
	Discovery discovery.DiscoveryInterface
}

// Intervals tune the controllers. Zero keeps the package default; a lab or a test sets them shorter.
type Intervals struct {
	// ReportInterval is the health reporters' interval (kmsstate.Config.ReportInterval).
	ReportInterval time.Duration
	// Census is how often a census of etcd is taken besides after each migration (evidence.DefaultCensusInterval).
	Census time.Duration
	// Recovery is how often lost-key recovery scans besides when the consent changes.
	Recovery time.Duration
	// RollbackWindow is how long the rollout gate keeps a replaced read key after the last migration away from
	// it finished (kmsprecondition.Options.RollbackWindow).
	RollbackWindow time.Duration
	// NotReadyAfter is how long an apiserver pod of a new revision may stay not ready before kmsrollback counts
	// the revision failed on that node: on a cluster without a startup monitor (every topology but
	// SingleReplica) the only failure signal a crash-looping apiserver gives. Zero is
	// kmsrollback.DefaultNotReadyAfter.
	NotReadyAfter time.Duration
}

// Controllers are kmsguard's parts of an operator.
type Controllers struct {
	// Deployer is what to pass to encryption.NewControllers: the operator's deployer, held to a config kmsguard
	// reverted (kmsrollback.HoldingDeployer) where kmsguard can revert (static-pod operators).
	Deployer statemachine.Deployer
	// Migrator is what to pass to encryption.NewControllers: kmsguard's migrator with Options.Migration,
	// the operator's own without.
	Migrator migrators.Migrator
	// Precondition and ReadinessCheck are the revision controller's hooks (the rollout gate).
	Precondition   revisioncontroller.PreconditionFunc
	ReadinessCheck revisioncontroller.ReadinessCheckFunc
	// PreflightDeployer and PreflightConfiguration are what to pass to encryption.NewControllers for the KMS
	// preflight: library-go's pod deployer with Options.Preflight, its always-succeed deployer without.
	PreflightDeployer      encryptioncontrollers.KMSPreflightDeployer
	PreflightConfiguration encryptioncontrollers.EncryptionConfigurationComputer

	// KMSState is kmsstate's controller, the KMS verdict every other controller reads; nil while the feature
	// gate is off.
	KMSState *kmsstate.Controller
	// KMSMigrator is kmsguard's migrator; nil without Options.Migration or with the feature gate off.
	KMSMigrator *kmsmigration.Migrator
	// Census is the census of etcd; nil without Options.Etcd or with the feature gate off.
	Census *evidence.CensusController

	runners []runner
	// configSync holds the encryption config's resource sync (HoldEncryptionConfigSync); nil with the feature
	// gate off.
	configSync *configSync
}

// runner is a controller: library-go's factory.Controller, or one of kmsguard's with loops of its own.
type runner interface {
	Run(ctx context.Context, workers int)
}

// Run runs every controller until ctx is done, as library-go's encryption.Controllers.Run does.
func (c *Controllers) Run(ctx context.Context, workers int) {
	for _, r := range c.runners {
		go r.Run(ctx, workers)
	}
	<-ctx.Done()
}

// AllReady is a readiness check that passes when every check passes, asked in order; the first that is not ready
// or fails answers. library-go's builder keeps one readiness check: compose the operator's with kmsguard's here.
func AllReady(checks ...revisioncontroller.ReadinessCheckFunc) revisioncontroller.ReadinessCheckFunc {
	return func(ctx context.Context, revision int32) (bool, error) {
		for _, check := range checks {
			if check == nil {
				continue
			}
			if ready, err := check(ctx, revision); err != nil || !ready {
				return false, err
			}
		}
		return true, nil
	}
}

// NewStaticPodControllers builds kmsguard's controllers for a static-pod operator. The options are checked the
// same way whether the feature gate is on or off, so that a wiring mistake shows in either. Nothing is started
// until Controllers.Run and the informers run; the one API call made here is lost-key recovery's discovery of the
// encrypted resources (with Etcd.Discovery).
func NewStaticPodControllers(opts StaticPodOptions) (*Controllers, error) {
	missing := opts.Options.missing()
	if opts.OperatorClient == nil {
		missing = append(missing, "OperatorClient")
	}
	if opts.OperandPodSelector == nil {
		missing = append(missing, "OperandPodSelector")
	}
	if err := optionsError("StaticPodOptions", opts.Options, missing); err != nil {
		return nil, err
	}
	if !opts.KMSEncryptionEnabled {
		return disabled(opts.Options, opts.OperatorClient), nil
	}
	operandPods := opts.KubeInformers.InformersFor(opts.OperandNamespace).Core().V1().Pods()
	var availability kmsstate.AvailabilityLister
	var availabilityInformers []factory.Informer
	if opts.NodeInformer != nil {
		availability = kmsstate.StaticPodAvailability(opts.NodeInformer.Lister(), operandPods.Lister().Pods(opts.OperandNamespace), opts.OperandPodSelector)
		availabilityInformers = []factory.Informer{opts.NodeInformer.Informer(), operandPods.Informer()}
	}
	return build(opts.Options, topology{
		availability:          availability,
		availabilityInformers: availabilityInformers,
		operator:              opts.OperatorClient,
		staticPod:             opts.OperatorClient,
		staticPodPreflight:    true,
		nodes:                 kmsstate.StaticPodNodes(opts.OperatorClient),
		rollout:               kmsrollback.StaticPodRollout(opts.OperatorClient, operandPods.Lister().Pods(opts.OperandNamespace), opts.OperandPodSelector, opts.Intervals.NotReadyAfter, nil),
		rolloutInformers:      []factory.Informer{operandPods.Informer()},
	})
}

// NewDeploymentControllers builds kmsguard's controllers for an operator whose operand is a Deployment
// (openshift-apiserver-operator): kmsstate, the rollout gate and, with Migration and Etcd, the migrator, the census
// and lost-key recovery. It runs no rollback: kmsrollback reads a rollout from static-pod node statuses and mirror
// pods, and has no reader of a Deployment's rollout yet, so Controllers.Deployer is the operator's own.
//
// library-go's apiservercontrollerset builds its revision controller without a precondition or readiness check;
// to gate, the operator builds the revision controller itself (WithoutRevisionController, then
// revisioncontroller.NewRevisionController with Precondition and ReadinessCheck), until apiservercontrollerset
// takes both.
func NewDeploymentControllers(opts DeploymentOptions) (*Controllers, error) {
	missing := opts.Options.missing()
	if opts.OperatorClient == nil {
		missing = append(missing, "OperatorClient")
	}
	if opts.NodeProvider == nil {
		missing = append(missing, "NodeProvider")
	}
	if err := optionsError("DeploymentOptions", opts.Options, missing); err != nil {
		return nil, err
	}
	if !opts.KMSEncryptionEnabled {
		return disabled(opts.Options, opts.OperatorClient), nil
	}
	return build(opts.Options, topology{
		operator: opts.OperatorClient,
		nodes: kmsstate.NodeListerFunc(func(context.Context) ([]string, error) {
			return opts.NodeProvider.MasterNodeNames()
		}),
	})
}

// topology is what differs between operands: the operator client, the nodes that run the operand and, where
// kmsguard can revert, how a rollout and its failures are read.
type topology struct {
	operator v1helpers.OperatorClient
	nodes    kmsstate.NodeLister
	// staticPod is the operator client of a static-pod operator, nil for a Deployment's: its node statuses say
	// which revision, and so which KMS plugins, each node runs. Without it kmsstate expects every key on every
	// node.
	staticPod v1helpers.StaticPodOperatorClient
	// staticPodPreflight runs the preflight pod as a static pod's plugins run (host network).
	staticPodPreflight bool
	// rollout is nil where kmsguard runs no rollback.
	rollout          kmsrollback.RolloutReader
	rolloutInformers []factory.Informer
	// availability is nil where kmsstate takes every node as available; availabilityInformers are what it reads.
	availability          kmsstate.AvailabilityLister
	availabilityInformers []factory.Informer
}

// build builds the controllers of an operator whose feature gate is on.
func build(opts Options, t topology) (*Controllers, error) {
	kube := opts.KubeClient.CoreV1()
	configs := revisions.Secrets(kube, opts.OperandNamespace, t.operator)
	keySecrets := opts.KubeInformers.InformersFor(encryptionconfig.ManagedNamespace).Core().V1().Secrets().Lister()
	c := &Controllers{Deployer: opts.Deployer, Migrator: opts.Migrator}
	unverifiedKeys, err := c.addPreflight(opts, t)
	if err != nil {
		return nil, err
	}
	// The informer cache library-go's resource sync copies the managed encryption config from.
	managedSecrets := opts.KubeInformers.InformersFor(managedNamespace).Core().V1().Secrets().Lister()
	synced := configs.Synced(managedSecrets, managedNamespace, managedConfigName(opts.OperandNamespace))
	keys := configKeys{configs: configs, synced: synced}
	var holds *kmsrollback.HoldStore
	if t.rollout != nil {
		holds = kmsrollback.NewHoldStore(opts.OperatorResource)
		keys.holds = holds
	}

	var running kmsstate.RunningKeyLister
	if t.staticPod != nil {
		running = staticPodRunningKeys{operator: t.staticPod, configs: configs}
	}
	kmsState, err := kmsstate.NewController(opts.InstanceName, kmsstate.Options{
		Config:         kmsstate.Config{ReportInterval: opts.Intervals.ReportInterval},
		OperatorClient: t.operator,
		StatusProvider: opts.StatusProvider,
		Nodes:          t.nodes,
		Keys:           keys,
		Running:        running,
		APIServers:     opts.APIServers,
		Availability:   t.availability,
		Informers:      t.availabilityInformers,
		Recorder:       opts.Recorder.WithComponentSuffix("kms-state"),
		Memory:         kmsstate.NewAnnotationMemory(opts.OperatorResource),
		Publisher: kmsstate.ConfigMapPublisher{Client: kube, Namespace: opts.OperatorNamespace, Name: kmsstate.DefaultConfigMapName,
			Recorder: opts.Recorder.WithComponentSuffix("kms-state")},
	})
	if err != nil {
		return nil, fmt.Errorf("kmsstate: %w", err)
	}
	c.KMSState = kmsState
	c.runners = append(c.runners, kmsState)

	if holds != nil {
		c.Deployer = kmsrollback.NewHoldingDeployer(opts.Deployer, holds)
	}
	if opts.Migration != nil {
		if err := c.addMigration(opts, t.operator); err != nil {
			return nil, err
		}
	}

	gateOptions := kmsprecondition.Options{
		Configs:            configs,
		Nodes:              t.nodes,
		Health:             kmsState,
		Preflight:          kmsprecondition.PreflightFromStatus(opts.StatusProvider, keySecrets, opts.OperandNamespace),
		Migration:          evidence.KeySecretMigrations(keySecrets, opts.OperandNamespace),
		RollbackWindow:     opts.Intervals.RollbackWindow,
		UnverifiedReadKeys: unverifiedKeys,
		OperatorClient:     t.operator,
		Admitted:           opts.OperatorResource,
		Recorder:           opts.Recorder.WithComponentSuffix("kms-rollout-gate"),
	}
	if holds != nil {
		gateOptions.Reverts = holds
	}
	if opts.Etcd != nil {
		if err := c.addEtcd(opts, t.operator, configs, keySecrets); err != nil {
			return nil, err
		}
		gateOptions.Census = c.Census
	}
	gate, err := kmsprecondition.NewGate(opts.InstanceName, gateOptions)
	if err != nil {
		return nil, fmt.Errorf("rollout gate: %w", err)
	}
	c.Precondition, c.ReadinessCheck = gate.Precondition, gate.ReadinessCheck
	c.configSync = &configSync{
		component: opts.OperandNamespace,
		gate:      gate,
		source:    synced,
		enabled: encryptionEnabled{
			component: opts.OperandNamespace,
			apiServer: opts.APIServerInformer.Lister(),
			managed:   managedSecrets.Secrets(managedNamespace),
		},
	}

	if t.rollout == nil {
		return c, nil
	}
	rollback, err := kmsrollback.NewController(opts.InstanceName, kmsrollback.Options{
		Rollout:        t.rollout,
		Configs:        configs,
		Target:         kmsrollback.ManagedEncryptionConfig(kube, opts.OperandNamespace),
		Health:         kmsState,
		AdminConfig:    kmsrollback.APIServerEncryption(opts.APIServerInformer.Lister()),
		Store:          holds,
		OperatorClient: t.operator,
		Recorder:       opts.Recorder.WithComponentSuffix("kms-rollback"),
		// The operand's pods only, as the lab ran it before the entry point. With the operator namespace's
		// ConfigMaps too, every write of kmsstate's memory synced it, and a revert raced library-go's installer
		// recording the startup monitor's fallback (TestTourSingleNode's misconfigured-kms plays that fallback). The
		// minute's resync still releases a hold after the admin's change.
		Informers: t.rolloutInformers,
	})
	if err != nil {
		return nil, fmt.Errorf("kmsrollback: %w", err)
	}
	c.runners = append(c.runners, rollback)
	return c, nil
}

// addPreflight sets the KMS preflight library-go's encryption controllers run and, with Options.Preflight, the
// reporter of its failures, and returns the rollout gate's policy for unverified keys that goes with it unless
// Options.UnverifiedKMSReadKeys names one.
func (c *Controllers) addPreflight(opts Options, t topology) (kmsprecondition.UnverifiedReadKeyPolicy, error) {
	c.PreflightDeployer, c.PreflightConfiguration = alwaysSucceedPreflight()
	policy := kmsprecondition.AdmitUnverifiedReadKeys
	if p := opts.Preflight; p != nil {
		timeout := p.CallTimeout
		if timeout == 0 {
			timeout = defaultPreflightCallTimeout
		}
		newDeployer := kmspreflight.NewPodPreflightDeployer
		if t.staticPodPreflight {
			newDeployer = kmspreflight.NewStaticPodPreflightDeployer
		}
		kube := opts.KubeClient
		c.PreflightDeployer = kmsprecondition.StalePreflightPods(newDeployer(opts.OperandNamespace, kube.CoreV1(), kube.RbacV1(),
			opts.Recorder.WithComponentSuffix("kms-preflight"), p.Image, p.Command, timeout), opts.StatusProvider)
		c.PreflightConfiguration = kmsprecondition.PreflightConfiguration(opts.OperandNamespace, opts.EncryptedResources, p.APIServers.APIServers(),
			kube.CoreV1(), kube.CoreV1(), opts.StatusProvider)
		policy = kmsprecondition.BlockUnverifiedReadKeys
		// library-go's deployers run the kms-preflight pod in the operand's namespace.
		pods := opts.KubeInformers.InformersFor(opts.OperandNamespace).Core().V1().Pods()
		reporter, err := kmsprecondition.NewPreflightReporter(opts.InstanceName, kmsprecondition.PreflightReportOptions{
			StatusProvider: opts.StatusProvider,
			Pods:           pods.Lister().Pods(opts.OperandNamespace),
			PodInformer:    pods.Informer(),
			APIServers:     p.APIServers.APIServers(),
			Secrets:        kube.CoreV1(),
			ConfigMaps:     kube.CoreV1(),
			OperatorClient: t.operator,
			Recorder:       opts.Recorder,
		})
		if err != nil {
			return "", fmt.Errorf("KMS preflight report: %w", err)
		}
		c.runners = append(c.runners, reporter)
	}
	if opts.UnverifiedKMSReadKeys != "" {
		policy = opts.UnverifiedKMSReadKeys
	}
	return policy, nil
}

// defaultPreflightCallTimeout is the timeout library-go's key controller writes for each KMS provider.
const defaultPreflightCallTimeout = 10 * time.Second

// alwaysSucceedPreflight is what both operators wire today: library-go's always-succeed deployer and its
// placeholder computer.
func alwaysSucceedPreflight() (encryptioncontrollers.KMSPreflightDeployer, encryptioncontrollers.EncryptionConfigurationComputer) {
	return kmspreflight.NewAlwaysSucceedKMSPreflightDeployer(), encryptioncontrollers.NoopEncryptionConfigurationComputer{}
}

// addMigration builds kmsguard's migrator, which pauses while the KMS write key is not healthy on every node, and
// the controller that publishes its progress and migrates again after a KEK rotation.
func (c *Controllers) addMigration(opts Options, operator v1helpers.OperatorClient) error {
	migrator, err := kmsmigration.New(kmsmigration.Options{
		Dynamic:    opts.Migration.Dynamic,
		RESTConfig: opts.Migration.RESTConfig,
		Mapper:     opts.Migration.Mapper,
		Component:  opts.InstanceName,
		Checkpoints: kmsmigration.NewDurableFinish(opts.OperatorResource, kmsmigration.ConfigMapCheckpoints{
			Client: opts.KubeClient.CoreV1(), Namespace: opts.OperatorNamespace, Name: MigrationConfigMapName,
			Recorder: opts.Recorder.WithComponentSuffix("kms-migration"),
		}),
		KMS: c.KMSState,
	})
	if err != nil {
		return fmt.Errorf("kmsmigration: %w", err)
	}
	keySelector := metav1.ListOptions{LabelSelector: secrets.EncryptionKeySecretsLabel + "=" + opts.OperandNamespace}
	controller, err := kmsmigration.NewController(opts.InstanceName, kmsmigration.ControllerOptions{
		Migrator:       migrator,
		OperatorClient: operator,
		Recorder:       opts.Recorder.WithComponentSuffix("kms-migration"),
		WriteKeys:      kmsmigration.WriteKeysFromDeployer(c.Deployer, opts.KubeClient.CoreV1(), keySelector, opts.EncryptedResources),
		Rotations:      c.KMSState,
	})
	if err != nil {
		return fmt.Errorf("kmsmigration: %w", err)
	}
	c.KMSMigrator, c.Migrator = migrator, migrator
	c.runners = append(c.runners, controller)
	return nil
}

// addEtcd builds the census of etcd and, where it can delete, lost-key recovery.
func (c *Controllers) addEtcd(opts Options, operator v1helpers.OperatorClient, configs revisions.ConfigSource, keySecrets corev1listers.SecretLister) error {
	censusOptions := evidence.CensusOptions{}
	if opts.Etcd.Metadata != nil && opts.Etcd.Mapper != nil {
		censusOptions.Counter = &evidence.MetadataCounter{Client: opts.Etcd.Metadata, Mapper: opts.Etcd.Mapper}
	}
	controllerOptions := evidence.CensusControllerOptions{
		Census:            evidence.NewCensus(opts.Etcd.KV, censusOptions),
		Targets:           evidence.TargetsFromConfig(configs, c.KMSState, evidence.TargetOptions{EtcdPrefix: opts.Etcd.Prefix}),
		OperatorClient:    operator,
		Recorder:          opts.Recorder,
		MigrationFinished: c.migrationFinished(keySecrets, opts.OperandNamespace),
		Interval:          opts.Intervals.Census,
	}
	if c.KMSMigrator != nil { // a nil *Migrator in the interface would be a source that is not nil
		controllerOptions.Migrator = c.KMSMigrator
	}
	census, err := evidence.NewCensusController(opts.InstanceName, controllerOptions)
	if err != nil {
		return fmt.Errorf("census: %w", err)
	}
	c.Census = census
	c.runners = append(c.runners, census)

	if opts.Etcd.Dynamic == nil || opts.Etcd.Discovery == nil {
		return nil
	}
	// The one API call at construction: which of the encrypted resources the apiserver serves, and where.
	resources, _, err := kmsrecovery.Resolve(opts.Etcd.Discovery, opts.EncryptedResources)
	if err != nil {
		return fmt.Errorf("kmsrecovery: resolving %v: %w", opts.EncryptedResources, err)
	}
	recovery, err := kmsrecovery.NewController(opts.InstanceName, kmsrecovery.Options{
		OperatorClient: operator,
		Dynamic:        opts.Etcd.Dynamic,
		Resources:      resources,
		Raw:            kmsrecovery.EtcdValues(opts.Etcd.KV),
		KMS:            kmsrecovery.KMSStateView(c.KMSState),
		ConfigMaps:     opts.KubeClient.CoreV1(),
		Namespace:      opts.OperatorNamespace,
		Record:         kmsrecovery.NewRecordStore(opts.OperatorResource),
		Caches:         CacheConfigMapNames,
		Recorder:       opts.Recorder.WithComponentSuffix("kms-recovery"),
		Interval:       opts.Intervals.Recovery,
	})
	if err != nil {
		return fmt.Errorf("kmsrecovery: %w", err)
	}
	c.runners = append(c.runners, recovery)
	return nil
}

// migrationFinished says when the latest migration of a resource finished, for the rollback window: library-go
// stamps its key secrets when its migration controller records a resource migrated (whichever migrator ran), and
// kmsguard's migrator also migrates after a KEK rotation, which keeps the key id. The later of the two wins, so
// the window is measured from the last migration.
func (c *Controllers) migrationFinished(keySecrets corev1listers.SecretLister, component string) evidence.MigrationFinishedFunc {
	libraryGo := evidence.MigratedTimestamps(keySecrets, component)
	if c.KMSMigrator == nil {
		return libraryGo
	}
	return evidence.LatestFinished(libraryGo, c.KMSMigrator.LastFinished)
}

// missing names the required options that are not set.
func (o Options) missing() []string {
	var missing []string
	for name, unset := range map[string]bool{
		"InstanceName":       o.InstanceName == "",
		"OperandNamespace":   o.OperandNamespace == "",
		"OperatorNamespace":  o.OperatorNamespace == "",
		"OperatorResource":   o.OperatorResource == nil,
		"EncryptedResources": len(o.EncryptedResources) == 0,
		"KubeClient":         o.KubeClient == nil,
		"KubeInformers":      o.KubeInformers == nil,
		"APIServerInformer":  o.APIServerInformer == nil,
		"StatusProvider":     o.StatusProvider == nil,
		"Deployer":           o.Deployer == nil,
		"Migrator":           o.Migrator == nil,
		"Recorder":           o.Recorder == nil,
	} {
		if unset {
			missing = append(missing, name)
		}
	}
	if o.Migration != nil && (o.Migration.Dynamic == nil || o.Migration.Mapper == nil) {
		missing = append(missing, "Migration.Dynamic and Migration.Mapper")
	}
	if o.Etcd != nil && o.Etcd.KV == nil {
		missing = append(missing, "Etcd.KV")
	}
	if o.Preflight == nil && !o.StubPreflight {
		missing = append(missing, "Preflight (or StubPreflight)")
	}
	if p := o.Preflight; p != nil {
		for name, unset := range map[string]bool{"Preflight.Image": p.Image == "", "Preflight.Command": len(p.Command) == 0, "Preflight.APIServers": p.APIServers == nil} {
			if unset {
				missing = append(missing, name)
			}
		}
	}
	return missing
}

// optionsError is the error of an options type with missing fields or contradicting ones, nil when there is none.
func optionsError(options string, o Options, missing []string) error {
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("kmsguard.%s: missing %s", options, strings.Join(missing, ", "))
	}
	if o.Preflight != nil && o.StubPreflight {
		return fmt.Errorf("kmsguard.%s: Preflight and StubPreflight exclude each other", options)
	}
	return nil
}
