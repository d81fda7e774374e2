package kmsstate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	corev1listers "k8s.io/client-go/listers/core/v1"
)

// NodeListerFunc adapts a function to NodeLister.
type NodeListerFunc func(ctx context.Context) ([]string, error)

// Nodes calls f.
func (f NodeListerFunc) Nodes(ctx context.Context) ([]string, error) { return f(ctx) }

// KeyListerFunc adapts a function to KeyLister.
type KeyListerFunc func(ctx context.Context) (Keys, error)

// KMSKeys calls f.
func (f KeyListerFunc) KMSKeys(ctx context.Context) (Keys, error) { return f(ctx) }

// StaticPodNodes lists the nodes of a static-pod operator (kube-apiserver-operator): every node in
// status.nodeStatuses runs a kube-apiserver and so a KMS plugin per key.
func StaticPodNodes(client v1helpers.StaticPodOperatorClient) NodeLister {
	return NodeListerFunc(func(context.Context) ([]string, error) {
		_, status, _, err := client.GetStaticPodOperatorState()
		if err != nil {
			return nil, fmt.Errorf("reading the static pod operator status: %w", err)
		}
		nodes := make([]string, 0, len(status.NodeStatuses))
		for _, n := range status.NodeStatuses {
			nodes = append(nodes, n.NodeName)
		}
		return nodes, nil
	})
}

// AvailabilityLister says, per node, whether its plugins may be silent on purpose (Observation.Availability).
type AvailabilityLister interface {
	NodeAvailability(ctx context.Context) (map[string]NodeAvailability, error)
}

// StaticPodAvailability reads the availability of a static-pod operator's nodes from what the machine-config
// operator and the kubelet show of a drain and a reboot: the Node cordoned (spec.unschedulable) or not Ready, and
// the operand's mirror pod on it (operandSelector, "apiserver=true" for kube-apiserver) missing, Pending or
// terminating, or when it started. Its listers must be of informers the controller waits for (Options.Informers):
// an unsynced pod cache would excuse every node.
func StaticPodAvailability(nodes corev1listers.NodeLister, operandPods corev1listers.PodNamespaceLister, operandSelector labels.Selector) AvailabilityLister {
	return availabilityFunc(func(context.Context) (map[string]NodeAvailability, error) {
		nodeList, err := nodes.List(labels.Everything())
		if err != nil {
			return nil, fmt.Errorf("listing nodes: %w", err)
		}
		pods, err := operandPods.List(operandSelector)
		if err != nil {
			return nil, fmt.Errorf("listing the operand's pods: %w", err)
		}
		// Per node: when its pod that runs started; else why its pod is on its way (Pending, terminating). A pod in
		// another phase (Failed, Unknown) excuses nothing: it is there, and not on its way.
		started := map[string]time.Time{}
		down := map[string]string{}
		present := map[string]bool{}
		for _, pod := range pods {
			node := pod.Spec.NodeName
			present[node] = true
			switch {
			case pod.DeletionTimestamp != nil:
				if _, runs := started[node]; !runs {
					down[node] = fmt.Sprintf("its %s pod is terminating", operandName(pod))
				}
			case pod.Status.Phase == corev1.PodRunning:
				var at time.Time
				if pod.Status.StartTime != nil {
					at = pod.Status.StartTime.Time
				}
				started[node] = at
				delete(down, node)
			case pod.Status.Phase == corev1.PodPending:
				if _, runs := started[node]; !runs {
					down[node] = fmt.Sprintf("its %s pod is Pending", operandName(pod))
				}
			}
		}
		availability := make(map[string]NodeAvailability, len(nodeList))
		for _, node := range nodeList {
			var why []string
			if node.Spec.Unschedulable {
				why = append(why, "cordoned")
			}
			if ready := nodeReady(node); ready != "" {
				why = append(why, ready)
			}
			at, runs := started[node.Name]
			switch reason, known := down[node.Name]; {
			case runs:
			case known:
				why = append(why, reason)
			case !present[node.Name]:
				why = append(why, "no operand pod on it")
			}
			availability[node.Name] = NodeAvailability{Unavailable: strings.Join(why, ", "), OperandStarted: at}
		}
		return availability, nil
	})
}

type availabilityFunc func(ctx context.Context) (map[string]NodeAvailability, error)

func (f availabilityFunc) NodeAvailability(ctx context.Context) (map[string]NodeAvailability, error) {
	return f(ctx)
}

// nodeReady says what is wrong with a node's Ready condition, empty when it is True.
func nodeReady(node *corev1.Node) string {
	for _, c := range node.Status.Conditions {
		if c.Type != corev1.NodeReady {
			continue
		}
		if c.Status == corev1.ConditionTrue {
			return ""
		}
		if c.Reason != "" {
			return fmt.Sprintf("NotReady (%s)", c.Reason)
		}
		return "NotReady"
	}
	return "NotReady (no Ready condition)"
}

// operandName is the pod's name without its node suffix, as the static pod is named: "kube-apiserver" for
// kube-apiserver-master-0.
func operandName(pod *corev1.Pod) string {
	return strings.TrimSuffix(pod.Name, "-"+pod.Spec.NodeName)
}
