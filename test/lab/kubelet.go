package lab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/openshift/library-go/pkg/operator/staticpod/startupmonitor/annotations"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"sigs.k8s.io/yaml"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// abortRestart ends a crash-loop restart that is waiting, if one is.
func (n *Node) abortRestart() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.abortRestarting != nil {
		close(n.abortRestarting)
		n.abortRestarting = nil
	}
}

// crashLoop is the kubelet's back-off of a container that keeps failing.
type crashLoop struct {
	restarts int32
	next     time.Time
}

// crashLoopBackOff is the kubelet's restart delay after restarts failed restarts: 10 s doubling, at most 5
// minutes.
func crashLoopBackOff(restarts int32) time.Duration {
	d := 10 * time.Second
	for i := int32(1); i < restarts && d < 5*time.Minute; i++ {
		d *= 2
	}
	return min(d, 5*time.Minute)
}

// nodeView is config as the kube-apiserver container of a pod sees it: library-go's KMS socket directory is the
// pod's socket directory.
func nodeView(config *apiserverv1.EncryptionConfiguration, socketDir string) *apiserverv1.EncryptionConfiguration {
	return encryptionconfig.MapKMSEndpoints(config, func(endpoint string) string {
		if rest, ok := strings.CutPrefix(endpoint, "unix://"+kmsSocketMountPath+"/"); ok {
			return "unix://" + filepath.Join(socketDir, rest)
		}
		return endpoint
	})
}

// startRevision is the kubelet (and, on a single node, the startup monitor): run revision's pod, and when its
// apiserver does not become healthy, fall back to the last good revision where the startup monitor runs, or keep
// restarting it where it does not.
func (n *Node) startRevision(ctx context.Context, revision int32) {
	n.mu.Lock()
	previous := n.lastGood
	n.mu.Unlock()

	started := time.Now()
	err := n.restart(ctx, revision, nil)
	if err == nil {
		n.mu.Lock()
		n.running, n.lastGood, n.crashLoop = revision, revision, nil
		n.mu.Unlock()
		n.logf("%s: kube-apiserver runs revision %d (restart took %s)", n.name, revision, time.Since(started).Round(time.Millisecond))
		return
	}
	if !n.startupMonitor {
		// No startup monitor on a multi-node control plane: the pod stays, its apiserver restarted by the kubelet
		// with back-off, until a new revision replaces it.
		n.mu.Lock()
		n.running = revision
		n.crashLoop = &crashLoop{restarts: 1, next: time.Now().Add(crashLoopBackOff(1))}
		n.mu.Unlock()
		n.logf("%s: revision %d did not start: %v; no startup monitor, the kubelet restarts it", n.name, revision, err)
		return
	}
	n.logf("%s: revision %d did not start: %v; falling back to revision %d", n.name, revision, err, previous)
	fallback := map[string]string{
		annotations.FallbackForRevision: strconv.Itoa(int(revision)),
		annotations.FallbackReason:      fallbackReasonStartFailed,
		annotations.FallbackMessage:     err.Error(),
	}
	if err := n.restart(ctx, previous, fallback); err != nil {
		n.logf("%s: falling back to revision %d failed too: %v", n.name, previous, err)
		n.setMirrorPodStatus(ctx, corev1.PodFailed, false, err.Error())
		return
	}
	n.mu.Lock()
	n.running, n.crashLoop = previous, nil
	n.mu.Unlock()
}

// crashLoopDue says whether the kubelet's next restart of a crash-looping apiserver is due, and when it is.
func (n *Node) crashLoopDue() (time.Time, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.crashLoop == nil {
		return time.Time{}, false
	}
	return n.crashLoop.next, !time.Now().Before(n.crashLoop.next)
}

// restartCrashLooping is the kubelet restarting the apiserver container of the running pod (its sidecars keep
// running; a pod stuck on a sidecar retries that sidecar first). The pod's Ready condition keeps its transition
// time: it has not been ready since it started.
func (n *Node) restartCrashLooping(ctx context.Context) {
	n.mu.Lock()
	revision, loop, pod := n.running, n.crashLoop, n.pod
	n.mu.Unlock()
	if loop == nil || pod == nil {
		return
	}
	abort := make(chan struct{})
	n.mu.Lock()
	n.abortRestarting = abort
	n.mu.Unlock()
	err := n.startPod(ctx, pod, abort)
	n.mu.Lock()
	if n.abortRestarting == abort {
		n.abortRestarting = nil
	}
	n.mu.Unlock()
	select {
	case <-abort:
		n.logf("%s: a new installer came while the kubelet restarted revision %d", n.name, revision)
		return
	default:
	}
	n.mu.Lock()
	if n.crashLoop != loop {
		n.mu.Unlock()
		return // a new installer came meanwhile
	}
	if err == nil {
		n.lastGood, n.crashLoop = revision, nil
		n.mu.Unlock()
		n.logf("%s: kube-apiserver runs revision %d after %d restarts", n.name, revision, loop.restarts)
		n.setMirrorPodStatus(ctx, corev1.PodRunning, true, "")
		return
	}
	loop.restarts++
	backOff := crashLoopBackOff(loop.restarts)
	loop.next = time.Now().Add(backOff)
	n.mu.Unlock()
	n.logf("%s: revision %d still does not start (restart %d, next in %s): %v", n.name, revision, loop.restarts, backOff, err)
	n.setMirrorPodStatus(ctx, corev1.PodRunning, false, err.Error())
}

