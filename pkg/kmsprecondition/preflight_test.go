package kmsprecondition

import (
	"context"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/encryption/controllers"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
)

// TestKMSConfigHashIsLibraryGos runs library-go's own key controller on a Vault KMS configuration: it asks for a
// preflight of the configuration's hash (status.encryptionStatus.preflight.observedConfigHash) and, once the
// preflight succeeded for it, makes the key. KMSConfigHash of that key secret must be that very hash, or no
// preflight would ever be bound to a key.
func TestKMSConfigHashIsLibraryGos(t *testing.T) {
	for _, withCA := range []bool{true, false} {
		t.Run(map[bool]string{true: "with a CA bundle", false: "without a CA bundle"}[withCA], func(t *testing.T) {
			ctx := context.Background()
			vault := configv1.VaultKMSPluginConfig{
				VaultAddress: "https://vault.example.com:8200", VaultNamespace: "ocp", VaultKeyPath: "transit/keys/cluster",
				Authentication: configv1.VaultAuthentication{Type: configv1.VaultAuthenticationTypeAppRole,
					AppRole: configv1.VaultAppRoleAuthentication{Secret: configv1.VaultSecretReference{Name: "vault-approle"}}},
			}
			kube := fake.NewClientset(&corev1.Secret{
				ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-config", Name: "vault-approle"},
				Data:       map[string][]byte{"role-id": []byte("the-role"), "secret-id": []byte("the-secret"), "unused": []byte("x")},
			})
			if withCA {
				vault.TLS.CABundle.Name = "vault-ca"
				if _, err := kube.CoreV1().ConfigMaps("openshift-config").Create(ctx, &corev1.ConfigMap{
					ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-config", Name: "vault-ca"},
					Data:       map[string]string{"ca-bundle.crt": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"},
				}, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			config := configfake.NewClientset(&configv1.APIServer{
				ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
				Spec: configv1.APIServerSpec{Encryption: configv1.APIServerEncryption{Type: configv1.EncryptionTypeKMS,
					KMS: configv1.KMSPluginConfig{Type: configv1.VaultKMSProvider, Vault: vault}}},
			})
			status := &recordingStatus{}
			operator := v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}, &operatorv1.OperatorStatus{}, nil)
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
			const component = "openshift-kube-apiserver"
			keyController := controllers.NewKeyController(component, nil, secretsProvider{}, nothingDeployed{},
				func() (bool, error) { return true, nil }, operator, config.ConfigV1().APIServers(),
				configinformers.NewSharedInformerFactory(config, 0).Config().V1().APIServers(),
				v1helpers.NewKubeInformersForNamespaces(kube, encryptionconfig.ManagedNamespace), kube.CoreV1(), kube.CoreV1(),
				metav1.ListOptions{LabelSelector: secrets.EncryptionKeySecretsLabel + "=" + component}, recorder, status)

			// First sync: library-go asks for the preflight of the configuration's hash and waits.
			if err := keyController.Sync(ctx, factory.NewSyncContext("test", recorder)); err != nil {
				t.Fatal(err)
			}
			observed := status.current.Preflight.ObservedConfigHash
			if observed == "" {
				t.Fatal("library-go's key controller asked for no preflight")
			}
			// What a preflight pod runs its plugin from: the key library-go makes next, computed before it exists.
			computed, err := PreflightConfiguration(component, secretsProvider{}.EncryptedGRs(), config.ConfigV1().APIServers(), kube.CoreV1(), kube.CoreV1(), status).
				ComputeEncryptionConfiguration(ctx)
			if err != nil {
				t.Fatalf("PreflightConfiguration: %v", err)
			}

			// The preflight succeeds for it; the second sync makes the key.
			status.current.Preflight.Result = operatorv1.KMSPreflightResult{Status: operatorv1.KMSPreflightResultSucceeded, ConfigHash: observed, RemoteKeyID: "kek-a"}
			if err := keyController.Sync(ctx, factory.NewSyncContext("test", recorder)); err != nil {
				t.Fatal(err)
			}
			keySecret, err := kube.CoreV1().Secrets(encryptionconfig.ManagedNamespace).Get(ctx, "encryption-key-"+component+"-1", metav1.GetOptions{})
			if err != nil {
				t.Fatalf("library-go made no key: %v", err)
			}
			keyState, err := secrets.ToKeyState(keySecret)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := KMSConfigHash(keyState); err != nil || got != observed {
				t.Errorf("KMSConfigHash = %q, %v; library-go's hash is %q", got, err, observed)
			}

			// The preflight ran the plugin the key's revision will run.
			assertPreflightRunsKey(t, computed, keyState)

			// And the reader binds the result to the key.
			evidence, err := PreflightFromStatus(status, secretLister(t, keySecret), component).PreflightOf(ctx, "1")
			if err != nil || evidence.Outcome != PreflightSucceeded {
				t.Errorf("PreflightOf(1) = %+v, %v; want %s", evidence, err, PreflightSucceeded)
			}
		})
	}
}

// recordingStatus is an operator's encryption status in memory, written by library-go's key controller.
type recordingStatus struct {
	current operatorv1.KMSEncryptionStatus
}

func (s *recordingStatus) GetKMSEncryptionStatus(context.Context) (*operatorv1.KMSEncryptionStatus, error) {
	c := s.current
	return &c, nil
}

func (s *recordingStatus) ApplyKMSEncryptionStatus(context.Context, string, *applyoperatorv1.KMSEncryptionStatusApplyConfiguration) error {
	return nil
}

func (s *recordingStatus) UpdateKMSEncryptionStatus(_ context.Context, update func(*operatorv1.KMSEncryptionStatus)) error {
	update(&s.current)
	return nil
}

// secretsProvider encrypts secrets and always lets library-go's controllers run.
type secretsProvider struct{}

func (secretsProvider) EncryptedGRs() []schema.GroupResource {
	return []schema.GroupResource{{Resource: "secrets"}}
}
func (secretsProvider) ShouldRunEncryptionControllers() (bool, error) { return true, nil }

// nothingDeployed is a library-go deployer of an operand that runs no encryption config yet, converged.
type nothingDeployed struct{}

func (nothingDeployed) DeployedEncryptionConfigSecret(context.Context) (*corev1.Secret, bool, error) {
	return nil, true, nil
}

func (nothingDeployed) AddEventHandler(cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	return nil, nil
}
func (nothingDeployed) HasSynced() bool { return true }
