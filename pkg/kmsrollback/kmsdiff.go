package kmsrollback

import (
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
)

// decode reads the EncryptionConfiguration of a revision's encryption-config data without validating it: a
// failed revision is judged for what it changed, valid or not. Nil data is "no encryption config".
func decode(data map[string][]byte) (*apiserverv1.EncryptionConfiguration, error) {
	return encryptionconfig.DecodeUnvalidated(data[encryptiondata.EncryptionConfSecretKey])
}

// kmsStanzas are the KMS providers of a config, per key id (encryptionconfig.KMSKeyID).
func kmsStanzas(config *apiserverv1.EncryptionConfiguration) map[string]sets.Set[encryptionconfig.KMSProvider] {
	out := map[string]sets.Set[encryptionconfig.KMSProvider]{}
	for _, p := range encryptionconfig.KMSProviders(config) {
		id := p.KeyID()
		if out[id] == nil {
			out[id] = sets.New[encryptionconfig.KMSProvider]()
		}
		out[id].Insert(p)
	}
	return out
}

// kmsDiff compares the KMS providers of a failed config with those of the config it replaced: changed says
// whether any KMS provider was added, dropped, moved or reconfigured; suspects are the keys whose failure the
// change can explain: keys that are new, reconfigured or promoted to write. A key that kept its providers, or was
// only demoted to read, ran in the previous config as it does now, so its failure would have failed that too.
func kmsDiff(failed, previous *apiserverv1.EncryptionConfiguration) (changed bool, suspects []string) {
	now, before := kmsStanzas(failed), kmsStanzas(previous)
	for id, stanzas := range now {
		if stanzas.Equal(before[id]) {
			continue
		}
		changed = true
		if !readStanzas(stanzas).Equal(readStanzas(before[id])) || promoted(stanzas, before[id]) {
			suspects = append(suspects, id)
		}
	}
	for id := range before {
		if _, kept := now[id]; !kept {
			changed = true
		}
	}
	return changed, sets.List(sets.New(suspects...))
}

// readStanzas are stanzas without their write position.
func readStanzas(stanzas sets.Set[encryptionconfig.KMSProvider]) sets.Set[encryptionconfig.KMSProvider] {
	out := sets.New[encryptionconfig.KMSProvider]()
	for s := range stanzas {
		s.Writes = false
		out.Insert(s)
	}
	return out
}

// promoted reports whether a stanza writes now that did not before.
func promoted(now, before sets.Set[encryptionconfig.KMSProvider]) bool {
	for s := range now {
		if s.Writes && !before.Has(s) {
			return true
		}
	}
	return false
}
