package kmsprecondition

import (
	"fmt"
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"sigs.k8s.io/yaml"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// decodeForDiff decodes an EncryptionConfiguration with kube-apiserver's defaults but without validating it:
// the gate must know whether a candidate changes KMS before it may judge it (an invalid config that leaves
// KMS alone is not the gate's business), and a deployed config is what runs, valid or not. Nil data is "no
// encryption config".
func decodeForDiff(data []byte) (*apiserverv1.EncryptionConfiguration, error) {
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
	// Defaults (timeout 3s, apiVersion v1) make "timeout: 3s" and no timeout compare equal, as they are.
	apiserverv1.SetObjectDefaults_EncryptionConfiguration(config)
	return config, nil
}

// kmsStanza is what of a KMS provider matters to a rollout: a change of any of these fields changes which
// plugin an apiserver talks to, how, or under which prefix it finds its data.
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
	for _, rc := range config.Resources {
		var r resourceKMS
		for i, p := range rc.Providers {
			if p.KMS == nil {
				continue
			}
			var timeout time.Duration
			if p.KMS.Timeout != nil {
				timeout = p.KMS.Timeout.Duration
			}
			r.Providers = append(r.Providers, kmsStanza{Name: p.KMS.Name, Endpoint: p.KMS.Endpoint, APIVersion: p.KMS.APIVersion, Timeout: timeout})
			if i == 0 {
				r.KMSWrites = true
			}
		}
		if len(r.Providers) == 0 {
			continue
		}
		for _, resource := range rc.Resources {
			// kube-apiserver uses the first entry that matches a resource; validation rejects duplicates.
			if _, seen := out[resource]; !seen {
				out[resource] = r
			}
		}
	}
	return out
}

// kmsChanged reports whether the candidate's KMS providers differ from the deployed ones, per resource.
func kmsChanged(candidate, deployed *apiserverv1.EncryptionConfiguration) bool {
	return !equality.Semantic.DeepEqual(kmsByResource(candidate), kmsByResource(deployed))
}

// keyID is the key behind a KMS provider, as kmsstate names it (kmsstate.KeysFromConfig).
func keyID(s kmsStanza) string {
	if id, ok := kmsstate.KeyIDFromEndpoint(s.Endpoint); ok {
		return id
	}
	return s.Name
}

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
