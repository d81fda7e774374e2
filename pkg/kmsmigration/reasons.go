package kmsmigration

// pauseReasons are every reason a migration pauses for, in the order of pauseSeverity and then RetryAfter, which
// never names KMSMigrationProgressing (its pauses last seconds; the paused line of the message says it). They are
// the values of the reason label of kmsguard_migration_paused.
var pauseReasons = append(pauseSeverity.Reasons(), string(PausedRetryAfter))

// ConditionReasons are the reasons the Controller's conditions can carry: AsExpected of both, Migrating and the
// pauses of KMSMigrationProgressing (pauseSeverity), the reasons of KMSMigrationDegraded (severity).
// KMSMigrationControllerDegraded carries internal/conditions' ControllerDegradedReasons. It is the package's
// registry of reasons, derived from the two severity orders: docs/runbooks_test.go demands a runbook for each, and
// the controller's tests check every condition they read against it.
func ConditionReasons() []string {
	reasons := []string{ReasonAsExpected, ReasonMigrating}
	reasons = append(reasons, pauseSeverity.Reasons()...)
	return append(reasons, severity.Reasons()...)
}

// PauseReasons are every reason a migration pauses for (Progress.Paused), those that name KMSMigrationProgressing
// and RetryAfter, which only its message and kmsguard_migration_paused show: an admin reads each, so each has a
// runbook.
func PauseReasons() []PauseReason {
	values := make([]PauseReason, 0, len(pauseReasons))
	for _, r := range pauseReasons {
		values = append(values, PauseReason(r))
	}
	return values
}
