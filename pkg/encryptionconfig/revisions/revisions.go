// Package revisions reads the encryption configs of library-go's revisions: the candidate encryption-config that
// the next revision copies, and encryption-config-<revision> of each revision, as the rollout gate
// (kmsprecondition), the rollback (kmsrollback) and the census (kmsmigration) read them. It also names a config:
// Hash, the sha256 an admin sees in the gate's and the rollback's messages and the forceRevision override names.
package revisions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
)

// Configs are the raw encryption configs the gate compares. Nil data means "no encryption config".
type Configs struct {
	// Candidate is the config the next revision would roll out.
	Candidate []byte
	// Deployed is the config of the latest revision, the one the candidate would replace.
	Deployed []byte
	// CandidateName and DeployedName say where they came from, for messages ("secret ns/name").
	CandidateName, DeployedName string
}

// ConfigSource says where the candidate and deployed configs come from.
type ConfigSource interface {
	Configs(ctx context.Context) (Configs, error)
}

// RevisionConfigSource is a ConfigSource that can also read the config of a revision being assembled, for
// the gate's ReadinessCheck.
type RevisionConfigSource interface {
	ConfigSource
	RevisionConfigs(ctx context.Context, revision int32) (Configs, error)
}

// ConfigSourceFunc adapts a function to ConfigSource, for apiservers whose configs live elsewhere.
type ConfigSourceFunc func(ctx context.Context) (Configs, error)

// Configs calls f.
func (f ConfigSourceFunc) Configs(ctx context.Context) (Configs, error) { return f(ctx) }

// Reader reads the encryption config of one revision.
type Reader interface {
	// RevisionConfig returns the data of encryption-config-<revision> (the EncryptionConfiguration and the KMS
	// plugin configs beside it), nil when the revision has no encryption config.
	RevisionConfig(ctx context.Context, revision int32) (map[string][]byte, error)
}

// Secrets reads the configs as library-go's revision controller lays them out in namespace, for every operator
// that runs it, static-pod (kube-apiserver-operator) or Deployment-based (openshift-apiserver-operator, whose
// pods carry the revision label library-go's RevisionLabelPodDeployer reads): the candidate is
// <namespace>/encryption-config, which library-go's encryption controllers keep in sync, the deployed config is
// encryption-config-<latestAvailableRevision>, and a revision's config is encryption-config-<revision>. operator
// is the plain OperatorClient, so a StaticPodOperatorClient and a Deployment operator's client both fit.
//
// Pass the live client (kubeClient.CoreV1()), not a lister or v1helpers.CachedSecretGetter: the gate's
// ReadinessCheck reads encryption-config-<rev> a moment after the revision controller created it, before an
// informer may have it, and a cache miss would read as "this revision has no encryption config" and let it
// through; the rollback reads a revision just created as well.
func Secrets(secrets corev1client.SecretsGetter, namespace string, operator v1helpers.OperatorClient) *SecretSource {
	return &SecretSource{secrets: secrets, namespace: namespace, operator: operator}
}

// SecretSource is a RevisionConfigSource and a Reader over the operand namespace's secrets (Secrets).
type SecretSource struct {
	secrets   corev1client.SecretsGetter
	namespace string
	operator  v1helpers.OperatorClient
}

var (
	_ RevisionConfigSource = (*SecretSource)(nil)
	_ Reader               = (*SecretSource)(nil)
)

// Configs implements ConfigSource: encryption-config against the latest available revision's.
func (s *SecretSource) Configs(ctx context.Context) (Configs, error) {
	return s.read(ctx, s.namespace, encryptiondata.EncryptionConfSecretName)
}

// RevisionConfigs implements RevisionConfigSource: encryption-config-<revision> against the latest available
// revision's.
func (s *SecretSource) RevisionConfigs(ctx context.Context, revision int32) (Configs, error) {
	return s.read(ctx, s.namespace, SecretName(revision))
}

