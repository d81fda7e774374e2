package evidence_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// TestWriteKeyFromConfig: the write key of resources is the first key of the entry kube-apiserver takes their
// providers from, the same for all of them, with the KEK id a KMS v2 provider needs and no other takes.
func TestWriteKeyFromConfig(t *testing.T) {
	entry := func(resource string, providers ...apiserverv1.ProviderConfiguration) apiserverv1.ResourceConfiguration {
		return apiserverv1.ResourceConfiguration{Resources: []string{resource}, Providers: providers}
	}
	// Secrets under KMS v2 key 1, ConfigMaps under aescbc key 7, Events unencrypted, the apps group under aescbc
	// key apps-key and every other resource under KMS v2 key 2.
	wildcards := &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{
		entry("secrets", ectest.KMS("1"), ectest.Identity()),
		entry("configmaps", ectest.AESCBC("7", ectest.AESKeyA), ectest.Identity()),
		entry("events", ectest.Identity(), ectest.AESCBC("old", ectest.AESKeyB)),
		entry("*.apps", ectest.AESCBC("apps-key", ectest.AESKeyB), ectest.Identity()),
		entry("*.*", ectest.KMS("2"), ectest.Identity()),
	}}
	// Secrets only.
	secretsOnly := ectest.Secrets(ectest.KMS("1"), ectest.Identity())
	for _, c := range []*apiserverv1.EncryptionConfiguration{wildcards, secretsOnly} {
		if err := encryptionconfig.Validate(c); err != nil {
			t.Fatalf("kube-apiserver would not load the test's config: %v", err)
		}
	}
	kms := func(provider, kekID string) evidence.WriteKey {
		return evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: provider, KEKID: kekID}
	}
	aescbc := func(name string) evidence.WriteKey { return evidence.WriteKey{Kind: etcdvalue.KindAESCBC, Name: name} }

	scenarios := []struct {
		name string
		// config replaces wildcards; noConfig gives none.
		config    *apiserverv1.EncryptionConfiguration
		noConfig  bool
		resources []string
		kekID     string
		want      evidence.WriteKey
		// wantErr is the typed error wanted, compared field by field; wantErrIn is in any other error wanted.
		wantErr   error
		wantErrIn string
	}{
		{name: "the resource's own entry, KMS v2 with the KEK id", resources: []string{"secrets"}, kekID: "kek-9", want: kms("1_secrets", "kek-9")},
		{name: "the resource's own entry, aescbc", resources: []string{"configmaps"}, want: aescbc("7")},
		{name: "the resource's own entry writes plaintext", resources: []string{"events"}, want: evidence.WriteKey{Kind: etcdvalue.KindIdentity}},
		{name: "the wildcard of the resource's group", resources: []string{"deployments.apps"}, want: aescbc("apps-key")},
		{name: "the wildcard of every resource", resources: []string{"widgets.example.com"}, kekID: "kek-3", want: kms("2_secrets", "kek-3")},
		{name: "a core resource without an entry of its own falls to the wildcard of every resource", resources: []string{"pods"}, kekID: "kek-3", want: kms("2_secrets", "kek-3")},
		{name: "resources that share a write key", resources: []string{"widgets.example.com", "pods", "widgets.example.com"}, kekID: "kek-3", want: kms("2_secrets", "kek-3")},
		{
			name: "a resource no entry covers is not encrypted", config: secretsOnly, resources: []string{"secrets", "configmaps"}, kekID: "kek-9",
			wantErr: &evidence.ResourceNotEncryptedError{Resource: schema.GroupResource{Resource: "configmaps"}},
		},
		{
			name: "resources with different write providers", resources: []string{"secrets", "configmaps"}, kekID: "kek-9",
			wantErrIn: "different write providers (kms-v2:1_secrets:kek-9, aescbc:7)",
		},
		{
			name: "wildcards resolve per resource", resources: []string{"widgets.example.com", "deployments.apps"}, kekID: "kek-3",
			wantErrIn: "different write providers (kms-v2:2_secrets:kek-3, aescbc:apps-key)",
		},
		{
			name: "KMS v2 without the KEK id", resources: []string{"secrets"},
			wantErr: &evidence.MissingKEKIDError{Resource: schema.GroupResource{Resource: "secrets"}, Entry: "secrets", Provider: "1_secrets"},
		},
		{
			name: "KMS v2 of a wildcard without the KEK id", resources: []string{"routes.route.openshift.io"},
			wantErr: &evidence.MissingKEKIDError{Resource: schema.GroupResource{Group: "route.openshift.io", Resource: "routes"}, Entry: "*.*", Provider: "2_secrets"},
		},
		{name: "a KEK id for an aescbc write provider", resources: []string{"configmaps"}, kekID: "kek-9", wantErr: &evidence.UnusedKEKIDError{WriteKey: aescbc("7")}},
		{
			name: "a KEK id for a resource written in plaintext", resources: []string{"events"}, kekID: "kek-9",
			wantErr: &evidence.UnusedKEKIDError{WriteKey: evidence.WriteKey{Kind: etcdvalue.KindIdentity}},
		},
		{
			// kube-apiserver's validation rejects it; a config not decoded by encryptionconfig.Decode may still hold it.
			name: "a config kube-apiserver would not load: an aescbc key without a name", config: ectest.Secrets(ectest.AESCBC("", ectest.AESKeyA)), resources: []string{"secrets"},
			wantErrIn: `secrets (entry "secrets"): aescbc write key needs a name`,
		},
		{name: "no resources", wantErrIn: "no resources"},
		{name: "no config", noConfig: true, resources: []string{"secrets"}, kekID: "kek-9", wantErrIn: "no encryption config"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			config := wildcards
			switch {
			case s.noConfig:
				config = nil
			case s.config != nil:
				config = s.config
			}
			var grs []schema.GroupResource
			for _, r := range s.resources {
				grs = append(grs, schema.ParseGroupResource(r))
			}

			got, err := evidence.WriteKeyFromConfig(config, grs, s.kekID)
			switch {
			case s.wantErr != nil:
				target := reflect.New(reflect.TypeOf(s.wantErr))
				if !errors.As(err, target.Interface()) {
					t.Fatalf("got %+v, %v; want a %T", got, err, s.wantErr)
				}
				if diff := cmp.Diff(s.wantErr, target.Elem().Interface()); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
			case s.wantErrIn != "":
				if err == nil || !strings.Contains(err.Error(), s.wantErrIn) {
					t.Fatalf("got %+v, %v; want an error containing %q", got, err, s.wantErrIn)
				}
			case err != nil:
				t.Fatal(err)
			case got != s.want:
				t.Errorf("got %s, want %s", got, s.want)
			}
			if err != nil && got != (evidence.WriteKey{}) {
				t.Errorf("an error came with the write key %s", got)
			}
		})
	}
}
