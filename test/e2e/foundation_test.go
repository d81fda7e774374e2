package e2e

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// TestSecretIsStoredUnderTheKMSKey checks the ground truth every other kmsguard test relies on: with KMS v2
// first in the config, a new Secret is stored behind the provider's prefix with the plugin's key id, its
// plaintext is nowhere in etcd, and the API still returns it.
func TestSecretIsStoredUnderTheKMSKey(t *testing.T) {
	kms := fake.NewKMS()
	plugin := fake.StartForTest(t, kms)
	cp := startKMSControlPlane(t, plugin)
	client := cp.APIServer(0).Client()

	plaintext := "plaintext-that-must-not-reach-etcd-" + uniqueName("v")
	createSecret(t, client, "encrypted", plaintext)

	value, raw := storedValue(t, cp, "encrypted")
	if wantPrefix := "k8s:enc:kms:v2:" + providerName + ":"; !bytes.HasPrefix(raw, []byte(wantPrefix)) {
		t.Errorf("stored value does not start with %q", wantPrefix)
	}
	if value.Kind != etcdvalue.KindKMSv2 || value.Name != providerName || value.KEKID != kms.CurrentKEKID() {
		t.Errorf("stored value is %+v, want kind %s, provider %s, key id %s", value, etcdvalue.KindKMSv2, providerName, kms.CurrentKEKID())
	}
	if bytes.Contains(raw, []byte(plaintext)) {
		t.Error("the Secret's plaintext is in etcd")
	}

	got, err := client.CoreV1().Secrets("default").Get(context.Background(), "encrypted", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Data["value"]) != plaintext {
		t.Errorf("API read returned %q, want %q", got.Data["value"], plaintext)
	}
	if n := plugin.Calls()[fake.MethodEncrypt]; n == 0 {
		t.Error("the plugin was never asked to encrypt")
	}
}

// TestPluginOutageFailsTheKMSHealthCheck: a dead plugin turns /healthz/kms-providers to 500 (after the
// apiserver's 20 s cache of the last healthy answer) while reads keep working from the cached DEK; the plugin
// coming back turns it to 200 again.
func TestPluginOutageFailsTheKMSHealthCheck(t *testing.T) {
	kms := fake.NewKMS()
	plugin := fake.StartForTest(t, kms)
	cp := startKMSControlPlane(t, plugin)
	a := cp.APIServer(0)
	client := a.Client()
	createSecret(t, client, "before-outage", "v1")
	waitForKMSHealth(t, a, http.StatusOK)

	plugin.Stop()
	down := waitForKMSHealth(t, a, http.StatusInternalServerError)
	t.Logf("plugin stopped -> /healthz/kms-providers 500 after %s", down.Round(time.Second))

	// The DEK of the existing Secret was decrypted before the outage and is cached.
	if _, err := client.CoreV1().Secrets("default").Get(context.Background(), "before-outage", metav1.GetOptions{}); err != nil {
		t.Errorf("existing Secret not readable while the plugin is down: %v", err)
	}

	if err := plugin.Start(); err != nil {
		t.Fatal(err)
	}
	up := waitForKMSHealth(t, a, http.StatusOK)
	t.Logf("plugin started -> /healthz/kms-providers 200 after %s", up.Round(time.Second))
	if _, err := client.CoreV1().Secrets("default").Get(context.Background(), "before-outage", metav1.GetOptions{}); err != nil {
		t.Errorf("existing Secret not readable after the plugin came back: %v", err)
	}
}

