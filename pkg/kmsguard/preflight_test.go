package kmsguard

import (
	"context"
	"slices"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	encryptioncontrollers "github.com/openshift/library-go/pkg/operator/encryption/controllers"
	kmspreflight "github.com/openshift/library-go/pkg/operator/encryption/kms/preflight"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
)

// TestKMSPreflight: with StubPreflight the operator gets what it wires today (library-go's always-succeed deployer)
// and the gate admits unverified keys; with Preflight, library-go's pod deployer, whose pod runs the operator's
// checker on the configuration kmsguard computes, as a static pod's plugins run, the reporter of its failures, and
// the gate blocks unverified keys; an explicit policy wins either way.
func TestKMSPreflight(t *testing.T) {
	vault := configv1.KMSPluginConfig{Type: configv1.VaultKMSProvider, Vault: configv1.VaultKMSPluginConfig{
		VaultAddress: "https://vault.example.com:8200", VaultKeyPath: "transit/keys/cluster",
		Authentication: configv1.VaultAuthentication{Type: configv1.VaultAuthenticationTypeAppRole,
			AppRole: configv1.VaultAppRoleAuthentication{Secret: configv1.VaultSecretReference{Name: "vault-approle"}}}}}
	approle := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-config", Name: "vault-approle"},
		Data: map[string][]byte{"role-id": []byte("r"), "secret-id": []byte("s")}}
	command := []string{"cluster-kube-apiserver-operator", "kms-preflight"}

	for _, s := range []struct {
		name       string
		preflight  bool
		policy     kmsprecondition.UnverifiedReadKeyPolicy
		wantPolicy kmsprecondition.UnverifiedReadKeyPolicy
	}{
		{name: "what the operators wire", wantPolicy: kmsprecondition.AdmitUnverifiedReadKeys},
		{name: "what the operators wire, blocking", policy: kmsprecondition.BlockUnverifiedReadKeys, wantPolicy: kmsprecondition.BlockUnverifiedReadKeys},
		{name: "library-go's pod preflight", preflight: true, wantPolicy: kmsprecondition.BlockUnverifiedReadKeys},
		{name: "library-go's pod preflight, admitting", preflight: true, policy: kmsprecondition.AdmitUnverifiedReadKeys, wantPolicy: kmsprecondition.AdmitUnverifiedReadKeys},
	} {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t, &operatorv1.StaticPodOperatorStatus{}, approle)
			config := configfake.NewClientset(&configv1.APIServer{ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
				Spec: configv1.APIServerSpec{Encryption: configv1.APIServerEncryption{Type: configv1.EncryptionTypeKMS, KMS: vault}}})
			// What library-go's key controller wrote before it asked for the preflight: the configuration's hash.
			askedHash := configHash(t, vault, approle)
			f.opts.StatusProvider = encryptionstatus.NewKubeAPIServer(operatorfake.NewClientset(&operatorv1.KubeAPIServer{
				ObjectMeta: metav1.ObjectMeta{Name: encryptionstatus.Name},
				Status: operatorv1.KubeAPIServerStatus{EncryptionStatus: operatorv1.KMSEncryptionStatus{
					Preflight: operatorv1.KMSPreflightCheck{ObservedConfigHash: askedHash}}},
			}).OperatorV1().KubeAPIServers())
			f.opts.UnverifiedKMSReadKeys = s.policy
			if s.preflight {
				f.opts.StubPreflight = false
				f.opts.Preflight = &PreflightOptions{Image: "operator-image", Command: command, APIServers: config.ConfigV1()}
			}
			c := &Controllers{}
			got, err := c.addPreflight(f.opts.Options, topology{operator: f.operator, staticPodPreflight: true})
			if err != nil {
				t.Fatal(err)
			}
			if got != s.wantPolicy {
				t.Errorf("the gate's policy is %q, want %q", got, s.wantPolicy)
			}
			reporters := 0
			for _, r := range c.runners {
				if _, ok := r.(*kmsprecondition.PreflightReporter); ok {
					reporters++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[s.preflight]; reporters != want {
				t.Errorf("%d preflight reporters run, want %d", reporters, want)
			}
			if !s.preflight {
				if _, ok := c.PreflightDeployer.(*kmspreflight.AlwaysSucceedKMSPreflightDeployer); !ok {
					t.Errorf("PreflightDeployer is %T, want library-go's always-succeed deployer", c.PreflightDeployer)
				}
				if _, ok := c.PreflightConfiguration.(encryptioncontrollers.NoopEncryptionConfigurationComputer); !ok {
					t.Errorf("PreflightConfiguration is %T, want library-go's placeholder", c.PreflightConfiguration)
				}
				return
			}
			// What library-go's preflight controller does once the key controller asked for the configuration's hash.
			computed, err := c.PreflightConfiguration.ComputeEncryptionConfiguration(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if err := c.PreflightDeployer.Deploy(context.Background(), askedHash, computed); err != nil {
				t.Fatal(err)
			}
			pod, err := f.kube.CoreV1().Pods(operandNamespace).Get(context.Background(), kmspreflight.PodName, metav1.GetOptions{})
			if err != nil {
				t.Fatalf("no preflight pod in the operand namespace: %v", err)
			}
			checker := pod.Spec.Containers[0]
			if checker.Image != "operator-image" || !slices.Equal(checker.Command, command) || !pod.Spec.HostNetwork {
				t.Errorf("checker %s %q, host network %v; want the operator's image and command, as a static pod", checker.Image, checker.Command, pod.Spec.HostNetwork)
			}
			if !slices.ContainsFunc(checker.Args, func(a string) bool { return strings.HasPrefix(a, "--kms-sockets=unix:///var/run/kmsplugin/kms-1.sock") }) ||
				!slices.Contains(checker.Args, "--kms-call-timeout=10s") {
				t.Errorf("checker arguments %q: want key 1's socket and a 10s call timeout", checker.Args)
			}
			if len(pod.Spec.InitContainers) != 1 || !strings.HasPrefix(pod.Spec.InitContainers[0].Name, "vault-kms-plugin-") {
				t.Errorf("init containers %v, want the Vault plugin sidecar", pod.Spec.InitContainers)
			}
		})
	}
}

