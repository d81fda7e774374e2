package kmsguard

import (
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	configv1listers "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/resourcesynccontroller"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
)

// TestHoldEncryptionConfigSync runs library-go's resource sync of the encryption config, registered as
// encryption.NewControllers registers it and then held by kmsguard: a KMS change the gate refuses stays in
// openshift-config-managed, so encryption-config keeps the deployed config and the revision controller's
// Precondition lets revisions of other changes through; a change the gate admits is copied.
func TestHoldEncryptionConfigSync(t *testing.T) {
	ec := encryptionconfigtest.Marshal
	deployed := ec(t, encryptionconfigtest.Secrets(encryptionconfigtest.Identity(), encryptionconfigtest.KMS("1")))
	scenarios := []struct {
		name string
		// managed is what library-go's state controller wrote.
		managed      *apiserverv1.EncryptionConfiguration
		wantCopied   bool
		wantReason   kmsprecondition.Reason
		wantDegraded operatorv1.ConditionStatus
	}{
		{
			name:         "a refused KMS change stays out of encryption-config",
			managed:      encryptionconfigtest.Secrets(encryptionconfigtest.KMS("2"), encryptionconfigtest.Identity(), encryptionconfigtest.KMS("1")),
			wantReason:   kmsprecondition.ReasonNewKMSKeyWrites,
			wantDegraded: operatorv1.ConditionTrue,
		},
		{
			name:         "a change the gate does not judge is copied",
			managed:      encryptionconfigtest.WithConfigMaps(encryptionconfigtest.Secrets(encryptionconfigtest.Identity(), encryptionconfigtest.KMS("1")), encryptionconfigtest.AESCBC("1", encryptionconfigtest.AESKeyA), encryptionconfigtest.Identity()),
			wantCopied:   true,
			wantReason:   kmsprecondition.ReasonAsExpected,
			wantDegraded: operatorv1.ConditionFalse,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			ctx := t.Context()
			managed := ec(t, s.managed)
			f := newFixture(t, &operatorv1.StaticPodOperatorStatus{OperatorStatus: operatorv1.OperatorStatus{LatestAvailableRevision: 1}},
				encryptionConfig(operandNamespace, "encryption-config-1", deployed),
				encryptionConfig(operandNamespace, "encryption-config", deployed),
				encryptionConfig(managedNamespace, managedConfigName(operandNamespace), managed),
			)
			addAPIServer(t, f, configv1.EncryptionTypeKMS)
			guard, err := NewStaticPodControllers(f.opts)
			if err != nil {
				t.Fatal(err)
			}
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(metav1.Now().Time))
			syncer := resourcesynccontroller.NewResourceSyncController("kube-apiserver", f.operator, f.opts.KubeInformers, f.kube.CoreV1(), f.kube.CoreV1(), recorder)
			// As encryption.NewControllers registers it (its own precondition passes once encryption was enabled).
			if err := syncer.SyncSecretConditionally(
				resourcesynccontroller.ResourceLocation{Namespace: operandNamespace, Name: "encryption-config"},
				resourcesynccontroller.ResourceLocation{Namespace: managedNamespace, Name: managedConfigName(operandNamespace)},
				func() (bool, error) { return true, nil }); err != nil {
				t.Fatal(err)
			}
			if err := guard.HoldEncryptionConfigSync(syncer); err != nil {
				t.Fatal(err)
			}
			f.opts.KubeInformers.Start(ctx.Done())
			for ns := range f.opts.KubeInformers.Namespaces() {
				f.opts.KubeInformers.InformersFor(ns).WaitForCacheSync(ctx.Done())
			}

			if err := syncer.Sync(ctx, factory.NewSyncContext("test", recorder)); err != nil {
				t.Fatal(err)
			}
			candidate, err := f.kube.CoreV1().Secrets(operandNamespace).Get(ctx, "encryption-config", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			copied := string(candidate.Data["encryption-config"]) == string(managed)
			if copied != s.wantCopied {
				t.Errorf("encryption-config copied = %v, want %v", copied, s.wantCopied)
			}
			_, status, _, _ := f.operator.GetOperatorState()
			progressing := v1helpers.FindOperatorCondition(status.Conditions, kmsprecondition.ConditionProgressing)
			degraded := v1helpers.FindOperatorCondition(status.Conditions, kmsprecondition.ConditionDegraded)
			if progressing == nil || progressing.Reason != string(s.wantReason) || degraded == nil || degraded.Status != s.wantDegraded {
				t.Errorf("gate conditions %+v / %+v, want reason %s, Degraded %s", progressing, degraded, s.wantReason, s.wantDegraded)
			}
			// The revision controller's Precondition judges what encryption-config holds: a revision of any other
			// change may be made, whatever the sync holds back.
			if allowed, err := guard.Precondition(ctx); err != nil || !allowed {
				t.Errorf("Precondition = %v, %v; want true: encryption-config holds no refused change", allowed, err)
			}
		})
	}
}

