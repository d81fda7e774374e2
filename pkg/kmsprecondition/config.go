package kmsprecondition

import (
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
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
