// Package kmsenv runs a real control plane (etcd and one or more kube-apiservers, started through
// controller-runtime's envtest) that encrypts with a given EncryptionConfiguration, typically KMS v2 through
// the fake plugin in pkg/kmsplugin/fake.
//
// Every kmsguard behaviour that depends on what a kube-apiserver really does with KMS (prefixes in etcd, key id
// staleness, /healthz/kms-providers, DEK caching across plugin outages, unsafe deletion of undecryptable
// objects) is tested against this environment rather than against a model of it.
//
// The binaries come from hack/build-envtest-assets.sh, found through KUBEBUILDER_ASSETS as envtest expects.
// `make test` builds them and sets the variable.
package kmsenv
