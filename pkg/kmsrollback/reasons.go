package kmsrollback

import (
	"github.com/kmsguard/kmsguard/internal/conditions"
)

// reasons are every reason of KMSRollbackDegraded, the one list of them: the package's registry
// (ConditionReasons) and the values of the reason label of kmsguard_kms_rollback_state. All series are present
// once the controller synced, so that a change moves a 1 between series that already exist and an alert's "for:"
// runs from the first sync that set it.
var reasons = []Reason{ReasonAsExpected, ReasonFailureNotAttributedToKMS, ReasonRevertedFailingKMSConfig, ReasonCannotRevertKMSConfig, ReasonNotReverted}

// ConditionReasons are the reasons KMSRollbackDegraded can carry (KMSRollbackControllerDegraded carries
// internal/conditions' ControllerDegradedReasons). It is the package's registry of reasons: docs/runbooks_test.go
// demands a runbook for each, and the controller's tests check every condition they read against it.
func ConditionReasons() []string {
	return conditions.ReasonStrings(reasons...)
}
