package encryptionconfig_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
)

func TestDiffKMS(t *testing.T) {
	aescbc := ectest.AESCBC("1", ectest.AESKeyA)
	withTimeout := func(p apiserverv1.ProviderConfiguration, d time.Duration) apiserverv1.ProviderConfiguration {
		kms := *p.KMS
		kms.Timeout = &metav1.Duration{Duration: d}
		return apiserverv1.ProviderConfiguration{KMS: &kms}
	}
	withEndpoint := func(p apiserverv1.ProviderConfiguration, endpoint string) apiserverv1.ProviderConfiguration {
		kms := *p.KMS
		kms.Endpoint = endpoint
		return apiserverv1.ProviderConfiguration{KMS: &kms}
	}
	// A hand-written provider, whose key id is its name (encryptionconfig.KMSKeyID).
	named := apiserverv1.ProviderConfiguration{KMS: &apiserverv1.KMSConfiguration{APIVersion: "v2", Name: "vault", Endpoint: "unix:///run/vault.sock"}}

	for _, tc := range []struct {
		name     string
		from, to *apiserverv1.EncryptionConfiguration
		want     encryptionconfig.KMSDiff
		suspects []string
	}{
		{name: "no configs"},
		{name: "same config", from: ectest.Secrets(ectest.KMS("2"), ectest.KMS("1")), to: ectest.Secrets(ectest.KMS("2"), ectest.KMS("1"))},
		{
			name: "read providers reordered: kube-apiserver reads by prefix",
			from: ectest.Secrets(ectest.KMS("3"), ectest.KMS("1"), ectest.KMS("2")),
			to:   ectest.Secrets(ectest.KMS("3"), ectest.KMS("2"), ectest.KMS("1")),
		},
		{
			name: "aescbc changes only",
			from: ectest.Secrets(aescbc, ectest.KMS("1")),
			to:   ectest.Secrets(ectest.AESCBC("2", ectest.AESKeyB), aescbc, ectest.KMS("1")),
		},
		{
			name: "first KMS key, as a read key", from: ectest.Secrets(aescbc), to: ectest.Secrets(aescbc, ectest.KMS("1")),
			want:     encryptionconfig.KMSDiff{Added: []string{"1"}},
			suspects: []string{"1"},
		},
		{
			name: "first KMS key, writing at once", from: ectest.Secrets(aescbc), to: ectest.Secrets(ectest.KMS("1"), aescbc),
			want:     encryptionconfig.KMSDiff{Added: []string{"1"}, Promoted: []string{"1"}},
			suspects: []string{"1"},
		},
		{
			name: "read key promoted to write key", from: ectest.Secrets(aescbc, ectest.KMS("1")), to: ectest.Secrets(ectest.KMS("1"), aescbc),
			want:     encryptionconfig.KMSDiff{Promoted: []string{"1"}},
			suspects: []string{"1"},
		},
		{
			name: "write key demoted to read key", from: ectest.Secrets(ectest.KMS("1"), aescbc), to: ectest.Secrets(aescbc, ectest.KMS("1")),
			want: encryptionconfig.KMSDiff{Demoted: []string{"1"}},
		},
		{
			name: "rotation: the new key writes, the old one reads",
			from: ectest.Secrets(ectest.KMS("1"), ectest.Identity()), to: ectest.Secrets(ectest.KMS("2"), ectest.KMS("1"), ectest.Identity()),
			want:     encryptionconfig.KMSDiff{Added: []string{"2"}, Promoted: []string{"2"}, Demoted: []string{"1"}},
			suspects: []string{"2"},
		},
		{
			name: "read key dropped", from: ectest.Secrets(ectest.KMS("2"), ectest.KMS("1")), to: ectest.Secrets(ectest.KMS("2")),
			want: encryptionconfig.KMSDiff{Removed: []string{"1"}},
		},
		{
			name: "KMS off", from: ectest.Secrets(ectest.KMS("1"), ectest.Identity()), to: nil,
			want: encryptionconfig.KMSDiff{Removed: []string{"1"}},
		},
		{
			name: "timeout changed", from: ectest.Secrets(ectest.KMS("1")), to: ectest.Secrets(withTimeout(ectest.KMS("1"), time.Minute)),
			want:     encryptionconfig.KMSDiff{Reconfigured: []string{"1"}},
			suspects: []string{"1"},
		},
		{
			name: "endpoint of a hand-written provider changed: same key, reconfigured, still writing",
			from: ectest.Secrets(named), to: ectest.Secrets(withEndpoint(named, "unix:///run/vault-2.sock")),
			want:     encryptionconfig.KMSDiff{Reconfigured: []string{"vault"}},
			suspects: []string{"vault"},
		},
		{
			name: "library-go endpoint changed: the key id is the endpoint's, so another key",
			from: ectest.Secrets(ectest.KMS("1")), to: ectest.Secrets(withEndpoint(ectest.KMS("1"), "unix:///var/run/kmsplugin/kms-7.sock")),
			want:     encryptionconfig.KMSDiff{Added: []string{"7"}, Removed: []string{"1"}, Promoted: []string{"7"}},
			suspects: []string{"7"},
		},
		{
			name: "a key starts serving ConfigMaps too",
			from: ectest.Secrets(ectest.KMS("1")), to: ectest.WithConfigMaps(ectest.Secrets(ectest.KMS("1")), ectest.KMS("1")),
			want:     encryptionconfig.KMSDiff{Reconfigured: []string{"1"}, Promoted: []string{"1"}},
			suspects: []string{"1"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := encryptionconfig.DiffKMS(tc.from, tc.to)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("DiffKMS (-want +got):\n%s", diff)
			}
			if wantChanged := !cmp.Equal(tc.want, encryptionconfig.KMSDiff{}); got.Changed() != wantChanged {
				t.Errorf("Changed() = %v, want %v", got.Changed(), wantChanged)
			}
			if diff := cmp.Diff(tc.suspects, got.Suspects(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Suspects (-want +got):\n%s", diff)
			}
		})
	}
}
