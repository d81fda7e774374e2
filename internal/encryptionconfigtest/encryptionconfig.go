// Package encryptionconfigtest builds kube-apiserver EncryptionConfigurations (apiserver.config.k8s.io/v1)
// for tests, in the shape library-go's encryption controllers write into the encryption-config secrets that
// kmsguard reads.
package encryptionconfigtest

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"sigs.k8s.io/yaml"
)

// AESKeyA and AESKeyB are two distinct aescbc key secrets: 32 bytes, base64, the only form kube-apiserver's
// validation accepts for aescbc.
const (
	AESKeyA = "dGhpcnR5LXR3by1ieXRlLWtleS1mb3ItYWVzY2JjLUE="
	AESKeyB = "dGhpcnR5LXR3by1ieXRlLWtleS1mb3ItYWVzY2JjLUI="
)

// KMS is the KMS v2 provider of key id as library-go's key controller writes it for Secrets: name
// <id>_secrets, endpoint unix:///var/run/kmsplugin/kms-<id>.sock and timeout 10s. kmsstate tells a provider's
// key id from that endpoint, so a test's "key <id>" must use exactly these values.
func KMS(id string) apiserverv1.ProviderConfiguration {
	return apiserverv1.ProviderConfiguration{KMS: &apiserverv1.KMSConfiguration{
		APIVersion: "v2", Name: id + "_secrets", Endpoint: fmt.Sprintf("unix:///var/run/kmsplugin/kms-%s.sock", id),
		Timeout: &metav1.Duration{Duration: 10 * time.Second},
	}}
}

// AESCBC is an aescbc provider with the one key name; secret is 32 bytes, base64 (AESKeyA, AESKeyB).
func AESCBC(name, secret string) apiserverv1.ProviderConfiguration {
	return apiserverv1.ProviderConfiguration{AESCBC: &apiserverv1.AESConfiguration{Keys: []apiserverv1.Key{{Name: name, Secret: secret}}}}
}

// Identity is the identity provider: it writes plaintext and reads values stored unencrypted.
func Identity() apiserverv1.ProviderConfiguration {
	return apiserverv1.ProviderConfiguration{Identity: &apiserverv1.IdentityConfiguration{}}
}

// Secrets is a config that encrypts Secrets with providers, in order: the first one writes, all of them read.
func Secrets(providers ...apiserverv1.ProviderConfiguration) *apiserverv1.EncryptionConfiguration {
	return &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{{Resources: []string{"secrets"}, Providers: providers}}}
}

// WithConfigMaps appends a ConfigMaps resource encrypted with providers to c and returns c, for configs that
// differ outside Secrets.
func WithConfigMaps(c *apiserverv1.EncryptionConfiguration, providers ...apiserverv1.ProviderConfiguration) *apiserverv1.EncryptionConfiguration {
	c.Resources = append(c.Resources, apiserverv1.ResourceConfiguration{Resources: []string{"configmaps"}, Providers: providers})
	return c
}

// Marshal is c as the YAML of an encryption-config secret's data, with the apiVersion and kind kube-apiserver
// requires filled in on a copy; nil for a nil c, so that a table can leave a config out.
func Marshal(t testing.TB, c *apiserverv1.EncryptionConfiguration) []byte {
	t.Helper()
	if c == nil {
		return nil
	}
	c = c.DeepCopy()
	c.APIVersion, c.Kind = "apiserver.config.k8s.io/v1", "EncryptionConfiguration"
	data, err := yaml.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
