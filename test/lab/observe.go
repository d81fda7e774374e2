package lab

import (
	"context"
	"errors"
	"fmt"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/restmapper"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsguard"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// What the lab reads of the operator, it reads as an admin of a cluster can: the operator resource, the ConfigMaps
// kmsguard publishes in the operator's namespace, and etcd. Nothing here reaches into the operator's process, so
// that the tour judges the operator a cluster runs, whichever process that is.

// OperatorResource is kubeapiservers/cluster as the API serves it now.
func (l *Lab) OperatorResource(ctx context.Context) (*operatorv1.KubeAPIServer, error) {
	return l.operators.OperatorV1().KubeAPIServers().Get(ctx, "cluster", metav1.GetOptions{})
}

// OperatorStatus is the status of kubeapiservers/cluster as the API serves it now: the revisions of every node and
// every condition the operator and kmsguard write.
func (l *Lab) OperatorStatus(ctx context.Context) (*operatorv1.StaticPodOperatorStatus, error) {
	kas, err := l.OperatorResource(ctx)
	if err != nil {
		return nil, err
	}
	return &kas.Status.StaticPodOperatorStatus, nil
}

// KMSState is the evaluation kmsstate published last (openshift-kube-apiserver-operator/kmsguard-kms-state, what
// `kmsguard status` reads): the typed verdict the KMS conditions and their messages were written from. It is a
// *kmsstate.UnhealthyError with ReasonStateNotEvaluated when nothing is published, and with ReasonStateStale when
// the evaluation is older than kmsstate's freshness bound, as while the operator is stopped.
func (l *Lab) KMSState(ctx context.Context) (kmsstate.State, error) {
	store := kmsstate.ConfigMapPublisher{Client: l.kube.CoreV1(), Namespace: OperatorNamespace, Name: kmsstate.DefaultConfigMapName}
	return store.ReadFresh(ctx, kmsstate.Config{ReportInterval: l.reporter.reportInterval()}.StaleAfter(), time.Now())
}

// PublishedKMSState is kmsstate's verdict as the lab reads it from the API (Lab.KMSState), for what takes a
// kmsstate reader outside the operator: a drill's own migrator (kmsmigration.Options.KMS) and lost-key recovery
// run as `kmsguard recover` runs it (kmsrecovery.KMSStateView).
type PublishedKMSState struct{ lab *Lab }

// PublishedKMSState returns the reader of the verdict kmsstate publishes.
func (l *Lab) PublishedKMSState() PublishedKMSState { return PublishedKMSState{lab: l} }

// publishedStateTimeout bounds one read of the published verdict.
const publishedStateTimeout = 10 * time.Second

// Current reads the published verdict (Lab.KMSState).
func (p PublishedKMSState) Current() (kmsstate.State, error) {
	ctx, cancel := context.WithTimeout(context.Background(), publishedStateTimeout)
	defer cancel()
	return p.lab.KMSState(ctx)
}

// Migration is kmsguard's latest migration of one resource, as its checkpoints record it.
type Migration struct {
	Resource schema.GroupResource
	kmsmigration.Checkpoint
}

// Migrations are the latest migration of each encrypted resource, as kmsguard records them where an admin reads
// them: a finished one on the operator resource, one in progress in the ConfigMap kmsguard-migration of the
// operator's namespace. A resource never migrated is left out.
func (l *Lab) Migrations(ctx context.Context) ([]Migration, error) {
	store := kmsmigration.NewDurableFinish(operatorstate.KubeAPIServer(l.operators.OperatorV1().KubeAPIServers()),
		kmsmigration.ConfigMapCheckpoints{Client: l.kube.CoreV1(), Namespace: OperatorNamespace, Name: kmsguard.MigrationConfigMapName})
	var migrations []Migration
	for _, gr := range EncryptedResources {
		cp, err := store.Load(ctx, gr)
		if err != nil {
			return nil, fmt.Errorf("the migration of %s: %w", gr, err)
		}
		if cp != nil {
			migrations = append(migrations, Migration{Resource: gr, Checkpoint: *cp})
		}
	}
	return migrations, nil
}

// Census takes a census of etcd as `kmsguard verify` takes one: every resource the latest revision's encryption
// config encrypts, counted against its write key, a KMS v2 write key at kekID (the KEK id the lab's KMS serves, as an
// admin reads it from the KMS), each beside the API's count of its objects. It is the lab's own proof from etcd,
// whatever the operator's census says.
func (l *Lab) Census(ctx context.Context, kekID string) ([]*evidence.Report, error) {
	configs := revisions.ConfigSourceFunc(func(ctx context.Context) (revisions.Configs, error) {
		status, err := l.OperatorStatus(ctx)
		if err != nil {
			return revisions.Configs{}, err
		}
		name := revisions.SecretName(status.LatestAvailableRevision)
		secret, err := l.kube.CoreV1().Secrets(TargetNamespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return revisions.Configs{}, fmt.Errorf("the latest revision's encryption config: %w", err)
		}
		return revisions.Configs{Deployed: secret.Data[encryptiondata.EncryptionConfSecretKey], DeployedName: "secret " + TargetNamespace + "/" + name}, nil
	})
	keks := kekIDSource(func(string) (string, error) {
		if kekID == "" {
			return "", errors.New("no KEK id given for the KMS v2 write key")
		}
		return kekID, nil
	})
	targets, err := evidence.TargetsFromConfig(configs, keks, evidence.TargetOptions{})(ctx)
	if err != nil {
		return nil, err
	}
	if len(targets) == 0 {
		return nil, errors.New("the latest revision's encryption config encrypts nothing")
	}
	etcd, err := etcdclient.Connect(ctx, l.EtcdConfig())
	if err != nil {
		return nil, err
	}
	defer etcd.Close()
	discoveryClient, err := discovery.NewDiscoveryClientForConfig(l.restConfig)
	if err != nil {
		return nil, err
	}
	metadataClient, err := metadata.NewForConfig(l.restConfig)
	if err != nil {
		return nil, err
	}
	// The API's count of each resource: keys in etcd alone prove nothing about objects stored elsewhere.
	census := evidence.NewCensus(etcd, evidence.CensusOptions{Counter: &evidence.MetadataCounter{
		Client: metadataClient,
		Mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(discoveryClient)),
	}})
	var reports []*evidence.Report
	for _, t := range targets {
		report, err := census.Take(ctx, t.Resources, t.WriteKey)
		if err != nil {
			return nil, err
		}
		reports = append(reports, report)
	}
	return reports, nil
}

// kekIDSource adapts a function to evidence.KEKIDSource.
type kekIDSource func(keyID string) (string, error)

func (f kekIDSource) SettledKEKID(keyID string) (string, error) { return f(keyID) }
