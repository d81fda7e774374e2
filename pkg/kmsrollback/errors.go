package kmsrollback

import (
	"fmt"
	"strings"

	"github.com/kmsguard/kmsguard/internal/conditions"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// Reason is the reason of the KMSRollbackDegraded condition.
type Reason string

const (
	// ReasonAsExpected: nothing failed, or the config after a revert rolled out healthy.
	ReasonAsExpected Reason = conditions.ReasonAsExpected
	// ReasonFailureNotAttributedToKMS: the newest revision failed, but the evidence does not point at KMS.
	ReasonFailureNotAttributedToKMS Reason = "FailureNotAttributedToKMS"
	// ReasonRevertedFailingKMSConfig: a revision failed because of its KMS change and was reverted.
	ReasonRevertedFailingKMSConfig Reason = "RevertedFailingKMSConfig"
	// ReasonCannotRevertKMSConfig: a revision failed because of its KMS change and there is nothing to go back
	// to (no earlier revision ran, or its encryption config is gone).
	ReasonCannotRevertKMSConfig Reason = "CannotRevertKMSConfig"
	// ReasonNotReverted: a revision failed because of its KMS change, and spec.managementState is not Managed, so
	// nothing was reverted.
	ReasonNotReverted Reason = "KMSConfigNotRevertedOperatorNotManaged"
)

// Verdict is the outcome of attributing a failed rollout. Its Reason picks the condition reason.
type Verdict interface {
	error
	Reason() Reason
}

// KMSRolloutFailedError: revision Revision failed on Nodes, and kmsstate shows the KMS keys it changed failing
// there. It is the only verdict that reverts.
type KMSRolloutFailedError struct {
	// Revision failed; LastGood is the revision the failing nodes ran before, the one to go back to.
	Revision, LastGood int32
	// Hash is the hash of encryption-config-<Revision>, LastGoodHash that of encryption-config-<LastGood>.
	Hash, LastGoodHash string
	// Nodes failed Revision with KMS evidence; KeyIDs are the keys Revision added or changed.
	Nodes, KeyIDs []string
	// Failures are kmsstate's failures of KeyIDs on Nodes, most severe first.
	Failures []kmsstate.Failure
	// Rollout is what the installer or startup monitor said about the failed nodes.
	Rollout []NodeFailure
}

func (e *KMSRolloutFailedError) Error() string {
	return fmt.Sprintf("revision %d (%s) failed on nodes %v while its KMS keys %v fail there: %s; rollout: %s",
		e.Revision, e.Hash, e.Nodes, e.KeyIDs, failuresString(e.Failures), nodeFailuresString(e.Rollout))
}
func (e *KMSRolloutFailedError) Reason() Reason { return ReasonRevertedFailingKMSConfig }

// CannotRevertError: the failure is KMS's, but there is no config to go back to.
type CannotRevertError struct {
	Failed *KMSRolloutFailedError
	Why    string
}

func (e *CannotRevertError) Error() string {
	return fmt.Sprintf("cannot revert: %s; %v", e.Why, e.Failed)
}
func (e *CannotRevertError) Unwrap() error  { return e.Failed }
func (e *CannotRevertError) Reason() Reason { return ReasonCannotRevertKMSConfig }

// NotAttributedError: the newest revision failed, and the evidence does not make it KMS's.
type NotAttributedError struct {
	Revision int32
	Rollout  []NodeFailure
	Why      string
	// cause is the rule of attribute that found the failure not KMS's; Why says it in words.
	cause notAttributedCause
}

// notAttributedCause names the rule of attribute that found a failure not KMS's: the typed form of
// NotAttributedError.Why.
type notAttributedCause int

const (
	// causeInstallerFailed: only installer pods failed; the revision's apiserver never ran.
	causeInstallerFailed notAttributedCause = iota + 1
	// causeUndecodableConfig: the failed revision's encryption config does not decode.
	causeUndecodableConfig
	// causeNoKMSChange: the failed revision has the KMS providers of the last good one.
	causeNoKMSChange
	// causeOnlyDropsKMS: the failed revision only drops KMS providers.
	causeOnlyDropsKMS
	// causeNoKMSFault: kmsstate shows no KMS fault of the changed keys on the failing nodes.
	causeNoKMSFault
)

func (e *NotAttributedError) Error() string {
	return fmt.Sprintf("revision %d failed on nodes %v, not because of KMS: %s", e.Revision, nodesOf(e.Rollout), e.Why)
}
func (e *NotAttributedError) Reason() Reason { return ReasonFailureNotAttributedToKMS }

func failuresString(failures []kmsstate.Failure) string {
	parts := make([]string, 0, len(failures))
	for _, f := range failures {
		parts = append(parts, fmt.Sprintf("%s: %s", f.Reason, f))
	}
	return strings.Join(parts, "; ")
}

func nodeFailuresString(failures []NodeFailure) string {
	parts := make([]string, 0, len(failures))
	for _, f := range failures {
		parts = append(parts, f.String())
	}
	return strings.Join(parts, "; ")
}

func nodesOf(failures []NodeFailure) []string {
	nodes := make([]string, 0, len(failures))
	for _, f := range failures {
		nodes = append(nodes, f.Node)
	}
	return nodes
}
