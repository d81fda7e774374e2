package lab

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"github.com/openshift/library-go/pkg/operator/resource/resourceread"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/kubernetes/fake"

	kmsfake "github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
)

// vaultKey is a KMS key as library-go's key controller makes it for the lab's APIServer resource: a Vault plugin at
// address with the AppRole credentials roleID and secretID.
func vaultKey(t *testing.T, keyID, address, roleID, secretID string) state.KeyState {
	t.Helper()
	key := state.KeyState{
		Key:  apiserverv1.Key{Name: keyID},
		Mode: state.KMS,
		KMS: &state.KMSState{
			Encryption: &apiserverv1.KMSConfiguration{APIVersion: "v2", Endpoint: "unix:///var/run/kmsplugin/kms-" + keyID + ".sock", Timeout: &metav1.Duration{Duration: 10 * time.Second}},
			Plugin: configv1.KMSPluginConfig{Type: configv1.VaultKMSProvider, Vault: configv1.VaultKMSPluginConfig{
				KMSPluginImage: "quay.io/kmsguard/lab-fake-kms-plugin@sha256:0000000000000000000000000000000000000000000000000000000000000000",
				VaultAddress:   address,
				VaultKeyPath:   "transit/keys/kmsguard-lab",
				Authentication: configv1.VaultAuthentication{Type: configv1.VaultAuthenticationTypeAppRole,
					AppRole: configv1.VaultAppRoleAuthentication{Secret: configv1.VaultSecretReference{Name: vaultAppRoleSecret}}},
			}},
		},
	}
	for dataKey, value := range map[string]string{"role-id": roleID, "secret-id": secretID} {
		if err := key.KMS.PluginSecretData.Set(vaultAppRoleSecret, dataKey, []byte(value)); err != nil {
			t.Fatal(err)
		}
	}
	return key
}

// encryptionConfigSecret is an encryption-config Secret as library-go's state controller writes it, with keys as
// the read keys of Secrets, the first the write key.
func encryptionConfigSecret(t *testing.T, name string, keys ...state.KeyState) *corev1.Secret {
	t.Helper()
	config, err := encryptiondata.FromEncryptionState(map[schema.GroupResource]state.GroupResourceState{
		{Resource: "secrets"}: {WriteKey: keys[0], ReadKeys: keys},
	})
	if err != nil {
		t.Fatal(err)
	}
	secret, err := encryptiondata.ToSecret(TargetNamespace, name, config)
	if err != nil {
		t.Fatal(err)
	}
	return secret
}

