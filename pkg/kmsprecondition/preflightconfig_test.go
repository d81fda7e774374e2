package kmsprecondition

import (
	"context"
	"maps"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
)

// assertPreflightRunsKey checks that the encryption configuration computed for a preflight configures the plugin
// of key exactly as the key's own configuration will: the same provider, plugin configuration and plugin data,
// under the key's id.
func assertPreflightRunsKey(t *testing.T, computed *corev1.Secret, key state.KeyState) {
	t.Helper()
	config, err := encryptiondata.FromSecret(computed)
	if err != nil {
		t.Fatalf("the computed configuration does not decode: %v", err)
	}
	providers, err := encryptiondata.ExtractUniqueAndSortedKMSConfigurations(config)
	if err != nil || len(providers) != 1 {
		t.Fatalf("computed KMS providers = %v, %v; want one", providers, err)
	}
	if !equality.Semantic.DeepEqual(*providers[0], *key.KMS.Encryption) {
		t.Errorf("computed provider %+v, key %s's is %+v", *providers[0], key.Key.Name, *key.KMS.Encryption)
	}
	if got := config.KMSPlugins[key.Key.Name]; !equality.Semantic.DeepEqual(got, key.KMS.Plugin) {
		t.Errorf("computed plugin configuration of key %s = %+v, want %+v", key.Key.Name, got, key.KMS.Plugin)
	}
	data, _ := config.KMSPluginsSecretData.Get(key.Key.Name)
	if !maps.EqualFunc(data.FlatEntries(), key.KMS.PluginSecretData.FlatEntries(), func(a, b []byte) bool { return string(a) == string(b) }) {
		t.Errorf("computed plugin secret data of key %s = %v, want %v", key.Key.Name, data.FlatEntries(), key.KMS.PluginSecretData.FlatEntries())
	}
	configMapData, _ := config.KMSPluginsConfigMapData.Get(key.Key.Name)
	if !maps.EqualFunc(configMapData.FlatEntries(), key.KMS.PluginConfigMapData.FlatEntries(), func(a, b []byte) bool { return string(a) == string(b) }) {
		t.Errorf("computed plugin config map data of key %s = %v, want %v", key.Key.Name, configMapData.FlatEntries(), key.KMS.PluginConfigMapData.FlatEntries())
	}
}

