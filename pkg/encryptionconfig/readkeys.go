package encryptionconfig

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

// StorageKey is one key a kube-apiserver can read a stored value with, named the way the value names it in its
// etcd prefix: the transformer kind and the key name (aescbc, aesgcm, secretbox) or provider name (KMS). Identity
// has no name. A value written under a StorageKey is unreadable once no provider of the resource lists it.
type StorageKey struct {
	Kind etcdvalue.Kind
	Name string
	// Endpoint is the plugin endpoint of a KMS provider, empty for the other kinds. It is not part of what a
	// value records, but says which key library-go and kmsstate call it (KeyID).
	Endpoint string
}

func (k StorageKey) String() string {
	if k.Kind == etcdvalue.KindIdentity {
		return string(k.Kind)
	}
	return fmt.Sprintf("%s:%s", k.Kind, k.Name)
}

// Same reports whether a and b read the same stored values: kind and name. Endpoints do not count: a provider
// that moves to another socket still reads what it wrote.
func (k StorageKey) Same(other StorageKey) bool { return k.Kind == other.Kind && k.Name == other.Name }

// ResourceKeys are the keys of one resource string of a config, in the order kube-apiserver tries them: the
// first writes, all read.
type ResourceKeys struct {
	// Resource is the resource string of the config ("secrets", "deployments.apps", "*.apps", "*.*").
	Resource string
	Keys     []StorageKey
}

// WriteKey is the key new values of the resource are written with.
func (r ResourceKeys) WriteKey() (StorageKey, bool) {
	if len(r.Keys) == 0 {
		return StorageKey{}, false
	}
	return r.Keys[0], true
}

// Has reports whether the resource can read values stored under k.
func (r ResourceKeys) Has(k StorageKey) bool {
	for _, own := range r.Keys {
		if own.Same(k) {
			return true
		}
	}
	return false
}

// implicitIdentity is what kube-apiserver reads and writes a resource with when no entry of the config covers it
// (identity.NewEncryptCheckTransformer in k8s.io/apiserver's encryptionconfig).
var implicitIdentity = []StorageKey{{Kind: etcdvalue.KindIdentity}}

// ReadKeys lists the keys of every resource string of the config, in the order of the config. A resource string
// takes its providers from the first entry that lists it, as KMSProviders does. Keys of an aescbc, aesgcm or
// secretbox provider are listed one by one, in order: the first key of the first provider is the write key.
func ReadKeys(config *apiserverv1.EncryptionConfiguration) []ResourceKeys {
	if config == nil {
		return nil
	}
	var out []ResourceKeys
	seen := sets.New[string]()
	for _, rc := range config.Resources {
		keys := providerKeys(rc.Providers)
		for _, resource := range rc.Resources {
			if seen.Has(resource) {
				continue
			}
			seen.Insert(resource)
			out = append(out, ResourceKeys{Resource: resource, Keys: keys})
		}
	}
	return out
}

// KeysFor resolves the keys kube-apiserver uses for gr the way it resolves them (transformerFromOverrides in
// k8s.io/apiserver/pkg/server/options/encryptionconfig): the entry naming the resource, else "*.<group>", else
// "*.*". gr may itself be a wildcard ({Group: "apps", Resource: "*"}), which then resolves to its own entry or
// "*.*". found is false when nothing covers gr: kube-apiserver then stores it unencrypted, and the keys are
// identity alone.
func KeysFor(config *apiserverv1.EncryptionConfiguration, gr schema.GroupResource) (keys ResourceKeys, found bool) {
	byGR := map[schema.GroupResource]ResourceKeys{}
	for _, r := range ReadKeys(config) {
		byGR[schema.ParseGroupResource(r.Resource)] = r
	}
	for _, candidate := range []schema.GroupResource{gr, {Group: gr.Group, Resource: "*"}, {Group: "*", Resource: "*"}} {
		if r, ok := byGR[candidate]; ok {
			return r, true
		}
	}
	return ResourceKeys{Resource: gr.String(), Keys: implicitIdentity}, false
}

// IsWildcard reports whether a resource string of a config names a wildcard ("*.apps", "*.*", "*.") rather than
// one resource.
func IsWildcard(resource string) bool {
	return schema.ParseGroupResource(resource).Resource == "*"
}

func providerKeys(providers []apiserverv1.ProviderConfiguration) []StorageKey {
	var keys []StorageKey
	for _, p := range providers {
		switch {
		case p.AESCBC != nil:
			for _, k := range p.AESCBC.Keys {
				keys = append(keys, StorageKey{Kind: etcdvalue.KindAESCBC, Name: k.Name})
			}
		case p.AESGCM != nil:
			for _, k := range p.AESGCM.Keys {
				keys = append(keys, StorageKey{Kind: etcdvalue.KindAESGCM, Name: k.Name})
			}
		case p.Secretbox != nil:
			for _, k := range p.Secretbox.Keys {
				keys = append(keys, StorageKey{Kind: etcdvalue.KindSecretbox, Name: k.Name})
			}
		case p.KMS != nil && p.KMS.APIVersion == "v2":
			keys = append(keys, StorageKey{Kind: etcdvalue.KindKMSv2, Name: p.KMS.Name, Endpoint: p.KMS.Endpoint})
		case p.KMS != nil:
			keys = append(keys, StorageKey{Kind: etcdvalue.KindKMSv1, Name: p.KMS.Name, Endpoint: p.KMS.Endpoint})
		case p.Identity != nil:
			keys = append(keys, StorageKey{Kind: etcdvalue.KindIdentity})
		}
	}
	return keys
}
