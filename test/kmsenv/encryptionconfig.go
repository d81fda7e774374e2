package kmsenv

import (
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"sigs.k8s.io/yaml"
)

// WriteEncryptionConfig writes config as the YAML file kube-apiserver reads with --encryption-provider-config.
// TypeMeta is filled in, so callers can build the struct without it.
func WriteEncryptionConfig(path string, config *apiserverv1.EncryptionConfiguration) error {
	c := config.DeepCopy()
	c.SetGroupVersionKind(schema.GroupVersionKind{Group: "apiserver.config.k8s.io", Version: "v1", Kind: "EncryptionConfiguration"})
	data, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Errorf("marshalling EncryptionConfiguration: %w", err)
	}
	// 0600: the file may hold aescbc/aesgcm/secretbox key material.
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("writing EncryptionConfiguration: %w", err)
	}
	return nil
}

// KMSv2Provider is the provider stanza for a KMS v2 plugin listening on endpoint (unix://...). Unlike
// encryptionconfigtest.KMS it takes any name and endpoint, as the fake plugins here listen in temporary
// directories, not at library-go's sockets; the other builders are encryptionconfigtest's.
func KMSv2Provider(name, endpoint string) apiserverv1.ProviderConfiguration {
	return apiserverv1.ProviderConfiguration{KMS: &apiserverv1.KMSConfiguration{
		APIVersion: "v2",
		Name:       name,
		Endpoint:   endpoint,
	}}
}
