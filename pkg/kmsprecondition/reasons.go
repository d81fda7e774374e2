package kmsprecondition

import (
	"github.com/kmsguard/kmsguard/internal/conditions"
)

// preflightReasons are the reasons of a True KMSPreflightDegraded, the PreflightReporter's condition.
var preflightReasons = []Reason{ReasonPreflightCheckFailed, ReasonPreflightPodFailed, ReasonPreflightPodNotStarting}

// ConditionReasons are the reasons the package's conditions can carry: AsExpected of all three, Forced and the
// blocking reasons (severity) of KMSRolloutGateProgressing and KMSRolloutGateDegraded, preflightReasons of
// KMSPreflightDegraded. KMSPreflightReportControllerDegraded carries internal/conditions'
// ControllerDegradedReasons. It is the package's registry of reasons, derived from severity: docs/runbooks_test.go
// demands a runbook for each, and the gate's and the reporter's tests check every condition they read against it.
func ConditionReasons() []string {
	reasons := []Reason{ReasonAsExpected, ReasonForced}
	reasons = append(reasons, severity.Reasons()...)
	reasons = append(reasons, preflightReasons...)
	return conditions.ReasonStrings(reasons...)
}
