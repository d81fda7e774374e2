package kmsrecovery

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
	values := make([]string, 0, len(reasons))
	for _, r := range reasons {
		values = append(values, string(r))
	}
	return values
}
