package lab

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// nodeMonitorGracePeriod is how long the node lifecycle controller waits for a node's kubelet to post its status
// before it marks the node NotReady (Ready Unknown) and the pods on it not ready: kube-controller-manager's
// --node-monitor-grace-period, which OpenShift leaves at upstream's 40 s.
const nodeMonitorGracePeriod = 40 * time.Second

// errRebooting: the node is down for a reboot already.
var errRebooting = errors.New("the node is rebooting already")

// Rebooting says whether the node is down for a reboot (FaultNodeReboot), from its cordon until its static pod
// runs again: its kubelet neither runs pods nor carries out installers meanwhile.
func (n *Node) Rebooting() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.rebooting
}

// beginReboot marks the node down for a reboot, which reboot then carries out; errRebooting when it is already.
func (n *Node) beginReboot() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.rebooting {
		return errRebooting
	}
	n.rebooting = true
	return nil
}

// reboot drains and reboots the node as the machine-config operator does in every upgrade, and returns once it is
// back, or ctx ends; beginReboot has marked the node down:
//
//   - the Node is cordoned (spec.unschedulable), as the drain begins;
//   - the machine goes down: every container of the static pod stops with it (kube-apiserver, the KMS plugin
//     sidecars, the health reporter), and the kubelet stops, so installer and other pods wait (a workload pod that
//     runs already, a pruner or a preflight check of seconds, is left to finish);
//   - nodeMonitorGracePeriod after the kubelet's last status, the node lifecycle controller marks the Node Ready
//     Unknown and its pods not ready;
//   - downFor after it went down, the kubelet is back: it starts the static pod of the revision installed last,
//     as it finds it in /etc/kubernetes/manifests, and posts the Node Ready; then the pods that waited run;
//   - the machine-config daemon uncordons the Node.
func (n *Node) reboot(ctx context.Context, downFor time.Duration) error {
	defer func() {
		n.mu.Lock()
		n.rebooting = false
		n.mu.Unlock()
	}()

	if err := n.setUnschedulable(ctx, true); err != nil {
		return err
	}
	// The kubelet's pod workers finish what they do before the machine stops: an installation in progress is
	// not cut in half here (on a machine it could be, and the installer controller retries it).
	n.kubelet.Lock()
	went := time.Now()
	if err := n.apiServer.Stop(); err != nil {
		n.logf("%s: stopping kube-apiserver for the reboot: %v", n.name, err)
	}
	n.stopPod()
	n.mu.Lock()
	n.crashLoop = nil
	revision := n.running
	n.mu.Unlock()
	n.kubelet.Unlock()
	n.logf("%s: drained and down for a reboot of %s", n.name, downFor)

	// The node lifecycle controller's verdict on a node whose kubelet stopped posting, through the other
	// apiservers; on a single node there are none, and it tries until the node is back.
	downCtx, cancel := context.WithTimeout(ctx, downFor)
	defer cancel()
	marked := make(chan struct{})
	go func() {
		defer close(marked)
		select {
		case <-downCtx.Done():
			return
		case <-time.After(nodeMonitorGracePeriod):
		}
		if err := n.markUnreachable(downCtx); err != nil && downCtx.Err() == nil {
			n.logf("%s: the node lifecycle controller could not mark the node NotReady: %v", n.name, err)
		}
	}()
	<-downCtx.Done()
	<-marked
	if ctx.Err() != nil {
		return ctx.Err()
	}

	n.kubelet.Lock()
	defer n.kubelet.Unlock()
	n.logf("%s: back after %s; the kubelet starts revision %d", n.name, time.Since(went).Round(time.Second), revision)
	n.startRevision(ctx, revision)
	if err := n.register(ctx); err != nil {
		return err
	}
	return n.setUnschedulable(ctx, false)
}

// setUnschedulable cordons or uncordons the Node.
func (n *Node) setUnschedulable(ctx context.Context, unschedulable bool) error {
	return retryAPI(ctx, func() error {
		node, err := n.client.CoreV1().Nodes().Get(ctx, n.name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if node.Spec.Unschedulable == unschedulable {
			return nil
		}
		node.Spec.Unschedulable = unschedulable
		_, err = n.client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		return err
	})
}

// markUnreachable is the node lifecycle controller's work on a node whose kubelet stopped posting: the Node's Ready
// condition Unknown, and the Ready condition of every pod on it False.
func (n *Node) markUnreachable(ctx context.Context) error {
	err := retryAPI(ctx, func() error {
		node, err := n.client.CoreV1().Nodes().Get(ctx, n.name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		// The kubelet's last heartbeat stays: the node lifecycle controller changes only the status.
		var heartbeat metav1.Time
		for _, c := range node.Status.Conditions {
			if c.Type == corev1.NodeReady {
				heartbeat = c.LastHeartbeatTime
			}
		}
		setNodeReady(node, corev1.NodeCondition{Status: corev1.ConditionUnknown, Reason: "NodeStatusUnknown",
			Message: "Kubelet stopped posting node status.", LastHeartbeatTime: heartbeat, LastTransitionTime: metav1.Now()})
		_, err = n.client.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("node %s: %w", n.name, err)
	}
	n.setMirrorPodStatus(ctx, corev1.PodRunning, false, "the node is unreachable")
	return nil
}
