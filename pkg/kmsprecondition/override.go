package kmsprecondition

import (
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/kmsguard/kmsguard/pkg/overrides"
)

// The escape hatch: spec.unsupportedConfigOverrides.kmsguard.forceRevision = "<revisions.CandidateHash of the
// candidate>". It names the exact candidate the admin saw in the blocked message, not a boolean: a forgotten
// "force: true" would silently open the gate for every later config, including next month's rollout of an
// unhealthy key. A hash stops matching as soon as the candidate changes.

// forcedHash is the hash the admin forces, "" when none. Overrides that are not JSON objects are an error the
// gate ignores: the operator validates unsupportedConfigOverrides itself, and a typo must not force anything.
func forcedHash(spec *operatorv1.OperatorSpec) (string, error) {
	o, err := overrides.FromSpec(spec)
	return o.ForceRevision, err
}

func overrideHint(hash string) string {
	return fmt.Sprintf("to force exactly this candidate, set %s to %q", overrides.ForceRevisionField, hash)
}
