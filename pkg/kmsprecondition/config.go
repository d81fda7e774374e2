package kmsprecondition

import (
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// kmsStanza is what of a KMS provider matters to a rollout (encryptionconfig.KMSProvider without its resource
// and position).
type kmsStanza struct {
	Name       string
	Endpoint   string
	APIVersion string
	Timeout    time.Duration
}

// resourceKMS is the KMS part of the providers of one resource. Order matters: the first provider writes, so
// promoting a KMS read key to write key (or demoting it) is a KMS change, while reordering or rotating aescbc
// keys is not.
type resourceKMS struct {
	KMSWrites bool
	Providers []kmsStanza
}

// kmsByResource maps every resource string of the config that has a KMS provider to its KMS providers, in
// order. Resources without any KMS provider are left out: their changes are not the gate's business.
func kmsByResource(config *apiserverv1.EncryptionConfiguration) map[string]resourceKMS {
	out := map[string]resourceKMS{}
	for _, p := range encryptionconfig.KMSProviders(config) {
		r := out[p.Resource]
		r.KMSWrites = r.KMSWrites || p.Writes
		r.Providers = append(r.Providers, kmsStanza{Name: p.Name, Endpoint: p.Endpoint, APIVersion: p.APIVersion, Timeout: p.Timeout})
		out[p.Resource] = r
	}
	return out
}

// kmsChanged reports whether the candidate's KMS providers differ from the deployed ones, per resource.
func kmsChanged(candidate, deployed *apiserverv1.EncryptionConfiguration) bool {
	return !equality.Semantic.DeepEqual(kmsByResource(candidate), kmsByResource(deployed))
}

// keyID is the key behind a KMS provider, as kmsstate names it (kmsstate.KeysFromConfig).
func keyID(s kmsStanza) string { return kmsstate.KeyIDOf(s.Name, s.Endpoint) }

// droppedProviders lists, per resource, the KMS providers of deployed that candidate no longer lists for that
// resource. Providers are matched by name, not key: a value names its provider in its etcd prefix, so a
// renamed provider on the same plugin still loses every value written under the old name.
func droppedProviders(candidate, deployed *apiserverv1.EncryptionConfiguration) []DroppedProvider {
	want, had := kmsByResource(candidate), kmsByResource(deployed)
	var dropped []DroppedProvider
	for _, resource := range sets.List(sets.KeySet(had)) {
		kept := sets.New[string]()
		for _, s := range want[resource].Providers {
			kept.Insert(s.Name)
		}
		for _, s := range had[resource].Providers {
			if !kept.Has(s.Name) {
				dropped = append(dropped, DroppedProvider{Resource: resource, Name: s.Name, KeyID: keyID(s)})
			}
		}
	}
	sort.SliceStable(dropped, func(i, j int) bool {
		if dropped[i].Resource != dropped[j].Resource {
			return dropped[i].Resource < dropped[j].Resource
		}
		return dropped[i].Name < dropped[j].Name
	})
	return dropped
}
