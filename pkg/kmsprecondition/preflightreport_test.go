package kmsprecondition

import (
	"context"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
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
	const correct = "; correct spec.encryption.kms of apiserver/cluster, or the Secret or ConfigMap it references: " +
		"the corrected configuration is checked again and rolls out if it passes"
	scenarios := []struct {
		name  string
		check operatorv1.KMSPreflightCheck
		pod   *corev1.Pod
		// now is when the reporter looks; zero is t0.
		now    time.Time
		status operatorv1.ConditionStatus
		reason Reason
		// message is the whole message.
		message string
	}{
		{
			name: "no preflight asked", check: operatorv1.KMSPreflightCheck{},
			pod:    preflightPod("old", "master-0", corev1.PodFailed, checkerPosted("old", pluginError)...),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, message: "no KMS configuration awaits a preflight",
		},
		{
			name:   "succeeded through a plugin",
			check:  asked("H", operatorv1.KMSPreflightResult{Status: operatorv1.KMSPreflightResultSucceeded, ConfigHash: "H", RemoteKeyID: "kek-1"}),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, message: "the KMS preflight of configuration H succeeded (KEK id \"kek-1\")",
		},
		{
			name:   "succeeded by the always-succeed stub",
			check:  asked("H", operatorv1.KMSPreflightResult{Status: operatorv1.KMSPreflightResultSucceeded, ConfigHash: "H", RemoteKeyID: AlwaysSucceedRemoteKeyID}),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, message: "the KMS preflight of configuration H is library-go's always-succeed stub, which runs no plugin",
		},
		{
			// library-go's checker posts its failure and exits 1; library-go reports only the exit code.
			name:  "the checker failed and the pod failed after it",
			check: asked("H", operatorv1.KMSPreflightResult{}),
			pod: exited(preflightPod("H", "master-1", corev1.PodFailed, checkerPosted("H", pluginError)...),
				"kms-preflight-check", 1, "Error", ""),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightCheckFailed,
			message: "the KMS preflight of configuration H failed on node master-1: " + pluginError + correct,
		},
		{
			// library-go's checker reports only its Status poll's deadline when the plugin never answers healthy.
			name:   "the plugin never answered Status healthy",
			check:  asked("H", failedFor("H")),
			pod:    preflightPod("H", "master-1", corev1.PodFailed, checkerPosted("H", "context deadline exceeded")...),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightCheckFailed,
			message: "the KMS preflight of configuration H failed on node master-1: context deadline exceeded (the plugin never answered Status healthy; what it answered is in the checker's log: oc logs -n openshift-kube-apiserver kms-preflight -c kms-preflight-check)" + correct,
		},
		{
			name: "the checker failed and library-go recorded it", check: asked("H", failedFor("H")),
			pod:    preflightPod("H", "master-2", corev1.PodRunning, checkerPosted("H", pluginError)...),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightCheckFailed, message: "the KMS preflight of configuration H failed on node master-2: " + pluginError + correct,
		},
		{
			name:  "the pod failed before the checker reported",
			check: asked("H", operatorv1.KMSPreflightResult{}),
			pod: exited(preflightPod("H", "master-0", corev1.PodFailed), "kms-preflight-check", 127, "ContainerCannotRun",
				`exec: "cluster-kube-apiserver-operator": not found`),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightPodFailed,
			message: "the kms-preflight pod of configuration H failed on node master-0 before its check reported: container kms-preflight-check exited with 127 (ContainerCannotRun): exec: \"cluster-kube-apiserver-operator\": not found" + correct,
		},
		{
			name:  "the pod failed and no container says why",
			check: asked("H", operatorv1.KMSPreflightResult{}),
			pod: func() *corev1.Pod {
				p := preflightPod("H", "", corev1.PodFailed)
				p.Status.Reason, p.Status.Message = "Evicted", "the node was low on memory"
				return p
			}(),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightPodFailed, message: "the kms-preflight pod of configuration H failed on node (unscheduled) before its check reported: Evicted: the node was low on memory" + correct,
		},
		{
			name: "library-go recorded a failure and the pod is gone", check: asked("H", failedFor("H")),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightCheckFailed, message: "the KMS preflight of configuration H failed; no kms-preflight pod says on which node or why (library-go's EncryptionKMSPreflightControllerDegraded may still say why)" + correct,
		},
		{
			name: "a failure of an earlier configuration's pod is not this one's", check: asked("H2", operatorv1.KMSPreflightResult{}),
			pod:    preflightPod("H1", "master-0", corev1.PodFailed, checkerPosted("H1", pluginError)...),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, message: "the KMS preflight of configuration H2 has no result yet and no kms-preflight pod",
		},
		{
			name: "a recorded failure of an earlier configuration is not this one's", check: asked("H2", failedFor("H1")),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, message: "the KMS preflight of configuration H2 has no result yet and no kms-preflight pod",
		},
		{
			name: "the check runs", check: asked("H", operatorv1.KMSPreflightResult{}),
			pod:    preflightPod("H", "master-0", corev1.PodRunning),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, message: "the KMS preflight of configuration H runs: kms-preflight pod Running on node master-0",
		},
		{
			// A plugin image that cannot be pulled: library-go goes Degraded after the same 3 minutes.
			name:   "the pod has not reported for the startup timeout",
			check:  asked("H", operatorv1.KMSPreflightResult{}),
			pod:    waitingSince(preflightPod("H", "master-2", corev1.PodPending), t0, "vault-kms-plugin-1", "ImagePullBackOff", `Back-off pulling image "quay.io/vault/kms-plugn"`),
			now:    t0.Add(PreflightStartupTimeout + time.Second),
			status: operatorv1.ConditionTrue, reason: ReasonPreflightPodNotStarting,
			message: "the kms-preflight pod of configuration H on node master-2 has not reported after 3m0s: container vault-kms-plugin-1 waiting: ImagePullBackOff: Back-off pulling image \"quay.io/vault/kms-plugn\"" + correct,
		},
		{
			name:   "the pod has not reported yet, within the startup timeout",
			check:  asked("H", operatorv1.KMSPreflightResult{}),
			pod:    waitingSince(preflightPod("H", "master-2", corev1.PodPending), t0, "vault-kms-plugin-1", "ErrImagePull", ""),
			now:    t0.Add(PreflightStartupTimeout),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, message: "the KMS preflight of configuration H runs: kms-preflight pod Pending on node master-2",
		},
		{
			name: "the checker passed, library-go has not recorded it yet", check: asked("H", operatorv1.KMSPreflightResult{}),
			pod:    preflightPod("H", "master-0", corev1.PodSucceeded, checkerPosted("H", "")...),
			status: operatorv1.ConditionFalse, reason: ReasonAsExpected, message: "the KMS preflight of configuration H runs: kms-preflight pod Succeeded on node master-0",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			now := s.now
			if now.IsZero() {
				now = t0
			}
			c := preflightCondition(s.check, s.pod, now)
			conventionstest.ExpectRegisteredReasons(t, ConditionReasons(), c)
			if c.Type != ConditionPreflightDegraded || c.Status != s.status || c.Reason != string(s.reason) {
				t.Fatalf("got %s %s %s: %s, want %s %s", c.Type, c.Status, c.Reason, c.Message, s.status, s.reason)
			}
			if c.Message != s.message {
				t.Errorf("message\n%q\nwant\n%q", c.Message, s.message)
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
	kube := fake.NewClientset(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-config", Name: "vault-approle"},
		Data: map[string][]byte{"role-id": []byte("r"), "secret-id": []byte("s")}})
	vault := func(address string) configv1.APIServerEncryption {
		return configv1.APIServerEncryption{Type: configv1.EncryptionTypeKMS, KMS: configv1.KMSPluginConfig{Type: configv1.VaultKMSProvider,
			Vault: configv1.VaultKMSPluginConfig{VaultAddress: address, VaultKeyPath: "transit/keys/cluster",
				Authentication: configv1.VaultAuthentication{Type: configv1.VaultAuthenticationTypeAppRole,
					AppRole: configv1.VaultAppRoleAuthentication{Secret: configv1.VaultSecretReference{Name: "vault-approle"}}}}}}
	}
	config := configfake.NewClientset(&configv1.APIServer{ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Spec: configv1.APIServerSpec{Encryption: vault("https://vault.typo.example.com:8200")}})
	setEncryption := func(e configv1.APIServerEncryption) {
		t.Helper()
		apiServer, err := config.ConfigV1().APIServers().Get(ctx, "cluster", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		apiServer.Spec.Encryption = e
		if _, err := config.ConfigV1().APIServers().Update(ctx, apiServer, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	pods := informers.NewSharedInformerFactoryWithOptions(kube, 0, informers.WithNamespace("openshift-kube-apiserver")).Core().V1().Pods()
	status := preflightStatus{}
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	reporter, err := NewPreflightReporter("kube-apiserver", PreflightReportOptions{
		StatusProvider: &status, Pods: pods.Lister().Pods("openshift-kube-apiserver"), PodInformer: pods.Informer(),
		APIServers: config.ConfigV1().APIServers(), Secrets: kube.CoreV1(), ConfigMaps: kube.CoreV1(),
		OperatorClient: operator, Recorder: recorder, Clock: clocktesting.NewFakePassiveClock(t0),
	})
	if err != nil {
		t.Fatal(err)
	}
	// The hash library-go's key controller asks the preflight for: the APIServer resource's configuration's.
	asked := func() string {
		t.Helper()
		hash, isKMS, err := reporter.live.currentHash(ctx)
		if err != nil || !isKMS {
			t.Fatalf("hash %q, KMS %t, error %v", hash, isKMS, err)
		}
		return hash
	}
	podStore := pods.Informer().GetStore()
	// sync checks the condition the reporter applies: its status and reason, and that it is the rendering
	// (TestPreflightCondition, TestSupersededPreflight) of what the reporter was to judge.
	sync := func(want operatorv1.ConditionStatus, reason Reason, rendered operatorv1.OperatorCondition, warnings int) {
		t.Helper()
		if err := reporter.sync(ctx, factory.NewSyncContext("test", recorder)); err != nil {
			t.Fatal(err)
		}
		_, st, _, _ := operator.GetOperatorState()
		conventionstest.ExpectRegisteredReasons(t, ConditionReasons(), st.Conditions...)
		c := v1helpers.FindOperatorCondition(st.Conditions, ConditionPreflightDegraded)
		if c == nil || c.Status != want || c.Reason != string(reason) || c.Message != rendered.Message {
			t.Fatalf("%s = %+v, want %s %s: %q", ConditionPreflightDegraded, c, want, reason, rendered.Message)
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

	judged := func(pod *corev1.Pod) operatorv1.OperatorCondition {
		return preflightCondition(operatorv1.KMSPreflightCheck(status), pod, t0)
	}
	sync(operatorv1.ConditionFalse, ReasonAsExpected, judged(nil), 0)
	h1 := asked()
	status.ObservedConfigHash = h1
	failedOnMaster1 := preflightPod(h1, "master-1", corev1.PodFailed, checkerPosted(h1, pluginError)...)
	if err := podStore.Add(failedOnMaster1); err != nil {
		t.Fatal(err)
	}
	sync(operatorv1.ConditionTrue, ReasonPreflightCheckFailed, judged(failedOnMaster1), 1)
	sync(operatorv1.ConditionTrue, ReasonPreflightCheckFailed, judged(failedOnMaster1), 1)
	// The admin sets another address. Until library-go's key controller asks for its preflight, the failed result
	// and pod are of a configuration that is no longer the APIServer resource's.
	setEncryption(vault("https://vault.example.com:8200"))
	h2 := asked()
	superseded, _ := supersededPreflight(h1, h2, true)
	sync(operatorv1.ConditionFalse, ReasonAsExpected, superseded, 1)
	// library-go asks, and the new pod fails too.
	status.ObservedConfigHash = h2
	failedOnMaster2 := exited(preflightPod(h2, "master-2", corev1.PodFailed), "kms-preflight-check", 1, "Error", "no credentials")
	if err := podStore.Update(failedOnMaster2); err != nil {
		t.Fatal(err)
	}
	sync(operatorv1.ConditionTrue, ReasonPreflightPodFailed, judged(failedOnMaster2), 2)
	// The admin leaves KMS: library-go asks for no preflight at all.
	setEncryption(configv1.APIServerEncryption{Type: configv1.EncryptionTypeAESCBC})
	notKMS, _ := supersededPreflight(h2, "", false)
	sync(operatorv1.ConditionFalse, ReasonAsExpected, notKMS, 2)
	// Back to the second address, which passes now: library-go records it and deletes the pod.
	setEncryption(vault("https://vault.example.com:8200"))
	status.Result = operatorv1.KMSPreflightResult{Status: operatorv1.KMSPreflightResultSucceeded, ConfigHash: h2, RemoteKeyID: "kek-2"}
	if err := podStore.Delete(preflightPod(h2, "", "")); err != nil {
		t.Fatal(err)
	}
	sync(operatorv1.ConditionFalse, ReasonAsExpected, judged(nil), 2)
}

// TestSupersededPreflight is the wording of KMSPreflightDegraded once the configuration its preflight was asked for
// is no longer the APIServer resource's.
func TestSupersededPreflight(t *testing.T) {
	scenarios := []struct {
		name           string
		current        string
		isKMS          bool
		wantSuperseded bool
		wantMessage    string
	}{
		{name: "still the configuration", current: "H1", isKMS: true},
		{name: "another KMS configuration", current: "H2", isKMS: true, wantSuperseded: true,
			wantMessage: "the KMS preflight of configuration H1 no longer matters: the APIServer resource's KMS configuration is H2 now"},
		{name: "not KMS any more", isKMS: false, wantSuperseded: true,
			wantMessage: "the KMS preflight of configuration H1 no longer matters: the APIServer resource's encryption is not KMS"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			c, superseded := supersededPreflight("H1", s.current, s.isKMS)
			if superseded != s.wantSuperseded {
				t.Fatalf("superseded %v, want %v", superseded, s.wantSuperseded)
			}
			if superseded && (c.Type != ConditionPreflightDegraded || c.Status != operatorv1.ConditionFalse || c.Reason != string(ReasonAsExpected) || c.Message != s.wantMessage) {
				t.Errorf("condition %+v, want False %s %q", c, ReasonAsExpected, s.wantMessage)
			}
		})
	}
}

func TestNewPreflightReporterRequiredOptions(t *testing.T) {
	pods := informers.NewSharedInformerFactory(fake.NewClientset(), 0).Core().V1().Pods()
	complete := PreflightReportOptions{
		StatusProvider: preflightStatus{}, Pods: pods.Lister().Pods("openshift-kube-apiserver"), PodInformer: pods.Informer(),
		APIServers: configfake.NewClientset().ConfigV1().APIServers(), Secrets: fake.NewClientset().CoreV1(), ConfigMaps: fake.NewClientset().CoreV1(),
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		Recorder:       events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0)),
	}
	scenarios := []conventionstest.MissingOptions[PreflightReportOptions]{
		{Name: "no StatusProvider", Clear: func(o *PreflightReportOptions) { o.StatusProvider = nil }, Missing: "StatusProvider"},
		{Name: "no pods", Clear: func(o *PreflightReportOptions) { o.Pods, o.PodInformer = nil, nil }, Missing: "PodInformer, Pods"},
		{Name: "none", Clear: func(o *PreflightReportOptions) { *o = PreflightReportOptions{} },
			Missing: "APIServers, ConfigMaps, OperatorClient, PodInformer, Pods, Recorder, Secrets, StatusProvider"},
	}
	newReporter := func(o PreflightReportOptions) (*PreflightReporter, error) {
		return NewPreflightReporter("kube-apiserver", o)
	}
	conventionstest.RequiredOptions(t, complete, newReporter, scenarios)
}
