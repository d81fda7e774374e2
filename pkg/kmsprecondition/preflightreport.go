package kmsprecondition

import (
	"context"
	"fmt"
	"strings"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	configv1client "github.com/openshift/client-go/config/clientset/versioned/typed/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	encryptioncontrollers "github.com/openshift/library-go/pkg/operator/encryption/controllers"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	kmspreflight "github.com/openshift/library-go/pkg/operator/encryption/kms/preflight"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/internal/conditions"
	"github.com/kmsguard/kmsguard/internal/required"
)

// ConditionPreflightDegraded is the PreflightReporter's condition. Its suffix makes library-go's status controllers
// roll it into the ClusterOperator's Degraded, so `oc get co` shows the node and the plugin's error.
const ConditionPreflightDegraded = "KMSPreflightDegraded"

// preflightReportName names the PreflightReporter's controller and its <Name>ControllerDegraded condition.
const preflightReportName = "KMSPreflightReport"

// ConditionPreflightReportControllerDegraded is True while the PreflightReporter's syncs fail.
var ConditionPreflightReportControllerDegraded = conditions.ControllerDegradedType(preflightReportName)

// EventPreflightFailed (Warning) is emitted when KMSPreflightDegraded turns True, or names another configuration or
// reason.
const EventPreflightFailed = "KMSPreflightFailed"

const (
	// ReasonPreflightCheckFailed: the checker in library-go's kms-preflight pod ran the configuration's plugin and
	// the plugin failed (Status, Encrypt or Decrypt); the message carries the checker's own error.
	ReasonPreflightCheckFailed Reason = "PreflightCheckFailed"
	// ReasonPreflightPodFailed: the kms-preflight pod failed before its checker reported a result (the checker's
	// image or command, its service account, a plugin container that never started); the message carries the
	// container that failed, its exit code and termination message.
	ReasonPreflightPodFailed Reason = "PreflightPodFailed"
	// ReasonPreflightPodNotStarting: the kms-preflight pod has run for PreflightStartupTimeout without its checker
	// reporting (a plugin image that cannot be pulled, a Secret volume that cannot be mounted, a pod no node
	// takes); the message carries each waiting container's reason and message.
	ReasonPreflightPodNotStarting Reason = "PreflightPodNotStarting"
)

// PreflightStartupTimeout is how long a kms-preflight pod may run without its checker reporting before
// KMSPreflightDegraded says so: library-go's preflight controller gives it the same (preflightPodStartupTimeout)
// before it goes Degraded.
const PreflightStartupTimeout = 3 * time.Minute

// preflightConfigHashAnnotation is the annotation library-go's kms-preflight pod template puts the configuration
// hash in. library-go declares it only in the template (kms/preflight/assets/kms-preflight-pod.yaml); it is read
// only when the checker failed before it reported the hash as a pod condition.
const preflightConfigHashAnnotation = "encryption.apiserver.operator.openshift.io/kms-preflight-config-hash"

// PreflightReportOptions configure a PreflightReporter. All but Clock are required.
type PreflightReportOptions struct {
	// StatusProvider reads status.encryptionStatus.preflight: the configuration hash the preflight is asked for
	// and the result library-go recorded. It is the operator's kms.EncryptionStatusProvider.
	StatusProvider kms.EncryptionStatusProvider
	// Pods lists the pods of the namespace library-go's pod preflight deployer runs kms-preflight in (the
	// operand's), and PodInformer is their informer.
	Pods        corev1listers.PodNamespaceLister
	PodInformer factory.Informer
	// APIServers, Secrets and ConfigMaps read the APIServer resource's KMS configuration live, as library-go's
	// preflight controller does: a failure is reported only while the configuration it was for is still the
	// APIServer resource's (the admin may have set another, or set the old one back, since).
	APIServers configv1client.APIServerInterface
	Secrets    corev1client.SecretsGetter
	ConfigMaps corev1client.ConfigMapsGetter
	// OperatorClient is where KMSPreflightDegraded is applied.
	OperatorClient v1helpers.OperatorClient
	Recorder       events.Recorder
	// Clock measures PreflightStartupTimeout; nil is the real clock.
	Clock clock.PassiveClock
}

