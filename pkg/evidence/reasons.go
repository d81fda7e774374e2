package evidence

// verificationReasons are every reason of KMSEncryptionVerified, the one list of them: the package's registry
// (ConditionReasons) and the values of the reason label of kmsguard_encryption_verification_state. All series are
// present once the controller synced, so that a change moves a 1 between series that already exist.
var verificationReasons = []string{ReasonVerified, ReasonNotVerified, ReasonCensusFailed, ReasonCensusDeadlineExceeded, ReasonNothingToVerify}

// ConditionReasons are the reasons the CensusController's KMSEncryptionVerified can carry
// (KMSEncryptionCensusControllerDegraded carries internal/conditions' ControllerDegradedReasons). It is the
// package's registry of reasons: docs/runbooks_test.go demands a runbook for each, and the controller's tests check
// every condition they read against it. The verdicts on a resource (Reason) and on a read key (PruneReason) are no
// condition's reason: they reach KMSEncryptionVerified's message and `kmsguard verify`'s report.
func ConditionReasons() []string { return append([]string(nil), verificationReasons...) }
