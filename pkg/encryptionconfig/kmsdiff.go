package encryptionconfig

import (
	"slices"

	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
)

// KMSDiff is what changed in the KMS providers from one config to the next, per key id (KMSProvider.KeyID).
// A key's providers are compared as a set, each with its resource, whether it writes it, and its name, endpoint,
// API version and timeout. The order of read providers is not compared: kube-apiserver picks the read provider
// of a value by its prefix, so reordering them changes nothing it does.
type KMSDiff struct {
	// Added are the keys with a provider in the new config and none in the old, sorted.
	Added []string
	// Removed are the keys with a provider in the old config and none in the new, sorted.
	Removed []string
	// Reconfigured are the keys of both configs whose providers differ other than in what they write: another
	// endpoint, name, API version or timeout, or other resources. Sorted.
	Reconfigured []string
	// Promoted are the keys that write a resource in the new config that they did not write in the old, added keys
	// that write included. Sorted.
	Promoted []string
	// Demoted are the keys of both configs that wrote a resource in the old config and no longer write it, sorted.
	// A key that writes a resource under another endpoint is reconfigured, neither promoted nor demoted.
	Demoted []string
}

// DiffKMS compares the KMS providers of two configs; either may be nil (no encryption config).
func DiffKMS(from, to *apiserverv1.EncryptionConfiguration) KMSDiff {
	before, now := kmsProvidersByKey(from), kmsProvidersByKey(to)
	var d KMSDiff
	for id, providers := range now {
		previous, existed := before[id]
		switch {
		case !existed:
			d.Added = append(d.Added, id)
		case !withoutWrites(providers).Equal(withoutWrites(previous)):
			d.Reconfigured = append(d.Reconfigured, id)
		}
		writes, wrote := writtenResources(providers), writtenResources(previous)
		if writes.Difference(wrote).Len() > 0 {
			d.Promoted = append(d.Promoted, id)
		}
		if existed && wrote.Difference(writes).Len() > 0 {
			d.Demoted = append(d.Demoted, id)
		}
	}
	for id := range before {
		if _, kept := now[id]; !kept {
			d.Removed = append(d.Removed, id)
		}
	}
	for _, ids := range []*[]string{&d.Added, &d.Removed, &d.Reconfigured, &d.Promoted, &d.Demoted} {
		slices.Sort(*ids)
	}
	return d
}

// Changed reports whether any KMS key was added, removed, reconfigured, promoted or demoted.
func (d KMSDiff) Changed() bool {
	return len(d.Added)+len(d.Removed)+len(d.Reconfigured)+len(d.Promoted)+len(d.Demoted) > 0
}

// Suspects are the keys whose failure the change can explain, sorted: the added, reconfigured and promoted
// keys. A key that kept its providers, or was only demoted to read, ran under the old config as it does under the
// new one, so its failure would have failed the old config too; a removed key no longer runs.
func (d KMSDiff) Suspects() []string {
	return sets.List(sets.New(d.Added...).Insert(d.Reconfigured...).Insert(d.Promoted...))
}

// kmsProvidersByKey are the KMS providers of a config, per key id.
func kmsProvidersByKey(config *apiserverv1.EncryptionConfiguration) map[string]sets.Set[KMSProvider] {
	out := map[string]sets.Set[KMSProvider]{}
	for _, p := range KMSProviders(config) {
		id := p.KeyID()
		if out[id] == nil {
			out[id] = sets.New[KMSProvider]()
		}
		out[id].Insert(p)
	}
	return out
}

// withoutWrites are providers without their write position.
func withoutWrites(providers sets.Set[KMSProvider]) sets.Set[KMSProvider] {
	out := sets.New[KMSProvider]()
	for p := range providers {
		p.Writes = false
		out.Insert(p)
	}
	return out
}

// writtenResources are the resources that providers write.
func writtenResources(providers sets.Set[KMSProvider]) sets.Set[string] {
	out := sets.New[string]()
	for p := range providers {
		if p.Writes {
			out.Insert(p.Resource)
		}
	}
	return out
}
