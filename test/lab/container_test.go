package lab

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
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
	pod := &podRun{paths: podPaths{socketDir: "/lab/nodes/master-1/pods/4", resourceDir: "/lab/nodes/master-1/root/etc/kubernetes/static-pod-resources/kube-apiserver-pod-7"}}
	spec, err := containerSpecFor(*sidecars.Reporter, operatorImages("/opt/kube-apiserver-operator"), pod, map[string]string{"spec.nodeName": "master-1"}, "/lab/root")
	if err != nil {
		t.Fatal(err)
	}
	want := containerSpec{
		Name:    healthReporterContainer,
		Command: []string{operatorBinary, "kms-health-reporter"},
		Exec:    "/usr/bin/" + operatorBinary,
		Args: []string{
			"--kms-sockets=unix:///var/run/kmsplugin/kms-2.sock,unix:///var/run/kmsplugin/kms-1.sock",
			"--node-name=master-1",
			"--kubeconfig=" + staticPodResourcesPath + "/" + certSyncerKubeconfig,
		},
		Root: "/lab/root",
		Mounts: []containerMount{
			{Source: "/opt/kube-apiserver-operator", Target: "/usr/bin/" + operatorBinary, ReadOnly: true},
			{Source: pod.paths.socketDir, Target: kmsSocketMountPath, ReadOnly: true},
			{Source: pod.paths.resourceDir, Target: staticPodResourcesPath, ReadOnly: true},
		},
		Env: map[string]string{"NODE_NAME": "master-1", "PATH": imagePath},
	}
	spec.Mounts, spec.Links = volumeMounts(spec), nil // the machine's libraries: TestImageRootHasTheMachinesLibraries
	if diff := cmp.Diff(want, spec); diff != "" {
		t.Errorf("container spec (-want +got):\n%s", diff)
	}
}

// volumeMounts are spec's mounts but the machine's shared libraries.
func volumeMounts(spec containerSpec) []containerMount {
	var mounts []containerMount
	for _, m := range spec.Mounts {
		if !slices.Contains(machineLibraryDirs, m.Target) {
			mounts = append(mounts, m)
		}
	}
	return mounts
}

// TestImageRootHasTheMachinesLibraries: every container's root has the machine's library directories as the machine
// has them (a link where the machine has a link), read-only, so that a dynamically linked executable finds its loader.
func TestImageRootHasTheMachinesLibraries(t *testing.T) {
	_, mounts, links, err := imageRoot(image{"/usr/bin/tool": "/opt/tool"}, []string{"tool"})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, dir := range machineLibraryDirs {
		info, err := os.Lstat(dir)
		if err != nil {
			continue
		}
		seen++
		if info.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(dir)
			if links[dir] != target {
				t.Errorf("%s: link %q, want %q as on the machine", dir, links[dir], target)
			}
			continue
		}
		if !slices.Contains(mounts, containerMount{Source: dir, Target: dir, ReadOnly: true}) {
			t.Errorf("%s: not mounted read-only in %v", dir, mounts)
		}
	}
	if seen == 0 {
		t.Fatalf("the machine has none of %v", machineLibraryDirs)
	}
}

func TestImageRootFindsTheCommandOnTheImagesPath(t *testing.T) {
	img := image{"/usr/bin/tool": "/opt/tool", "/bin/other": "/opt/other"}
	for command, want := range map[string]string{"tool": "/usr/bin/tool", "other": "/bin/other", "/usr/bin/tool": "/usr/bin/tool"} {
		exec, _, _, err := imageRoot(img, []string{command, "arg"})
		if err != nil || exec != want {
			t.Errorf("command %q: %q, %v; want %q", command, exec, err, want)
		}
	}
	for _, command := range [][]string{nil, {"missing"}, {"/usr/local/bin/tool"}} {
		if exec, _, _, err := imageRoot(img, command); err == nil {
			t.Errorf("command %q: %q, want an error", command, exec)
		}
	}
}