// PreflightReporter reports the failure of library-go's KMS preflight as an admin needs it: KMSPreflightDegraded
// names the configuration hash, the node the kms-preflight pod ran on, and the checker's own error (the plugin's
// answer), and its runbook says what to correct. It acts on nothing: library-go's key controller already makes no
// key for a configuration whose preflight has not succeeded, and runs the preflight again for a corrected one.
//
// It reads status.encryptionStatus.preflight and library-go's kms-preflight pod (kept for inspection after a
// failure):
//
//	observedConfigHash  the kms-preflight pod for that hash              result for that hash  KMSPreflightDegraded
//	empty               -                                              -                     False AsExpected
//	H                   any                                            Succeeded             False AsExpected
//	H                   checker reported failure (KMSPreflightResult    any                   True PreflightCheckFailed: node,
//	                      False), running or ended                                              the checker's error
//	H                   Failed before the checker reported             any                   True PreflightPodFailed: node,
//	                                                                                            container, exit code, message
//	H                   none, or one that reported nothing             Failed                True PreflightCheckFailed: node
//	                                                                                            and error not known
//	H                   pending or running for PreflightStartupTimeout any                   True PreflightPodNotStarting:
//	                      without the checker reporting                                         node, waiting containers
//	H                   none, pending or running                       none                  False AsExpected (running)
//
// A True row turns False AsExpected when H is no longer the hash of the APIServer resource's KMS configuration,
// read live (the admin set another since, or the old one back, or left KMS): library-go then asks for no preflight
// of H, but keeps its result and its pod until its key controller asks for another.
//
// Adapter: library-go's EncryptionKMSPreflightControllerDegraded reports the same failures, but without the node,
// and for a checker that failed and then exited non-zero (as library-go's own checker does) it reports only the exit
// code, not the checker's error. hack/upstream/library-go/0002 fixes the second; naming the pod's node in library-go's
// messages would remove this reporter.
type PreflightReporter struct {
	factory.Controller
	name    string
	options PreflightReportOptions
	live    preflightConfiguration
}