// restart replaces the node's pod by one of revision's manifest, mirrored as a new mirror pod of that revision
// (with the startup monitor's annotations when fallback is set), and starts it.
func (n *Node) restart(ctx context.Context, revision int32, fallback map[string]string) error {
	pod, err := n.newPod(revision)
	if err != nil {
		return err
	}
	// The kubelet runs a static pod from its manifest whether the API answers or not, and mirrors it once it
	// does. On a single node the API is this very apiserver: down while it restarts, and down for good after a
	// revision that failed to start, so the mirror pod cannot come first there, or the startup monitor's
	// fallback could never run.
	mirrorCtx, cancel := context.WithTimeout(ctx, mirrorBeforeStartTimeout)
	mirrorErr := n.recreateMirrorPod(mirrorCtx, revision, fallback)
	if mirrorErr == nil {
		// The kubelet's first status of the new pod: running, not ready yet. Its readiness clock starts here,
		// which the installer's minimum ready time and kmsrollback's NotReadyAfter read.
		n.setMirrorPodStatus(mirrorCtx, corev1.PodRunning, false, "")
	}
	cancel()

	// The old pod's containers stop, the apiserver first and its sidecars after it; then the new pod's start.
	if err := n.apiServer.Stop(); err != nil {
		n.logf("%s: stopping kube-apiserver: %v", n.name, err)
	}
	n.mu.Lock()
	old := n.pod
	n.pod = pod
	n.mu.Unlock()
	if old != nil {
		old.stopSidecars()
	}
	if err := n.startPod(ctx, pod, nil); err != nil {
		// A static pod whose container does not come up is Running and not ready (the kubelet restarts the
		// container), never Failed: library-go's installer takes a Failed operand pod for a failure without
		// fallback and retries at once, and would not record the startup monitor's fallback that follows.
		// Bounded: on a single node nothing answers now, and the startup monitor's fallback must not wait.
		if mirrorErr == nil {
			statusCtx, cancel := context.WithTimeout(ctx, mirrorBeforeStartTimeout)
			defer cancel()
			n.setMirrorPodStatus(statusCtx, corev1.PodRunning, false, err.Error())
		}
		return err
	}
	if mirrorErr != nil {
		n.logf("%s: the API did not answer before the restart (%v); mirroring revision %d after it", n.name, mirrorErr, revision)
		if err := n.recreateMirrorPod(ctx, revision, fallback); err != nil {
			return err
		}
	}
	n.setMirrorPodStatus(ctx, corev1.PodRunning, true, "")
	return nil
}

// newPod reads revision's installed manifest into a pod with its own socket directory.
func (n *Node) newPod(revision int32) (*podRun, error) {
	data, err := os.ReadFile(filepath.Join(n.revisionDir(revision), "kube-apiserver-pod.yaml"))
	if err != nil {
		return nil, err
	}
	manifest := &corev1.Pod{}
	if err := yaml.Unmarshal(data, manifest); err != nil {
		return nil, fmt.Errorf("the manifest of revision %d: %w", revision, err)
	}
	sidecars, err := sidecarsOf(manifest)
	if err != nil {
		return nil, fmt.Errorf("the manifest of revision %d: %w", revision, err)
	}
	n.mu.Lock()
	n.pods++
	socketDir := n.podDir(n.pods)
	n.mu.Unlock()
	if err := os.RemoveAll(socketDir); err != nil {
		return nil, err
	}
	return &podRun{
		revision: revision,
		paths:    podPaths{socketDir: socketDir, resourceDir: n.revisionDir(revision)},
		sidecars: sidecars,
		plugins:  map[string]*fake.Plugin{},
	}, nil
}

