package kmsprecondition

import (
	"context"
	"fmt"
	"strings"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/klog/v2"

	"github.com/kmsguard/kmsguard/internal/conditions"
	"github.com/kmsguard/kmsguard/pkg/overrides"
)

// Conditions owned by the gate. Their suffixes make library-go's status controllers roll them into the
// ClusterOperator's Progressing and Degraded.
const (
	ConditionProgressing = "KMSRolloutGateProgressing"
	ConditionDegraded    = "KMSRolloutGateDegraded"
)

// Events. Blocked, Waiting, Unblocked and Degraded are emitted on transitions; Forced every time the override is
// used.
const (
	EventBlocked = "KMSRolloutBlocked"
	// EventWaiting (Normal): the change waits on time alone (the rollback window), with Progressing False.
	EventWaiting   = "KMSRolloutWaiting"
	EventUnblocked = "KMSRolloutUnblocked"
	EventDegraded  = "KMSRolloutGateDegraded"
	EventForced    = "KMSRolloutForced"
	// EventReadKeyAdmittedUnverified (Warning) is emitted when the gate decides to let a candidate through whose
	// new read keys nothing has verified (AdmitUnverifiedReadKeys): once per candidate and key in a process, not
	// at every sync until the revision exists.
	EventReadKeyAdmittedUnverified = "KMSReadKeyAdmittedUnverified"
)

type gateConditions struct {
	progressing, degraded operatorv1.OperatorCondition
}

// conditions derives both conditions from the verdict. Each branch sets both on purpose.
//
// The messages name times, not durations: a message that changed every second would be a status write every
// second, and each write syncs the resource sync and the revision controller that call the gate again.
//
// How long the change has been blocked is read from KMSRolloutGateProgressing's lastTransitionTime, which
// library-go's operator client keeps while the status stays True: it survives operator restarts and leader
// changes at no cost, and a change of reason (preflight passed, now waiting for plugins) does not restart the
// clock, because the admin has been waiting all along.
func (g *Gate) conditions(v verdict, previous []operatorv1.OperatorCondition, now time.Time) gateConditions {
	c := gateConditions{
		progressing: operatorv1.OperatorCondition{Type: ConditionProgressing, Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected)},
		degraded:    operatorv1.OperatorCondition{Type: ConditionDegraded, Status: operatorv1.ConditionFalse, Reason: string(ReasonAsExpected)},
	}
	switch {
	case !v.Gated():
		c.progressing.Message = fmt.Sprintf("no KMS provider change and no dropped read key pending in %s", orNone(v.Configs.CandidateName))
	case len(v.Blocking) == 0:
		c.progressing.Message = allowedMessage(v)
	case v.Forced:
		msg := fmt.Sprintf("the change in %s (%s) is FORCED by %s although: %s; remove the override once the revision is rolled out",
			v.Configs.CandidateName, v.Hash, overrides.ForceRevisionField, joinBlocking(v.Blocking))
		c.progressing.Reason, c.progressing.Message = string(ReasonForced), msg
		c.degraded.Reason, c.degraded.Message = string(ReasonForced), msg
	case allWaitOnTime(v.Blocking):
		// Nothing moves while a change waits for the rollback window: Progressing would roll up into the
		// ClusterOperator's Progressing for a day. The wait, and when it ends, is in the message.
		reason := string(v.Blocking[0].Reason())
		msg := fmt.Sprintf("no revision is created from %s (%s) until: %s; nothing is in progress meanwhile, the change waits on time alone; %s",
			v.Configs.CandidateName, v.Hash, joinBlocking(v.Blocking), overrideHint(v.Hash))
		c.progressing.Reason, c.progressing.Message = reason, msg
		c.degraded.Message = "the change waits on time alone; never Degraded for that"
	default:
		since := now
		if p := v1helpers.FindOperatorCondition(previous, ConditionProgressing); p != nil && p.Status == operatorv1.ConditionTrue && !p.LastTransitionTime.IsZero() {
			since = p.LastTransitionTime.Time
		}
		blocked := now.Sub(since).Round(time.Second)
		reason := string(v.Blocking[0].Reason())
		msg := fmt.Sprintf("no revision is created from %s (%s) until: %s; %s", v.Configs.CandidateName, v.Hash, joinBlocking(v.Blocking), overrideHint(v.Hash))
		if v.IgnoredForce {
			msg += fmt.Sprintf(" (%s names another candidate and is ignored)", overrides.ForceRevisionField)
		}
		c.progressing = operatorv1.OperatorCondition{Type: ConditionProgressing, Status: operatorv1.ConditionTrue, Reason: reason, Message: msg}
		switch {
		case !anyDegrades(v.Blocking):
			c.degraded.Message = fmt.Sprintf("the change has been waiting since %s for what normal operation ends by itself; never Degraded for that", stamp(since))
		case anyNeedsAdmin(v.Blocking) || blocked >= g.options.DegradedAfter:
			c.degraded = operatorv1.OperatorCondition{Type: ConditionDegraded, Status: operatorv1.ConditionTrue, Reason: reason,
				Message: fmt.Sprintf("blocked since %s: %s", stamp(since), msg)}
		default:
			c.degraded.Message = fmt.Sprintf("a KMS change has been waiting since %s; Degraded at %s if it still waits on a fault", stamp(since), stamp(since.Add(g.options.DegradedAfter)))
		}
	}
	return c
}

