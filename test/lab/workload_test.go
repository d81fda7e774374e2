package lab

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	kmspreflight "github.com/openshift/library-go/pkg/operator/encryption/kms/preflight"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"github.com/openshift/library-go/pkg/operator/events"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/kubernetes/fake"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	kmsfake "github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
)

// preflightPod is the pod library-go's pod deployer creates for the lab's KMS configuration at vaultAddress, with
// the configuration kmsprecondition computes for it, and the API credentials volume the ServiceAccount admission
// plugin adds (a fake clientset runs no admission).
func preflightPod(t *testing.T, vaultAddress string) (*corev1.Pod, *corev1.Secret, string) {
	t.Helper()
	ctx := context.Background()
	encryption, err := kmsEncryption(vaultAddress)
	if err != nil {
		t.Fatal(err)
	}
	kube := fake.NewClientset(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-config", Name: vaultAppRoleSecret},
		Data: map[string][]byte{"role-id": []byte(labVaultRoleID), "secret-id": []byte(labVaultSecretID)}})
	config := configfake.NewClientset(&configv1.APIServer{ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Spec: configv1.APIServerSpec{Encryption: encryption}})
	// library-go's key controller has asked for the preflight of the configuration's hash.
	key := state.KeyState{Key: apiserverv1.Key{Name: "1"}, KMS: &state.KMSState{Plugin: encryption.KMS}}
	for k, v := range map[string]string{"role-id": labVaultRoleID, "secret-id": labVaultSecretID} {
		if err := key.KMS.PluginSecretData.Set(vaultAppRoleSecret, k, []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	hash, err := kmsprecondition.KMSConfigHash(key)
	if err != nil {
		t.Fatal(err)
	}
	status := encryptionstatus.NewKubeAPIServer(operatorfake.NewClientset(&operatorv1.KubeAPIServer{
		ObjectMeta: metav1.ObjectMeta{Name: encryptionstatus.Name},
		Status: operatorv1.KubeAPIServerStatus{EncryptionStatus: operatorv1.KMSEncryptionStatus{
			Preflight: operatorv1.KMSPreflightCheck{ObservedConfigHash: hash}}},
	}).OperatorV1().KubeAPIServers())
	computed, err := kmsprecondition.PreflightConfiguration(TargetNamespace, EncryptedResources, config.ConfigV1().APIServers(), kube.CoreV1(), kube.CoreV1(), status).
		ComputeEncryptionConfiguration(ctx)
	if err != nil {
		t.Fatal(err)
	}
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(time.Now()))
	deployer := kmspreflight.NewStaticPodPreflightDeployer(TargetNamespace, kube.CoreV1(), kube.RbacV1(), recorder, operatorImage, preflightCommand, libraryGoProviderTimeout)
	if err := deployer.Deploy(ctx, hash, computed); err != nil {
		t.Fatalf("library-go's deployer: %v", err)
	}
	pod, err := kube.CoreV1().Pods(TargetNamespace).Get(ctx, kmspreflight.PodName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pod.Spec.Volumes = append(pod.Spec.Volumes, corev1.Volume{Name: "kube-api-access-x", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token"}},
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"},
				Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace",
				FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}}}},
		}}}})
	pod.Spec.Containers[0].VolumeMounts = append(pod.Spec.Containers[0].VolumeMounts,
		corev1.VolumeMount{Name: "kube-api-access-x", MountPath: serviceAccountMountPath, ReadOnly: true})
	secret, err := kube.CoreV1().Secrets(TargetNamespace).Get(ctx, kmspreflight.EncryptionConfigSecretName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return pod, secret, hash
}

