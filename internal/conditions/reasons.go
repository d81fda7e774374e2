package conditions

// ControllerDegradedReasons are the reasons a <Name>ControllerDegraded condition can carry (ControllerDegraded):
// AsExpected while syncs succeed, Error for a failed sync, Panic for one that panicked. They are this package's
// registry of reasons, as each controller package's ConditionReasons is its own: docs/runbooks_test.go demands a
// runbook for each, and internal/conventionstest checks the ControllerDegraded conditions a test reads against
// it.
func ControllerDegradedReasons() []string {
	return []string{ReasonAsExpected, ReasonSyncError, ReasonPanic}
}
