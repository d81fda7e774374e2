package kmsrollback

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	configv1listers "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/resource/resourceapply"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
)

// Target is where the desired encryption config lives: what the revert overwrites.
type Target interface {
	// Current returns the data of the desired encryption config, nil when there is none.
	Current(ctx context.Context) (map[string][]byte, error)
	// Apply makes data the desired encryption config.
	Apply(ctx context.Context, data map[string][]byte, recorder events.Recorder) error
}

// ManagedEncryptionConfig is the secret library-go's state controller writes,
// openshift-config-managed/encryption-config-<component>, which its resource sync copies to the operand
// namespace as encryption-config, the input of the next revision. The revert writes it as the state controller
// does (encryptiondata.ToSecret): same annotation, same deletion-protection finalizer.
func ManagedEncryptionConfig(secrets corev1client.SecretsGetter, component string) Target {
	return &managedSecret{secrets: secrets, namespace: "openshift-config-managed", name: encryptiondata.EncryptionConfSecretName + "-" + component}
}

type managedSecret struct {
	secrets         corev1client.SecretsGetter
	namespace, name string
}

func (m *managedSecret) Current(ctx context.Context) (map[string][]byte, error) {
	secret, err := m.secrets.Secrets(m.namespace).Get(ctx, m.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading secret %s/%s: %w", m.namespace, m.name, err)
	}
	return secret.Data, nil
}

func (m *managedSecret) Apply(ctx context.Context, data map[string][]byte, recorder events.Recorder) error {
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:   m.namespace,
			Name:        m.name,
			Annotations: map[string]string{state.KubernetesDescriptionKey: state.KubernetesDescriptionScaryValue},
			Finalizers:  []string{"encryption.apiserver.operator.openshift.io/deletion-protection"},
		},
		Data: data,
		Type: corev1.SecretTypeOpaque,
	}
	if _, _, err := resourceapply.ApplySecret(ctx, m.secrets, recorder, secret); err != nil {
		return fmt.Errorf("writing secret %s/%s: %w", m.namespace, m.name, err)
	}
	return nil
}

// AdminConfig hashes the admin's encryption intent. A change releases a Hold: the admin has acted, and
// library-go's key controller must see it (it is paused while a Hold is active).
type AdminConfig interface {
	Hash(ctx context.Context) (string, error)
}

// AdminConfigFunc adapts a function to AdminConfig.
type AdminConfigFunc func(ctx context.Context) (string, error)

// Hash calls f.
func (f AdminConfigFunc) Hash(ctx context.Context) (string, error) { return f(ctx) }

// APIServerEncryption hashes spec.encryption of the cluster APIServer: encryption type and KMS plugin
// configuration, what library-go's key controller makes keys from.
func APIServerEncryption(lister configv1listers.APIServerLister) AdminConfig {
	return AdminConfigFunc(func(context.Context) (string, error) {
		apiServer, err := lister.Get("cluster")
		if err != nil {
			return "", fmt.Errorf("reading apiserver.config.openshift.io/cluster: %w", err)
		}
		data, err := json.Marshal(apiServer.Spec.Encryption)
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(data)
		return "sha256:" + hex.EncodeToString(sum[:]), nil
	})
}

// configHash identifies a config: revisions.Hash, the hash an admin sees in the rollout gate's messages. "" for
// no config.
func configHash(data map[string][]byte) string { return revisions.Hash(data) }