// allowedMessage says what may roll out, and by which evidence each dropped read key may go.
func allowedMessage(v verdict) string {
	msg := fmt.Sprintf("the change in %s (%s) may roll out", v.Configs.CandidateName, v.Hash)
	if v.KMSChanged {
		msg = fmt.Sprintf("the KMS change in %s (%s) may roll out", v.Configs.CandidateName, v.Hash)
		if len(v.Keys.Deployed) > 0 {
			msg += fmt.Sprintf(": keys %v healthy on nodes %v", v.Keys.Deployed, v.Nodes)
		}
		if len(v.Keys.Promoted) > 0 {
			msg += fmt.Sprintf(", and promoted keys %v on one KEK id each", v.Keys.Promoted)
		}
		for _, a := range v.Admitted {
			msg += fmt.Sprintf("; new read key %s: %s", a.KeyID, a.by())
		}
	}
	switch {
	case len(v.Dropped) == 0:
	case v.Revert:
		msg += fmt.Sprintf("; it is a revert to an earlier revision's config, so the read keys it drops (%s) never wrote anything", droppedNames(v.Dropped))
	default:
		msg += "; dropped read keys: " + joinDropped(v.Allowed)
	}
	return msg
}

func droppedNames(dropped []DroppedProvider) string {
	names := make([]string, 0, len(dropped))
	for _, d := range dropped {
		names = append(names, d.Resource+" "+d.readKey().String())
	}
	return strings.Join(names, ", ")
}

// anyDegrades is false when every blocking error ends by itself (the rollback window).
func anyDegrades(errs []BlockingError) bool {
	for _, err := range errs {
		if !neverDegrades(err.Reason()) {
			return true
		}
	}
	return false
}

func anyNeedsAdmin(errs []BlockingError) bool {
	for _, err := range errs {
		if needsAdmin(err.Reason()) {
			return true
		}
	}
	return false
}

func orNone(name string) string {
	if name == "" {
		return "(no encryption config)"
	}
	return name
}

// emitEvents records transitions against the previous conditions, and every use of the override.
func (g *Gate) emitEvents(v verdict, previous []operatorv1.OperatorCondition, c gateConditions) {
	recorder := g.options.Recorder
	prevProgressing := v1helpers.FindOperatorCondition(previous, ConditionProgressing)
	prevDegraded := v1helpers.FindOperatorCondition(previous, ConditionDegraded)
	wasBlocked := prevProgressing != nil && prevProgressing.Status == operatorv1.ConditionTrue
	switch {
	case v.Forced:
		klog.Warningf("%s: FORCING a revision past the KMS rollout gate: %s", g.name, c.progressing.Message)
		recorder.Warningf(EventForced, "%s", c.progressing.Message)
	case c.progressing.Status == operatorv1.ConditionTrue && (!wasBlocked || prevProgressing.Reason != c.progressing.Reason):
		recorder.Warningf(EventBlocked, "%s", c.progressing.Message)
	case allWaitOnTime(v.Blocking):
		if prevProgressing == nil || prevProgressing.Reason != c.progressing.Reason {
			recorder.Eventf(EventWaiting, "%s", c.progressing.Message)
		}
	case c.progressing.Status == operatorv1.ConditionFalse && (wasBlocked || wasWaiting(prevProgressing)):
		recorder.Eventf(EventUnblocked, "%s", c.progressing.Message)
	}
	if len(v.Blocking) == 0 {
		for _, a := range v.Admitted {
			if a.Unverified && g.announce(v.Hash+"/"+a.KeyID) {
				recorder.Warningf(EventReadKeyAdmittedUnverified, "the KMS change in %s (%s) may roll out with new read key %s %s",
					v.Configs.CandidateName, v.Hash, a.KeyID, a.by())
			}
		}
	}
	if c.degraded.Status == operatorv1.ConditionTrue && (prevDegraded == nil || prevDegraded.Status != operatorv1.ConditionTrue || prevDegraded.Reason != c.degraded.Reason) {
		recorder.Warningf(EventDegraded, "%s", c.degraded.Message)
	}
}

// wasWaiting says whether the previous Progressing condition was a wait on time alone (False, with a reason that
// waitsOnTime): its end lets the change through as a block's end does.
func wasWaiting(prev *operatorv1.OperatorCondition) bool {
	return prev != nil && prev.Status == operatorv1.ConditionFalse && waitsOnTime(Reason(prev.Reason))
}

// stamp is how the conditions' messages name a time.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// announce says whether decision has not been announced by this process yet, and records it.
func (g *Gate) announce(decision string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.announced.Has(decision) {
		return false
	}
	g.announced.Insert(decision)
	return true
}

// applyConditions applies both conditions with server-side apply under the gate's own field manager.
func (g *Gate) applyConditions(ctx context.Context, c gateConditions) error {
	return conditions.Apply(ctx, g.options.OperatorClient, g.name, c.progressing, c.degraded)
}