// TestTargetPodCarriesLibraryGosSidecars: the lab's manifest is what library-go's builder makes of the candidate
// config, and sidecarsOf reads back what a kubelet would run from it.
func TestTargetPodCarriesLibraryGosSidecars(t *testing.T) {
	ctx := context.Background()
	kube := fake.NewSimpleClientset(encryptionConfigSecret(t, encryptiondata.EncryptionConfSecretName,
		vaultKey(t, "2", SimulatedKMSAddress, labVaultRoleID, labVaultSecretID), vaultKey(t, "1", SimulatedKMSAddress, labVaultRoleID, labVaultSecretID)))
	pod, err := targetPod(ctx, kube.CoreV1(), kmsFeatureGates())
	if err != nil {
		t.Fatal(err)
	}
	got, err := sidecarsOf(pod)
	if err != nil {
		t.Fatal(err)
	}
	var listens []string
	for _, p := range got.Plugins {
		listens = append(listens, p.Listen)
		if p.VaultAddress != SimulatedKMSAddress || p.RoleID != labVaultRoleID || !strings.HasPrefix(p.SecretIDPath, staticPodResourcesPath+"/secrets/encryption-config/") {
			t.Errorf("sidecar %+v: want the lab Vault, its role id and a secret id file in the pod's encryption-config", p)
		}
	}
	// library-go orders them newest key first.
	want := []string{"unix:///var/run/kmsplugin/kms-2.sock", "unix:///var/run/kmsplugin/kms-1.sock"}
	if diff := cmp.Diff(want, listens); diff != "" {
		t.Errorf("plugin sockets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, got.ReporterSockets); diff != "" {
		t.Errorf("reporter sockets (-want +got):\n%s", diff)
	}

	// No candidate config: no sidecars, as before encryption is on.
	pod, err = targetPod(ctx, fake.NewSimpleClientset().CoreV1(), kmsFeatureGates())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := sidecarsOf(pod); err != nil || len(got.Plugins) != 0 || got.ReporterSockets != nil {
		t.Errorf("without a config: %+v, %v; want no sidecars", got, err)
	}
}

func TestSidecarsOfRefusesAPluginWithoutSocket(t *testing.T) {
	pod := podManifest()
	pod.Spec.InitContainers = []corev1.Container{{Name: vaultPluginPrefix + "1", Args: []string{"-vault-address=" + SimulatedKMSAddress}}}
	if _, err := sidecarsOf(pod); err == nil || !strings.Contains(err.Error(), "no -listen-address") {
		t.Errorf("sidecarsOf = %v, want an error naming the missing -listen-address", err)
	}
}

// TestKMSRevisionReadinessCheck: a revision is ready only when its manifest has the sidecars its own config needs,
// as kube-apiserver-operator's check says.
func TestKMSRevisionReadinessCheck(t *testing.T) {
	ctx := context.Background()
	key1 := vaultKey(t, "1", SimulatedKMSAddress, labVaultRoleID, labVaultSecretID)
	key2 := vaultKey(t, "2", SimulatedKMSAddress, labVaultRoleID, labVaultSecretID)
	manifestFor := func(keys ...state.KeyState) *corev1.ConfigMap {
		pod, err := targetPod(ctx, fake.NewSimpleClientset(encryptionConfigSecret(t, encryptiondata.EncryptionConfSecretName, keys...)).CoreV1(), kmsFeatureGates())
		if err != nil {
			t.Fatal(err)
		}
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: TargetNamespace, Name: podConfigMapName + "-3"},
			Data: map[string]string{podManifestKey: resourceread.WritePodV1OrDie(pod)}}
	}
	scenarios := []struct {
		name     string
		manifest *corev1.ConfigMap
		want     bool
	}{
		{name: "the manifest has the revision's sidecars", manifest: manifestFor(key2, key1), want: true},
		{name: "the manifest lacks the new key's sidecar", manifest: manifestFor(key1), want: false},
		{name: "the manifest has a sidecar the revision does not need", manifest: manifestFor(key2, key1, vaultKey(t, "3", SimulatedKMSAddress, labVaultRoleID, labVaultSecretID)), want: false},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kube := fake.NewSimpleClientset([]runtime.Object{s.manifest, encryptionConfigSecret(t, encryptiondata.EncryptionConfSecretName+"-3", key2, key1)}...)
			ready, err := kmsRevisionReadinessCheck(kube)(ctx, 3)
			if err != nil || ready != s.want {
				t.Errorf("ready = %v, %v; want %v", ready, err, s.want)
			}
		})
	}
}