// startPod starts what of pod is not running: its sidecars (the plugins must listen before the apiserver
// starts: it checks them before it reports healthy), then the apiserver with the revision's encryption config as
// the pod sees it. Closing abort ends the wait for the apiserver.
func (n *Node) startPod(ctx context.Context, pod *podRun, abort <-chan struct{}) error {
	if len(pod.plugins) < len(pod.sidecars.Plugins) {
		for _, p := range pod.plugins {
			p.Stop()
		}
		clear(pod.plugins)
		if err := n.startPlugins(pod); err != nil {
			return fmt.Errorf("init container: %w", err)
		}
		if pod.reporter == nil {
			n.startReporter(ctx, pod)
		}
	}
	configPath := ""
	if raw, err := os.ReadFile(n.installedConfigPath(pod.revision)); err == nil {
		config, err := encryptionconfig.Decode(raw)
		if err != nil {
			return err
		}
		configPath = n.EncryptionConfigPath(pod.revision)
		if err := kmsenv.WriteEncryptionConfig(configPath, nodeView(config, pod.paths.socketDir)); err != nil {
			return err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	opts := apiServerOptions(configPath)
	opts.Abort = abort
	if n.startupMonitor {
		opts.StartTimeout = StartupMonitorTimeout
	}
	return n.apiServer.Restart(opts)
}

// mirrorBeforeStartTimeout is how long restart tries to mirror the new revision before it starts the apiserver:
// long enough for an API that answers, short enough that a single node whose only apiserver is down is not held.
const mirrorBeforeStartTimeout = 5 * time.Second

// stopPod stops the running pod's apiserver sidecars.
func (n *Node) stopPod() {
	n.mu.Lock()
	pod := n.pod
	n.mu.Unlock()
	if pod != nil {
		pod.stopSidecars()
	}
}

func (n *Node) recreateMirrorPod(ctx context.Context, revision int32, fallback map[string]string) error {
	data, err := os.ReadFile(filepath.Join(n.revisionDir(revision), "kube-apiserver-pod.yaml"))
	if err != nil {
		return err
	}
	pod := &corev1.Pod{}
	if err := yaml.Unmarshal(data, pod); err != nil {
		return fmt.Errorf("the manifest of revision %d: %w", revision, err)
	}
	pod.Name = mirrorPodName(n.name)
	pod.Namespace = TargetNamespace
	pod.Spec.NodeName = n.name
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[revisionLabel] = strconv.Itoa(int(revision))
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations[mirrorPodAnnotation] = fmt.Sprintf("revision-%d", revision)
	for k, v := range fallback {
		pod.Annotations[k] = v
	}
	return retryAPI(ctx, func() error {
		err := n.client.CoreV1().Pods(TargetNamespace).Delete(ctx, pod.Name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		_, err = n.client.CoreV1().Pods(TargetNamespace).Create(ctx, pod, metav1.CreateOptions{})
		return err
	})
}

// setMirrorPodStatus reports the apiserver process as the kubelet reports the static pod's container. The Ready
// condition's transition time changes only when its status does: kmsrollback and the installer's minimum ready
// time read how long it has been so.
func (n *Node) setMirrorPodStatus(ctx context.Context, phase corev1.PodPhase, ready bool, message string) {
	err := retryAPI(ctx, func() error {
		pod, err := n.client.CoreV1().Pods(TargetNamespace).Get(ctx, mirrorPodName(n.name), metav1.GetOptions{})
		if err != nil {
			return err
		}
		now := metav1.Now()
		status := corev1.ConditionFalse
		if ready {
			status = corev1.ConditionTrue
		}
		since := now
		for _, c := range pod.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == status && !c.LastTransitionTime.IsZero() {
				since = c.LastTransitionTime
			}
		}
		var restarts int32
		if len(pod.Status.ContainerStatuses) == 1 {
			restarts = pod.Status.ContainerStatuses[0].RestartCount
			if !ready && message != "" && pod.Status.StartTime != nil {
				restarts++ // the container failed again
			}
		}
		if pod.Status.StartTime == nil {
			pod.Status.StartTime = &now
		}
		pod.Status.Phase = phase
		pod.Status.Message = message
		pod.Status.Conditions = []corev1.PodCondition{
			{Type: corev1.PodReady, Status: status, LastTransitionTime: since, Message: message},
			{Type: corev1.ContainersReady, Status: status, LastTransitionTime: since},
		}
		containerState := corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}}
		if phase == corev1.PodFailed {
			containerState = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error", Message: message, FinishedAt: now}}
		}
		pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "kube-apiserver", Ready: ready, RestartCount: restarts, State: containerState}}
		_, err = n.client.CoreV1().Pods(TargetNamespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		n.logf("%s: updating the mirror pod: %v", n.name, err)
	}
}

func mirrorPodName(node string) string { return staticPodName + "-" + node }
