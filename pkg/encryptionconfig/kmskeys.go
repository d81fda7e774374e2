package encryptionconfig

import (
	"regexp"

	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

// librarygoKMSEndpoint is where library-go's plugin lifecycle serves the plugin of key <id> on every node
// (encryption/controllers/key_controller.go kmsEndpointFormat, kms/health kmsSocketPattern).
var librarygoKMSEndpoint = regexp.MustCompile(`^unix:///var/run/kmsplugin/kms-(\d+)\.sock$`)

// KMSKeyIDFromEndpoint is the key id (library-go's encryption-key secret number) of a KMS plugin endpoint: the
// <id> of library-go's unix:///var/run/kmsplugin/kms-<id>.sock, the id its health reporters report under.
func KMSKeyIDFromEndpoint(endpoint string) (string, bool) {
	m := librarygoKMSEndpoint.FindStringSubmatch(endpoint)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// KMSKeyID is the key id of a KMS provider: the <id> of its endpoint when that is one of library-go's, else the
// provider name, so that a hand-written config works too if its reporters report under the provider names.
func KMSKeyID(name, endpoint string) string {
	if id, ok := KMSKeyIDFromEndpoint(endpoint); ok {
		return id
	}
	return name
}

// KeyID is the key id of the provider (KMSKeyID).
func (p KMSProvider) KeyID() string { return KMSKeyID(p.Name, p.Endpoint) }

// KeyID is the id library-go gives the key: the key id of a KMS provider (KMSKeyID, the key kmsstate reports),
// the key name for aescbc, aesgcm and secretbox (library-go names them by key id), "" for identity.
func (k StorageKey) KeyID() string {
	switch k.Kind {
	case etcdvalue.KindIdentity:
		return ""
	case etcdvalue.KindKMSv2, etcdvalue.KindKMSv1:
		return KMSKeyID(k.Name, k.Endpoint)
	default:
		return k.Name
	}
}

// KMSKeys are the KMS v2 keys of a config.
type KMSKeys struct {
	// IDs are the key ids (KMSKeyID), sorted.
	IDs []string
	// Providers maps KMS provider names to key ids.
	Providers map[string]string
}

// KMSKeysOf lists the KMS v2 keys of a config, as kube-apiserver uses them: a resource string takes its
// providers from the first entry that lists it (KMSProviders), so a provider only a shadowed entry names is no
// key of the config. A nil config has none.
func KMSKeysOf(config *apiserverv1.EncryptionConfiguration) KMSKeys {
	ids := sets.New[string]()
	keys := KMSKeys{Providers: map[string]string{}}
	for _, p := range KMSProviders(config) {
		if p.APIVersion != "v2" {
			continue
		}
		id := p.KeyID()
		ids.Insert(id)
		keys.Providers[p.Name] = id
	}
	keys.IDs = sets.List(ids)
	return keys
}
