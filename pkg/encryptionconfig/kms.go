package encryptionconfig

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"sigs.k8s.io/yaml"
)

// DecodeUnvalidated decodes an EncryptionConfiguration with kube-apiserver's defaults (KMS timeout 3s, apiVersion
// v1) but without validating it, for comparing two configs: whether a config changes KMS must be known before it
// can be judged (an invalid config that leaves KMS alone is not kmsguard's business), and a deployed or failed
// config is what ran, valid or not. Empty data is a config without resources: no encryption.
func DecodeUnvalidated(data []byte) (*apiserverv1.EncryptionConfiguration, error) {
	config := &apiserverv1.EncryptionConfiguration{}
	if len(data) == 0 {
		return config, nil
	}
	if err := yaml.Unmarshal(data, config); err != nil {
		return nil, fmt.Errorf("decoding EncryptionConfiguration: %w", err)
	}
	if gvk := config.GroupVersionKind(); gvk != apiserverv1.SchemeGroupVersion.WithKind("EncryptionConfiguration") {
		return nil, fmt.Errorf("decoding EncryptionConfiguration: got %v", gvk)
	}
	apiserverv1.SetObjectDefaults_EncryptionConfiguration(config)
	return config, nil
}

// KMSProvider is one KMS provider as one resource uses it: what of it matters to a rollout. A change of any of
// these fields changes which plugin a kube-apiserver talks to, how, under which name (the etcd prefix
// k8s:enc:kms:v2:<name>:) it finds its values, or whether it writes them.
type KMSProvider struct {
	// Resource is the resource string of the config ("secrets", "*.apps", ...).
	Resource string
	// Writes says the provider is the resource's first: new values are written with it.
	Writes                     bool
	Name, Endpoint, APIVersion string
	// Timeout is zero when the config has none and was not defaulted.
	Timeout time.Duration
}

// KMSProviders lists the KMS providers of every resource in the order of the config. A resource string takes
// its providers from the first entry that lists it, as kube-apiserver does; validation rejects a config that
// lists one twice, but a config judged unvalidated may.
func KMSProviders(config *apiserverv1.EncryptionConfiguration) []KMSProvider {
	if config == nil {
		return nil
	}
	var out []KMSProvider
	seen := sets.New[string]()
	for _, rc := range config.Resources {
		for _, resource := range rc.Resources {
			if seen.Has(resource) {
				continue
			}
			seen.Insert(resource)
			for i, p := range rc.Providers {
				if p.KMS == nil {
					continue
				}
				provider := KMSProvider{Resource: resource, Writes: i == 0, Name: p.KMS.Name, Endpoint: p.KMS.Endpoint, APIVersion: p.KMS.APIVersion}
				if p.KMS.Timeout != nil {
					provider.Timeout = p.KMS.Timeout.Duration
				}
				out = append(out, provider)
			}
		}
	}
	return out
}