// Synced is a ConfigSource whose candidate is namespace/name, the config library-go's resource sync copies into
// encryption-config (openshift-config-managed/encryption-config-<component>, which library-go's state controller
// writes), against the latest available revision's config. The rollout gate judges it before the copy
// (kmsprecondition.Gate.ConfigSyncPrecondition), so that a held KMS change never reaches encryption-config and the
// revisions of every other change go on.
//
// The candidate is read from lister, the informer cache the resource sync copies from (its
// v1helpers.CachedSecretGetter over the operator's KubeInformersForNamespaces), not from the API: the sync asks its
// precondition and copies right after, from that cache, and a live read could judge another version than the one
// copied (one the cache has not seen yet, or one it has seen since).
func (s *SecretSource) Synced(lister corev1listers.SecretLister, namespace, name string) ConfigSource {
	return ConfigSourceFunc(func(ctx context.Context) (Configs, error) {
		configs, err := s.read(ctx, s.namespace, "")
		if err != nil {
			return Configs{}, err
		}
		configs.CandidateName = namespace + "/" + name
		secret, err := lister.Secrets(namespace).Get(name)
		switch {
		case apierrors.IsNotFound(err):
			configs.Candidate = nil
		case err != nil:
			return Configs{}, fmt.Errorf("reading secret %s/%s: %w", namespace, name, err)
		default:
			configs.Candidate = secret.Data[encryptiondata.EncryptionConfSecretKey]
		}
		return configs, nil
	})
}

// RevisionConfig implements Reader.
func (s *SecretSource) RevisionConfig(ctx context.Context, revision int32) (map[string][]byte, error) {
	name := SecretName(revision)
	secret, err := s.secrets.Secrets(s.namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading secret %s/%s: %w", s.namespace, name, err)
	}
	return secret.Data, nil
}

// SecretName is the name of the encryption config secret of a revision, encryption-config-<revision>.
func SecretName(revision int32) string {
	return fmt.Sprintf("%s-%d", encryptiondata.EncryptionConfSecretName, revision)
}

func (s *SecretSource) read(ctx context.Context, candidateNamespace, candidateName string) (Configs, error) {
	_, status, _, err := s.operator.GetOperatorState()
	if err != nil {
		return Configs{}, fmt.Errorf("reading the operator status: %w", err)
	}
	var configs Configs
	if candidateName != "" {
		configs.CandidateName = candidateNamespace + "/" + candidateName
		if configs.Candidate, err = s.get(ctx, candidateNamespace, candidateName); err != nil {
			return Configs{}, err
		}
	}
	// Revision 0 is "no revision yet": nothing is deployed.
	if rev := status.LatestAvailableRevision; rev > 0 {
		deployedName := SecretName(rev)
		configs.DeployedName = s.namespace + "/" + deployedName
		if configs.Deployed, err = s.get(ctx, s.namespace, deployedName); err != nil {
			return Configs{}, err
		}
	}
	return configs, nil
}

// get returns the encryption config in the secret, nil when there is no such secret: the revision controller
// copies encryption-config as an optional secret, so a revision without it runs without encryption.
func (s *SecretSource) get(ctx context.Context, namespace, name string) ([]byte, error) {
	secret, err := s.secrets.Secrets(namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading secret %s/%s: %w", namespace, name, err)
	}
	return secret.Data[encryptiondata.EncryptionConfSecretKey], nil
}

// CandidateHash identifies an EncryptionConfiguration by its bytes: "sha256:" and their hex SHA-256. The rollout
// gate names a blocked candidate by it (the forceRevision override must name it exactly), and the rollback names
// failed and reverted configs by it.
func CandidateHash(config []byte) string {
	sum := sha256.Sum256(config)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Hash is the CandidateHash of the EncryptionConfiguration in the data of an encryption-config secret, "" when
// the data has none (no encryption config).
func Hash(data map[string][]byte) string {
	raw, ok := data[encryptiondata.EncryptionConfSecretKey]
	if !ok {
		return ""
	}
	return CandidateHash(raw)
}
