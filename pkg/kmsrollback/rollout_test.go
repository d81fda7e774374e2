package kmsrollback

import (
	"context"
	"reflect"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/staticpod/startupmonitor/annotations"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"
)

// TestStaticPodRollout reads each kind of failure evidence from the operator status and the apiserver pods.
func TestStaticPodRollout(t *testing.T) {
	pod := func(revision string, ready corev1.ConditionStatus, since time.Duration, annotations map[string]string) *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: operandNamespace, Name: "kube-apiserver-master-0", Labels: map[string]string{"apiserver": "true", "revision": revision}, Annotations: annotations},
			Spec:       corev1.PodSpec{NodeName: "master-0"},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{
				Type: corev1.PodReady, Status: ready, LastTransitionTime: metav1.NewTime(t0.Add(-since)), Message: "containers with unready status: [kube-apiserver]"}}},
		}
	}
	scenarios := []struct {
		name string
		node operatorv1.NodeStatus
		pod  *corev1.Pod
		want []NodeFailure
	}{
		{
			name: "healthy",
			node: operatorv1.NodeStatus{NodeName: "master-0", CurrentRevision: 4},
			pod:  pod("4", corev1.ConditionTrue, time.Hour, nil),
		},
		{
			name: "operand failed, recorded by the installer",
			node: operatorv1.NodeStatus{NodeName: "master-0", CurrentRevision: 4, LastFailedRevision: 5, LastFailedReason: "OperandFailed", LastFailedRevisionErrors: []string{"exit 1", "no KMS"}},
			want: []NodeFailure{{Node: "master-0", Revision: 5, LastGood: 4, Source: SourceOperandFailed, Detail: "exit 1; no KMS"}},
		},
		{
			name: "startup monitor fell back, recorded by the installer",
			node: operatorv1.NodeStatus{NodeName: "master-0", CurrentRevision: 4, TargetRevision: 5, LastFailedRevision: 5, LastFailedReason: "OperandFailedFallback", LastFallbackCount: 2},
			want: []NodeFailure{{Node: "master-0", Revision: 5, LastGood: 4, Source: SourceStartupMonitor}},
		},
		{
			name: "installer pod failed",
			node: operatorv1.NodeStatus{NodeName: "master-0", CurrentRevision: 4, LastFailedRevision: 5, LastFailedReason: "InstallerFailed"},
			want: []NodeFailure{{Node: "master-0", Revision: 5, LastGood: 4, Source: SourceInstallerFailed}},
		},
		{
			name: "an old failure the node moved past",
			node: operatorv1.NodeStatus{NodeName: "master-0", CurrentRevision: 6, LastFailedRevision: 5, LastFailedReason: "OperandFailed"},
		},
		{
			// library-go's installer controller records the fallback from this annotation; a revert before it did
			// would keep it from ever being recorded.
			name: "fallback annotation before the installer recorded it: wait for the record",
			node: operatorv1.NodeStatus{NodeName: "master-0", CurrentRevision: 4, TargetRevision: 5},
			pod: pod("4", corev1.ConditionTrue, time.Minute, map[string]string{
				annotations.FallbackForRevision: "5", annotations.FallbackReason: "Timeout", annotations.FallbackMessage: "kms-providers not ready"}),
		},
		{
			name: "pod of the new revision not ready for longer than NotReadyAfter",
			node: operatorv1.NodeStatus{NodeName: "master-0", CurrentRevision: 4, TargetRevision: 5},
			pod:  pod("5", corev1.ConditionFalse, 6*time.Minute, nil),
			want: []NodeFailure{{Node: "master-0", Revision: 5, LastGood: 4, Source: SourcePodNotReady, Detail: "pod kube-apiserver-master-0 not ready for 6m0s: containers with unready status: [kube-apiserver]"}},
		},
		{
			name: "pod of the new revision still starting",
			node: operatorv1.NodeStatus{NodeName: "master-0", CurrentRevision: 4, TargetRevision: 5},
			pod:  pod("5", corev1.ConditionFalse, 4*time.Minute, nil),
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			operator := v1helpers.NewFakeStaticPodOperatorClient(&operatorv1.StaticPodOperatorSpec{},
				&operatorv1.StaticPodOperatorStatus{OperatorStatus: operatorv1.OperatorStatus{LatestAvailableRevision: 5}, NodeStatuses: []operatorv1.NodeStatus{s.node}}, nil, nil)
			indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
			if s.pod != nil {
				if err := indexer.Add(s.pod); err != nil {
					t.Fatal(err)
				}
			}
			pods := corev1listers.NewPodLister(indexer).Pods(operandNamespace)
			rollout, err := StaticPodRollout(operator, pods, labels.SelectorFromSet(labels.Set{"apiserver": "true"}), DefaultNotReadyAfter, clocktesting.NewFakePassiveClock(t0)).Rollout(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rollout.Failures, s.want) {
				t.Errorf("failures\n%+v\nwant\n%+v", rollout.Failures, s.want)
			}
		})
	}
}