// TestKeyRotationMakesNoOpUpdatesRewrite is the mechanism kmsmigration relies on: after the KMS key_id changes,
// a no-op update of an object stored under the old key id rewrites it under the new one (new resourceVersion),
// and a no-op update of an object already under the current key id writes nothing.
func TestKeyRotationMakesNoOpUpdatesRewrite(t *testing.T) {
	kms := fake.NewKMS()
	plugin := fake.StartForTest(t, kms)
	cp := startKMSControlPlane(t, plugin)
	a := cp.APIServer(0)
	client := a.Client()
	ctx := context.Background()

	oldKeyID := kms.CurrentKEKID()
	old := createSecret(t, client, "old", "stored-under-the-old-key")
	newKeyID := kms.Rotate()

	// The apiserver learns the new key id from Status: every minute, or sooner when /healthz/kms-providers
	// asks after its 20 s cache expired. Wait until a new write carries it.
	var fresh string
	err := wait.PollUntilContextTimeout(ctx, 2*time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		_, _ = kmsHealth(ctx, a)
		fresh = uniqueName("fresh")
		createSecret(t, client, fresh, "stored-under-the-new-key")
		value, _ := storedValue(t, cp, fresh)
		return value.KEKID == newKeyID, nil
	})
	if err != nil {
		t.Fatalf("new writes never used key id %s: %v", newKeyID, err)
	}

	if value, _ := storedValue(t, cp, "old"); value.KEKID != oldKeyID {
		t.Fatalf("Secret old is stored under %q before its update, want %q", value.KEKID, oldKeyID)
	}
	current, err := client.CoreV1().Secrets("default").Get(ctx, "old", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	updated, err := client.CoreV1().Secrets("default").Update(ctx, current, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if updated.ResourceVersion == old.ResourceVersion {
		t.Errorf("no-op update of a Secret under the old key kept resourceVersion %s: it was not rewritten", old.ResourceVersion)
	}
	if value, _ := storedValue(t, cp, "old"); value.KEKID != newKeyID {
		t.Errorf("after the no-op update Secret old is stored under %q, want %q", value.KEKID, newKeyID)
	}

	current, err = client.CoreV1().Secrets("default").Get(ctx, fresh, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := client.CoreV1().Secrets("default").Update(ctx, current, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.ResourceVersion != current.ResourceVersion {
		t.Errorf("no-op update of a Secret already under the current key changed resourceVersion %s -> %s", current.ResourceVersion, again.ResourceVersion)
	}
}

// TestRestartWithUnusableKMSFailsReadsUntilItRecovers: an apiserver that restarts while the KMS cannot
// decrypt has no DEK cached, so encrypted reads fail with 500; once the KMS is usable again the same read
// works without restarting anything. This is the self-recovery the "KMS down" and "key deleted, later
// restored" user stories demand.
func TestRestartWithUnusableKMSFailsReadsUntilItRecovers(t *testing.T) {
	scenarios := []struct {
		name string
		fail func(t *testing.T, kms *fake.KMS, plugin *fake.Plugin)
		heal func(t *testing.T, kms *fake.KMS, plugin *fake.Plugin)
	}{
		{
			name: "plugin stopped",
			fail: func(t *testing.T, _ *fake.KMS, plugin *fake.Plugin) { plugin.Stop() },
			heal: func(t *testing.T, _ *fake.KMS, plugin *fake.Plugin) {
				if err := plugin.Start(); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name: "key disabled",
			fail: func(t *testing.T, kms *fake.KMS, _ *fake.Plugin) {
				if err := kms.Disable(kms.CurrentKEKID()); err != nil {
					t.Fatal(err)
				}
			},
			heal: func(t *testing.T, kms *fake.KMS, _ *fake.Plugin) {
				if err := kms.Restore(kms.CurrentKEKID()); err != nil {
					t.Fatal(err)
				}
			},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kms := fake.NewKMS()
			plugin := fake.StartForTest(t, kms)
			cp := startKMSControlPlane(t, plugin)
			a := cp.APIServer(0)
			createSecret(t, a.Client(), "precious", "must-survive")

			s.fail(t, kms, plugin)
			restart := kmsenv.APIServerOptions{
				EncryptionConfig: ectest.Secrets(kmsenv.KMSv2Provider(providerName, plugin.Endpoint()), ectest.Identity()),
				// The KMS check fails, so /healthz never passes: wait for /livez as a kubelet would.
				Wait: kmsenv.WaitLive,
			}
			start := time.Now()
			if err := a.Restart(restart); err != nil {
				t.Fatal(err)
			}
			t.Logf("restarted with an unusable KMS: /livez after %s", time.Since(start).Round(time.Second))
			client := a.Client()
			start = time.Now()
			_, err := client.CoreV1().Secrets("default").Get(context.Background(), "precious", metav1.GetOptions{})
			if !apierrors.IsInternalError(err) {
				t.Fatalf("reading an encrypted Secret with an unusable KMS after a restart: want a 500, got %v", err)
			}
			t.Logf("read failed with %q after %s", err, time.Since(start).Round(time.Second))

			s.heal(t, kms, plugin)
			start = time.Now()
			var got string
			err = wait.PollUntilContextTimeout(context.Background(), time.Second, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
				secret, err := client.CoreV1().Secrets("default").Get(ctx, "precious", metav1.GetOptions{})
				if err != nil {
					return false, nil
				}
				got = string(secret.Data["value"])
				return true, nil
			})
			if err != nil {
				t.Fatalf("the Secret never became readable after the KMS recovered: %v", err)
			}
			t.Logf("KMS usable again -> Secret readable after %s", time.Since(start).Round(time.Second))
			if got != "must-survive" {
				t.Errorf("read %q after recovery, want %q", got, "must-survive")
			}
		})
	}
}
