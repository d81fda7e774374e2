// Package overrides reads kmsguard's block of an operator's spec.unsupportedConfigOverrides:
//
//	unsupportedConfigOverrides:
//	  kmsguard:
//	    forceRevision: sha256:...            # kmsprecondition: roll out exactly this blocked candidate
//	    confirmDataLoss: <provider>:<KEK id>  # kmsrecovery: delete the objects of this lost key
//
// Both name one exact thing, never a boolean: a forgotten "force: true" would open the rollout gate for every
// later config, and a forgotten "confirm: true" would delete whatever becomes unreadable next month. A hash stops
// matching as soon as the candidate changes; a KEK id only matches objects etcd shows were written under it.
//
// This is an adapter: any unsupported override makes the operator UnsupportedConfigOverridesUpgradeable=False, so
// a supported recovery path cannot stay here. The openshift/api patch hack/upstream/api/0002 adds both as typed,
// validated fields, spec.kmsGuard of KubeAPIServer and OpenShiftAPIServer; once it is vendored, this package reads
// those and the override goes.
package overrides

import (
	"encoding/json"
	"fmt"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"
)

// The paths of the fields, for messages.
const (
	Group                = "kmsguard"
	ForceRevisionField   = "spec.unsupportedConfigOverrides." + Group + ".forceRevision"
	ConfirmDataLossField = "spec.unsupportedConfigOverrides." + Group + ".confirmDataLoss"
)

// KMSGuard is spec.unsupportedConfigOverrides.kmsguard.
type KMSGuard struct {
	// ForceRevision is the revisions.CandidateHash of the one blocked candidate the rollout gate lets through.
	ForceRevision string `json:"forceRevision,omitempty"`
	// ConfirmDataLoss names the lost key ("<provider>:<KEK id>", or a bare KEK id) whose undecryptable objects
	// lost-key recovery may delete.
	ConfirmDataLoss string `json:"confirmDataLoss,omitempty"`
}

// FromSpec reads the kmsguard block of spec.unsupportedConfigOverrides; a zero KMSGuard when there is none.
// Surrounding whitespace is dropped (neither a hash nor a key id has any). Overrides that are not a JSON object
// are an error: they must not be read as a forced revision or a consent, nor hide one; each caller says what it
// does about it.
func FromSpec(spec *operatorv1.OperatorSpec) (KMSGuard, error) {
	if spec == nil || len(spec.UnsupportedConfigOverrides.Raw) == 0 {
		return KMSGuard{}, nil
	}
	var overrides struct {
		KMSGuard KMSGuard `json:"kmsguard"`
	}
	if err := json.Unmarshal(spec.UnsupportedConfigOverrides.Raw, &overrides); err != nil {
		return KMSGuard{}, fmt.Errorf("parsing spec.unsupportedConfigOverrides: %w", err)
	}
	k := overrides.KMSGuard
	k.ForceRevision, k.ConfirmDataLoss = strings.TrimSpace(k.ForceRevision), strings.TrimSpace(k.ConfirmDataLoss)
	return k, nil
}
