package kmsprecondition

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
)

// The escape hatch: spec.unsupportedConfigOverrides.kmsguard.forceRevision = "<CandidateHash of the candidate>".
// It names the exact candidate the admin saw in the blocked message, not a boolean: a forgotten "force: true"
// would silently open the gate for every later config, including next month's rollout of an unhealthy key.
// A hash stops matching as soon as the candidate changes.
const (
	overrideGroup = "kmsguard"
	overrideKey   = "forceRevision"
)

// CandidateHash identifies a candidate encryption config for the override: sha256 of its bytes.
func CandidateHash(candidate []byte) string {
	sum := sha256.Sum256(candidate)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// forcedHash is the hash the admin forces, "" when none. Overrides that are not JSON objects are ignored here:
// the operator validates unsupportedConfigOverrides itself, and a typo must not force anything.
func forcedHash(spec *operatorv1.OperatorSpec) (string, error) {
	if spec == nil || len(spec.UnsupportedConfigOverrides.Raw) == 0 {
		return "", nil
	}
	var overrides struct {
		KMSGuard struct {
			ForceRevision string `json:"forceRevision"`
		} `json:"kmsguard"`
	}
	if err := json.Unmarshal(spec.UnsupportedConfigOverrides.Raw, &overrides); err != nil {
		return "", fmt.Errorf("parsing spec.unsupportedConfigOverrides: %w", err)
	}
	return overrides.KMSGuard.ForceRevision, nil
}

func overrideHint(hash string) string {
	return fmt.Sprintf("to force exactly this candidate, set spec.unsupportedConfigOverrides.%s.%s to %q", overrideGroup, overrideKey, hash)
}
