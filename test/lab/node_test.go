package lab

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestSetNodeReady: the Ready condition is replaced, the others kept; its transition time moves only with its status,
// as the kubelet and the node lifecycle controller write it.
func TestSetNodeReady(t *testing.T) {
	before := metav1.NewTime(time.Date(2026, 12, 8, 9, 0, 0, 0, time.UTC))
	now := metav1.NewTime(before.Add(time.Hour))
	for _, s := range []struct {
		name           string
		status         corev1.ConditionStatus
		wantTransition metav1.Time
	}{
		{name: "Ready again", status: corev1.ConditionTrue, wantTransition: before},
		{name: "unreachable", status: corev1.ConditionUnknown, wantTransition: now},
	} {
		t.Run(s.name, func(t *testing.T) {
			node := &corev1.Node{Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{
				{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse},
				{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastTransitionTime: before},
			}}}
			setNodeReady(node, corev1.NodeCondition{Status: s.status, Reason: "R", LastTransitionTime: now})
			if len(node.Status.Conditions) != 2 || node.Status.Conditions[0].Type != corev1.NodeMemoryPressure {
				t.Fatalf("conditions %+v, want MemoryPressure kept and one Ready", node.Status.Conditions)
			}
			ready := node.Status.Conditions[1]
			if ready.Type != corev1.NodeReady || ready.Status != s.status || ready.Reason != "R" || !ready.LastTransitionTime.Equal(&s.wantTransition) {
				t.Errorf("Ready %+v, want status %s reason R since %s", ready, s.status, s.wantTransition)
			}
		})
	}
}
