package fake_test

import (
	"bytes"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	kmsapi "k8s.io/kms/apis/v2"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
)

func TestKMSRotate(t *testing.T) {
	kms := fake.NewKMS()
	_, client := startPlugin(t, kms)
	oldKeyID := kms.CurrentKEKID()
	old := mustEncrypt(t, client, []byte("written before rotation"))

	newKeyID := kms.Rotate()
	if newKeyID == oldKeyID {
		t.Fatalf("Rotate returned the old key id %q", oldKeyID)
	}
	if got := kms.CurrentKEKID(); got != newKeyID {
		t.Errorf("CurrentKEKID() = %q, want %q", got, newKeyID)
	}
	if got := mustStatus(t, client).KeyId; got != newKeyID {
		t.Errorf("Status key id = %q, want %q", got, newKeyID)
	}
	if got := mustEncrypt(t, client, []byte("written after rotation")).KeyId; got != newKeyID {
		t.Errorf("Encrypt key id = %q, want %q", got, newKeyID)
	}
	plaintext, err := decrypt(t, client, old)
	if err != nil {
		t.Fatalf("Decrypt of data under the old key: %v", err)
	}
	if want := []byte("written before rotation"); !bytes.Equal(plaintext, want) {
		t.Errorf("Decrypt = %q, want %q", plaintext, want)
	}
}

func TestKMSKeyLifecycle(t *testing.T) {
	scenarios := []struct {
		name string
		// change acts on the key that encrypted the test's data, which
		// is still the current key.
		change      func(t *testing.T, kms *fake.KMS, keyID string)
		wantDecrypt codes.Code
		wantEncrypt codes.Code
	}{
		{
			name:        "enabled",
			change:      func(*testing.T, *fake.KMS, string) {},
			wantDecrypt: codes.OK,
			wantEncrypt: codes.OK,
		},
		{
			name:        "disabled",
			change:      mustApply((*fake.KMS).Disable),
			wantDecrypt: codes.FailedPrecondition,
			wantEncrypt: codes.FailedPrecondition,
		},
		{
			name:        "disabled then restored",
			change:      mustApply((*fake.KMS).Disable, (*fake.KMS).Restore),
			wantDecrypt: codes.OK,
			wantEncrypt: codes.OK,
		},
		{
			name:        "destroyed",
			change:      mustApply((*fake.KMS).Destroy),
			wantDecrypt: codes.NotFound,
			wantEncrypt: codes.NotFound,
		},
		{
			name:        "disabled then destroyed",
			change:      mustApply((*fake.KMS).Disable, (*fake.KMS).Destroy),
			wantDecrypt: codes.NotFound,
			wantEncrypt: codes.NotFound,
		},
		{
			name: "destroyed, then restore attempted",
			change: func(t *testing.T, kms *fake.KMS, keyID string) {
				mustApply((*fake.KMS).Destroy)(t, kms, keyID)
				if err := kms.Restore(keyID); status.Code(err) != codes.NotFound {
					t.Errorf("Restore of a destroyed key = %v, want code %v", err, codes.NotFound)
				}
			},
			wantDecrypt: codes.NotFound,
			wantEncrypt: codes.NotFound,
		},
		{
			name: "disabled, then rotated away from",
			change: func(t *testing.T, kms *fake.KMS, keyID string) {
				mustApply((*fake.KMS).Disable)(t, kms, keyID)
				kms.Rotate()
			},
			wantDecrypt: codes.FailedPrecondition,
			// Encrypt uses the new key.
			wantEncrypt: codes.OK,
		},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			kms := fake.NewKMS()
			_, client := startPlugin(t, kms)
			plaintext := []byte("secret data")
			enc := mustEncrypt(t, client, plaintext)

			scenario.change(t, kms, enc.KeyId)

			got, err := decrypt(t, client, enc)
			if status.Code(err) != scenario.wantDecrypt {
				t.Errorf("Decrypt = %v, want code %v", err, scenario.wantDecrypt)
			}
			if err == nil && !bytes.Equal(got, plaintext) {
				t.Errorf("Decrypt = %q, want %q", got, plaintext)
			}
			_, err = client.Encrypt(rpcContext(t), &kmsapi.EncryptRequest{Uid: t.Name(), Plaintext: plaintext})
			if status.Code(err) != scenario.wantEncrypt {
				t.Errorf("Encrypt = %v, want code %v", err, scenario.wantEncrypt)
			}
			// Like real plugins, Status does not probe the key.
			if resp := mustStatus(t, client); resp.Healthz != "ok" || resp.KeyId != kms.CurrentKEKID() {
				t.Errorf("Status = {Healthz: %q, KeyId: %q}, want {Healthz: \"ok\", KeyId: %q}", resp.Healthz, resp.KeyId, kms.CurrentKEKID())
			}
		})
	}
}

func TestKMSSharedByPlugins(t *testing.T) {
	kms := fake.NewKMS()
	_, node0 := startPlugin(t, kms)
	_, node1 := startPlugin(t, kms)

	newKeyID := kms.Rotate()
	for i, client := range []kmsapi.KeyManagementServiceClient{node0, node1} {
		if got := mustStatus(t, client).KeyId; got != newKeyID {
			t.Errorf("node %d: Status key id = %q, want %q", i, got, newKeyID)
		}
	}

	plaintext := []byte("written on node 0")
	enc := mustEncrypt(t, node0, plaintext)
	got, err := decrypt(t, node1, enc)
	if err != nil {
		t.Fatalf("node 1 decrypting node 0's ciphertext: %v", err)
	}
	if !bytes.Equal(got, plaintext) {
		t.Errorf("node 1 Decrypt = %q, want %q", got, plaintext)
	}

	if err := kms.Disable(newKeyID); err != nil {
		t.Fatalf("Disable: %v", err)
	}
	for i, client := range []kmsapi.KeyManagementServiceClient{node0, node1} {
		if _, err := decrypt(t, client, enc); status.Code(err) != codes.FailedPrecondition {
			t.Errorf("node %d: Decrypt under a disabled key = %v, want code %v", i, err, codes.FailedPrecondition)
		}
	}
}

// mustApply returns a change that applies each key operation in turn to a
// key, failing the test if any returns an error.
func mustApply(ops ...func(*fake.KMS, string) error) func(*testing.T, *fake.KMS, string) {
	return func(t *testing.T, kms *fake.KMS, keyID string) {
		t.Helper()
		for _, op := range ops {
			if err := op(kms, keyID); err != nil {
				t.Fatalf("changing key %q: %v", keyID, err)
			}
		}
	}
}
