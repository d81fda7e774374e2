package kmsrollback

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/staticpod/startupmonitor/annotations"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/utils/clock"
)

// FailureSource says where a rollout failure was seen.
type FailureSource string

const (
	// SourceOperandFailed: library-go's installer controller recorded that the apiserver of the revision
	// failed (nodeStatuses[].lastFailedReason OperandFailed).
	SourceOperandFailed FailureSource = "OperandFailed"
	// SourceInstallerFailed: the installer pod itself failed (InstallerFailed): the apiserver of the revision
	// never ran, so KMS cannot be what failed.
	SourceInstallerFailed FailureSource = "InstallerFailed"
	// SourceStartupMonitor: the startup monitor fell back to the last known good revision (pod annotation
	// fallback-for-revision, or the installer's OperandFailedFallback).
	SourceStartupMonitor FailureSource = "StartupMonitorFallback"
	// SourcePodNotReady: the apiserver pod of the revision has not been ready for NotReadyAfter.
	SourcePodNotReady FailureSource = "PodNotReady"
)

// NodeFailure is one node failing one revision.
type NodeFailure struct {
	Node     string
	Revision int32
	// LastGood is the revision the node ran before, 0 when it never ran one.
	LastGood int32
	Source   FailureSource
	Detail   string
}

func (f NodeFailure) String() string {
	s := fmt.Sprintf("node %s revision %d (%s)", f.Node, f.Revision, f.Source)
	if f.Detail != "" {
		s += ": " + f.Detail
	}
	return s
}

// NodeRollout is where one node is.
type NodeRollout struct {
	Node                            string
	CurrentRevision, TargetRevision int32
}

// Rollout is the state of the apiserver rollout.
type Rollout struct {
	LatestAvailableRevision int32
	Nodes                   []NodeRollout
	// Failures has at most one entry per node: its newest failed revision.
	Failures []NodeFailure
}

// converged is the revision every node runs with nothing pending (ConvergedRevision), 0 while a rollout is in
// progress or a node has failed one.
func (r Rollout) converged() int32 {
	if len(r.Failures) > 0 {
		return 0
	}
	status := &operatorv1.StaticPodOperatorStatus{OperatorStatus: operatorv1.OperatorStatus{LatestAvailableRevision: r.LatestAvailableRevision}}
	for _, n := range r.Nodes {
		status.NodeStatuses = append(status.NodeStatuses, operatorv1.NodeStatus{NodeName: n.Node, CurrentRevision: n.CurrentRevision, TargetRevision: n.TargetRevision})
	}
	return ConvergedRevision(status)
}

// ConvergedRevision is the revision a static-pod rollout has converged on: status.latestAvailableRevision when
// every node runs it with no installation pending, 0 while a rollout is in progress or there is no node status.
// It is the one place kmsguard (and its lab) decides that a rollout is over.
//
// A node runs a revision when its currentRevision is that revision. Its installation is over when targetRevision
// is 0 or currentRevision: library-go's installer controller sets targetRevision to the revision it installs, and
// after a successful install sets currentRevision to it and targetRevision back to 0 (newNodeStateForInstallInProgress);
// it counts a node whose targetRevision is 0 or equals its currentRevision as finished before it moves on to the
// next node (getRevisionToStart). Any other targetRevision is an installation under way, or one that failed and
// is retried.
func ConvergedRevision(status *operatorv1.StaticPodOperatorStatus) int32 {
	if status == nil || len(status.NodeStatuses) == 0 || status.LatestAvailableRevision == 0 {
		return 0
	}
	for _, n := range status.NodeStatuses {
		if n.CurrentRevision != status.LatestAvailableRevision || (n.TargetRevision != 0 && n.TargetRevision != n.CurrentRevision) {
			return 0
		}
	}
	return status.LatestAvailableRevision
}

func (r Rollout) nodeNames() []string {
	names := make([]string, 0, len(r.Nodes))
	for _, n := range r.Nodes {
		names = append(names, n.Node)
	}
	return names
}

// RolloutReader reads the state of the apiserver rollout.
type RolloutReader interface {
	Rollout(ctx context.Context) (Rollout, error)
}

// RolloutReaderFunc adapts a function to RolloutReader.
type RolloutReaderFunc func(ctx context.Context) (Rollout, error)

// Rollout calls f.
func (f RolloutReaderFunc) Rollout(ctx context.Context) (Rollout, error) { return f(ctx) }

// DefaultNotReadyAfter is how long an apiserver pod of a new revision may stay not ready before that counts as a
// failure: longer than a kube-apiserver's start with an unusable KMS (it waits about a minute for the plugin
// before /livez passes) and the startup monitor's own timeout, so that the installer's verdict usually comes first.
const DefaultNotReadyAfter = 5 * time.Minute