// TestHoldEncryptionConfigSyncFeatureGateOff: with the gate off, library-go's own registration stays.
func TestHoldEncryptionConfigSyncFeatureGateOff(t *testing.T) {
	f := newFixture(t, &operatorv1.StaticPodOperatorStatus{})
	f.opts.KMSEncryptionEnabled = false
	guard, err := NewStaticPodControllers(f.opts)
	if err != nil {
		t.Fatal(err)
	}
	if guard.configSync != nil {
		t.Fatal("the disabled controllers would replace library-go's sync rule")
	}
	// A nil syncer would panic if it were used.
	if err := guard.HoldEncryptionConfigSync(nil); err != nil {
		t.Fatal(err)
	}
}

// TestEncryptionEnabled is library-go's precondition of the encryption config sync, case by case.
func TestEncryptionEnabled(t *testing.T) {
	keySecret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: managedNamespace, Name: "encryption-key-" + operandNamespace + "-1",
		Labels: map[string]string{secrets.EncryptionKeySecretsLabel: operandNamespace}}}
	otherKey := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: managedNamespace, Name: "encryption-key-openshift-oauth-apiserver-1",
		Labels: map[string]string{secrets.EncryptionKeySecretsLabel: "openshift-oauth-apiserver"}}}
	managed := encryptionConfig(managedNamespace, managedConfigName(operandNamespace), []byte("x")).(*corev1.Secret)
	scenarios := []struct {
		name      string
		apiServer *configv1.EncryptionType // nil: no APIServer "cluster"
		secrets   []*corev1.Secret
		want      bool
	}{
		{name: "no APIServer", want: false},
		{name: "never encrypted", apiServer: ptr(configv1.EncryptionType("")), want: false},
		{name: "identity, nothing made", apiServer: ptr(configv1.EncryptionTypeIdentity), secrets: []*corev1.Secret{otherKey}, want: false},
		{name: "KMS set", apiServer: ptr(configv1.EncryptionTypeKMS), want: true},
		{name: "back to identity with the managed config", apiServer: ptr(configv1.EncryptionTypeIdentity), secrets: []*corev1.Secret{managed}, want: true},
		{name: "back to identity with a key of the component", apiServer: ptr(configv1.EncryptionTypeIdentity), secrets: []*corev1.Secret{keySecret}, want: true},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			apiServers := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
			if s.apiServer != nil {
				if err := apiServers.Add(&configv1.APIServer{ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
					Spec: configv1.APIServerSpec{Encryption: configv1.APIServerEncryption{Type: *s.apiServer}}}); err != nil {
					t.Fatal(err)
				}
			}
			secretIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
			for _, secret := range s.secrets {
				if err := secretIndexer.Add(secret); err != nil {
					t.Fatal(err)
				}
			}
			got, err := encryptionEnabled{
				component: operandNamespace,
				apiServer: configv1listers.NewAPIServerLister(apiServers),
				managed:   corev1listers.NewSecretLister(secretIndexer).Secrets(managedNamespace),
			}.wasEnabled()
			if err != nil || got != s.want {
				t.Errorf("wasEnabled = %v, %v; want %v", got, err, s.want)
			}
		})
	}
}

func encryptionConfig(namespace, name string, data []byte) runtime.Object {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: map[string][]byte{"encryption-config": data}}
}

// addAPIServer puts the APIServer "cluster" with the encryption type into the fixture's informer.
func addAPIServer(t *testing.T, f *fixture, encryption configv1.EncryptionType) {
	t.Helper()
	if err := f.opts.APIServerInformer.Informer().GetIndexer().Add(&configv1.APIServer{ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Spec: configv1.APIServerSpec{Encryption: configv1.APIServerEncryption{Type: encryption}}}); err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }
