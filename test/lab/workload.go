package lab

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	corelisters "k8s.io/client-go/listers/core/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
)

// preflightCommand is the command of library-go's kms-preflight check container, as kube-apiserver-operator would
// give it to the pod deployer: the operator's binary and the subcommand (kms/preflight.NewCommand).
var preflightCommand = []string{operatorBinary, "kms-preflight"}

const (
	// serviceAccountMountPath is where the ServiceAccount admission plugin mounts a pod's API credentials.
	serviceAccountMountPath = "/var/run/secrets/kubernetes.io/serviceaccount"
	// pluginReferenceDataMountPath is where library-go's sidecar builder mounts, in a pod that is not a static
	// pod, the Secret that carries the plugins' credentials (kms/pluginlifecycle, referenceDataMountPath).
	pluginReferenceDataMountPath = "/var/run/secrets/kms-plugin"
)

// workload is a pod of the operand namespace that the node's kubelet runs as it runs any pod: neither the
// apiserver's static pod nor an installer pod, which the agent carries out itself. library-go's kms-preflight pod
// and pruner pods are the ones there are.
type workload struct {
	// cancel stops the pod's containers; nil when none were started.
	cancel context.CancelFunc
	// done is closed once the pod's containers stopped.
	done chan struct{}
	// deleting: the API deleted the pod, and the kubelet removes it once its containers stopped.
	deleting bool
}

// isWorkload says whether the kubelet runs pod as a workload.
func isWorkload(pod *corev1.Pod) bool {
	return !strings.HasPrefix(pod.Name, "installer-") && pod.Annotations[mirrorPodAnnotation] == ""
}

// workloadSpec is what the kubelet needs of a workload pod: its one container, its KMS plugin sidecars and its
// volumes.
type workloadSpec struct {
	container corev1.Container
	sidecars  podSidecars
	// socketVolume is the emptyDir the plugins serve in; secretVolumes are Secret volumes by mount path;
	// serviceAccount is the projected API credentials volume, if the pod has one; hostPaths are the paths on the
	// node of hostPath volumes, by mount path.
	socketVolume   string
	secretVolumes  map[string]string
	serviceAccount *corev1.ProjectedVolumeSource
	hostPaths      map[string]string
}

// workloadSpecOf reads pod as the lab's kubelet can run it: one container, native sidecars that are KMS plugins,
// emptyDir, Secret and projected service account volumes mounted where library-go's builder and the
// ServiceAccount admission plugin put them, and hostPath volumes. Anything else is an error, which the pod's
// status shows: the lab cannot run it as a cluster would.
func workloadSpecOf(pod *corev1.Pod) (workloadSpec, error) {
	if len(pod.Spec.Containers) != 1 {
		return workloadSpec{}, fmt.Errorf("the lab's kubelet runs pods of one container; %s has %d", pod.Name, len(pod.Spec.Containers))
	}
	spec := workloadSpec{container: pod.Spec.Containers[0], secretVolumes: map[string]string{}, hostPaths: map[string]string{}}
	sidecars, err := sidecarsOf(pod)
	if err != nil {
		return workloadSpec{}, err
	}
	if sidecars.Reporter != nil || len(sidecars.Plugins) != len(pod.Spec.InitContainers) {
		return workloadSpec{}, fmt.Errorf("pod %s: the lab's kubelet runs KMS plugin sidecars only", pod.Name)
	}
	spec.sidecars = sidecars
	mountPaths := map[string]string{}
	for _, c := range append(append([]corev1.Container(nil), pod.Spec.InitContainers...), spec.container) {
		for _, m := range c.VolumeMounts {
			if at, ok := mountPaths[m.Name]; ok && at != m.MountPath {
				return workloadSpec{}, fmt.Errorf("pod %s: volume %s is mounted at %s and %s", pod.Name, m.Name, at, m.MountPath)
			}
			mountPaths[m.Name] = m.MountPath
		}
	}
	for _, v := range pod.Spec.Volumes {
		at, mounted := mountPaths[v.Name]
		switch {
		case !mounted:
			continue
		case v.EmptyDir != nil && at == kmsSocketMountPath:
			spec.socketVolume = v.Name
		case v.Secret != nil && at == pluginReferenceDataMountPath:
			spec.secretVolumes[at] = v.Secret.SecretName
		case v.Projected != nil && at == serviceAccountMountPath:
			spec.serviceAccount = v.Projected
		case v.HostPath != nil:
			spec.hostPaths[at] = v.HostPath.Path
		default:
			return workloadSpec{}, fmt.Errorf("pod %s: the lab's kubelet cannot mount volume %s at %s", pod.Name, v.Name, at)
		}
	}
	if len(spec.sidecars.Plugins) > 0 && spec.socketVolume == "" {
		return workloadSpec{}, fmt.Errorf("pod %s: KMS plugin sidecars without a socket volume at %s", pod.Name, kmsSocketMountPath)
	}
	return spec, nil
}

// syncWorkloads starts the workload pods bound to the node that have not run, and stops those the API deleted:
// a pod being deleted has its containers stopped and is then removed for good, as the kubelet does.
func (n *Node) syncWorkloads(ctx context.Context, lister corelisters.PodNamespaceLister) {
	pods, err := lister.List(labels.Everything())
	if err != nil {
		return
	}
	seen := map[types.UID]bool{}
	for _, pod := range pods {
		if !isWorkload(pod) {
			continue
		}
		seen[pod.UID] = true
		n.mu.Lock()
		w := n.workloads[pod.UID]
		if w == nil {
			w = &workload{done: make(chan struct{})}
			n.workloads[pod.UID] = w
			if pod.DeletionTimestamp == nil && pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed {
				var runCtx context.Context
				runCtx, w.cancel = context.WithCancel(ctx)
				n.workloadRuns++
				dir := filepath.Join(n.dir, "pods", "w"+strconv.Itoa(n.workloadRuns))
				go func() {
					defer close(w.done)
					n.runWorkload(runCtx, pod, dir)
				}()
			} else {
				close(w.done)
			}
		}
		deleted := pod.DeletionTimestamp != nil && !w.deleting
		if deleted {
			w.deleting = true
		}
		stop := w.cancel
		n.mu.Unlock()
		if deleted {
			if stop != nil {
				stop()
			}
			go n.finishDeletion(ctx, pod, w.done)
		}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for uid, w := range n.workloads {
		if !seen[uid] {
			if w.cancel != nil {
				w.cancel()
			}
			delete(n.workloads, uid)
		}
	}
}

// finishDeletion removes a deleted pod for good once its containers stopped: the kubelet's delete with no grace
// period, bound to the pod's UID so that a new pod of the same name is not touched.
func (n *Node) finishDeletion(ctx context.Context, pod *corev1.Pod, stopped <-chan struct{}) {
	select {
	case <-stopped:
	case <-ctx.Done():
		return
	}
	err := n.client.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{
		GracePeriodSeconds: new(int64), Preconditions: &metav1.Preconditions{UID: &pod.UID}})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		n.logf("%s: removing deleted pod %s: %v", n.name, pod.Name, err)
	}
}

// runWorkload runs pod in dir until its container exits or ctx ends: its volumes, then its plugin sidecars, then
// its container, once (restartPolicy Never is all a workload here has). The pod's status follows as the kubelet
// writes it: Pending with the reason while it cannot start, Running, then Succeeded or Failed with the
// container's exit code. Conditions others write (the preflight checker's) are kept.
func (n *Node) runWorkload(ctx context.Context, pod *corev1.Pod, dir string) {
	spec, err := workloadSpecOf(pod)
	if err != nil {
		n.logf("%s: pod %s cannot run: %v", n.name, pod.Name, err)
		n.setWorkloadWaiting(ctx, pod, "CreateContainerConfigError", err.Error())
		return
	}
	run := &podRun{paths: podPaths{socketDir: filepath.Join(dir, "s")}, sidecars: spec.sidecars, plugins: map[string]*fake.Plugin{}}
	defer run.stopSidecars()
	// The kubelet retries what keeps a pod from starting (a volume it cannot mount, a sidecar that exits) with
	// back-off, until the pod is deleted.
	for attempt := int32(1); ; attempt++ {
		err = n.mountWorkloadVolumes(ctx, pod, spec, dir, &run.paths)
		reason := "ContainerCreating"
		if err == nil {
			reason = "CrashLoopBackOff"
			err = n.startPlugins(run)
		}
		if err == nil {
			break
		}
		run.stopSidecars()
		n.logf("%s: pod %s does not start: %v", n.name, pod.Name, err)
		n.setWorkloadWaiting(ctx, pod, reason, err.Error())
		select {
		case <-ctx.Done():
			return
		case <-time.After(crashLoopBackOff(attempt)):
		}
	}
	started := metav1.Now()
	if err := n.updateWorkloadStatus(ctx, pod, func(s *corev1.PodStatus) {
		s.Phase, s.StartTime = corev1.PodRunning, &started
		setPodCondition(s, corev1.PodInitialized, corev1.ConditionTrue)
		setPodCondition(s, corev1.ContainersReady, corev1.ConditionTrue)
		setPodCondition(s, corev1.PodReady, corev1.ConditionTrue)
		s.ContainerStatuses = []corev1.ContainerStatus{{Name: spec.container.Name, Image: spec.container.Image, Ready: true, Started: new(bool),
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}}}}
		*s.ContainerStatuses[0].Started = true
	}); err != nil {
		n.logf("%s: pod %s: %v", n.name, pod.Name, err)
		return
	}

	fields := map[string]string{"spec.nodeName": n.name, "metadata.name": pod.Name, "metadata.namespace": pod.Namespace}
	containerSpec, err := containerSpecFor(spec.container, n.images, run, fields, filepath.Join(dir, spec.container.Name))
	exitCode := 128
	if err == nil {
		maps.Copy(containerSpec.Env, n.serviceEnv())
		exitCode, err = n.runContainerOnce(ctx, containerSpec, filepath.Join(dir, spec.container.Name+".log"))
	}
	if ctx.Err() != nil {
		return // deleted: the kubelet writes no more status
	}
	run.stopSidecars()
	phase, reason, message := corev1.PodSucceeded, "Completed", ""
	if err != nil || exitCode != 0 {
		phase, reason = corev1.PodFailed, "Error"
		if err != nil {
			message = err.Error()
		}
	}
	n.logf("%s: pod %s: container %s exited with %d%s", n.name, pod.Name, spec.container.Name, exitCode, map[bool]string{true: " (" + message + ")"}[message != ""])
	finished := metav1.Now()
	if err := n.updateWorkloadStatus(ctx, pod, func(s *corev1.PodStatus) {
		s.Phase = phase
		setPodCondition(s, corev1.ContainersReady, corev1.ConditionFalse)
		setPodCondition(s, corev1.PodReady, corev1.ConditionFalse)
		s.ContainerStatuses = []corev1.ContainerStatus{{Name: spec.container.Name, Image: spec.container.Image, Started: new(bool),
			State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: int32(exitCode), Reason: reason,
				Message: message, StartedAt: started, FinishedAt: finished}}}}
	}); err != nil {
		n.logf("%s: pod %s: %v", n.name, pod.Name, err)
	}
}

// mountWorkloadVolumes makes the node's directories behind pod's volumes: the plugins' socket directory, each
// Secret's keys as files (read through the API, as the kubelet reads them: an error keeps the pod from
// starting), the service account's token, CA and namespace, and the node's directory of each hostPath volume
// (made if it is missing, as the kubelet's container runtime does for a hostPath of no type).
func (n *Node) mountWorkloadVolumes(ctx context.Context, pod *corev1.Pod, spec workloadSpec, dir string, paths *podPaths) error {
	paths.hostMounts = map[string]string{}
	for at, path := range spec.hostPaths {
		if err := os.MkdirAll(n.hostPath(path), 0o755); err != nil {
			return fmt.Errorf("MountVolume.SetUp failed for hostPath %q: %w", path, err)
		}
		paths.hostMounts[at] = n.hostPath(path)
	}
	for at, secretName := range spec.secretVolumes {
		secret, err := n.client.CoreV1().Secrets(pod.Namespace).Get(ctx, secretName, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("MountVolume.SetUp failed for secret %q: %w", secretName, err)
		}
		volumeDir := filepath.Join(dir, "secrets", secretName)
		if err := writeFiles(volumeDir, secret.Data); err != nil {
			return err
		}
		paths.resourceDir, paths.resourceMount = volumeDir, at
	}
	if spec.serviceAccount != nil {
		files, err := n.serviceAccountFiles(ctx, pod, spec.serviceAccount)
		if err != nil {
			return fmt.Errorf("MountVolume.SetUp failed for the service account volume: %w", err)
		}
		paths.serviceAccountDir = filepath.Join(dir, "serviceaccount")
		if err := writeFiles(paths.serviceAccountDir, files); err != nil {
			return err
		}
	}
	return nil
}

