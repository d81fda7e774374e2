package kmsrollback

import (
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
)

// TestConvergedRevision: the rules of a converged static-pod rollout, with the node states library-go's installer
// controller writes.
func TestConvergedRevision(t *testing.T) {
	node := func(name string, current, target int32) operatorv1.NodeStatus {
		return operatorv1.NodeStatus{NodeName: name, CurrentRevision: current, TargetRevision: target}
	}
	status := func(latest int32, nodes ...operatorv1.NodeStatus) *operatorv1.StaticPodOperatorStatus {
		return &operatorv1.StaticPodOperatorStatus{OperatorStatus: operatorv1.OperatorStatus{LatestAvailableRevision: latest}, NodeStatuses: nodes}
	}
	scenarios := []struct {
		name   string
		status *operatorv1.StaticPodOperatorStatus
		want   int32
	}{
		{name: "no status", status: nil},
		{name: "no node status yet", status: status(3)},
		{name: "no revision yet", status: status(0, node("master-0", 0, 0))},
		{name: "every node installed the latest: the installer cleared targetRevision", status: status(3, node("master-0", 3, 0), node("master-1", 3, 0)), want: 3},
		{name: "targetRevision left at currentRevision counts as installed", status: status(3, node("master-0", 3, 3), node("master-1", 3, 0)), want: 3},
		{name: "a node still installing the latest", status: status(3, node("master-0", 3, 0), node("master-1", 2, 3))},
		{name: "a node not yet started on the latest", status: status(3, node("master-0", 3, 0), node("master-1", 2, 0))},
		{name: "a node runs the latest with another installation pending", status: status(3, node("master-0", 3, 4), node("master-1", 3, 0))},
		{name: "a node ahead of latestAvailableRevision", status: status(3, node("master-0", 4, 0))},
		{name: "a node whose operand failed and is no longer retried", status: status(3, node("master-0", 2, 0), node("master-1", 3, 0))},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			if got := ConvergedRevision(s.status); got != s.want {
				t.Errorf("ConvergedRevision = %d, want %d", got, s.want)
			}
		})
	}
}

// TestRolloutConverged: a Rollout converges by ConvergedRevision's rules, and not while a node has a failure.
func TestRolloutConverged(t *testing.T) {
	nodes := []NodeRollout{{Node: "master-0", CurrentRevision: 4}, {Node: "master-1", CurrentRevision: 4, TargetRevision: 4}}
	if got := (Rollout{LatestAvailableRevision: 4, Nodes: nodes}).converged(); got != 4 {
		t.Errorf("converged = %d, want 4", got)
	}
	installing := []NodeRollout{{Node: "master-0", CurrentRevision: 4}, {Node: "master-1", CurrentRevision: 3, TargetRevision: 4}}
	if got := (Rollout{LatestAvailableRevision: 4, Nodes: installing}).converged(); got != 0 {
		t.Errorf("converged = %d while master-1 installs, want 0", got)
	}
	failed := Rollout{LatestAvailableRevision: 4, Nodes: nodes, Failures: []NodeFailure{{Node: "master-1", Revision: 4, Source: SourcePodNotReady}}}
	if got := failed.converged(); got != 0 {
		t.Errorf("converged = %d with a failure, want 0", got)
	}
}
