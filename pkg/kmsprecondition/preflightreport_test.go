package kmsprecondition

import (
	"context"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	encryptioncontrollers "github.com/openshift/library-go/pkg/operator/encryption/controllers"
	kmspreflight "github.com/openshift/library-go/pkg/operator/encryption/kms/preflight"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
)

// preflightPod is library-go's kms-preflight pod for configuration hash on node, in phase, with the pod conditions
// its checker posted.
func preflightPod(hash, node string, phase corev1.PodPhase, posted ...corev1.PodCondition) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-kube-apiserver", Name: kmspreflight.PodName,
			Annotations: map[string]string{preflightConfigHashAnnotation: hash}},
		Spec:   corev1.PodSpec{NodeName: node},
		Status: corev1.PodStatus{Phase: phase, Conditions: posted},
	}
}

// checkerPosted are the pod conditions library-go's checker posts for hash: the hash, and the result with err's
// text when err is not empty.
func checkerPosted(hash, err string) []corev1.PodCondition {
	result := corev1.PodCondition{Type: encryptioncontrollers.KMSPreflightResultPodCondition, Status: corev1.ConditionTrue, Reason: "Succeeded"}
	if err != "" {
		result = corev1.PodCondition{Type: encryptioncontrollers.KMSPreflightResultPodCondition, Status: corev1.ConditionFalse, Reason: "Failed", Message: err}
	}
	return []corev1.PodCondition{{Type: encryptioncontrollers.KMSPreflightConfigHashPodCondition, Status: corev1.ConditionTrue, Message: hash}, result}
}

func exited(pod *corev1.Pod, container string, code int32, reason, message string) *corev1.Pod {
	pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, corev1.ContainerStatus{Name: container,
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code, Reason: reason, Message: message}}})
	return pod
}

// waitingSince is pod started at started with container waiting for reason.
func waitingSince(pod *corev1.Pod, started time.Time, container, reason, message string) *corev1.Pod {
	pod.Status.StartTime = &metav1.Time{Time: started}
	pod.Status.InitContainerStatuses = append(pod.Status.InitContainerStatuses, corev1.ContainerStatus{Name: container,
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: message}}})
	return pod
}

const pluginError = `kms-plugin Status: rpc error: code = Unavailable desc = cannot reach the KMS at https://vault.typo:8200`