// serviceAccountFiles are the files of the projected volume the ServiceAccount admission plugin gives a pod: a
// token the node's apiserver issues for the pod's service account, bound to the pod; the CA of that apiserver;
// the pod's namespace. On a cluster the CA comes from the kube-root-ca.crt ConfigMap that kube-controller-manager
// publishes; the lab runs no kube-controller-manager, and each of its apiservers has a CA and a token signing key
// of its own, so the pod talks to its node's apiserver (serviceEnv) with that apiserver's credentials.
func (n *Node) serviceAccountFiles(ctx context.Context, pod *corev1.Pod, volume *corev1.ProjectedVolumeSource) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, source := range volume.Sources {
		switch {
		case source.ServiceAccountToken != nil:
			request := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{
				ExpirationSeconds: source.ServiceAccountToken.ExpirationSeconds,
				BoundObjectRef:    &authenticationv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: pod.Name, UID: pod.UID},
			}}
			if a := source.ServiceAccountToken.Audience; a != "" {
				request.Spec.Audiences = []string{a}
			}
			token, err := n.apiServer.Client().CoreV1().ServiceAccounts(pod.Namespace).CreateToken(ctx, pod.Spec.ServiceAccountName, request, metav1.CreateOptions{})
			if err != nil {
				return nil, fmt.Errorf("requesting a token for service account %s/%s: %w", pod.Namespace, pod.Spec.ServiceAccountName, err)
			}
			files[source.ServiceAccountToken.Path] = []byte(token.Status.Token)
		case source.ConfigMap != nil && source.ConfigMap.Name == "kube-root-ca.crt":
			for _, item := range source.ConfigMap.Items {
				files[item.Path] = n.apiServer.RESTConfig().CAData
			}
		case source.DownwardAPI != nil:
			for _, item := range source.DownwardAPI.Items {
				if item.FieldRef == nil || item.FieldRef.FieldPath != "metadata.namespace" {
					return nil, fmt.Errorf("the lab's kubelet projects only metadata.namespace, not %s", item.Path)
				}
				files[item.Path] = []byte(pod.Namespace)
			}
		default:
			return nil, errors.New("the lab's kubelet projects only a service account token, kube-root-ca.crt and the namespace")
		}
	}
	return files, nil
}

// serviceEnv is what the kubelet puts in every container's environment for the kubernetes Service, which
// rest.InClusterConfig reads: here the node's own apiserver (serviceAccountFiles says why).
func (n *Node) serviceEnv() map[string]string {
	u, err := url.Parse(n.apiServer.RESTConfig().Host)
	if err != nil {
		return nil
	}
	return map[string]string{"KUBERNETES_SERVICE_HOST": u.Hostname(), "KUBERNETES_SERVICE_PORT": u.Port()}
}

// writeFiles writes each of files into dir, readable by the owner only, as a Secret volume or the installer's
// copy of a Secret is. A name that is not a plain file name is an error.
func writeFiles(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for name, data := range files {
		if filepath.Base(name) != name {
			return fmt.Errorf("key %q is not a file name", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// setWorkloadWaiting records that pod's container waits, for reason.
func (n *Node) setWorkloadWaiting(ctx context.Context, pod *corev1.Pod, reason, message string) {
	if err := n.updateWorkloadStatus(ctx, pod, func(s *corev1.PodStatus) {
		s.Phase = corev1.PodPending
		if s.StartTime == nil {
			now := metav1.Now()
			s.StartTime = &now
		}
		var image string
		if len(pod.Spec.Containers) > 0 {
			image = pod.Spec.Containers[0].Image
		}
		s.ContainerStatuses = []corev1.ContainerStatus{{Name: firstContainerName(pod), Image: image,
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: message}}}}
	}); err != nil && ctx.Err() == nil {
		n.logf("%s: pod %s: %v", n.name, pod.Name, err)
	}
}

func firstContainerName(pod *corev1.Pod) string {
	if len(pod.Spec.Containers) == 0 {
		return ""
	}
	return pod.Spec.Containers[0].Name
}

// updateWorkloadStatus applies mutate to the live status of pod (this very pod: not a new one of the same name),
// through apiserver restarts and conflicts as every other write of the lab's kubelet (retryAPI).
func (n *Node) updateWorkloadStatus(ctx context.Context, pod *corev1.Pod, mutate func(*corev1.PodStatus)) error {
	pods := n.client.CoreV1().Pods(pod.Namespace)
	err := retryAPI(ctx, func() error {
		live, err := pods.Get(ctx, pod.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if live.UID != pod.UID {
			// Replaced: this pod is gone, which is final.
			return apierrors.NewNotFound(corev1.Resource("pods"), pod.Name)
		}
		mutate(&live.Status)
		_, err = pods.UpdateStatus(ctx, live, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("writing the status: %w", err)
	}
	return nil
}

// setPodCondition sets one condition of status, keeping its transition time when its status does not change.
func setPodCondition(s *corev1.PodStatus, conditionType corev1.PodConditionType, status corev1.ConditionStatus) {
	for i := range s.Conditions {
		if s.Conditions[i].Type == conditionType {
			if s.Conditions[i].Status != status {
				s.Conditions[i].Status, s.Conditions[i].LastTransitionTime = status, metav1.Now()
			}
			return
		}
	}
	s.Conditions = append(s.Conditions, corev1.PodCondition{Type: conditionType, Status: status, LastTransitionTime: metav1.Now()})
}
