package kmsstate

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
)

// TestEvaluateNodeDownOnPurpose: a node that is drained, rebooting or has its kube-apiserver pod replaced is
// without its plugins' reports for longer than the staleness limit in every upgrade. That is KMSPluginsProgressing
// NodeUnavailable, never Degraded; the rollout gate and RunningHealthy still count the plugin as unknown. A report
// that says the plugin fails still counts, and a Ready, schedulable node whose pod has run past the limit with a
// reporter that stopped is a fault.
func TestEvaluateNodeDownOnPurpose(t *testing.T) {
	config := Config{ReportInterval: interval}
	stale := 5 * time.Minute // past the 2-minute limit
	available := NodeAvailability{OperandStarted: t0.Add(-time.Hour)}
	scenarios := []struct {
		name         string
		reports      []operatorv1.KMSPluginHealthReport
		availability map[string]NodeAvailability
		// running, when set, is Observation.Running.
		running map[string][]string
		// wantDegraded is the reason of KMSPluginsDegraded, "" for False.
		wantDegraded Reason
		// wantProgressing is the reason of KMSPluginsProgressing, "" for False, and wantMessage a part of its message.
		wantProgressing, wantMessage string
		// wantUnknown is what Healthy and RunningHealthy say of master-1's key 1 when it is not judged.
		wantUnknown Reason
	}{
		{
			name:            "cordoned for a drain, its report stale",
			reports:         []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "kek-a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusHealthy, "kek-a", stale)},
			availability:    map[string]NodeAvailability{"master-0": available, "master-1": {Unavailable: "cordoned"}},
			wantProgressing: ReasonNodeUnavailable,
			wantMessage:     "key 1 on node master-1 (node unavailable: cordoned)",
			wantUnknown:     ReasonHealthReportStale,
		},
		{
			name:            "NotReady in a reboot, its report gone with the old pod",
			reports:         []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "kek-a")},
			availability:    map[string]NodeAvailability{"master-0": available, "master-1": {Unavailable: "NotReady"}},
			wantProgressing: ReasonNodeUnavailable,
			wantMessage:     "key 1 on node master-1 (node unavailable: NotReady)",
			wantUnknown:     ReasonHealthReportMissing,
		},
		{
			name:            "its kube-apiserver pod started a moment ago, the reporter not yet published",
			reports:         []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "kek-a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusHealthy, "kek-a", stale)},
			availability:    map[string]NodeAvailability{"master-0": available, "master-1": {OperandStarted: t0.Add(-20 * time.Second)}},
			wantProgressing: ReasonNodeUnavailable,
			wantMessage:     "its kube-apiserver pod started 20s ago, limit 2m0s",
			wantUnknown:     ReasonHealthReportStale,
		},
		{
			name:         "Ready, schedulable, its pod running for an hour: a reporter that stopped is a fault",
			reports:      []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "kek-a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusHealthy, "kek-a", stale)},
			availability: map[string]NodeAvailability{"master-0": available, "master-1": available},
			wantDegraded: ReasonHealthReportStale,
		},
		{
			name:         "nothing known of the node: a reporter that stopped is a fault",
			reports:      []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "kek-a")},
			availability: map[string]NodeAvailability{"master-0": available},
			wantDegraded: ReasonHealthReportMissing,
		},
		{
			name:         "no availability at all, as before",
			reports:      []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "kek-a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusHealthy, "kek-a", stale)},
			wantDegraded: ReasonHealthReportStale,
		},
		{
			name:         "cordoned, but its fresh report says the plugin does not answer",
			reports:      []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "kek-a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusError, "", time.Second)},
			availability: map[string]NodeAvailability{"master-0": available, "master-1": {Unavailable: "cordoned"}},
			wantDegraded: ReasonPluginUnreachable,
		},
		{
			name:         "cordoned, its plugin reported healthy",
			reports:      []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a")},
			availability: map[string]NodeAvailability{"master-0": available, "master-1": {Unavailable: "cordoned"}},
		},
		{
			name:            "a key pending on one node while another node reboots: KeysPending names both",
			reports:         []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "kek-a")},
			availability:    map[string]NodeAvailability{"master-0": available, "master-1": {Unavailable: "NotReady"}},
			running:         map[string][]string{"master-0": {"1"}, "master-1": {"1"}, "master-2": nil},
			wantProgressing: ReasonKeysPending,
			wantMessage:     "report missing or stale while the node is down on purpose, so not judged there: key 1 on node master-1 (node unavailable: NotReady)",
			wantUnknown:     ReasonHealthReportMissing,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			obs := observation(s.reports...)
			obs.Availability, obs.Running = s.availability, s.running
			if s.running != nil {
				obs.Nodes = append(obs.Nodes, "master-2")
			}
			state, _ := Evaluate(config, ranFor(obs, time.Hour), obs)

			degraded, reason, message := state.Degraded()
			if degraded != (s.wantDegraded != "") || (degraded && reason != s.wantDegraded) {
				t.Errorf("Degraded %v %s (%s), want %q", degraded, reason, message, s.wantDegraded)
			}
			progressing, progressingReason, progressingMessage := state.Progressing()
			if progressing != (s.wantProgressing != "") || progressingReason != s.wantProgressing {
				t.Errorf("Progressing %v %q (%s), want %q", progressing, progressingReason, progressingMessage, s.wantProgressing)
			}
			if (s.wantMessage == "") != (progressingMessage == "") || !strings.Contains(progressingMessage, s.wantMessage) {
				t.Errorf("Progressing message %q, want %q in it", progressingMessage, s.wantMessage)
			}
			if s.wantProgressing == "" {
				return
			}
			// What is not judged is not healthy either: the gate and the migrator wait for the node.
			checkReason(t, "Healthy", state.Healthy([]string{"master-1"}, []string{"1"}), s.wantUnknown)
			checkReason(t, "RunningHealthy", state.RunningHealthy(), s.wantUnknown)
		})
	}
}

