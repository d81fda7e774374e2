package kmsprecondition

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	corev1listers "k8s.io/client-go/listers/core/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
)

// PreflightOutcome is what library-go's KMS preflight proved about the KMS configuration one key was made from.
type PreflightOutcome string

const (
	// PreflightSucceeded: a preflight that ran the plugin succeeded for exactly this key's configuration.
	PreflightSucceeded PreflightOutcome = "Succeeded"
	// PreflightFailed: the preflight ran for exactly this key's configuration and failed.
	PreflightFailed PreflightOutcome = "Failed"
	// PreflightUnverified: nothing is known: no result, a result for another configuration (the preflight
	// result is operator-wide and the next configuration's overwrites it), or a result of library-go's
	// always-succeed deployer, which runs no plugin.
	PreflightUnverified PreflightOutcome = "Unverified"
)

// PreflightEvidence is a PreflightOutcome and what it was read from, for messages.
type PreflightEvidence struct {
	Outcome PreflightOutcome
	Detail  string
}

// PreflightReader says what library-go's KMS preflight proved about the configuration KMS key keyID (library-go's
// key id) was made from. An error means the evidence could not be read, not that it is bad.
type PreflightReader interface {
	PreflightOf(ctx context.Context, keyID string) (PreflightEvidence, error)
}

// AlwaysSucceedRemoteKeyID is the remote key id library-go's NewAlwaysSucceedKMSPreflightDeployer reports: a
// result carrying it ran no plugin and proves nothing.
const AlwaysSucceedRemoteKeyID = "always-succeed"

// PreflightFromStatus reads library-go's KMS preflight result (status.encryptionStatus.preflight.result of the
// operator resource, library-go 6a2a406da642 and later) and binds it to a key: the result counts for key N only
// when its configHash is the hash of the KMS configuration stored in N's key secret
// (encryption-key-<component>-<N> in openshift-config-managed, listed by keySecrets), computed as library-go's key
// controller computed it when it asked for the preflight before making N. A result of the always-succeed deployer,
// which both operators wire today, is Unverified.
func PreflightFromStatus(status kms.EncryptionStatusProvider, keySecrets corev1listers.SecretLister, component string) PreflightReader {
	return statusPreflight{status: status, keySecrets: keySecrets, component: component}
}

type statusPreflight struct {
	status     kms.EncryptionStatusProvider
	keySecrets corev1listers.SecretLister
	component  string
}

func (p statusPreflight) PreflightOf(ctx context.Context, keyID string) (PreflightEvidence, error) {
	name := fmt.Sprintf("encryption-key-%s-%s", p.component, keyID)
	secret, err := p.keySecrets.Secrets(encryptionconfig.ManagedNamespace).Get(name)
	if apierrors.IsNotFound(err) {
		// A KMS provider no library-go key stands behind (a hand-written config): no preflight was asked for it.
		return PreflightEvidence{Outcome: PreflightUnverified, Detail: fmt.Sprintf("key %s has no key secret %s/%s, so no preflight is bound to it", keyID, encryptionconfig.ManagedNamespace, name)}, nil
	}
	if err != nil {
		return PreflightEvidence{}, fmt.Errorf("reading key secret %s/%s: %w", encryptionconfig.ManagedNamespace, name, err)
	}
	keyState, err := secrets.ToKeyState(secret)
	if err != nil {
		return PreflightEvidence{}, fmt.Errorf("decoding key secret %s/%s: %w", encryptionconfig.ManagedNamespace, name, err)
	}
	keyHash, err := KMSConfigHash(keyState)
	if err != nil {
		return PreflightEvidence{}, fmt.Errorf("key secret %s/%s: %w", encryptionconfig.ManagedNamespace, name, err)
	}
	status, err := p.status.GetKMSEncryptionStatus(ctx)
	if err != nil {
		return PreflightEvidence{}, fmt.Errorf("reading the KMS preflight status: %w", err)
	}
	result := status.Preflight.Result
	switch {
	case result.Status == "":
		return PreflightEvidence{Outcome: PreflightUnverified, Detail: fmt.Sprintf("no preflight result recorded (key %s's configuration is %q)", keyID, keyHash)}, nil
	case result.ConfigHash != keyHash:
		return PreflightEvidence{Outcome: PreflightUnverified, Detail: fmt.Sprintf("the preflight result (%s) is for configuration %q, key %s's is %q", result.Status, result.ConfigHash, keyID, keyHash)}, nil
	case result.Status == operatorv1.KMSPreflightResultFailed:
		return PreflightEvidence{Outcome: PreflightFailed, Detail: fmt.Sprintf("the preflight of key %s's configuration %q failed", keyID, keyHash)}, nil
	case result.Status != operatorv1.KMSPreflightResultSucceeded:
		return PreflightEvidence{Outcome: PreflightUnverified, Detail: fmt.Sprintf("the preflight of key %s's configuration %q ended %q, which is neither Succeeded nor Failed", keyID, keyHash, result.Status)}, nil
	case result.RemoteKeyID == AlwaysSucceedRemoteKeyID:
		return PreflightEvidence{Outcome: PreflightUnverified, Detail: fmt.Sprintf("the preflight of key %s's configuration %q is library-go's always-succeed stub, which runs no plugin", keyID, keyHash)}, nil
	}
	return PreflightEvidence{Outcome: PreflightSucceeded, Detail: fmt.Sprintf("the preflight of key %s's configuration %q succeeded (KEK id %q)", keyID, keyHash, result.RemoteKeyID)}, nil
}

// KMSConfigHash is the hash library-go's key controller gives the KMS configuration a key is made from, and the
// preflight result's configHash names: FNV-32 over the JSON of the provider's configuration, then, by sorted data
// key, each key and value the key secret carries from the referenced Secret and ConfigMap; URL-safe base64.
//
// Adapter: library-go computes it (kmsConfigHasher in controllers/kms_preflight_controller.go) only from the
// APIServer resource and the referenced objects, and does not record it on the key it makes. Recording it on the key
// secret (an annotation beside encryption.apiserver.operator.openshift.io/mode) would remove this copy; until then
// TestKMSConfigHashIsLibraryGos runs library-go's key controller to hold the two together. Like library-go, it
// knows Vault only.
func KMSConfigHash(key state.KeyState) (string, error) {
	if key.KMS == nil {
		return "", fmt.Errorf("key %s is not a KMS key", key.Key.Name)
	}
	refs, err := kmsReferences(key.KMS.Plugin)
	if err != nil {
		return "", fmt.Errorf("key %s: %w", key.Key.Name, err)
	}
	hasher := fnv.New32()
	if err := json.NewEncoder(hasher).Encode(key.KMS.Plugin.Vault); err != nil {
		return "", fmt.Errorf("key %s: hashing the provider configuration: %w", key.Key.Name, err)
	}
	references := []struct {
		data *state.KMSReferenceData
		kmsReference
	}{
		{&key.KMS.PluginSecretData, refs.secret},
		{&key.KMS.PluginConfigMapData, refs.configMap},
	}
	for _, ref := range references {
		if ref.name == "" {
			continue
		}
		keys := append([]string(nil), ref.keys...)
		sort.Strings(keys)
		for _, k := range keys {
			v, ok := ref.data.Get(ref.name, k)
			if !ok {
				return "", fmt.Errorf("key %s carries no %q of %s", key.Key.Name, k, ref.name)
			}
			// Writes to an FNV hash never fail.
			_, _ = hasher.Write([]byte(k))
			_, _ = hasher.Write(v)
		}
	}
	return base64.URLEncoding.EncodeToString(hasher.Sum(nil)), nil
}
