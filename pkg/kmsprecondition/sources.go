package kmsprecondition

import (
	"context"
	"fmt"

	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
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
// Gate.ReadinessCheck.
type RevisionConfigSource interface {
	ConfigSource
	RevisionConfigs(ctx context.Context, revision int32) (Configs, error)
}

// ConfigSourceFunc adapts a function to ConfigSource, for apiservers whose configs live elsewhere.
type ConfigSourceFunc func(ctx context.Context) (Configs, error)

// Configs calls f.
func (f ConfigSourceFunc) Configs(ctx context.Context) (Configs, error) { return f(ctx) }

// RevisionedSecrets reads the configs as library-go's revision controller lays them out, for every operator
// that runs it, static-pod (kube-apiserver-operator) or Deployment-based (openshift-apiserver-operator, whose
// pods carry the revision label library-go's RevisionLabelPodDeployer reads): the candidate is
// <namespace>/encryption-config, which library-go's encryption controllers keep in sync, and the deployed config
// is encryption-config-<latestAvailableRevision>. operator is the plain OperatorClient, so a
// StaticPodOperatorClient and a Deployment operator's client both fit.
//
// Pass the live client (kubeClient.CoreV1()), not a lister or v1helpers.CachedSecretGetter: ReadinessCheck reads
// encryption-config-<rev> a moment after the revision controller created it, before an informer may have it,
// and a cache miss would read as "this revision has no encryption config" and let it through.
func RevisionedSecrets(secrets corev1client.SecretsGetter, namespace string, operator v1helpers.OperatorClient) RevisionConfigSource {
	return &revisionedSecrets{secrets: secrets, namespace: namespace, operator: operator}
}

type revisionedSecrets struct {
	secrets   corev1client.SecretsGetter
	namespace string
	operator  v1helpers.OperatorClient
}

func (s *revisionedSecrets) Configs(ctx context.Context) (Configs, error) {
	return s.read(ctx, encryptiondata.EncryptionConfSecretName)
}

func (s *revisionedSecrets) RevisionConfigs(ctx context.Context, revision int32) (Configs, error) {
	return s.read(ctx, fmt.Sprintf("%s-%d", encryptiondata.EncryptionConfSecretName, revision))
}

func (s *revisionedSecrets) read(ctx context.Context, candidateName string) (Configs, error) {
	_, status, _, err := s.operator.GetOperatorState()
	if err != nil {
		return Configs{}, fmt.Errorf("reading the operator status: %w", err)
	}
	configs := Configs{CandidateName: s.namespace + "/" + candidateName}
	if configs.Candidate, err = s.get(ctx, candidateName); err != nil {
		return Configs{}, err
	}
	// Revision 0 is "no revision yet": nothing is deployed.
	if rev := status.LatestAvailableRevision; rev > 0 {
		deployedName := fmt.Sprintf("%s-%d", encryptiondata.EncryptionConfSecretName, rev)
		configs.DeployedName = s.namespace + "/" + deployedName
		if configs.Deployed, err = s.get(ctx, deployedName); err != nil {
			return Configs{}, err
		}
	}
	return configs, nil
}

// get returns the encryption config in the secret, nil when there is no such secret: the revision controller
// copies encryption-config as an optional secret, so a revision without it runs without encryption.
func (s *revisionedSecrets) get(ctx context.Context, name string) ([]byte, error) {
	secret, err := s.secrets.Secrets(s.namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading secret %s/%s: %w", s.namespace, name, err)
	}
	return secret.Data[encryptiondata.EncryptionConfSecretKey], nil
}
