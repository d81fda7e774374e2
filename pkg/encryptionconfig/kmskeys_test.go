package encryptionconfig

import (
	"reflect"
	"testing"

	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

func TestKMSKeysOf(t *testing.T) {
	kms := func(name, endpoint, version string) apiserverv1.ProviderConfiguration {
		return apiserverv1.ProviderConfiguration{KMS: &apiserverv1.KMSConfiguration{APIVersion: version, Name: name, Endpoint: endpoint}}
	}
	scenarios := []struct {
		name   string
		config *apiserverv1.EncryptionConfiguration
		want   KMSKeys
	}{
		{
			name: "library-go endpoints name the key, others the provider, v1 is no key",
			config: &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{
				{Resources: []string{"secrets"}, Providers: []apiserverv1.ProviderConfiguration{
					kms("2_secrets", "unix:///var/run/kmsplugin/kms-2.sock", "v2"),
					kms("1_secrets", "unix:///var/run/kmsplugin/kms-1.sock", "v2"),
					{Identity: &apiserverv1.IdentityConfiguration{}},
				}},
				{Resources: []string{"configmaps"}, Providers: []apiserverv1.ProviderConfiguration{
					kms("2_configmaps", "unix:///var/run/kmsplugin/kms-2.sock", "v2"),
					kms("handmade", "unix:///tmp/plugin.sock", "v2"),
					kms("legacy", "unix:///var/run/kmsplugin/kms-9.sock", "v1"),
				}},
			}},
			want: KMSKeys{
				IDs:       []string{"1", "2", "handmade"},
				Providers: map[string]string{"2_secrets": "2", "1_secrets": "1", "2_configmaps": "2", "handmade": "handmade"},
			},
		},
		{
			// kube-apiserver takes a resource's providers from the first entry naming it: the second entry's
			// provider is never used, so it is no key of the config.
			name: "a shadowed entry has no keys",
			config: &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{
				{Resources: []string{"secrets"}, Providers: []apiserverv1.ProviderConfiguration{kms("1_secrets", "unix:///var/run/kmsplugin/kms-1.sock", "v2")}},
				{Resources: []string{"secrets"}, Providers: []apiserverv1.ProviderConfiguration{kms("3_secrets", "unix:///var/run/kmsplugin/kms-3.sock", "v2")}},
			}},
			want: KMSKeys{IDs: []string{"1"}, Providers: map[string]string{"1_secrets": "1"}},
		},
		{
			name: "nil config",
			want: KMSKeys{IDs: []string{}, Providers: map[string]string{}},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			if got := KMSKeysOf(s.config); !reflect.DeepEqual(got, s.want) {
				t.Errorf("got %+v, want %+v", got, s.want)
			}
		})
	}
}

func TestKMSKeyIDFromEndpoint(t *testing.T) {
	scenarios := []struct {
		endpoint string
		want     string
		ok       bool
	}{
		{endpoint: "unix:///var/run/kmsplugin/kms-1.sock", want: "1", ok: true},
		{endpoint: "unix:///var/run/kmsplugin/kms-42.sock", want: "42", ok: true},
		{endpoint: "unix:///var/run/kmsplugin/kms.sock"},
		{endpoint: "unix:///var/run/kmsplugin/kms-a.sock"},
		{endpoint: "unix:///elsewhere/kms-1.sock"},
	}
	for _, s := range scenarios {
		t.Run(s.endpoint, func(t *testing.T) {
			got, ok := KMSKeyIDFromEndpoint(s.endpoint)
			if got != s.want || ok != s.ok {
				t.Errorf("got %q %v, want %q %v", got, ok, s.want, s.ok)
			}
		})
	}
}

func TestStorageKeyKeyID(t *testing.T) {
	scenarios := []struct {
		key  StorageKey
		want string
	}{
		{key: StorageKey{Kind: etcdvalue.KindKMSv2, Name: "1_secrets", Endpoint: "unix:///var/run/kmsplugin/kms-1.sock"}, want: "1"},
		{key: StorageKey{Kind: etcdvalue.KindKMSv2, Name: "handmade", Endpoint: "unix:///tmp/p.sock"}, want: "handmade"},
		{key: StorageKey{Kind: etcdvalue.KindAESCBC, Name: "4"}, want: "4"},
		{key: StorageKey{Kind: etcdvalue.KindIdentity}, want: ""},
	}
	for _, s := range scenarios {
		t.Run(s.key.String(), func(t *testing.T) {
			if got := s.key.KeyID(); got != s.want {
				t.Errorf("got %q, want %q", got, s.want)
			}
		})
	}
}
