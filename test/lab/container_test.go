package lab

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes/fake"
)

func TestExpandEnvIsTheKubelets(t *testing.T) {
	env := map[string]string{"NODE_NAME": "master-1", "EMPTY": ""}
	for in, want := range map[string]string{
		"--node-name=$(NODE_NAME)":  "--node-name=master-1",
		"$(NODE_NAME)-$(NODE_NAME)": "master-1-master-1",
		"--x=$(EMPTY)":              "--x=",
		"--x=$(UNSET)":              "--x=$(UNSET)", // a kubelet leaves an unknown reference as it is
		"--x=$$(NODE_NAME)":         "--x=$(NODE_NAME)",
		"--x=$(NODE_NAME":           "--x=$(NODE_NAME",
		"cost $5":                   "cost $5",
		"trailing $":                "trailing $",
	} {
		if got := expandEnv(in, env); got != want {
			t.Errorf("expandEnv(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestReporterContainerAsTheKubeletRunsIt: the kms-health-reporter sidecar library-go's builder writes becomes
// library-go's command with the node's name, over the pod's socket directory and the revision's resources.
func TestReporterContainerAsTheKubeletRunsIt(t *testing.T) {
	kube := fake.NewSimpleClientset(encryptionConfigSecret(t, encryptiondata.EncryptionConfSecretName,
		vaultKey(t, "2", SimulatedKMSAddress, labVaultRoleID, labVaultSecretID), vaultKey(t, "1", SimulatedKMSAddress, labVaultRoleID, labVaultSecretID)))
	manifest, err := targetPod(context.Background(), kube.CoreV1(), kmsFeatureGates())
	if err != nil {
		t.Fatal(err)
	}
	sidecars, err := sidecarsOf(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if sidecars.Reporter == nil {
		t.Fatalf("the manifest has no %s sidecar", healthReporterContainer)
	}
	pod := &podRun{paths: podPaths{socketDir: "/lab/nodes/master-1/pods/4", resourceDir: "/lab/nodes/master-1/resources/kube-apiserver-pod-7"}}
	spec, err := containerSpecFor(*sidecars.Reporter, pod, map[string]string{"spec.nodeName": "master-1"}, "/lab/root")
	if err != nil {
		t.Fatal(err)
	}
	want := containerSpec{
		Name:    healthReporterContainer,
		Command: reporterCommand,
		Args: []string{
			"--kms-sockets=unix:///var/run/kmsplugin/kms-2.sock,unix:///var/run/kmsplugin/kms-1.sock",
			"--node-name=master-1",
			"--kubeconfig=" + staticPodResourcesPath + "/" + certSyncerKubeconfig,
		},
		Root: "/lab/root",
		Mounts: []containerMount{
			{Source: pod.paths.socketDir, Target: kmsSocketMountPath, ReadOnly: true},
			{Source: pod.paths.resourceDir, Target: staticPodResourcesPath, ReadOnly: true},
		},
	}
	if diff := cmp.Diff(want, spec); diff != "" {
		t.Errorf("container spec (-want +got):\n%s", diff)
	}
}

func TestContainerSpecRefusesWhatTheLabCannotRun(t *testing.T) {
	pod := &podRun{paths: podPaths{socketDir: "/s", resourceDir: "/r"}}
	for name, c := range map[string]corev1.Container{
		"a volume the pod does not have": {Name: "c", VolumeMounts: []corev1.VolumeMount{{Name: "etc", MountPath: "/etc/pki"}}},
		"an env var from a secret": {Name: "c", Env: []corev1.EnvVar{{Name: "TOKEN", ValueFrom: &corev1.EnvVarSource{
			SecretKeyRef: &corev1.SecretKeySelector{Key: "token"}}}}},
		"a field other than the node's name": {Name: "c", Env: []corev1.EnvVar{{Name: "IP", ValueFrom: &corev1.EnvVarSource{
			FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.podIP"}}}}},
	} {
		if _, err := containerSpecFor(c, pod, map[string]string{"spec.nodeName": "master-0"}, "/root"); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestRunContainerRefusesAnImageTheLabDoesNotHave(t *testing.T) {
	err := runContainer(`{"name":"c","command":["cluster-kube-apiserver-operator","installer"],"root":"/nonexistent"}`)
	if err == nil {
		t.Fatal("no error")
	}
	if err := runContainer(`{"name":`); err == nil {
		t.Fatal("a malformed spec: no error")
	}
}