// StaticPodRollout reads the rollout of a static-pod operator: status.nodeStatuses, and, when pods is not nil,
// the apiserver mirror pods (selected by selector, e.g. "apiserver=true") for the startup monitor's
// annotations and readiness. pods must list the operand namespace.
func StaticPodRollout(client v1helpers.StaticPodOperatorClient, pods corev1listers.PodNamespaceLister, selector labels.Selector, notReadyAfter time.Duration, clk clock.PassiveClock) RolloutReader {
	if notReadyAfter == 0 {
		notReadyAfter = DefaultNotReadyAfter
	}
	if clk == nil {
		clk = clock.RealClock{}
	}
	return RolloutReaderFunc(func(context.Context) (Rollout, error) {
		_, status, _, err := client.GetStaticPodOperatorState()
		if err != nil {
			return Rollout{}, fmt.Errorf("reading the static pod operator status: %w", err)
		}
		var podList []*corev1.Pod
		if pods != nil {
			if podList, err = pods.List(selector); err != nil {
				return Rollout{}, fmt.Errorf("listing apiserver pods: %w", err)
			}
		}
		return rolloutFromStatus(status, podList, notReadyAfter, clk.Now()), nil
	})
}

// revisionLabel is the label library-go's static pods carry their revision in.
const revisionLabel = "revision"

func rolloutFromStatus(status *operatorv1.StaticPodOperatorStatus, pods []*corev1.Pod, notReadyAfter time.Duration, now time.Time) Rollout {
	r := Rollout{LatestAvailableRevision: status.LatestAvailableRevision}
	podByNode := map[string]*corev1.Pod{}
	for _, p := range pods {
		podByNode[p.Spec.NodeName] = p
	}
	for _, ns := range status.NodeStatuses {
		r.Nodes = append(r.Nodes, NodeRollout{Node: ns.NodeName, CurrentRevision: ns.CurrentRevision, TargetRevision: ns.TargetRevision})
		if f, ok := nodeFailure(ns, podByNode[ns.NodeName], notReadyAfter, now); ok {
			r.Failures = append(r.Failures, f)
		}
	}
	sort.Slice(r.Failures, func(i, j int) bool { return r.Failures[i].Node < r.Failures[j].Node })
	return r
}

// nodeFailure is the newest failed revision of a node, by the strongest evidence: the installer's record, the
// startup monitor's fallback, the pod's readiness. The reasons are library-go's installer controller's
// (nodeStatusOperandFailedReason and friends, unexported there). A failure the node has since moved past (currentRevision at
// or above it) is over.
func nodeFailure(ns operatorv1.NodeStatus, pod *corev1.Pod, notReadyAfter time.Duration, now time.Time) (NodeFailure, bool) {
	if ns.LastFailedRevision > ns.CurrentRevision {
		source := SourceOperandFailed
		switch ns.LastFailedReason {
		case "OperandFailedFallback":
			source = SourceStartupMonitor
		case "InstallerFailed":
			source = SourceInstallerFailed
		}
		return NodeFailure{Node: ns.NodeName, Revision: ns.LastFailedRevision, LastGood: ns.CurrentRevision, Source: source,
			Detail: strings.Join(ns.LastFailedRevisionErrors, "; ")}, true
	}
	if pod == nil {
		return NodeFailure{}, false
	}
	if v, ok := pod.Annotations[annotations.FallbackForRevision]; ok {
		if failed, err := strconv.ParseInt(v, 10, 32); err == nil && int32(failed) > ns.CurrentRevision {
			// The startup monitor fell back, and library-go's installer controller has not recorded it yet
			// (nodeStatuses, above). It will, from this annotation; a revert now would race it: the revert's
			// revision reaches the node first and the fallback is never recorded, so NodeInstallerDegraded never
			// shows it. Wait for the record.
			return NodeFailure{}, false
		}
	}
	running, err := strconv.ParseInt(pod.Labels[revisionLabel], 10, 32)
	if err != nil || int32(running) <= ns.CurrentRevision {
		return NodeFailure{}, false
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status != corev1.ConditionTrue && !c.LastTransitionTime.IsZero() && now.Sub(c.LastTransitionTime.Time) >= notReadyAfter {
			return NodeFailure{Node: ns.NodeName, Revision: int32(running), LastGood: ns.CurrentRevision, Source: SourcePodNotReady,
				Detail: fmt.Sprintf("pod %s not ready for %s: %s", pod.Name, now.Sub(c.LastTransitionTime.Time).Round(time.Second), c.Message)}, true
		}
	}
	return NodeFailure{}, false
}