// TestSidecarPluginIsConfiguredByItsArguments: the plugin a sidecar becomes reaches the KMS only with the lab
// Vault's address and credentials, read from the files the sidecar names; without its credentials file it does
// not start.
func TestSidecarPluginIsConfiguredByItsArguments(t *testing.T) {
	scenarios := []struct {
		name       string
		key        state.KeyState
		removeFile bool
		wantStart  string     // error the start gives, "" if it starts
		wantCode   codes.Code // of Status, codes.OK if healthy
	}{
		{name: "the lab's Vault and credentials", key: vaultKey(t, "1", SimulatedKMSAddress, labVaultRoleID, labVaultSecretID), wantCode: codes.OK},
		{name: "a Vault address with a typo", key: vaultKey(t, "1", UnreachableKMSAddress, labVaultRoleID, labVaultSecretID), wantCode: codes.Unavailable},
		{name: "a wrong secret id", key: vaultKey(t, "1", SimulatedKMSAddress, labVaultRoleID, "rotated-secret"), wantCode: codes.PermissionDenied},
		{name: "a wrong role id", key: vaultKey(t, "1", SimulatedKMSAddress, "other-role", labVaultSecretID), wantCode: codes.PermissionDenied},
		{name: "the credentials file is missing", key: vaultKey(t, "1", SimulatedKMSAddress, labVaultRoleID, labVaultSecretID), removeFile: true, wantStart: "reading the AppRole secret id"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			ctx := context.Background()
			dir, err := os.MkdirTemp("", "lab-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.RemoveAll(dir) })
			secret := encryptionConfigSecret(t, encryptiondata.EncryptionConfSecretName, s.key)
			pod, err := targetPod(ctx, fake.NewSimpleClientset(secret).CoreV1(), kmsFeatureGates())
			if err != nil {
				t.Fatal(err)
			}
			sidecars, err := sidecarsOf(pod)
			if err != nil || len(sidecars.Plugins) != 1 {
				t.Fatalf("sidecars %+v, %v; want one plugin", sidecars, err)
			}
			// What the installer writes: every key of the Secret, in the revision's directory.
			paths := podPaths{socketDir: filepath.Join(dir, "s"), resourceDir: filepath.Join(dir, "r")}
			secretDir := filepath.Join(paths.resourceDir, "secrets", encryptiondata.EncryptionConfSecretName)
			if err := os.MkdirAll(secretDir, 0o700); err != nil {
				t.Fatal(err)
			}
			for k, v := range secret.Data {
				if err := os.WriteFile(filepath.Join(secretDir, k), v, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if s.removeFile {
				file, err := paths.resource(sidecars.Plugins[0].SecretIDPath)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Remove(file); err != nil {
					t.Fatal(err)
				}
			}
			n := &Node{name: "master-0", kms: kmsfake.NewKMS(), logf: t.Logf}
			run := &podRun{paths: paths, sidecars: sidecars, plugins: map[string]*kmsfake.Plugin{}}
			err = n.startPlugins(run)
			t.Cleanup(run.stopSidecars)
			if s.wantStart != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantStart) {
					t.Fatalf("start = %v, want an error containing %q", err, s.wantStart)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := run.plugins["1"]; !ok || len(run.plugins) != 1 {
				t.Errorf("plugins by key id %v, want the plugin of key 1 only", slices.Sorted(maps.Keys(run.plugins)))
			}
			plugin, err := pluginprobe.NewGRPCPlugin(ctx, "1", "unix://"+filepath.Join(paths.socketDir, "kms-1.sock"), 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			_, err = plugin.Service.Status(ctx)
			if got := status.Code(err); got != s.wantCode {
				t.Errorf("Status: %v (code %s), want code %s", err, got, s.wantCode)
			}
		})
	}
}

func TestPodPathsStayInThePod(t *testing.T) {
	paths := podPaths{socketDir: "/lab/pods/1", resourceDir: "/lab/resources/kube-apiserver-pod-3"}
	for _, endpoint := range []string{"unix:///var/run/other/kms-1.sock", "unix:///var/run/kmsplugin/", "unix:///var/run/kmsplugin/a/kms-1.sock", "/var/run/kmsplugin/kms-1.sock"} {
		if got, err := paths.socket(endpoint); err == nil {
			t.Errorf("socket(%q) = %q, want an error", endpoint, got)
		}
	}
	if got, err := paths.socket("unix:///var/run/kmsplugin/kms-12.sock"); err != nil || got != "/lab/pods/1/kms-12.sock" {
		t.Errorf("socket = %q, %v", got, err)
	}
	for _, path := range []string{"/etc/kubernetes/static-pod-resources/../../etc/passwd", "/etc/passwd", "/etc/kubernetes/static-pod-resources/"} {
		if got, err := paths.resource(path); err == nil {
			t.Errorf("resource(%q) = %q, want an error", path, got)
		}
	}
	if got, err := paths.resource("/etc/kubernetes/static-pod-resources/secrets/encryption-config/x"); err != nil || got != "/lab/resources/kube-apiserver-pod-3/secrets/encryption-config/x" {
		t.Errorf("resource = %q, %v", got, err)
	}
}

func TestCrashLoopBackOffIsTheKubelets(t *testing.T) {
	want := []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second, 160 * time.Second, 5 * time.Minute, 5 * time.Minute}
	for i, w := range want {
		if got := crashLoopBackOff(int32(i + 1)); got != w {
			t.Errorf("after %d restarts: %s, want %s", i+1, got, w)
		}
	}
}