// TestStaticPodAvailability reads a drain and a reboot as the machine-config operator and the kubelet show them. A
// pod that runs but is not ready is no excuse by itself (a dead plugin fails kube-apiserver's readiness); when it
// started is given, so that only a pod that has just started is.
func TestStaticPodAvailability(t *testing.T) {
	startedAt := t0.Add(-10 * time.Minute)
	node := func(name string, unschedulable bool, ready corev1.ConditionStatus, reason string) *corev1.Node {
		n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: corev1.NodeSpec{Unschedulable: unschedulable}}
		if ready != "" {
			n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: ready, Reason: reason}}
		}
		return n
	}
	pod := func(node string, phase corev1.PodPhase, ready corev1.ConditionStatus) *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-kube-apiserver", Name: "kube-apiserver-" + node, Labels: map[string]string{"apiserver": "true"}},
			Spec:       corev1.PodSpec{NodeName: node},
			Status: corev1.PodStatus{Phase: phase, StartTime: ptr.To(metav1.NewTime(startedAt)),
				Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: ready}}},
		}
	}
	installer := pod("master-0", corev1.PodPending, corev1.ConditionFalse)
	installer.Name, installer.Labels = "installer-7-master-0", map[string]string{"app": "installer"}
	terminating := pod("master-7", corev1.PodRunning, corev1.ConditionTrue)
	terminating.DeletionTimestamp = ptr.To(metav1.NewTime(t0))

	nodes := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	pods := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, n := range []*corev1.Node{
		node("master-0", false, corev1.ConditionTrue, ""),
		node("master-1", true, corev1.ConditionTrue, ""),
		node("master-2", true, corev1.ConditionUnknown, "NodeStatusUnknown"),
		node("master-3", false, corev1.ConditionTrue, ""),
		node("master-4", false, corev1.ConditionTrue, ""),
		node("master-5", false, corev1.ConditionTrue, ""),
		node("master-6", false, "", ""),
		node("master-7", false, corev1.ConditionTrue, ""),
		node("master-8", false, corev1.ConditionTrue, ""),
	} {
		if err := nodes.Add(n); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []*corev1.Pod{
		pod("master-0", corev1.PodRunning, corev1.ConditionTrue),
		installer,
		pod("master-1", corev1.PodRunning, corev1.ConditionTrue),
		pod("master-3", corev1.PodPending, corev1.ConditionFalse),
		pod("master-4", corev1.PodRunning, corev1.ConditionFalse),
		pod("master-6", corev1.PodRunning, corev1.ConditionTrue),
		terminating,
		pod("master-8", corev1.PodFailed, corev1.ConditionFalse),
	} {
		if err := pods.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	lister := StaticPodAvailability(corev1listers.NewNodeLister(nodes),
		corev1listers.NewPodLister(pods).Pods("openshift-kube-apiserver"), labels.SelectorFromSet(labels.Set{"apiserver": "true"}))
	got, err := lister.NodeAvailability(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]NodeAvailability{
		"master-0": {OperandStarted: startedAt},
		"master-1": {Unavailable: "cordoned", OperandStarted: startedAt},
		"master-2": {Unavailable: "cordoned, NotReady (NodeStatusUnknown), no operand pod on it"},
		"master-3": {Unavailable: "its kube-apiserver pod is Pending"},
		// Running but not ready: no excuse, only when it started.
		"master-4": {OperandStarted: startedAt},
		"master-5": {Unavailable: "no operand pod on it"},
		"master-6": {Unavailable: "NotReady (no Ready condition)", OperandStarted: startedAt},
		"master-7": {Unavailable: "its kube-apiserver pod is terminating"},
		// Failed: there, and not on its way; no excuse.
		"master-8": {},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("availability:\n%+v\nwant\n%+v", got, want)
	}
}
