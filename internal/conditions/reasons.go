package conditions

// ControllerDegradedReasons are the reasons a <Name>ControllerDegraded condition can carry (ControllerDegraded):
// AsExpected while syncs succeed, Error for a failed sync, Panic for one that panicked. They are this package's
// registry of reasons, as each controller package's ConditionReasons is its own: docs/runbooks_test.go demands a
// runbook for each, and internal/conventionstest checks the ControllerDegraded conditions a test reads against
// it.
func ControllerDegradedReasons() []string {
	return []string{ReasonAsExpected, ReasonSyncError, ReasonPanic}
}

// ReasonStrings are typed reasons as the strings a condition carries, in order: what a package's
// ConditionReasons returns from its typed list.
func ReasonStrings[R ~string](reasons ...R) []string {
	values := make([]string, 0, len(reasons))
	for _, r := range reasons {
		values = append(values, string(r))
	}
	return values
}
