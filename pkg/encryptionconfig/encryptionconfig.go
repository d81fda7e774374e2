// Package encryptionconfig decodes and validates kube-apiserver EncryptionConfiguration files exactly as
// kube-apiserver does, so that kmsguard judges a config by the same rules that will later load it.
//
// It owns every reading of a config: which entry a resource takes its providers from (the first that names it,
// then "*.<group>", then "*.*": KeysFor), the write key and read keys of a resource (ReadKeys, ResourceKeys), the
// KMS providers (KMSProviders) and the key id of each (KMSKeyID: library-go's kms-<id>.sock convention), and the
// KMS v2 keys of a config (KMSKeysOf); and the one rewrite of a config, of its KMS endpoints (MapKMSEndpoints).
// No other kmsguard package, nor its lab, walks EncryptionConfiguration.Resources: a walk of its own would sooner
// or later miss the first-match rule and judge a provider kube-apiserver never uses.
// Encryption configs of revisions (encryption-config-<revision>) are read by the subpackage revisions.
package encryptionconfig

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apiserver/pkg/apis/apiserver"
	apiserverinstall "k8s.io/apiserver/pkg/apis/apiserver/install"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/apiserver/pkg/apis/apiserver/validation"
)

// ManagedNamespace is where library-go's encryption controllers keep what they make: the key secrets
// encryption-key-<component>-<key id> and the encryption config encryption-config-<component> that the operators'
// resource sync copies to their operand namespace.
const ManagedNamespace = "openshift-config-managed"

var (
	scheme = runtime.NewScheme()
	// Strict: a misspelt field (say "endpont") would otherwise be dropped silently and the config would look
	// valid here while meaning something else to the admin.
	codecs = serializer.NewCodecFactory(scheme, serializer.EnableStrict)
)

func init() {
	apiserverinstall.Install(scheme)
}

// Decode parses a YAML or JSON EncryptionConfiguration, applies kube-apiserver's defaults and validates it
// with kube-apiserver's own validation. The error lists every problem found.
func Decode(data []byte) (*apiserverv1.EncryptionConfiguration, error) {
	obj, gvk, err := codecs.UniversalDecoder(apiserverv1.SchemeGroupVersion).Decode(data, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("decoding EncryptionConfiguration: %w", err)
	}
	config, ok := obj.(*apiserverv1.EncryptionConfiguration)
	if !ok {
		return nil, fmt.Errorf("decoding EncryptionConfiguration: got %v", gvk)
	}
	if err := Validate(config); err != nil {
		return nil, err
	}
	return config, nil
}

// Validate runs kube-apiserver's validation of an EncryptionConfiguration (unix endpoints, unique KMS v2
// names without ':', no cachesize for KMS v2, timeouts, key lengths, resource overlaps).
func Validate(config *apiserverv1.EncryptionConfiguration) error {
	internal := &apiserver.EncryptionConfiguration{}
	if err := scheme.Convert(config, internal, nil); err != nil {
		return fmt.Errorf("converting EncryptionConfiguration: %w", err)
	}
	// reload=true is the stricter mode (KMS v1 names must be unique too, as KMS v2 names always must): it is
	// what kube-apiserver enforces with automatic reload on, and a rolled-out config must pass either way.
	if errs := validation.ValidateEncryptionConfiguration(internal, true); len(errs) > 0 {
		return fmt.Errorf("invalid EncryptionConfiguration: %w", errs.ToAggregate())
	}
	return nil
}
