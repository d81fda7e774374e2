package recovery

import (
	"encoding/json"
	"fmt"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"
)

// The consent: spec.unsupportedConfigOverrides.kmsguard.confirmDataLoss = "<key id>". It names the lost key, not
// a boolean: a forgotten "confirm: true" would silently delete whatever becomes unreadable next month, for
// whatever reason (a KMS outage after a restart makes every object unreadable for a while). A key id only
// matches objects written under a key that the admin has declared lost.
const (
	overrideGroup = "kmsguard"
	overrideKey   = "confirmDataLoss"
)

// OverrideField is the path of the consent in an operator spec, for messages.
const OverrideField = "spec.unsupportedConfigOverrides." + overrideGroup + "." + overrideKey

// ConsentFromSpec returns the key id spec.unsupportedConfigOverrides.kmsguard.confirmDataLoss names, "" when
// none. An override that is not a JSON object is an error: it must not be read as consent, nor hide one.
func ConsentFromSpec(spec *operatorv1.OperatorSpec) (string, error) {
	if spec == nil || len(spec.UnsupportedConfigOverrides.Raw) == 0 {
		return "", nil
	}
	var overrides struct {
		KMSGuard struct {
			ConfirmDataLoss string `json:"confirmDataLoss"`
		} `json:"kmsguard"`
	}
	if err := json.Unmarshal(spec.UnsupportedConfigOverrides.Raw, &overrides); err != nil {
		return "", fmt.Errorf("parsing spec.unsupportedConfigOverrides: %w", err)
	}
	return strings.TrimSpace(overrides.KMSGuard.ConfirmDataLoss), nil
}

// ConsentError says why undecryptable objects are not deleted. Its Reason picks the condition reason.
type ConsentError struct {
	// Consent is the key id the admin named, "" when none.
	Consent string
	// Found are the key ids undecryptable objects are stored under.
	Found []string
	// Count is the number of undecryptable objects.
	Count int
}

func (e *ConsentError) Error() string {
	if e.Consent == "" {
		return fmt.Sprintf("%d undecryptable objects, stored under keys %s; nothing is deleted without consent naming the lost key id",
			e.Count, strings.Join(e.Found, ", "))
	}
	return fmt.Sprintf("the consent names key id %q, but the %d undecryptable objects are stored under keys %s; nothing is deleted",
		e.Consent, e.Count, strings.Join(e.Found, ", "))
}

// Reason is ReasonUndecryptableObjects without consent, ReasonConsentMismatch with a consent for another key.
func (e *ConsentError) Reason() Reason {
	if e.Consent == "" {
		return ReasonUndecryptableObjects
	}
	return ReasonConsentMismatch
}

// CheckConsent returns nil when nothing is undecryptable or some undecryptable object is stored under the key
// consent names, else a *ConsentError. Objects under other keys than the consented one are never deleted; they
// stay in the findings and need a consent of their own.
func CheckConsent(findings *Findings, consent string) error {
	if findings.Count() == 0 {
		return nil
	}
	if consent != "" && len(findings.Under(consent)) > 0 {
		return nil
	}
	return &ConsentError{Consent: consent, Found: findings.KeyIDs(), Count: findings.Count()}
}
