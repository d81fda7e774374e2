package kmsrollback

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"

	"github.com/kmsguard/kmsguard/internal/conditions"
)

// ConditionDegraded is the controller's condition. Its suffix makes library-go's status controllers roll it into
// the ClusterOperator's Degraded.
const ConditionDegraded = "KMSRollbackDegraded"

// controllerName names ConditionControllerDegraded.
const controllerName = "KMSRollback"

// ConditionControllerDegraded is True with the error while a sync fails (it could not read its inputs or write
// what it decided), as library-go's encryption controllers report theirs; False once a sync succeeds.
var ConditionControllerDegraded = conditions.ControllerDegradedType(controllerName)

// Events.
const (
	EventReverted     = "KMSConfigReverted"
	EventRevertFailed = "KMSConfigRevertFailed"
	EventHoldReleased = "KMSConfigHoldReleased"
	EventCleared      = "KMSRollbackCleared"
)

// condition derives KMSRollbackDegraded from the newest Hold and the current verdict. An outstanding revert
// wins: the cluster runs on a reverted config until the next one rolls out healthy, whatever else fails meanwhile.
func (c *Controller) condition(verdict Verdict, latest *Hold, now time.Time) operatorv1.OperatorCondition {
	cond := operatorv1.OperatorCondition{Type: ConditionDegraded, Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected)}
	var cannot *CannotRevertError
	switch {
	case latest != nil && latest.Cleared == nil:
		cond.Status, cond.Reason, cond.Message = operatorv1.ConditionTrue, string(ReasonRevertedFailingKMSConfig), c.revertMessage(latest, now)
	case errors.As(verdict, &cannot):
		cond.Status, cond.Reason = operatorv1.ConditionTrue, string(ReasonCannotRevertKMSConfig)
		cond.Message = fmt.Sprintf("%v; to fix: %s", cannot, fixHint(cannot.Failed.KeyIDs))
	case verdict != nil:
		cond.Reason, cond.Message = string(verdict.Reason()), verdict.Error()
	case latest != nil:
		cond.Message = fmt.Sprintf("revision %d rolled out healthy after the revert of revision %d (%s)", latest.ClearedBy, latest.FailedRevision, latest.Hash)
	}
	return cond
}

func (c *Controller) revertMessage(h *Hold, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "revision %d (encryption config %s) failed on nodes %v because its KMS keys %v fail there: %s. ",
		h.FailedRevision, h.Hash, h.Nodes, h.KeyIDs, h.Error)
	fmt.Fprintf(&b, "The encryption config was reverted to that of revision %d (%s) at %s (revert %d of this config). ",
		h.RevertedTo, h.RevertedToHash, h.RevertedAt.UTC().Format(time.RFC3339), h.Reverts)
	if h.Active() {
		retry := c.retryAt(h)
		fmt.Fprintf(&b, "It stays held out until the encryption configuration changes, or the plugins of keys %v are healthy on every node", h.KeyIDs)
		if retry.After(now) {
			fmt.Fprintf(&b, " after %s", retry.UTC().Format(time.RFC3339))
		}
		fmt.Fprintf(&b, ". To fix: %s", fixHint(h.KeyIDs))
		return b.String()
	}
	fmt.Fprintf(&b, "Released at %s: %s; waiting for the next encryption config to roll out healthy", h.Released.UTC().Format(time.RFC3339), h.ReleaseReason)
	return b.String()
}

func fixHint(keyIDs []string) string {
	return fmt.Sprintf("make the KMS plugins of keys %v reachable and healthy on every control-plane node (see KMSPluginsDegraded), or change spec.encryption of apiserver.config.openshift.io/cluster", keyIDs)
}

// emitTransitionEvents records the condition turning True for a reason it did not have before. Reverts,
// releases and clears have their own events, emitted where they happen.
func (c *Controller) emitTransitionEvents(recorder events.Recorder, previous []operatorv1.OperatorCondition, cond operatorv1.OperatorCondition) {
	prev := v1helpers.FindOperatorCondition(previous, ConditionDegraded)
	if cond.Reason == string(ReasonCannotRevertKMSConfig) && (prev == nil || prev.Reason != cond.Reason) {
		recorder.Warningf(EventRevertFailed, "%s", cond.Message)
	}
}

// applyCondition applies the condition with server-side apply under the controller's own field manager, and
// sets kmsguard_kms_rollback_state to its reason: every sync that decides ends here, Managed or not.
func (c *Controller) applyCondition(ctx context.Context, cond operatorv1.OperatorCondition) error {
	c.metrics.setState(cond.Reason)
	return conditions.Apply(ctx, c.options.OperatorClient, c.name, cond)
}

// unmanagedCondition is KMSRollbackDegraded while spec.managementState is not Managed: a failure that would be
// reverted is reported as not reverted; anything else reads as when Managed (an outstanding revert still runs).
func (c *Controller) unmanagedCondition(verdict Verdict, holds Holds, now time.Time, state operatorv1.ManagementState) operatorv1.OperatorCondition {
	failed, ok := verdict.(*KMSRolloutFailedError)
	if !ok || holds.handled(failed.Revision, failed.Hash) || holds.Active() != nil {
		return c.condition(verdict, holds.Latest(), now)
	}
	return conditions.New(ConditionDegraded, operatorv1.ConditionTrue, string(ReasonNotReverted),
		fmt.Sprintf("%v; not reverted: spec.managementState is %s, and nothing is written unless it is Managed; to fix: %s", failed, state, fixHint(failed.KeyIDs)))
}