// TestPreflightPodRunsOnTheLabsKubelet reads the pod library-go's deployer makes as the lab's kubelet does: its
// plugin sidecar serves with the credentials of the Secret volume, and the checker's arguments name the pod, its
// namespace, the config hash and the plugin's socket.
func TestPreflightPodRunsOnTheLabsKubelet(t *testing.T) {
	for _, tc := range []struct {
		name         string
		vaultAddress string
		wantCode     codes.Code
	}{
		{name: "the lab's KMS", vaultAddress: SimulatedKMSAddress, wantCode: codes.OK},
		{name: "a KMS the lab does not have", vaultAddress: "https://vault.elsewhere.example:8200", wantCode: codes.Unavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod, secret, hash := preflightPod(t, tc.vaultAddress)
			spec, err := workloadSpecOf(pod)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(spec.container.Command, preflightCommand) || len(spec.sidecars.Plugins) != 1 || spec.serviceAccount == nil {
				t.Fatalf("workload spec %+v: want the preflight command, one plugin and the service account volume", spec)
			}
			if got := spec.secretVolumes[pluginReferenceDataMountPath]; got != kmspreflight.EncryptionConfigSecretName {
				t.Fatalf("the plugins' credentials come from %q, want the deployer's Secret", got)
			}

			// The kubelet's volumes: the Secret's keys as files; then the plugin sidecar starts from them.
			dir := t.TempDir()
			paths := podPaths{socketDir: filepath.Join(dir, "s"), resourceDir: filepath.Join(dir, "secret"), resourceMount: pluginReferenceDataMountPath,
				serviceAccountDir: filepath.Join(dir, "sa")}
			if err := writeFiles(paths.resourceDir, secret.Data); err != nil {
				t.Fatal(err)
			}
			n := &Node{name: "master-0", kms: kmsfake.NewKMS(), logf: t.Logf}
			run := &podRun{paths: paths, sidecars: spec.sidecars, plugins: map[string]*kmsfake.Plugin{}}
			t.Cleanup(run.stopSidecars)
			if err := n.startPlugins(run); err != nil {
				t.Fatal(err)
			}
			socket := spec.sidecars.Plugins[0].Listen
			plugin, err := pluginprobe.NewGRPCPlugin(context.Background(), "1", "unix://"+filepath.Join(paths.socketDir, filepath.Base(socket)), 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := plugin.Service.Status(context.Background()); status.Code(err) != tc.wantCode {
				t.Errorf("the plugin's Status: %v, want code %s", err, tc.wantCode)
			}

			fields := map[string]string{"spec.nodeName": "master-0", "metadata.name": pod.Name, "metadata.namespace": pod.Namespace}
			container, err := containerSpecFor(spec.container, operatorImages("/opt/operator"), run, fields, filepath.Join(dir, "root"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"--pod-name=" + kmspreflight.PodName, "--pod-namespace=" + TargetNamespace, "--config-hash=" + hash,
				"--kms-sockets=" + socket, "--kms-call-timeout=10s"} {
				if !slices.Contains(container.Args, want) {
					t.Errorf("checker arguments %q lack %q", container.Args, want)
				}
			}
			var targets []string
			for _, m := range volumeMounts(container) {
				targets = append(targets, m.Target+"="+m.Source)
			}
			slices.Sort(targets)
			want := []string{"/usr/bin/" + operatorBinary + "=/opt/operator", kmsSocketMountPath + "=" + paths.socketDir,
				serviceAccountMountPath + "=" + paths.serviceAccountDir}
			if !slices.Equal(targets, want) {
				t.Errorf("checker mounts %q, want %q", targets, want)
			}
		})
	}
}

func TestWorkloadSpecRefusesWhatTheLabCannotRun(t *testing.T) {
	for name, mutate := range map[string]func(*corev1.Pod){
		"two containers": func(p *corev1.Pod) { p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "second"}) },
		"an init container that is no KMS plugin": func(p *corev1.Pod) {
			p.Spec.InitContainers = append(p.Spec.InitContainers, corev1.Container{Name: "setup"})
		},
		"a config map volume": func(p *corev1.Pod) {
			p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: "cm", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: "c"}}}})
			p.Spec.Containers[0].VolumeMounts = append(p.Spec.Containers[0].VolumeMounts, corev1.VolumeMount{Name: "cm", MountPath: "/etc/c"})
		},
		"a plugin without its socket volume": func(p *corev1.Pod) {
			p.Spec.Volumes = slices.DeleteFunc(p.Spec.Volumes, func(v corev1.Volume) bool { return v.EmptyDir != nil })
		},
	} {
		t.Run(name, func(t *testing.T) {
			pod, _, _ := preflightPod(t, SimulatedKMSAddress)
			if _, err := workloadSpecOf(pod); err != nil {
				t.Fatalf("the unchanged pod: %v", err)
			}
			mutate(pod)
			if _, err := workloadSpecOf(pod); err == nil {
				t.Error("no error")
			}
		})
	}
}

