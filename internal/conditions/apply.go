package conditions

import (
	"context"
	"unicode/utf8"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
)

// ReasonAsExpected is the reason of a condition that reports nothing wrong, as in library-go.
const ReasonAsExpected = "AsExpected"

// MaxMessage bounds a condition message: hundreds of failures listed stay readable, and the operator resource
// stays far below etcd's object size limit.
const MaxMessage = 4096

// truncated ends a message cut at MaxMessage.
const truncated = " ..."

// Truncate cuts s to at most MaxMessage bytes, on a rune boundary so that the message stays valid UTF-8 (a
// plugin's or apiserver's error text is not always ASCII), marking the cut.
func Truncate(s string) string {
	if len(s) <= MaxMessage {
		return s
	}
	cut := MaxMessage - len(truncated)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + truncated
}

// New is a condition with its message truncated.
func New(conditionType string, status operatorv1.ConditionStatus, reason, message string) operatorv1.OperatorCondition {
	return operatorv1.OperatorCondition{Type: conditionType, Status: status, Reason: reason, Message: Truncate(message)}
}

// ToApply converts a condition to its apply configuration, truncating the message. lastTransitionTime is left to
// library-go's operator client, which keeps it while the status stays.
func ToApply(c operatorv1.OperatorCondition) *applyoperatorv1.OperatorConditionApplyConfiguration {
	return applyoperatorv1.OperatorCondition().WithType(c.Type).WithStatus(c.Status).WithReason(c.Reason).WithMessage(Truncate(c.Message))
}

// Apply applies conds with server-side apply under fieldManager. Every call of one field manager must carry all of
// its conditions: server-side apply removes those a manager applied before and leaves out now.
func Apply(ctx context.Context, client v1helpers.OperatorClient, fieldManager string, conds ...operatorv1.OperatorCondition) error {
	status := applyoperatorv1.OperatorStatus()
	for _, c := range conds {
		status = status.WithConditions(ToApply(c))
	}
	return client.ApplyOperatorStatus(ctx, fieldManager, status)
}