func TestKMSPreflightNamesMissingOptions(t *testing.T) {
	f := newFixture(t, &operatorv1.StaticPodOperatorStatus{})
	f.opts.StubPreflight = false
	f.opts.Preflight = &PreflightOptions{}
	_, err := NewStaticPodControllers(f.opts)
	for _, name := range []string{"Preflight.Image", "Preflight.Command", "Preflight.APIServers"} {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("error %v does not name %s", err, name)
		}
	}
}

// TestKMSPreflightIsChosen: the real preflight is the default, so the operator names the stub to get it, and cannot
// ask for both.
func TestKMSPreflightIsChosen(t *testing.T) {
	f := newFixture(t, &operatorv1.StaticPodOperatorStatus{})
	f.opts.StubPreflight = false
	if _, err := NewStaticPodControllers(f.opts); err == nil || !strings.Contains(err.Error(), "missing Preflight (or StubPreflight)") {
		t.Errorf("without a preflight: %v, want Preflight named as missing", err)
	}
	f.opts.StubPreflight = true
	f.opts.Preflight = &PreflightOptions{Image: "operator-image", Command: []string{"kms-preflight"}, APIServers: configfake.NewClientset().ConfigV1()}
	if _, err := NewStaticPodControllers(f.opts); err == nil || !strings.Contains(err.Error(), "Preflight and StubPreflight exclude each other") {
		t.Errorf("with both: %v", err)
	}
}

// configHash is the hash library-go's key controller asks the preflight of plugin for.
func configHash(t *testing.T, plugin configv1.KMSPluginConfig, approle *corev1.Secret) string {
	t.Helper()
	key := state.KeyState{Key: apiserverv1.Key{Name: "1"}, KMS: &state.KMSState{Plugin: plugin}}
	for _, k := range []string{"role-id", "secret-id"} {
		if err := key.KMS.PluginSecretData.Set(approle.Name, k, approle.Data[k]); err != nil {
			t.Fatal(err)
		}
	}
	hash, err := kmsprecondition.KMSConfigHash(key)
	if err != nil {
		t.Fatal(err)
	}
	return hash
}
