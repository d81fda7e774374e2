package lab

import (
	"context"
	"fmt"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/encryption"
	encryptioncontrollers "github.com/openshift/library-go/pkg/operator/encryption/controllers"
	encryptiondeployer "github.com/openshift/library-go/pkg/operator/encryption/deployer"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	kmspreflight "github.com/openshift/library-go/pkg/operator/encryption/kms/preflight"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/resourcesynccontroller"
	"github.com/openshift/library-go/pkg/operator/revisioncontroller"
	"github.com/openshift/library-go/pkg/operator/staticpod"
	"github.com/openshift/library-go/pkg/operator/status"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/kmsstate/apiserverprobe"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// encryptedResources are the resources kube-apiserver-operator encrypts.
var encryptedResources = []schema.GroupResource{{Resource: "secrets"}, {Resource: "configmaps"}}

// Operator is the lab's kube-apiserver-operator: library-go's static-pod and encryption controllers and
// kmsguard's controllers, wired in startOperator as kube-apiserver-operator's starter wires them.
type Operator struct {
	// Client is library-go's client for the KubeAPIServer "cluster" resource.
	Client v1helpers.StaticPodOperatorClient
	// KMSState is kmsguard's KMS health controller, the read API the other kmsguard controllers use.
	KMSState *kmsstate.Controller
	// Migrator is kmsguard's migrator, which library-go's migration controller drives.
	Migrator *kmsmigration.Migrator
	// Verification is kmsguard's census of etcd: KMSEncryptionVerified, and the rollout gate's evidence for
	// dropping a read key.
	Verification *kmsmigration.VerificationController

	// migrationHold holds the migrator's API requests while FaultMigrationHold is in effect.
	migrationHold *migrationHold
}

// verifyInterval is how often the census scans etcd besides after each migration. A cluster uses
// kmsmigration.DefaultVerifyInterval (30 minutes); the lab's etcd is small.
const verifyInterval = 30 * time.Second

// recoveryInterval is how often the lost-key recovery scans besides when the consent changes. A cluster uses
// kmsrecovery.DefaultInterval (10 minutes): each scan LISTs every encrypted object; the lab's are few.
const recoveryInterval = 30 * time.Second

// etcdPrefix is the --etcd-prefix of the lab's kube-apiservers (envtest's default; OpenShift's is /kubernetes.io).
const etcdPrefix = "/registry"

// startOperator builds and starts every controller; they run until ctx is done. It returns once the informers
// have been started.
func startOperator(ctx context.Context, cfg *rest.Config, etcd clientv3.KV, apiservers *apiserverprobe.Prober) (*Operator, error) {
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

	// kmsstate: per node and KMS key, the health the node's reporter publishes (node.go runs one per node, as the
	// health-reporter sidecar does). The keys are those of the deployed config, of the candidate the next revision
	// will carry (the rollout gate asks about those) and of a config kmsrollback holds out.
	holdStore := kmsrollback.NewHoldStore(kubeClient.CoreV1(), OperatorNamespace, "kmsguard-rollback")
	statusProvider := encryptionstatus.NewKubeAPIServer(operatorClientset.OperatorV1().KubeAPIServers())
	kmsState, err := kmsstate.NewController("kube-apiserver", kmsstate.Options{
		Config:         kmsstate.Config{ReportInterval: reportInterval},
		OperatorClient: operatorClient,
		StatusProvider: statusProvider,
		Nodes:          kmsstate.StaticPodNodes(operatorClient),
		Keys:           kmsKeys(kubeClient, operatorClient, holdStore),
		Recorder:       recorder.WithComponentSuffix("kms-state"),
		Memory:         kmsstate.ConfigMapMemory{Client: kubeClient.CoreV1(), Namespace: OperatorNamespace, Name: kmsstate.DefaultConfigMapName},
		Publisher:      kmsstate.ConfigMapMemory{Client: kubeClient.CoreV1(), Namespace: OperatorNamespace, Name: kmsstate.DefaultConfigMapName},
		// Each kube-apiserver's own view: /healthz/kms-providers and its KMS metrics.
		APIServers: apiservers,
	})
	if err != nil {
		return nil, err
	}

	// library-go's deployer reads which encryption config every apiserver runs from the mirror pods' revision
	// labels; kmsrollback's HoldingDeployer keeps a reverted config from being taken for the desired one.
	podDeployer, err := encryptiondeployer.NewRevisionLabelPodDeployer("revision", TargetNamespace, kubeInformers, kubeClient.CoreV1(), kubeClient.CoreV1(),
		encryptiondeployer.StaticPodNodeProvider{OperatorClient: operatorClient})
	if err != nil {
		return nil, err
	}
	deployer := kmsrollback.NewHoldingDeployer(podDeployer, holdStore, kubeInformers.InformersFor(OperatorNamespace).Core().V1().ConfigMaps().Informer())

	// kmsmigration's Migrator in place of library-go's in-process migrator; it pauses while the KMS write key is
	// not healthy on every node. It has an API client of its own, whose rate limiter FaultMigrationHold holds.
	hold := newMigrationHold()
	migratorConfig := rest.CopyConfig(cfg)
	migratorConfig.RateLimiter = hold
	migratorClient, err := dynamic.NewForConfig(migratorConfig)
	if err != nil {
		return nil, err
	}
	keySelector := metav1.ListOptions{LabelSelector: secrets.EncryptionKeySecretsLabel + "=" + TargetNamespace}
	writeKeys := kmsmigration.WriteKeysFromDeployer(deployer, kubeClient.CoreV1(), keySelector, encryptedResources)
	migrator, err := kmsmigration.New(kmsmigration.Options{
		Dynamic:     migratorClient,
		Mapper:      mapper,
		Checkpoints: kmsmigration.ConfigMapCheckpoints{Client: kubeClient.CoreV1(), Namespace: OperatorNamespace, Name: "kmsguard-migration"},
		KMS:         kmsState,
	})
	if err != nil {
		return nil, err
	}
	migrationController, err := kmsmigration.NewController("kube-apiserver", kmsmigration.ControllerOptions{
		Migrator:       migrator,
		OperatorClient: operatorClient,
		Recorder:       recorder.WithComponentSuffix("kms-migration"),
		WriteKeys:      writeKeys,
		Rotations:      kmsState,
	})
	if err != nil {
		return nil, err
	}

	encryptionControllers, err := encryption.NewControllers(
		TargetNamespace,
		nil,
		encryption.StaticEncryptionProvider(encryptedResources),
		deployer,
		migrator,
		operatorClient,
		configClient.ConfigV1().APIServers(),
		configInformers.Config().V1().APIServers(),
		kubeInformers,
		kubeClient.CoreV1(),
		kubeClient.CoreV1(),
		recorder,
		resourceSyncer,
		statusProvider,
		// What kube-apiserver-operator wires: the preflight is recorded as succeeded without running a plugin.
		kmspreflight.NewAlwaysSucceedKMSPreflightDeployer(),
		encryptioncontrollers.NoopEncryptionConfigurationComputer{},
	)
	if err != nil {
		return nil, err
	}

	// The census: scans etcd after each migration and every verifyInterval, publishes KMSEncryptionVerified,
	// and keeps the reports the rollout gate judges dropped read keys by. It reads the deployed config from the
	// same place as the gate, and the KMS write key's KEK id from kmsstate.
	configs := revisions.Secrets(kubeClient.CoreV1(), TargetNamespace, operatorClient)
	census, err := kmsmigration.NewVerificationController("kube-apiserver", kmsmigration.VerificationOptions{
		Verifier: evidence.NewVerifier(etcd, evidence.Options{
			// The API's object count confirms that the scan looked where the objects are.
			Counter: &evidence.MetadataCounter{Client: metadataClient, Mapper: mapper},
		}),
		Targets:        kmsmigration.TargetsFromConfig(configs, kmsState, kmsmigration.TargetOptions{EtcdPrefix: etcdPrefix}),
		OperatorClient: operatorClient,
		Recorder:       recorder,
		Migrator:       migrator,
		Interval:       verifyInterval,
	})
	if err != nil {
		return nil, err
	}

	// The rollout gate: no revision that changes KMS providers before they are healthy on every node, none that
	// drops a read key etcd still holds values under, or within the rollback window of the migration away from it.
	gate, err := kmsprecondition.NewGate("kube-apiserver", kmsprecondition.Options{
		Configs:        configs,
		Nodes:          kmsstate.StaticPodNodes(operatorClient),
		Health:         kmsState,
		Evidence:       census,
		Reverts:        holdStore,
		OperatorClient: operatorClient,
		Recorder:       recorder.WithComponentSuffix("kms-rollout-gate"),
	})
	if err != nil {
		return nil, err
	}

	// library-go's static-pod controllers, as kube-apiserver-operator builds them, less what the lab has no
	// use for (certificates, pruning, the PDB guard, the startup monitor's own pod).
	versionRecorder := status.NewVersionGetter()
	staticPodControllers, err := staticpod.NewBuilder(operatorClient, kubeClient, kubeInformers, clusterInformers, configInformers, clock.RealClock{}).
		WithEvents(recorder).
		// The node agents play the installer; the image (kube-apiserver-operator's, from $OPERATOR_IMAGE) only has
		// to be valid.
		WithCustomInstaller([]string{"cluster-kube-apiserver-operator", "installer"}, func(pod *corev1.Pod, _ string, _ *operatorv1.StaticPodOperatorSpec, _ int32) error {
			pod.Spec.Containers[0].Image = "kmsguard-lab/cluster-kube-apiserver-operator"
			return nil
		}).
		WithRevisionedResources(TargetNamespace, staticPodName,
			[]revisioncontroller.RevisionResource{{Name: podConfigMapName}},
			[]revisioncontroller.RevisionResource{{Name: encryptiondata.EncryptionConfSecretName, Optional: true}}).
		WithVersioning("kube-apiserver", versionRecorder).
		WithOperandPodLabelSelector(labels.Set{"apiserver": "true"}.AsSelector()).
		WithRevisionControllerPrecondition(gate.Precondition).
		WithRevisionControllerReadinessCheck(gate.ReadinessCheck).
		ToControllers()
	if err != nil {
		return nil, err
	}

	// kmsrollback: revert a revision whose KMS change makes an apiserver fail, with evidence that KMS is to blame.
	operandPods := kubeInformers.InformersFor(TargetNamespace).Core().V1().Pods()
	rollback, err := kmsrollback.NewController("kube-apiserver", kmsrollback.Options{
		Rollout:        kmsrollback.StaticPodRollout(operatorClient, operandPods.Lister().Pods(TargetNamespace), labels.Set{"apiserver": "true"}.AsSelector(), 0, nil),
		Configs:        configs,
		Target:         kmsrollback.ManagedEncryptionConfig(kubeClient.CoreV1(), TargetNamespace),
		Health:         kmsState,
		AdminConfig:    kmsrollback.APIServerEncryption(configInformers.Config().V1().APIServers().Lister()),
		Store:          holdStore,
		OperatorClient: operatorClient,
		Recorder:       recorder.WithComponentSuffix("kms-rollback"),
		Informers:      []factory.Informer{operandPods.Informer()},
	})
	if err != nil {
		return nil, err
	}

	// Lost-key recovery: finds the objects a lost KMS key made undecryptable (from raw etcd values) and deletes
	// exactly those once the admin consents, naming the key id.
	resources, _, err := kmsrecovery.Resolve(kubeClient.Discovery(), kmsrecovery.DefaultResources)
	if err != nil {
		return nil, err
	}
	recoveryController, err := kmsrecovery.NewController("kube-apiserver", kmsrecovery.Options{
		OperatorClient: operatorClient,
		Dynamic:        dynamicClient,
		Resources:      resources,
		Raw:            kmsrecovery.EtcdValues(etcd),
		KMS:            kmsrecovery.KMSStateView(kmsState),
		ConfigMaps:     kubeClient.CoreV1(),
		Namespace:      OperatorNamespace,
		Recorder:       recorder.WithComponentSuffix("kms-recovery"),
		Interval:       recoveryInterval,
	})
	if err != nil {
		return nil, err
	}

	kubeInformers.Start(ctx.Done())
	clusterInformers.Start(ctx.Done())
	configInformers.Start(ctx.Done())
	dynamicInformers.Start(ctx.Done())

	go staticPodControllers.Start(ctx)
	go resourceSyncer.Run(ctx, 1)
	go encryptionControllers.Run(ctx, 1)
	go kmsState.Run(ctx, 1)
	go migrationController.Run(ctx, 1)
	go rollback.Run(ctx, 1)
	go recoveryController.Run(ctx, 1)
	go census.Run(ctx, 1)
	return &Operator{Client: operatorClient, KMSState: kmsState, Migrator: migrator, Verification: census, migrationHold: hold}, nil
}

// kmsKeys lists the KMS keys kmsstate watches: those of the latest revision's config, of the candidate config
// (encryption-config in the operand namespace, which the next revision copies) and of a config kmsrollback holds
// out.
//
// Adapter: encryptionconfig.KMSKeysOf takes one config and the HoldStore's key ids come separately, so every
// operator has to merge them; a kmsstate.KeyLister built from a ConfigSource and the HoldStore would remove this.
func kmsKeys(kube kubernetes.Interface, operator v1helpers.StaticPodOperatorClient, holds *kmsrollback.HoldStore) kmsstate.KeyLister {
	return kmsstate.KeyListerFunc(func(ctx context.Context) (kmsstate.Keys, error) {
		_, status, _, err := operator.GetStaticPodOperatorState()
		if err != nil {
			return kmsstate.Keys{}, err
		}
		names := []string{encryptiondata.EncryptionConfSecretName}
		if status.LatestAvailableRevision > 0 {
			names = append(names, fmt.Sprintf("%s-%d", encryptiondata.EncryptionConfSecretName, status.LatestAvailableRevision))
		}
		ids := sets.New[string]()
		keys := kmsstate.Keys{Providers: map[string]string{}}
		for _, name := range names {
			secret, err := kube.CoreV1().Secrets(TargetNamespace).Get(ctx, name, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				continue
			}
			if err != nil {
				return kmsstate.Keys{}, err
			}
			config, err := encryptionconfig.Decode(secret.Data[encryptiondata.EncryptionConfSecretKey])
			if err != nil {
				return kmsstate.Keys{}, fmt.Errorf("%s: %w", name, err)
			}
			k := encryptionconfig.KMSKeysOf(config)
			ids.Insert(k.IDs...)
			for p, id := range k.Providers {
				keys.Providers[p] = id
			}
		}
		held, err := holds.HeldKeyIDs(ctx)
		if err != nil {
			return kmsstate.Keys{}, err
		}
		ids.Insert(held...)
		keys.IDs = sets.List(ids)
		return keys, nil
	})
}