// NewPreflightReporter builds a PreflightReporter; instanceName prefixes its controller name as library-go's
// instanceName does.
func NewPreflightReporter(instanceName string, opts PreflightReportOptions) (*PreflightReporter, error) {
	if err := required.Options("kmsprecondition preflight report", map[string]bool{
		"StatusProvider": opts.StatusProvider == nil, "Pods": opts.Pods == nil, "PodInformer": opts.PodInformer == nil,
		"APIServers": opts.APIServers == nil, "Secrets": opts.Secrets == nil, "ConfigMaps": opts.ConfigMaps == nil,
		"OperatorClient": opts.OperatorClient == nil, "Recorder": opts.Recorder == nil,
	}); err != nil {
		return nil, err
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	r := &PreflightReporter{name: factory.ControllerInstanceName(instanceName, preflightReportName), options: opts,
		live: preflightConfiguration{apiServers: opts.APIServers, secrets: opts.Secrets, configMaps: opts.ConfigMaps}}
	r.Controller = factory.New().
		WithSync(r.sync).
		WithControllerInstanceName(r.name).
		WithInformers(opts.OperatorClient.Informer(), opts.PodInformer).
		ResyncEvery(time.Minute).
		ToController(r.name, opts.Recorder.WithComponentSuffix("kms-preflight-report"))
	return r, nil
}

func (r *PreflightReporter) sync(ctx context.Context, syncCtx factory.SyncContext) (err error) {
	defer conditions.ReportSync(ctx, r.options.OperatorClient, r.name, preflightReportName, &err)
	_, status, _, err := r.options.OperatorClient.GetOperatorState()
	if err != nil {
		return fmt.Errorf("reading the operator state: %w", err)
	}
	encryptionStatus, err := r.options.StatusProvider.GetKMSEncryptionStatus(ctx)
	if err != nil {
		return fmt.Errorf("reading the KMS preflight status: %w", err)
	}
	pod, err := r.options.Pods.Get(kmspreflight.PodName)
	switch {
	case apierrors.IsNotFound(err):
		pod = nil
	case err != nil:
		return fmt.Errorf("reading the %s pod: %w", kmspreflight.PodName, err)
	}
	cond := preflightCondition(encryptionStatus.Preflight, pod, r.options.Clock.Now())
	if cond.Status == operatorv1.ConditionTrue {
		// Only a failure is worth the live reads: library-go keeps the failed result and the pod of a configuration
		// the admin has replaced since, until its key controller asks for another.
		current, isKMS, err := r.live.currentHash(ctx)
		if err != nil {
			return fmt.Errorf("reading the APIServer resource's KMS configuration: %w", err)
		}
		if superseded, ok := supersededPreflight(encryptionStatus.Preflight.ObservedConfigHash, current, isKMS); ok {
			cond = superseded
		}
	}
	previous := v1helpers.FindOperatorCondition(status.Conditions, ConditionPreflightDegraded)
	if cond.Status == operatorv1.ConditionTrue &&
		(previous == nil || previous.Status != operatorv1.ConditionTrue || previous.Reason != cond.Reason || previous.Message != cond.Message) {
		syncCtx.Recorder().Warningf(EventPreflightFailed, "%s", cond.Message)
	}
	return conditions.Apply(ctx, r.options.OperatorClient, r.name, cond)
}

// preflightCondition is KMSPreflightDegraded for the preflight status and library-go's kms-preflight pod (nil when
// there is none) at now. Each branch sets the condition on purpose; see PreflightReporter for the matrix.
func preflightCondition(check operatorv1.KMSPreflightCheck, pod *corev1.Pod, now time.Time) operatorv1.OperatorCondition {
	ok := func(message string) operatorv1.OperatorCondition {
		return conditions.New(ConditionPreflightDegraded, operatorv1.ConditionFalse, string(ReasonAsExpected), message)
	}
	failed := func(reason Reason, message string) operatorv1.OperatorCondition {
		return conditions.New(ConditionPreflightDegraded, operatorv1.ConditionTrue, string(reason), message)
	}
	hash := check.ObservedConfigHash
	if hash == "" {
		return ok("no KMS configuration awaits a preflight")
	}
	result := check.Result
	if result.ConfigHash == hash && result.Status == operatorv1.KMSPreflightResultSucceeded {
		if result.RemoteKeyID == AlwaysSucceedRemoteKeyID {
			return ok(fmt.Sprintf("the KMS preflight of configuration %s is library-go's always-succeed stub, which runs no plugin", hash))
		}
		return ok(fmt.Sprintf("the KMS preflight of configuration %s succeeded (KEK id %q)", hash, result.RemoteKeyID))
	}
	if pod != nil && preflightPodHash(pod) != hash {
		// A pod of an earlier configuration: library-go deletes it and deploys one for hash.
		pod = nil
	}
	correct := "; correct spec.encryption.kms of apiserver/cluster, or the Secret or ConfigMap it references: " +
		"the corrected configuration is checked again and rolls out if it passes"
	if pod != nil {
		node := pod.Spec.NodeName
		if node == "" {
			node = "(unscheduled)"
		}
		checked := encryptioncontrollers.FindPodCondition(pod.Status.Conditions, encryptioncontrollers.KMSPreflightResultPodCondition)
		if checked != nil && checked.Status == corev1.ConditionFalse {
			return failed(ReasonPreflightCheckFailed, fmt.Sprintf("the KMS preflight of configuration %s failed on node %s: %s%s%s", hash, node, orUnknown(checked.Message),
				statusTimeoutHint(checked.Message, pod), correct))
		}
		if pod.Status.Phase == corev1.PodFailed {
			return failed(ReasonPreflightPodFailed, fmt.Sprintf("the %s pod of configuration %s failed on node %s before its check reported: %s%s",
				kmspreflight.PodName, hash, node, podFailure(pod.Status), correct))
		}
		if started := podStarted(pod); checked == nil && !started.IsZero() && now.Sub(started) > PreflightStartupTimeout {
			return failed(ReasonPreflightPodNotStarting, fmt.Sprintf("the %s pod of configuration %s on node %s has not reported after %s: %s%s",
				kmspreflight.PodName, hash, node, PreflightStartupTimeout, podWaiting(pod.Status), correct))
		}
		if result.ConfigHash != hash {
			return ok(fmt.Sprintf("the KMS preflight of configuration %s runs: %s pod %s on node %s", hash, kmspreflight.PodName, pod.Status.Phase, node))
		}
	}
	if result.ConfigHash == hash && result.Status == operatorv1.KMSPreflightResultFailed {
		// Recorded by library-go, while the pod that ran the check is gone (deleted by hand) or says nothing.
		return failed(ReasonPreflightCheckFailed, fmt.Sprintf("the KMS preflight of configuration %s failed; no %s pod says on which node or why "+
			"(library-go's EncryptionKMSPreflightControllerDegraded may still say why)%s", hash, kmspreflight.PodName, correct))
	}
	if result.ConfigHash == hash {
		return ok(fmt.Sprintf("the KMS preflight of configuration %s ended %q, which is neither Succeeded nor Failed", hash, result.Status))
	}
	return ok(fmt.Sprintf("the KMS preflight of configuration %s has no result yet and no %s pod", hash, kmspreflight.PodName))
}

// statusTimeoutHint says where the plugin's answer is when the checker's error is only its Status poll's deadline:
// library-go's checker (kms/preflight, at 6a2a406da642) polls Status until healthy and, when it never is, reports
// the poll's context error and keeps what the plugin answered only in its log. hack/upstream/library-go/0001 makes
// the error carry the answer; this hint is for the checker without it.
func statusTimeoutHint(checkerError string, pod *corev1.Pod) string {
	if checkerError != context.DeadlineExceeded.Error() {
		return ""
	}
	return fmt.Sprintf(" (the plugin never answered Status healthy; what it answered is in the checker's log: oc logs -n %s %s -c %s)",
		pod.Namespace, pod.Name, preflightCheckerContainer)
}

// preflightCheckerContainer is the checker's container in library-go's kms-preflight pod template.
const preflightCheckerContainer = "kms-preflight-check"

// supersededPreflight is KMSPreflightDegraded False when the configuration the preflight was asked for (asked) is no
// longer the APIServer resource's (current, or not KMS at all), and false when it still is.
func supersededPreflight(asked, current string, isKMS bool) (operatorv1.OperatorCondition, bool) {
	switch {
	case !isKMS:
		return conditions.New(ConditionPreflightDegraded, operatorv1.ConditionFalse, string(ReasonAsExpected),
			fmt.Sprintf("the KMS preflight of configuration %s no longer matters: the APIServer resource's encryption is not KMS", asked)), true
	case current != asked:
		return conditions.New(ConditionPreflightDegraded, operatorv1.ConditionFalse, string(ReasonAsExpected),
			fmt.Sprintf("the KMS preflight of configuration %s no longer matters: the APIServer resource's KMS configuration is %s now", asked, current)), true
	}
	return operatorv1.OperatorCondition{}, false
}

// preflightPodHash is the configuration hash a kms-preflight pod checks: the one its checker reported, else the
// one library-go deployed it with.
func preflightPodHash(pod *corev1.Pod) string {
	if c := encryptioncontrollers.FindPodCondition(pod.Status.Conditions, encryptioncontrollers.KMSPreflightConfigHashPodCondition); c != nil {
		return c.Message
	}
	return pod.Annotations[preflightConfigHashAnnotation]
}

// podStarted is when a pod began to start: the kubelet's start time, else when it was scheduled (a pod that never
// reached a kubelet), as library-go's preflight controller measures its startup timeout; zero when neither is known.
func podStarted(pod *corev1.Pod) time.Time {
	if pod.Status.StartTime != nil {
		return pod.Status.StartTime.Time
	}
	if c := encryptioncontrollers.FindPodCondition(pod.Status.Conditions, corev1.PodScheduled); c != nil {
		return c.LastTransitionTime.Time
	}
	return time.Time{}
}

// podWaiting says which containers of a pod wait and why, else the pod's own phase and reason.
func podWaiting(status corev1.PodStatus) string {
	waiting := describeContainers(status, func(cs corev1.ContainerStatus) (string, string, bool) {
		w := cs.State.Waiting
		if w == nil || w.Reason == "" {
			return "", "", false
		}
		return fmt.Sprintf("container %s waiting: %s", cs.Name, w.Reason), w.Message, true
	})
	if waiting != "" {
		return waiting
	}
	if status.Message != "" {
		return fmt.Sprintf("pod %s, %s: %s", status.Phase, orUnknown(status.Reason), status.Message)
	}
	return fmt.Sprintf("pod %s, no container says why", orUnknown(string(status.Phase)))
}

// podFailure says which containers of a failed pod failed and how.
func podFailure(status corev1.PodStatus) string {
	failures := describeContainers(status, func(cs corev1.ContainerStatus) (string, string, bool) {
		t := cs.State.Terminated
		if t == nil || t.ExitCode == 0 {
			return "", "", false
		}
		return fmt.Sprintf("container %s exited with %d (%s)", cs.Name, t.ExitCode, orUnknown(t.Reason)), t.Message, true
	})
	if failures != "" {
		return failures
	}
	if status.Message != "" {
		return fmt.Sprintf("%s: %s", orUnknown(status.Reason), status.Message)
	}
	return "no container says why (pod reason " + orUnknown(status.Reason) + ")"
}

// describeContainers joins, for the init containers then the containers of status, what describe says of each it
// picks: its summary, and the container's own message after it when there is one.
func describeContainers(status corev1.PodStatus, describe func(corev1.ContainerStatus) (summary, message string, picked bool)) string {
	var described []string
	for _, cs := range append(append([]corev1.ContainerStatus(nil), status.InitContainerStatuses...), status.ContainerStatuses...) {
		summary, message, picked := describe(cs)
		if !picked {
			continue
		}
		if m := strings.TrimSpace(message); m != "" {
			summary += ": " + m
		}
		described = append(described, summary)
	}
	return strings.Join(described, "; ")
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
