package kmsrollback

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
)

// ConditionDegraded is the controller's condition. Its suffix makes library-go's status controllers roll it into
// the ClusterOperator's Degraded.
const ConditionDegraded = "KMSRollbackDegraded"

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
		retry := h.RevertedAt.Add(c.options.Backoff.after(h.Reverts))
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

// applyCondition applies the condition with server-side apply under the controller's own field manager.
func (c *Controller) applyCondition(ctx context.Context, cond operatorv1.OperatorCondition) error {
	return c.options.OperatorClient.ApplyOperatorStatus(ctx, c.name, applyoperatorv1.OperatorStatus().WithConditions(
		applyoperatorv1.OperatorCondition().WithType(cond.Type).WithStatus(cond.Status).WithReason(cond.Reason).WithMessage(truncate(cond.Message))))
}

// maxMessage keeps a condition readable when many nodes and failures are listed.
const maxMessage = 4096

func truncate(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	return s[:maxMessage-len(" ...")] + " ..."
}
