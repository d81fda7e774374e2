package kmsprecondition

import (
	"context"
	"encoding/base64"
	"fmt"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	configv1client "github.com/openshift/client-go/config/clientset/versioned/typed/config/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/controllers"
	"github.com/openshift/library-go/pkg/operator/encryption/crypto"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// The KMS provider library-go's key controller writes into a new key (key_controller.go, generateKeySecret).
const (
	kmsEndpointFormat = "unix:///var/run/kmsplugin/kms-%d.sock"
	kmsCallTimeout    = 10 * time.Second
	// openshiftConfigNamespace holds the Secret and ConfigMap an APIServer's KMS configuration references.
	openshiftConfigNamespace = "openshift-config"
)

// PreflightConfiguration computes the encryption configuration library-go's KMS preflight pod runs its plugin
// from (controllers.EncryptionConfigurationComputer): one KMS provider for the APIServer resource's
// spec.encryption.kms, under the id of the key library-go would make next for component, with the data its plugin
// reads from the Secret and ConfigMap the configuration references in openshift-config, exactly as library-go's
// key controller would write the key. Every read goes to the API, as the key controller's do, and any error is
// returned: a preflight of a configuration that could not be read must not run. The configuration it computes
// must be the one the preflight was asked for: its hash (KMSConfigHash) must be the
// status.encryptionStatus.preflight.observedConfigHash library-go's key controller wrote, or the admin changed the
// APIServer resource in between, and it returns an error rather than have the checker prove one configuration under
// another's hash; library-go's preflight controller retries, and the next try sees the new hash.
//
// Adapter: library-go ships only NoopEncryptionConfigurationComputer, with which kms/preflight's PodPreflightDeployer
// cannot deploy ("encryptionConfigSecret is nil"), so both operators wire the always-succeed deployer. It goes away
// when library-go builds the configuration from the key state its key controller makes (generateKeySecret), which
// is the configuration the preflight is asked for. Like library-go, it knows Vault only.
func PreflightConfiguration(component string, encryptedResources []schema.GroupResource, apiServers configv1client.APIServerInterface,
	secretsGetter corev1client.SecretsGetter, configMaps corev1client.ConfigMapsGetter, status kms.EncryptionStatusProvider) controllers.EncryptionConfigurationComputer {
	return preflightConfiguration{component: component, resources: encryptedResources, apiServers: apiServers, secrets: secretsGetter,
		configMaps: configMaps, status: status}
}

type preflightConfiguration struct {
	component  string
	resources  []schema.GroupResource
	apiServers configv1client.APIServerInterface
	secrets    corev1client.SecretsGetter
	configMaps corev1client.ConfigMapsGetter
	status     kms.EncryptionStatusProvider
}

func (p preflightConfiguration) ComputeEncryptionConfiguration(ctx context.Context) (*corev1.Secret, error) {
	if len(p.resources) == 0 {
		return nil, fmt.Errorf("no encrypted resources to configure")
	}
	key, hash, encryptionType, err := p.currentKMSKey(ctx, p.nextKeyID)
	if err != nil {
		return nil, err
	}
	if encryptionType != configv1.EncryptionTypeKMS {
		return nil, fmt.Errorf("the APIServer resource's encryption type is %q, not KMS", encryptionType)
	}
	status, err := p.status.GetKMSEncryptionStatus(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the KMS preflight status: %w", err)
	}
	if asked := status.Preflight.ObservedConfigHash; asked != hash {
		return nil, fmt.Errorf("the APIServer resource's KMS configuration (%q) is not the one the preflight was asked for (%q): it changed meanwhile", hash, asked)
	}
	encryptionState := map[schema.GroupResource]state.GroupResourceState{}
	for _, gr := range p.resources {
		encryptionState[gr] = state.GroupResourceState{WriteKey: key, ReadKeys: []state.KeyState{key}}
	}
	config, err := encryptiondata.FromEncryptionState(encryptionState)
	if err != nil {
		return nil, fmt.Errorf("building the preflight's encryption configuration: %w", err)
	}
	return encryptiondata.ToSecret(p.component, encryptiondata.EncryptionConfSecretName, config)
}

// currentHash is the KMSConfigHash of the APIServer resource's KMS configuration as it is now, read live as
// library-go's preflight controller reads it to decide whether the preflight it was asked for is still wanted
// (preflightRequired); isKMS is false, and the hash empty, when its encryption is not KMS.
func (p preflightConfiguration) currentHash(ctx context.Context) (hash string, isKMS bool, err error) {
	// The key id is no part of the hash.
	anyID := func(context.Context) (uint64, error) { return 0, nil }
	_, hash, encryptionType, err := p.currentKMSKey(ctx, anyID)
	return hash, encryptionType == configv1.EncryptionTypeKMS, err
}

// currentKMSKey reads the APIServer resource live and, when its encryption is KMS, builds the key library-go's key
// controller would make from it under the id keyID gives (asked only then), with its KMSConfigHash. For another
// encryption type it returns only that type.
func (p preflightConfiguration) currentKMSKey(ctx context.Context, keyID func(context.Context) (uint64, error)) (
	key state.KeyState, hash string, encryptionType configv1.EncryptionType, err error) {
	apiServer, err := p.apiServers.Get(ctx, "cluster", metav1.GetOptions{})
	if err != nil {
		return key, "", "", fmt.Errorf("reading the APIServer resource: %w", err)
	}
	encryptionType = apiServer.Spec.Encryption.Type
	if encryptionType != configv1.EncryptionTypeKMS {
		return key, "", encryptionType, nil
	}
	id, err := keyID(ctx)
	if err != nil {
		return key, "", encryptionType, err
	}
	if key, err = p.kmsKeyState(ctx, id, apiServer.Spec.Encryption.KMS); err != nil {
		return key, "", encryptionType, err
	}
	hash, err = KMSConfigHash(key)
	return key, hash, encryptionType, err
}

// nextKeyID is the id library-go's key controller gives its next key: one past the highest of component's key
// secrets.
func (p preflightConfiguration) nextKeyID(ctx context.Context) (uint64, error) {
	keySecrets, err := secrets.ListKeySecrets(ctx, p.secrets, metav1.ListOptions{LabelSelector: secrets.EncryptionKeySecretsLabel + "=" + p.component})
	if err != nil {
		return 0, fmt.Errorf("listing the key secrets of %s: %w", p.component, err)
	}
	var latest uint64
	for _, s := range keySecrets {
		if id, ok := state.NameToKeyID(s.Name); ok && id > latest {
			latest = id
		}
	}
	return latest + 1, nil
}

// kmsKeyState is the KMS key library-go's key controller would make as keyID from plugin.
func (p preflightConfiguration) kmsKeyState(ctx context.Context, keyID uint64, plugin configv1.KMSPluginConfig) (state.KeyState, error) {
	refs, err := kmsReferences(plugin)
	if err != nil {
		return state.KeyState{}, err
	}
	key := state.KeyState{
		Key:  apiserverv1.Key{Name: fmt.Sprint(keyID), Secret: base64.StdEncoding.EncodeToString(crypto.ModeToNewKeyFunc[state.KMS]())},
		Mode: state.KMS,
		KMS: &state.KMSState{
			Encryption: &apiserverv1.KMSConfiguration{APIVersion: "v2", Name: fmt.Sprint(keyID), Endpoint: fmt.Sprintf(kmsEndpointFormat, keyID),
				Timeout: &metav1.Duration{Duration: kmsCallTimeout}},
			Plugin: plugin,
		},
	}
	if name := refs.secret.name; name != "" {
		secret, err := p.secrets.Secrets(openshiftConfigNamespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return state.KeyState{}, fmt.Errorf("reading the KMS plugin's secret %s/%s: %w", openshiftConfigNamespace, name, err)
		}
		for _, k := range refs.secret.keys {
			if err := key.KMS.PluginSecretData.Set(name, k, secret.Data[k]); err != nil {
				return state.KeyState{}, fmt.Errorf("secret %s/%s: %q: %w", openshiftConfigNamespace, name, k, err)
			}
		}
	}
	if name := refs.configMap.name; name != "" {
		configMap, err := p.configMaps.ConfigMaps(openshiftConfigNamespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return state.KeyState{}, fmt.Errorf("reading the KMS plugin's config map %s/%s: %w", openshiftConfigNamespace, name, err)
		}
		for _, k := range refs.configMap.keys {
			if err := key.KMS.PluginConfigMapData.Set(name, k, []byte(configMap.Data[k])); err != nil {
				return state.KeyState{}, fmt.Errorf("config map %s/%s: %q: %w", openshiftConfigNamespace, name, k, err)
			}
		}
	}
	return key, nil
}

// kmsReference is one object a KMS plugin configuration references in openshift-config, and the data keys a key
// carries from it; name is empty when the configuration references none.
type kmsReference struct {
	name string
	keys []string
}

// kmsReferences are the Secret and the ConfigMap a KMS plugin configuration references, and the keys library-go's
// key controller copies from each into a key (vaultProviderConfig's referencedSecretName and referencedConfigMapName,
// key_controller.go).
func kmsReferences(plugin configv1.KMSPluginConfig) (struct{ secret, configMap kmsReference }, error) {
	var refs struct{ secret, configMap kmsReference }
	if plugin.Type != configv1.VaultKMSProvider {
		return refs, fmt.Errorf("unsupported KMS provider type %q", plugin.Type)
	}
	vault := plugin.Vault
	if vault.Authentication.Type != configv1.VaultAuthenticationTypeAppRole {
		return refs, fmt.Errorf("unsupported Vault authentication type %q", vault.Authentication.Type)
	}
	refs.secret = kmsReference{name: vault.Authentication.AppRole.Secret.Name, keys: []string{"role-id", "secret-id"}}
	if vault.TLS.CABundle.Name != "" {
		refs.configMap = kmsReference{name: vault.TLS.CABundle.Name, keys: []string{"ca-bundle.crt"}}
	}
	return refs, nil
}
