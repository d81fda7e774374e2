package kmsstate

import (
	"github.com/openshift/library-go/pkg/operator/events"
)

// failureKey identifies a failure across evaluations, without its detail: a detail that changes while a
// fault lasts (a counter, a timestamp) is not a new fault.
type failureKey struct {
	Reason Reason
	Node   string
	KeyID  string
}

func failureSet(failures []Failure) map[failureKey]Failure {
	set := make(map[failureKey]Failure, len(failures))
	for _, f := range failures {
		set[failureKey{Reason: f.Reason, Node: f.Node, KeyID: f.KeyID}] = f
	}
	return set
}

// emitEvents records what changed since the previous evaluation: new failures, cleared failures and
// completed rotations.
func (c *Controller) emitEvents(recorder events.Recorder, previous, current map[failureKey]Failure, state State) {
	for k, f := range current {
		if _, ok := previous[k]; !ok {
			recorder.Warningf(EventPluginUnhealthy, "%s: %s", f.Reason, f)
		}
	}
	for k, f := range previous {
		if _, ok := current[k]; !ok {
			recorder.Eventf(EventPluginRecovered, "%s cleared: %s", f.Reason, Failure{Node: f.Node, KeyID: f.KeyID})
		}
	}
	for _, r := range state.Completed {
		recorder.Eventf(EventKeyRotated, "KMS key %s now uses KEK id %s on every node (was %s)", r.KeyID, r.To, orUnknown(r.From))
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
