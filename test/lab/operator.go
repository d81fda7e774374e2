package lab

import (
	"context"
	"os"
	"sync"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/operator/encryption"
	"github.com/openshift/library-go/pkg/operator/encryption/controllers/migrators"
	encryptiondeployer "github.com/openshift/library-go/pkg/operator/encryption/deployer"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/resourcesynccontroller"
	"github.com/openshift/library-go/pkg/operator/revisioncontroller"
	"github.com/openshift/library-go/pkg/operator/staticpod"
	"github.com/openshift/library-go/pkg/operator/status"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsguard"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/kmsstate/apiserverprobe"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// EncryptedResources are the resources kube-apiserver-operator encrypts.
var EncryptedResources = []schema.GroupResource{{Resource: "secrets"}, {Resource: "configmaps"}}

// Operator is the lab's kube-apiserver-operator: library-go's static-pod and encryption controllers and
// kmsguard's controllers, wired in startOperator as kube-apiserver-operator's starter wires them.
type Operator struct {
	// Client is library-go's client for the KubeAPIServer "cluster" resource.
	Client v1helpers.StaticPodOperatorClient
	// KMSState is kmsguard's KMS health controller, the read API the other kmsguard controllers use.
	KMSState *kmsstate.Controller
	// Migrator is kmsguard's migrator, which library-go's migration controller drives.
	Migrator *kmsmigration.Migrator
	// Census is kmsguard's census of etcd: KMSEncryptionVerified, and the rollout gate's evidence for
	// dropping a read key.
	Census *evidence.CensusController

	// stop stops every controller of this operator; done is finished once the goroutines that run them have
	// returned.
	stop context.CancelFunc
	done sync.WaitGroup
	// etcd is the operator's etcd client, built from the operand namespace's etcd-client Secret; closed by
	// stopOperator.
	etcd *etcdclient.SecretKV
}

// operatorDeps are what the lab's operator is built on that outlives one run of it (FaultOperatorStop and
// FaultOperatorStart): etcd's client URL, the lab's apiserver prober, its timings, and the migration hold, which a
// restarted operator's migrator must honour as the stopped one did.
type operatorDeps struct {
	cfg            *rest.Config
	etcdEndpoint   string
	apiservers     *apiserverprobe.Prober
	timings        OperatorTimings
	reportInterval time.Duration
	preflight      Preflight
	hold           *migrationHold
}

// censusInterval is how often a census of etcd is taken besides after each migration. A cluster uses
// evidence.DefaultCensusInterval (30 minutes); the lab's etcd is small.
const censusInterval = 30 * time.Second

// recoveryInterval is how often the lost-key recovery scans besides when the consent changes. A cluster uses
// kmsrecovery.DefaultInterval (10 minutes): each scan LISTs every encrypted object; the lab's are few.
const recoveryInterval = 30 * time.Second

// etcdPrefix is the --etcd-prefix of the lab's kube-apiservers (envtest's default; OpenShift's is /kubernetes.io).
const etcdPrefix = "/registry"

// startOperator builds and starts every controller; they run until ctx is done or the Operator's stop is called.
// It returns once the informers have been started.
func startOperator(ctx context.Context, deps operatorDeps) (*Operator, error) {
	cfg, apiservers, timings, reportInterval, preflight := deps.cfg, deps.apiservers, deps.timings, deps.reportInterval, deps.preflight
	kubeClient, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	configClient, err := configclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	operatorClientset, err := operatorclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dynamicClient, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	metadataClient, err := metadata.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	operatorClient, dynamicInformers, err := kmsenv.NewKubeAPIServerOperatorClient(cfg)
	if err != nil {
		return nil, err
	}

	// What kube-apiserver-operator's starter has before it builds its controllers.
	kubeInformers := v1helpers.NewKubeInformersForNamespaces(kubeClient, "", TargetNamespace, OperatorNamespace, "openshift-config", "openshift-config-managed")
	clusterInformers := informers.NewSharedInformerFactory(kubeClient, 10*time.Minute)
	configInformers := configinformers.NewSharedInformerFactory(configClient, 10*time.Minute)
	recorder := events.NewKubeRecorder(kubeClient.CoreV1().Events(OperatorNamespace), "kube-apiserver-operator",
		&corev1.ObjectReference{Kind: "Deployment", Namespace: OperatorNamespace, Name: "kube-apiserver-operator"}, clock.RealClock{})
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(kubeClient.Discovery()))

	resourceSyncer := resourcesynccontroller.NewResourceSyncController("kube-apiserver", operatorClient, kubeInformers,
		kubeClient.CoreV1(), kubeClient.CoreV1(), recorder)
	// etcd's client credentials, from where cluster-etcd-operator publishes them, as kube-apiserver-operator's
	// resource sync controller copies them.
	if err := resourceSyncer.SyncConfigMap(
		resourcesynccontroller.ResourceLocation{Namespace: TargetNamespace, Name: etcdclient.DefaultCABundleName},
		resourcesynccontroller.ResourceLocation{Namespace: "openshift-config", Name: etcdclient.DefaultCABundleName}); err != nil {
		return nil, err
	}
	if err := resourceSyncer.SyncSecret(
		resourcesynccontroller.ResourceLocation{Namespace: TargetNamespace, Name: etcdclient.DefaultClientSecretName},
		resourcesynccontroller.ResourceLocation{Namespace: "openshift-config", Name: etcdclient.DefaultClientSecretName}); err != nil {
		return nil, err
	}
	// kmsguard's etcd access reads those credentials when it first needs them: the operator's pod mounts none.
	etcd, err := etcdclient.NewSecretKV(etcdclient.SecretKVOptions{Secrets: kubeClient.CoreV1(), ConfigMaps: kubeClient.CoreV1(),
		Namespace: TargetNamespace, Endpoints: []string{deps.etcdEndpoint}})
	if err != nil {
		return nil, err
	}

	// library-go's deployer reads which encryption config every apiserver runs from the mirror pods' revision
	// labels, as kube-apiserver-operator's does.
	podDeployer, err := encryptiondeployer.NewRevisionLabelPodDeployer("revision", TargetNamespace, kubeInformers, kubeClient.CoreV1(), kubeClient.CoreV1(),
		encryptiondeployer.StaticPodNodeProvider{OperatorClient: operatorClient})
	if err != nil {
		return nil, err
	}

	// kmsguard's migrator has an API client of its own, whose rate limiter FaultMigrationHold holds.
	migratorConfig := rest.CopyConfig(cfg)
	migratorConfig.RateLimiter = deps.hold
	migratorClient, err := dynamic.NewForConfig(migratorConfig)
	if err != nil {
		return nil, err
	}
	statusProvider := encryptionstatus.NewKubeAPIServer(operatorClientset.OperatorV1().KubeAPIServers())

	// What kube-apiserver-operator wires by default: the preflight is recorded as succeeded without running a
	// plugin, and the gate admits the keys it cannot verify. With PreflightPod, kmsguard's entry point gives
	// library-go's pod deployer, which runs the plugin on a node, and the gate holds a key until that preflight
	// passed for its configuration.
	var preflightOptions *kmsguard.PreflightOptions
	if preflight == PreflightPod {
		preflightOptions = &kmsguard.PreflightOptions{Image: operatorImage, Command: preflightCommand, APIServers: configClient.ConfigV1()}
	}

	// kmsguard, through the one entry point an operator uses.
	guard, err := kmsguard.NewStaticPodControllers(kmsguard.StaticPodOptions{
		Options: kmsguard.Options{
			InstanceName:         "kube-apiserver",
			OperandNamespace:     TargetNamespace,
			OperatorNamespace:    OperatorNamespace,
			OperatorResource:     operatorstate.KubeAPIServer(operatorClientset.OperatorV1().KubeAPIServers()),
			EncryptedResources:   EncryptedResources,
			KMSEncryptionEnabled: true,
			KubeClient:           kubeClient,
			KubeInformers:        kubeInformers,
			APIServerInformer:    configInformers.Config().V1().APIServers(),
			StatusProvider:       statusProvider,
			Deployer:             podDeployer,
			Migrator:             migrators.NewInProcessMigrator(dynamicClient, kubeClient.Discovery()),
			Recorder:             recorder,
			Preflight:            preflightOptions,
			StubPreflight:        preflightOptions == nil,
			Migration:            &kmsguard.MigrationOptions{Dynamic: migratorClient, RESTConfig: migratorConfig, Mapper: mapper},
			Etcd: &kmsguard.EtcdOptions{
				KV:        etcd,
				Prefix:    etcdPrefix,
				Metadata:  metadataClient,
				Mapper:    mapper,
				Dynamic:   dynamicClient,
				Discovery: kubeClient.Discovery(),
			},
			// Each kube-apiserver's own view: /healthz/kms-providers and its KMS metrics.
			APIServers: apiservers,
			Intervals: kmsguard.Intervals{ReportInterval: reportInterval, Census: censusInterval, Recovery: recoveryInterval,
				NotReadyAfter: timings.NotReadyAfter},
		},
		OperatorClient:     operatorClient,
		OperandPodSelector: labels.Set{"apiserver": "true"}.AsSelector(),
		// As the patch wires it: with the Nodes, a node drained and rebooted is KMSPluginsProgressing, not Degraded.
		NodeInformer: clusterInformers.Core().V1().Nodes(),
	})
	if err != nil {
		return nil, err
	}

	encryptionControllers, err := encryption.NewControllers(
		TargetNamespace,
		nil,
		encryption.StaticEncryptionProvider(EncryptedResources),
		guard.Deployer,
		guard.Migrator,
		operatorClient,
		configClient.ConfigV1().APIServers(),
		configInformers.Config().V1().APIServers(),
		kubeInformers,
		kubeClient.CoreV1(),
		kubeClient.CoreV1(),
		recorder,
		resourceSyncer,
		statusProvider,
		guard.PreflightDeployer,
		guard.PreflightConfiguration,
	)
	if err != nil {
		return nil, err
	}
	if err := guard.HoldEncryptionConfigSync(resourceSyncer); err != nil {
		return nil, err
	}

	// The static pod manifest with library-go's KMS plugin sidecars, as kube-apiserver-operator's target config
	// controller writes it.
	targetConfig := newTargetConfigController(kubeClient, kubeInformers.InformersFor(TargetNamespace).Core().V1().Secrets().Informer(), recorder)

	// library-go's static-pod controllers, as kube-apiserver-operator builds them, less what the lab has no
	// use for (certificates, the PDB guard, the startup monitor's own pod: the node agent of a single-node lab
	// plays the startup monitor, see Node). Without a garbage collector, pruning removes the revisions' status
	// ConfigMaps and the nodes' installed files, not the revisioned copies they own.
	// library-go's prune controller reads its pruner pods' image from the environment, as kube-apiserver-operator's
	// Deployment sets it.
	if os.Getenv("OPERATOR_IMAGE") == "" {
		if err := os.Setenv("OPERATOR_IMAGE", operatorImage); err != nil {
			return nil, err
		}
	}
	versionRecorder := status.NewVersionGetter()
	staticPodControllers, err := staticpod.NewBuilder(operatorClient, kubeClient, kubeInformers, clusterInformers, configInformers, clock.RealClock{}).
		WithEvents(recorder).
		// The node agents play the installer; the image (kube-apiserver-operator's, from $OPERATOR_IMAGE) only has
		// to be valid.
		WithCustomInstaller([]string{operatorBinary, "installer"}, func(pod *corev1.Pod, _ string, _ *operatorv1.StaticPodOperatorSpec, _ int32) error {
			pod.Spec.Containers[0].Image = operatorImage
			return nil
		}).
		WithRevisionedResources(TargetNamespace, staticPodName,
			[]revisioncontroller.RevisionResource{{Name: podConfigMapName}, {Name: etcdclient.DefaultCABundleName}},
			[]revisioncontroller.RevisionResource{{Name: etcdclient.DefaultClientSecretName}, {Name: encryptiondata.EncryptionConfSecretName, Optional: true}}).
		// The nodes run the pruner pods with the operator binary's prune command; library-go takes their image from
		// $OPERATOR_IMAGE (set in Start).
		WithPruning([]string{operatorBinary, "prune"}, podConfigMapName).
		WithVersioning("kube-apiserver", versionRecorder).
		WithOperandPodLabelSelector(labels.Set{"apiserver": "true"}.AsSelector()).
		WithRevisionControllerPrecondition(guard.Precondition).
		// kube-apiserver-operator's own check first, composed with kmsguard's, as the integration patch does.
		WithRevisionControllerReadinessCheck(kmsguard.AllReady(kmsRevisionReadinessCheck(kubeClient), guard.ReadinessCheck)).
		WithMinReadyDuration(timings.MinReadyDuration).
		ToControllers()
	if err != nil {
		return nil, err
	}

	ctx, stop := context.WithCancel(ctx)
	o := &Operator{Client: operatorClient, KMSState: guard.KMSState, Migrator: guard.KMSMigrator, Census: guard.Census, stop: stop, etcd: etcd}
	kubeInformers.Start(ctx.Done())
	clusterInformers.Start(ctx.Done())
	configInformers.Start(ctx.Done())
	dynamicInformers.Start(ctx.Done())

	// library-go's encryption controllers and kmsguard's return once ctx is done, not once their workers have:
	// a sync under way may still finish after stopOperator returns, as a request of a killed operator pod may
	// still reach the apiserver.
	for _, run := range []func(context.Context){
		staticPodControllers.Start,
		func(ctx context.Context) { resourceSyncer.Run(ctx, 1) },
		func(ctx context.Context) { targetConfig.Run(ctx, 1) },
		func(ctx context.Context) { encryptionControllers.Run(ctx, 1) },
		func(ctx context.Context) { guard.Run(ctx, 1) },
	} {
		o.done.Add(1)
		go func() {
			defer o.done.Done()
			run(ctx)
		}()
	}
	return o, nil
}

// stopOperator stops every controller of o and waits until the goroutines that run them have returned.
func stopOperator(o *Operator) {
	o.stop()
	o.done.Wait()
	if o.etcd != nil {
		_ = o.etcd.Close()
	}
}
