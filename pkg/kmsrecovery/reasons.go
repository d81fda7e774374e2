package kmsrecovery

import (
	"github.com/kmsguard/kmsguard/internal/conditions"
)

// reasons are every reason of KMSRecoveryDegraded: nothing undecryptable, the objects found, each refusal of a
// consent (ConsentError.Why), and what came of a deletion.
var reasons = []Reason{
	ReasonAsExpected, ReasonUndecryptableObjects, ReasonConsentMismatch, ReasonConsentAmbiguous, ReasonConsentUnprovable,
	ReasonConsentNamesCurrentKey, ReasonKMSUnhealthy, ReasonDeletionFailed, ReasonNotManaged,
}

// ConditionReasons are the reasons KMSRecoveryDegraded can carry (KMSRecoveryControllerDegraded carries
// internal/conditions' ControllerDegradedReasons). It is the package's registry of reasons: docs/runbooks_test.go
// demands a runbook for each, and the controller's tests check every condition they read against it.
func ConditionReasons() []string {
	return conditions.ReasonStrings(reasons...)
}