func TestPreflightCondition(t *testing.T) {
	asked := func(hash string, result operatorv1.KMSPreflightResult) operatorv1.KMSPreflightCheck {
		return operatorv1.KMSPreflightCheck{ObservedConfigHash: hash, Result: result}
	}
	failedFor := func(hash string) operatorv1.KMSPreflightResult {
		return operatorv1.KMSPreflightResult{Status: operatorv1.KMSPreflightResultFailed, ConfigHash: hash}
	}
	scenarios := []struct {
		name  string
		check operatorv1.KMSPreflightCheck
		pod   *corev1.Pod
		// now is when the reporter looks; zero is t0.
		now    time.Time
		status operatorv1.ConditionStatus
		reason Reason
		// says are in the message, in this order.
		says []string
	}{
		{
			name: "no preflight asked", check: operatorv1.KMSPreflightCheck{},
			pod:    preflightPod("old", "master-0", corev1.PodFailed, checkerPosted("old", pluginError)...),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, says: []string{"no KMS configuration awaits a preflight"},
		},
		{
			name:   "succeeded through a plugin",
			check:  asked("H", operatorv1.KMSPreflightResult{Status: operatorv1.KMSPreflightResultSucceeded, ConfigHash: "H", RemoteKeyID: "kek-1"}),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, says: []string{"configuration H succeeded", `"kek-1"`},
		},
		{
			name:   "succeeded by the always-succeed stub",
			check:  asked("H", operatorv1.KMSPreflightResult{Status: operatorv1.KMSPreflightResultSucceeded, ConfigHash: "H", RemoteKeyID: AlwaysSucceedRemoteKeyID}),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, says: []string{"configuration H", "always-succeed stub, which runs no plugin"},
		},
		{
			// library-go's checker posts its failure and exits 1; library-go reports only the exit code.
			name:  "the checker failed and the pod failed after it",
			check: asked("H", operatorv1.KMSPreflightResult{}),
			pod: exited(preflightPod("H", "master-1", corev1.PodFailed, checkerPosted("H", pluginError)...),
				"kms-preflight-check", 1, "Error", ""),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightCheckFailed,
			says: []string{"configuration H failed on node master-1: ", pluginError, "correct spec.encryption.kms of apiserver/cluster"},
		},
		{
			// library-go's checker reports only its Status poll's deadline when the plugin never answers healthy.
			name:   "the plugin never answered Status healthy",
			check:  asked("H", failedFor("H")),
			pod:    preflightPod("H", "master-1", corev1.PodFailed, checkerPosted("H", "context deadline exceeded")...),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightCheckFailed,
			says: []string{"failed on node master-1: context deadline exceeded (the plugin never answered Status healthy",
				"oc logs -n openshift-kube-apiserver kms-preflight -c kms-preflight-check)"},
		},
		{
			name: "the checker failed and library-go recorded it", check: asked("H", failedFor("H")),
			pod:    preflightPod("H", "master-2", corev1.PodRunning, checkerPosted("H", pluginError)...),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightCheckFailed, says: []string{"failed on node master-2: ", pluginError},
		},
		{
			name:  "the pod failed before the checker reported",
			check: asked("H", operatorv1.KMSPreflightResult{}),
			pod: exited(preflightPod("H", "master-0", corev1.PodFailed), "kms-preflight-check", 127, "ContainerCannotRun",
				`exec: "cluster-kube-apiserver-operator": not found`),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightPodFailed,
			says: []string{"pod of configuration H failed on node master-0 before its check reported: ",
				`container kms-preflight-check exited with 127 (ContainerCannotRun): exec: "cluster-kube-apiserver-operator": not found`},
		},
		{
			name:  "the pod failed and no container says why",
			check: asked("H", operatorv1.KMSPreflightResult{}),
			pod: func() *corev1.Pod {
				p := preflightPod("H", "", corev1.PodFailed)
				p.Status.Reason, p.Status.Message = "Evicted", "the node was low on memory"
				return p
			}(),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightPodFailed, says: []string{"on node (unscheduled)", "Evicted: the node was low on memory"},
		},
		{
			name: "library-go recorded a failure and the pod is gone", check: asked("H", failedFor("H")),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightCheckFailed, says: []string{"configuration H failed; no kms-preflight pod says on which node or why"},
		},
		{
			name: "a failure of an earlier configuration's pod is not this one's", check: asked("H2", operatorv1.KMSPreflightResult{}),
			pod:    preflightPod("H1", "master-0", corev1.PodFailed, checkerPosted("H1", pluginError)...),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, says: []string{"configuration H2 has no result yet and no kms-preflight pod"},
		},
		{
			name: "a recorded failure of an earlier configuration is not this one's", check: asked("H2", failedFor("H1")),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, says: []string{"configuration H2 has no result yet"},
		},
		{
			name: "the check runs", check: asked("H", operatorv1.KMSPreflightResult{}),
			pod:    preflightPod("H", "master-0", corev1.PodRunning),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, says: []string{"configuration H runs: kms-preflight pod Running on node master-0"},
		},
		{
			// A plugin image that cannot be pulled: library-go goes Degraded after the same 3 minutes.
			name:   "the pod has not reported for the startup timeout",
			check:  asked("H", operatorv1.KMSPreflightResult{}),
			pod:    waitingSince(preflightPod("H", "master-2", corev1.PodPending), t0, "vault-kms-plugin-1", "ImagePullBackOff", `Back-off pulling image "quay.io/vault/kms-plugn"`),
			now:    t0.Add(PreflightStartupTimeout + time.Second),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightPodNotStarting,
			says: []string{"pod of configuration H on node master-2 has not reported after 3m0s: ",
				`container vault-kms-plugin-1 waiting: ImagePullBackOff: Back-off pulling image "quay.io/vault/kms-plugn"`},
		},
		{
			name:   "the pod has not reported yet, within the startup timeout",
			check:  asked("H", operatorv1.KMSPreflightResult{}),
			pod:    waitingSince(preflightPod("H", "master-2", corev1.PodPending), t0, "vault-kms-plugin-1", "ErrImagePull", ""),
			now:    t0.Add(PreflightStartupTimeout),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, says: []string{"configuration H runs: kms-preflight pod Pending on node master-2"},
		},
		{
			name: "the checker passed, library-go has not recorded it yet", check: asked("H", operatorv1.KMSPreflightResult{}),
			pod:    preflightPod("H", "master-0", corev1.PodSucceeded, checkerPosted("H", "")...),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, says: []string{"configuration H runs"},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			now := s.now
			if now.IsZero() {
				now = t0
			}
			c := preflightCondition(s.check, s.pod, now)
			if c.Type != ConditionPreflightDegraded || c.Status != s.status || c.Reason != string(s.reason) {
				t.Fatalf("got %s %s %s: %s, want %s %s", c.Type, c.Status, c.Reason, c.Message, s.status, s.reason)
			}
			rest := c.Message
			for _, want := range s.says {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("message %q does not say %q (in order)", c.Message, want)
				}
				rest = rest[i+len(want):]
			}
		})
	}
}