func TestPreflightConfiguration(t *testing.T) {
	const component = "openshift-kube-apiserver"
	vault := func(secret string) configv1.APIServer {
		return configv1.APIServer{ObjectMeta: metav1.ObjectMeta{Name: "cluster"}, Spec: configv1.APIServerSpec{Encryption: configv1.APIServerEncryption{
			Type: configv1.EncryptionTypeKMS,
			KMS: configv1.KMSPluginConfig{Type: configv1.VaultKMSProvider, Vault: configv1.VaultKMSPluginConfig{
				VaultAddress: "https://vault.example.com:8200", VaultKeyPath: "transit/keys/cluster",
				Authentication: configv1.VaultAuthentication{Type: configv1.VaultAuthenticationTypeAppRole,
					AppRole: configv1.VaultAppRoleAuthentication{Secret: configv1.VaultSecretReference{Name: secret}}}}},
		}}}
	}
	approle := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-config", Name: "vault-approle"},
		Data: map[string][]byte{"role-id": []byte("the-role"), "secret-id": []byte("the-secret")}}
	keySecret := func(id string) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: encryptionconfig.ManagedNamespace, Name: "encryption-key-" + component + "-" + id,
			Labels: map[string]string{secrets.EncryptionKeySecretsLabel: component}}}
	}
	otherComponentsKey := keySecret("9")
	otherComponentsKey.Labels[secrets.EncryptionKeySecretsLabel] = "openshift-apiserver"
	aescbc := vault("vault-approle")
	aescbc.Spec.Encryption = configv1.APIServerEncryption{Type: configv1.EncryptionTypeAESCBC}

	for _, tc := range []struct {
		name      string
		apiServer *configv1.APIServer
		objects   []runtime.Object
		resources []schema.GroupResource
		// askedHash is the hash the preflight was asked for; empty is the hash of the APIServer's configuration.
		askedHash string
		wantKeyID string
		wantErr   string
	}{
		{name: "first key", apiServer: ptr(vault("vault-approle")), objects: []runtime.Object{approle}, wantKeyID: "1"},
		{name: "one past the component's latest key", apiServer: ptr(vault("vault-approle")),
			objects: []runtime.Object{approle, keySecret("2"), keySecret("3"), otherComponentsKey}, wantKeyID: "4"},
		{name: "no APIServer resource", objects: []runtime.Object{approle}, wantErr: "reading the APIServer resource"},
		{name: "not KMS", apiServer: &aescbc, objects: []runtime.Object{approle}, wantErr: `encryption type is "aescbc", not KMS`},
		{name: "referenced secret missing", apiServer: ptr(vault("vault-approle")), wantErr: "reading the KMS plugin's secret openshift-config/vault-approle"},
		{name: "referenced secret lacks a key", apiServer: ptr(vault("partial")), objects: []runtime.Object{&corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-config", Name: "partial"}, Data: map[string][]byte{"role-id": []byte("r")}}},
			wantErr: `"secret-id"`},
		{name: "the configuration changed since the preflight was asked for", apiServer: ptr(vault("vault-approle")), objects: []runtime.Object{approle},
			askedHash: "an-older-hash", wantErr: `is not the one the preflight was asked for ("an-older-hash")`},
		{name: "no encrypted resources", apiServer: ptr(vault("vault-approle")), objects: []runtime.Object{approle}, resources: []schema.GroupResource{},
			wantErr: "no encrypted resources"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			config := configfake.NewClientset()
			if tc.apiServer != nil {
				config = configfake.NewClientset(tc.apiServer)
			}
			kube := fake.NewClientset(tc.objects...)
			resources := tc.resources
			if resources == nil {
				resources = []schema.GroupResource{{Resource: "secrets"}, {Resource: "configmaps"}}
			}
			status := &recordingStatus{}
			status.current.Preflight.ObservedConfigHash = tc.askedHash
			if tc.askedHash == "" && tc.apiServer != nil && tc.apiServer.Spec.Encryption.Type == configv1.EncryptionTypeKMS {
				status.current.Preflight.ObservedConfigHash = hashOf(t, tc.apiServer.Spec.Encryption.KMS, kube)
			}
			computed, err := PreflightConfiguration(component, resources, config.ConfigV1().APIServers(), kube.CoreV1(), kube.CoreV1(), status).
				ComputeEncryptionConfiguration(context.Background())
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			decoded, err := encryptiondata.FromSecret(computed)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(decoded.Encryption.Resources); got != len(resources) {
				t.Errorf("the configuration covers %d resources, want %d", got, len(resources))
			}
			providers, err := encryptiondata.ExtractUniqueAndSortedKMSConfigurations(decoded)
			if err != nil || len(providers) != 1 || providers[0].Name != tc.wantKeyID ||
				providers[0].Endpoint != "unix:///var/run/kmsplugin/kms-"+tc.wantKeyID+".sock" {
				t.Fatalf("KMS providers = %+v, %v; want one, key %s", providers, err, tc.wantKeyID)
			}
			if got := decoded.KMSPlugins[tc.wantKeyID]; got != tc.apiServer.Spec.Encryption.KMS {
				t.Errorf("plugin configuration = %+v, want the APIServer's", got)
			}
			data, _ := decoded.KMSPluginsSecretData.Get(tc.wantKeyID)
			if v, ok := data.Get("vault-approle", "secret-id"); !ok || string(v) != "the-secret" {
				t.Errorf("the plugin's AppRole secret id = %q, %v; want the referenced Secret's", v, ok)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// hashOf is the hash library-go's key controller asks the preflight of plugin for (TestKMSConfigHashIsLibraryGos
// holds KMSConfigHash to it), with its AppRole credentials from kube; "" when they are not there.
func hashOf(t *testing.T, plugin configv1.KMSPluginConfig, kube *fake.Clientset) string {
	t.Helper()
	key := state.KeyState{Key: apiserverv1.Key{Name: "1"}, KMS: &state.KMSState{Plugin: plugin}}
	secret, err := kube.CoreV1().Secrets("openshift-config").Get(context.Background(), plugin.Vault.Authentication.AppRole.Secret.Name, metav1.GetOptions{})
	if err != nil {
		return ""
	}
	for k, v := range secret.Data {
		if k == "role-id" || k == "secret-id" {
			if err := key.KMS.PluginSecretData.Set(secret.Name, k, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	hash, err := KMSConfigHash(key)
	if err != nil {
		return ""
	}
	return hash
}