func TestContainerSpecRefusesWhatTheLabCannotRun(t *testing.T) {
	pod := &podRun{paths: podPaths{socketDir: "/s", resourceDir: "/r"}}
	images := operatorImages("/opt/operator")
	runnable := corev1.Container{Name: "c", Image: operatorImage, Command: []string{operatorBinary, "kms-preflight"}}
	if _, err := containerSpecFor(runnable, images, pod, map[string]string{"spec.nodeName": "master-0"}, "/root"); err != nil {
		t.Fatalf("a container the lab runs: %v", err)
	}
	for name, change := range map[string]func(c *corev1.Container){
		"an image the lab does not have":           func(c *corev1.Container) { c.Image = "quay.io/elsewhere/tool" },
		"an executable the image does not have":    func(c *corev1.Container) { c.Command = []string{"bash", "-c", "true"} },
		"no command (the image has no entrypoint)": func(c *corev1.Container) { c.Command = nil },
		"a volume the pod does not have": func(c *corev1.Container) {
			c.VolumeMounts = []corev1.VolumeMount{{Name: "etc", MountPath: "/etc/pki"}}
		},
		"an env var from a secret": func(c *corev1.Container) {
			c.Env = []corev1.EnvVar{{Name: "TOKEN", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{Key: "token"}}}}
		},
		"a field other than the node's name": func(c *corev1.Container) {
			c.Env = []corev1.EnvVar{{Name: "IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.podIP"}}}}
		},
	} {
		c := *runnable.DeepCopy()
		change(&c)
		if _, err := containerSpecFor(c, images, pod, map[string]string{"spec.nodeName": "master-0"}, "/root"); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestRunContainerRefusesASpecWithoutACommand(t *testing.T) {
	for name, raw := range map[string]string{
		"no executable": `{"name":"c","command":["cluster-kube-apiserver-operator","installer"],"root":"/nonexistent"}`,
		"no command":    `{"name":"c","exec":"/usr/bin/tool","root":"/nonexistent"}`,
		"malformed":     `{"name":`,
	} {
		if err := runContainer(raw); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestContainerRunsItsImagesExecutable runs containers as the kubelet does: the image's executable (here the
// machine's env and cat, dynamically linked) in a root of the container's own, with its volume, and only its own
// environment; the exit code is the executable's.
func TestContainerRunsItsImagesExecutable(t *testing.T) {
	volume := t.TempDir()
	if err := os.WriteFile(filepath.Join(volume, "greeting"), []byte("hello from the volume\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	img := image{}
	for _, tool := range []string{"env", "cat"} {
		path, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("the machine has no %s: %v", tool, err)
		}
		img["/usr/bin/"+tool] = path
	}
	dir := t.TempDir()
	run := func(name string, command ...string) (int, string) {
		t.Helper()
		executable, mounts, links, err := imageRoot(img, command)
		if err != nil {
			t.Fatal(err)
		}
		spec := containerSpec{Name: name, Command: command, Exec: executable, Root: filepath.Join(dir, name), Links: links,
			Mounts: append(mounts, containerMount{Source: volume, Target: "/data", ReadOnly: true}),
			Env:    map[string]string{"PATH": imagePath, "NODE_NAME": "master-0"}}
		logPath := filepath.Join(dir, name+".log")
		code, err := (&Node{}).runContainerOnce(context.Background(), spec, logPath)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out, err := os.ReadFile(logPath)
		if err != nil {
			t.Fatal(err)
		}
		return code, string(out)
	}

	if code, out := run("cat", "cat", "/data/greeting"); code != 0 || out != "hello from the volume\n" {
		t.Errorf("cat of the volume's file: exit %d, output %q", code, out)
	}
	if code, out := run("cat-missing", "cat", "/etc/hostname"); code == 0 {
		t.Errorf("cat of a machine's file outside the container's root: exit 0, output %q", out)
	}
	code, out := run("env", "env")
	if code != 0 {
		t.Fatalf("env: exit %d, output %q", code, out)
	}
	got := strings.Fields(out)
	slices.Sort(got)
	if want := []string{"NODE_NAME=master-0", "PATH=" + imagePath}; !slices.Equal(got, want) {
		t.Errorf("the container's environment %q, want only its own %q", got, want)
	}
}