// TestPreflightReporter runs the reporter's syncs over a fake operator and pod informer: the condition is applied
// under its own field manager, the Warning event is emitted once per failure and again for another one, and a
// corrected configuration clears the condition.
func TestPreflightReporter(t *testing.T) {
	ctx := context.Background()
	operator := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}, &operatorv1.OperatorStatus{}, nil)
	kube := fake.NewClientset()
	pods := informers.NewSharedInformerFactoryWithOptions(kube, 0, informers.WithNamespace("openshift-kube-apiserver")).Core().V1().Pods()
	status := preflightStatus{ObservedConfigHash: "H1"}
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	reporter, err := NewPreflightReporter("kube-apiserver", PreflightReportOptions{
		StatusProvider: &status, Pods: pods.Lister().Pods("openshift-kube-apiserver"), PodInformer: pods.Informer(),
		OperatorClient: operator, Recorder: recorder, Clock: clocktesting.NewFakePassiveClock(t0),
	})
	if err != nil {
		t.Fatal(err)
	}
	podStore := pods.Informer().GetStore()
	sync := func(want operatorv1.ConditionStatus, reason Reason, warnings int) {
		t.Helper()
		if err := reporter.sync(ctx, factory.NewSyncContext("test", recorder)); err != nil {
			t.Fatal(err)
		}
		_, st, _, _ := operator.GetOperatorState()
		c := v1helpers.FindOperatorCondition(st.Conditions, ConditionPreflightDegraded)
		if c == nil || c.Status != want || c.Reason != string(reason) {
			t.Fatalf("%s = %+v, want %s %s", ConditionPreflightDegraded, c, want, reason)
		}
		var got int
		for _, e := range recorder.Events() {
			if e.Reason == EventPreflightFailed {
				got++
			}
		}
		if got != warnings {
			t.Fatalf("%d %s events, want %d: %v", got, EventPreflightFailed, warnings, recorder.Events())
		}
	}

	sync(operatorv1.ConditionFalse, ReasonAsExpected, 0)
	if err := podStore.Add(preflightPod("H1", "master-1", corev1.PodFailed, checkerPosted("H1", pluginError)...)); err != nil {
		t.Fatal(err)
	}
	sync(operatorv1.ConditionTrue, ReasonPreflightCheckFailed, 1)
	sync(operatorv1.ConditionTrue, ReasonPreflightCheckFailed, 1)
	// The admin corrects the configuration into another that fails too: library-go deploys a pod for it.
	status.ObservedConfigHash = "H2"
	if err := podStore.Update(exited(preflightPod("H2", "master-2", corev1.PodFailed), "kms-preflight-check", 1, "Error", "no credentials")); err != nil {
		t.Fatal(err)
	}
	sync(operatorv1.ConditionTrue, ReasonPreflightPodFailed, 2)
	// Then into one that passes: library-go records it and deletes the pod.
	status.ObservedConfigHash = "H3"
	status.Result = operatorv1.KMSPreflightResult{Status: operatorv1.KMSPreflightResultSucceeded, ConfigHash: "H3", RemoteKeyID: "kek-3"}
	if err := podStore.Delete(preflightPod("H2", "", "")); err != nil {
		t.Fatal(err)
	}
	sync(operatorv1.ConditionFalse, ReasonAsExpected, 2)
}

func TestNewPreflightReporterRequiredOptions(t *testing.T) {
	pods := informers.NewSharedInformerFactory(fake.NewClientset(), 0).Core().V1().Pods()
	complete := PreflightReportOptions{
		StatusProvider: preflightStatus{}, Pods: pods.Lister().Pods("openshift-kube-apiserver"), PodInformer: pods.Informer(),
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		Recorder:       events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0)),
	}
	scenarios := []conventionstest.MissingOptions[PreflightReportOptions]{
		{Name: "no StatusProvider", Clear: func(o *PreflightReportOptions) { o.StatusProvider = nil }, Missing: "StatusProvider"},
		{Name: "no pods", Clear: func(o *PreflightReportOptions) { o.Pods, o.PodInformer = nil, nil }, Missing: "PodInformer, Pods"},
		{Name: "none", Clear: func(o *PreflightReportOptions) { *o = PreflightReportOptions{} },
			Missing: "OperatorClient, PodInformer, Pods, Recorder, StatusProvider"},
	}
	newReporter := func(o PreflightReportOptions) (*PreflightReporter, error) {
		return NewPreflightReporter("kube-apiserver", o)
	}
	conventionstest.RequiredOptions(t, complete, newReporter, scenarios)
}
