package kmsrollback

import (
	"fmt"

	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"sigs.k8s.io/yaml"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// decode reads the EncryptionConfiguration of a revision's encryption-config data with kube-apiserver's
// defaults but without validating it: a failed revision is judged for what it changed, valid or not. Nil data
// is "no encryption config".
func decode(data map[string][]byte) (*apiserverv1.EncryptionConfiguration, error) {
	config := &apiserverv1.EncryptionConfiguration{}
	raw := data[encryptiondata.EncryptionConfSecretKey]
	if len(raw) == 0 {
		return config, nil
	}
	if err := yaml.Unmarshal(raw, config); err != nil {
		return nil, fmt.Errorf("decoding EncryptionConfiguration: %w", err)
	}
	apiserverv1.SetObjectDefaults_EncryptionConfiguration(config)
	return config, nil
}

// kmsStanza is one KMS provider of one resource as far as a rollout is concerned: which plugin, how, under
// which name (the etcd prefix), and whether it writes.
type kmsStanza struct {
	Resource, Name, Endpoint, APIVersion string
	Timeout                              string
	Writes                               bool
}

// kmsStanzas are the KMS providers of a config, per key id (kmsstate's naming: the <id> of kms-<id>.sock, else
// the provider name). kube-apiserver uses the first resource entry that matches, as here.
func kmsStanzas(config *apiserverv1.EncryptionConfiguration) map[string]sets.Set[kmsStanza] {
	out := map[string]sets.Set[kmsStanza]{}
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
				s := kmsStanza{Resource: resource, Name: p.KMS.Name, Endpoint: p.KMS.Endpoint, APIVersion: p.KMS.APIVersion, Writes: i == 0}
				if p.KMS.Timeout != nil {
					s.Timeout = p.KMS.Timeout.Duration.String()
				}
				id, ok := kmsstate.KeyIDFromEndpoint(p.KMS.Endpoint)
				if !ok {
					id = p.KMS.Name
				}
				if out[id] == nil {
					out[id] = sets.New[kmsStanza]()
				}
				out[id].Insert(s)
			}
		}
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
func readStanzas(stanzas sets.Set[kmsStanza]) sets.Set[kmsStanza] {
	out := sets.New[kmsStanza]()
	for s := range stanzas {
		s.Writes = false
		out.Insert(s)
	}
	return out
}

// promoted reports whether a stanza writes now that did not before.
func promoted(now, before sets.Set[kmsStanza]) bool {
	for s := range now {
		if s.Writes && !before.Has(s) {
			return true
		}
	}
	return false
}
