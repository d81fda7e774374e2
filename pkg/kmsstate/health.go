package kmsstate

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/sets"
)

// UnhealthyError lists why the plugins asked about in Healthy are not all healthy. Its first failure is the
// most severe.
type UnhealthyError struct {
	Failures []Failure
}

func (e *UnhealthyError) Error() string {
	return "KMS plugins not healthy: " + failureMessage(e.Failures)
}

// Reason is the reason of the most severe failure, for callers that set a condition from it.
func (e *UnhealthyError) Reason() Reason { return e.Failures[0].Reason }

// KMSFaults are the failures that show a KMS key failing (Failure.KMSFault), most severe first.
func (e *UnhealthyError) KMSFaults() []Failure {
	var out []Failure
	for _, f := range e.Failures {
		if f.KMSFault() {
			out = append(out, f)
		}
	}
	return out
}

// Healthy answers whether the plugin of every key in keyIDs is healthy, with a fresh report, on every node in
// nodes. It returns nil or an *UnhealthyError. A node or key the state was not evaluated for counts as
// HealthReportMissing: nothing is healthy that kmsstate has not seen. Pending plugins (a key not yet in the
// revision the node runs) count like the others: the caller asks about those keys on purpose.
//
// Only failures that name one of keyIDs count. An apiserver-level failure without a key (its
// /healthz/kms-providers fails) does not, because it may come from another key: a rollout that replaces a
// broken key must not be blocked by that very key.
func (s *State) Healthy(nodes, keyIDs []string) error {
	wantNodes, wantKeys := sets.New(nodes...), sets.New(keyIDs...)
	var failures []Failure
	for _, f := range append(append([]Failure(nil), s.Failures...), s.Pending...) {
		if f.KeyID != "" && wantNodes.Has(f.Node) && wantKeys.Has(f.KeyID) {
			failures = append(failures, f)
		}
	}
	evaluated := sets.New[ReportRef]()
	for _, p := range s.Plugins {
		evaluated.Insert(ReportRef{Node: p.Node, KeyID: p.KeyID})
	}
	for _, node := range sets.List(wantNodes) {
		for _, key := range sets.List(wantKeys) {
			if !evaluated.Has(ReportRef{Node: node, KeyID: key}) {
				failures = append(failures, Failure{Reason: ReasonHealthReportMissing, Node: node, KeyID: key,
					Detail: fmt.Sprintf("not observed: kmsstate watches nodes %v and keys %v", s.Nodes, s.KeyIDs)})
			}
		}
	}
	if len(failures) == 0 {
		return nil
	}
	sortFailures(failures)
	return &UnhealthyError{Failures: failures}
}

// RunningHealthy answers whether the plugin of every key each node runs is healthy and freshly reported: the
// failures of KMSPluginsDegraded that name a key, and the running keys whose first report is awaited
// (Plugin.AwaitingFirstReport) or whose node is down on purpose (Plugin.NodeUnavailable). Pending plugins are left out; an apiserver-level failure without a key too, as in
// Healthy. It returns nil or an *UnhealthyError.
func (s *State) RunningHealthy() error {
	var failures []Failure
	for _, f := range s.Failures {
		if f.KeyID != "" {
			failures = append(failures, f)
		}
	}
	// A running key whose first report is awaited, or whose node is down on purpose, is not Degraded, but
	// nothing is known of it: not healthy.
	awaiting := sets.New[ReportRef]()
	for _, p := range s.Plugins {
		if p.AwaitingFirstReport || p.NodeUnavailable != "" {
			awaiting.Insert(ReportRef{Node: p.Node, KeyID: p.KeyID})
		}
	}
	for _, f := range s.Pending {
		if awaiting.Has(ReportRef{Node: f.Node, KeyID: f.KeyID}) {
			failures = append(failures, f)
		}
	}
	if len(failures) == 0 {
		return nil
	}
	sortFailures(failures)
	return &UnhealthyError{Failures: failures}
}

// LatestRotation is the latest completed rotation of the KEK id behind keyID that this process has
// seen, for kmsmigration to re-encrypt data written under the previous key_id.
func (s *State) LatestRotation(keyID string) (Rotation, bool) {
	r, ok := s.LastCompleted[keyID]
	return r, ok
}
