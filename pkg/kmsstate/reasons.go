package kmsstate

import (
	"slices"

	"github.com/kmsguard/kmsguard/internal/conditions"
)

// readerOnly are the failure Reasons that only the Reader methods answer with: no condition carries them, and a
// kmsstate that does not evaluate sets no metric either.
var readerOnly = map[Reason]bool{ReasonStateStale: true, ReasonStateNotEvaluated: true}

// failureReasons are the Reasons a KMSPluginsDegraded condition can carry, in severity order: severity without
// readerOnly. They are the values of the reason label of kmsguard_kms_failures.
var failureReasons = slices.DeleteFunc(severity.Reasons(), func(r Reason) bool { return readerOnly[r] })

// ConditionReasons are the reasons kmsstate's conditions can carry: the failure Reasons of KMSPluginsDegraded,
// KeysPending, NodeUnavailable and KeyRotationInProgress of the two Progressing conditions, KMSNotConfigured and AsExpected of all
// three. KMSStateControllerDegraded carries internal/conditions' ControllerDegradedReasons. It is the package's
// registry of reasons, derived from severity: docs/runbooks_test.go demands a runbook for each, and the
// controller's tests check every condition they read against it.
func ConditionReasons() []string {
	reasons := []string{ReasonAsExpected, ReasonKMSNotConfigured, ReasonKeysPending, ReasonNodeUnavailable, ReasonKeyRotationInProgress}
	return append(reasons, conditions.ReasonStrings(failureReasons...)...)
}

// Reasons are every failure Reason, most severe first: those of KMSPluginsDegraded and those only the Reader
// answers with (StateStale, StateNotEvaluated). Other controllers quote them in their conditions' messages (the
// rollout gate's KMSPluginsNotHealthy, kmsrollback's revert), and `kmsguard status` prints them, so each has a
// runbook too.
func Reasons() []Reason { return severity.Reasons() }