// TestPrunerPodMountsTheNodesDirectory: library-go's pruner pod (prune/manifests/pruner-pod.yaml) runs as any pod,
// its hostPath volume the node's own /etc/kubernetes, read-write, where the installer put the revisions.
func TestPrunerPodMountsTheNodesDirectory(t *testing.T) {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: TargetNamespace, Name: "revision-pruner-7-master-0"},
		Spec: corev1.PodSpec{
			ServiceAccountName: "installer-sa", NodeName: "master-0", RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{Name: "pruner", Image: operatorImage, Command: []string{operatorBinary, "prune"},
				Args:         []string{"-v=4", "--max-eligible-revision=7", "--protected-revisions=3,4,5,6,7", "--resource-dir=/etc/kubernetes/static-pod-resources", "--static-pod-name=kube-apiserver-pod"},
				VolumeMounts: []corev1.VolumeMount{{Name: "kubelet-dir", MountPath: "/etc/kubernetes/"}}}},
			Volumes: []corev1.Volume{{Name: "kubelet-dir", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/etc/kubernetes/"}}}},
		},
	}
	if !isWorkload(pod) {
		t.Fatal("the kubelet does not run the pruner pod")
	}
	spec, err := workloadSpecOf(pod)
	if err != nil {
		t.Fatal(err)
	}
	n := &Node{name: "master-0", dir: t.TempDir()}
	run := &podRun{}
	if err := n.mountWorkloadVolumes(context.Background(), pod, spec, t.TempDir(), &run.paths); err != nil {
		t.Fatal(err)
	}
	container, err := containerSpecFor(spec.container, operatorImages("/opt/operator"), run, map[string]string{"spec.nodeName": "master-0"}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	want := containerMount{Source: filepath.Join(n.dir, "root", "etc", "kubernetes"), Target: "/etc/kubernetes/"}
	if !slices.Contains(container.Mounts, want) {
		t.Errorf("mounts %v lack the node's /etc/kubernetes %v", volumeMounts(container), want)
	}
	if resources := filepath.Dir(n.revisionDir(7)); !strings.HasPrefix(resources, want.Source+string(filepath.Separator)) {
		t.Errorf("the node's revisions are in %s, not under the pruner's volume %s", resources, want.Source)
	}
	if info, err := os.Stat(want.Source); err != nil || !info.IsDir() {
		t.Errorf("the kubelet did not make the hostPath directory: %v", err)
	}
}

func TestServiceAccountFilesRefuseWhatTheLabCannotProject(t *testing.T) {
	n := &Node{name: "master-0"}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: TargetNamespace, Name: "p"}}
	for name, source := range map[string]corev1.VolumeProjection{
		"a secret":   {Secret: &corev1.SecretProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}}},
		"the pod IP": {DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "ip", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.podIP"}}}}},
	} {
		_, err := n.serviceAccountFiles(context.Background(), pod, &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{source}})
		if err == nil || !strings.Contains(err.Error(), "the lab's kubelet projects only") {
			t.Errorf("%s: %v, want a refusal", name, err)
		}
	}
}
