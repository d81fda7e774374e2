package fake

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

const (
	// gcmNonceSize and gcmTagSize are the standard AES-GCM sizes, which
	// define the nonce||ciphertext layout the KMS promises.
	gcmNonceSize = 12
	gcmTagSize   = 16
)

// testMaterial is the key material a test KMS issues for its n-th key (from
// 1). It is printable so that a leak into an error string or a log line
// would show up verbatim, and exactly keySize bytes long.
func testMaterial(n int) []byte {
	return fmt.Appendf(nil, "fake-kms-test-key-material-#%04d", n)
}

// newTestKMS returns a KMS whose first keys get testMaterial(1),
// testMaterial(2), ... up to maxKeys.
func newTestKMS(t *testing.T, maxKeys int) *KMS {
	t.Helper()
	var source bytes.Buffer
	for n := 1; n <= maxKeys; n++ {
		if m := testMaterial(n); len(m) != keySize {
			t.Fatalf("testMaterial(%d) is %d bytes, want %d", n, len(m), keySize)
		}
		source.Write(testMaterial(n))
	}
	return newKMS(&source)
}

func TestKMSKeyIDs(t *testing.T) {
	kms := NewKMS()
	want := []string{"key-1", "key-2", "key-3"}
	got := []string{kms.CurrentKEKID(), kms.Rotate(), kms.Rotate()}
	if !slices.Equal(got, want) {
		t.Errorf("key ids = %q, want %q", got, want)
	}
}

func TestKMSCiphertextFormat(t *testing.T) {
	kms := newTestKMS(t, 1)
	plaintext := []byte("a 32-byte seed, or anything else")

	first, keyID, err := kms.encrypt(plaintext)
	if err != nil {
		t.Fatalf("encrypt: %v", err)
	}
	if keyID != "key-1" {
		t.Errorf("key id = %q, want %q", keyID, "key-1")
	}
	if want := gcmNonceSize + len(plaintext) + gcmTagSize; len(first) != want {
		t.Fatalf("ciphertext is %d bytes, want nonce+plaintext+tag = %d", len(first), want)
	}

	// Any AES-256-GCM implementation holding the key must be able to open
	// it, reading the nonce from the front.
	block, err := aes.NewCipher(testMaterial(1))
	if err != nil {
		t.Fatal(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	got, err := aead.Open(nil, first[:gcmNonceSize], first[gcmNonceSize:], nil)
	if err != nil {
		t.Fatalf("opening nonce||ciphertext with the standard library: %v", err)
	}
	if !bytes.Equal(got, plaintext) {
		t.Errorf("opened %q, want %q", got, plaintext)
	}

	second, _, err := kms.encrypt(plaintext)
	if err != nil {
		t.Fatalf("encrypt: %v", err)
	}
	if bytes.Equal(first[:gcmNonceSize], second[:gcmNonceSize]) {
		t.Errorf("two encryptions used the same nonce")
	}
}

func TestKMSDecryptErrors(t *testing.T) {
	scenarios := []struct {
		name string
		// request builds the decrypt request from a ciphertext that
		// "key-1" produced, after any key changes.
		request  func(kms *KMS, ciphertext []byte) (keyID string, ct []byte)
		wantCode codes.Code
	}{
		{
			name:     "valid",
			request:  func(_ *KMS, ct []byte) (string, []byte) { return "key-1", ct },
			wantCode: codes.OK,
		},
		{
			name:     "no key id",
			request:  func(_ *KMS, ct []byte) (string, []byte) { return "", ct },
			wantCode: codes.InvalidArgument,
		},
		{
			name:     "unknown key id",
			request:  func(_ *KMS, ct []byte) (string, []byte) { return "key-99", ct },
			wantCode: codes.NotFound,
		},
		{
			name:     "nonce tampered",
			request:  func(_ *KMS, ct []byte) (string, []byte) { return "key-1", flipBit(ct, 0) },
			wantCode: codes.InvalidArgument,
		},
		{
			name:     "body tampered",
			request:  func(_ *KMS, ct []byte) (string, []byte) { return "key-1", flipBit(ct, gcmNonceSize) },
			wantCode: codes.InvalidArgument,
		},
		{
			name:     "tag tampered",
			request:  func(_ *KMS, ct []byte) (string, []byte) { return "key-1", flipBit(ct, len(ct)-1) },
			wantCode: codes.InvalidArgument,
		},
		{
			name:     "truncated",
			request:  func(_ *KMS, ct []byte) (string, []byte) { return "key-1", ct[:len(ct)-1] },
			wantCode: codes.InvalidArgument,
		},
		{
			name:     "shorter than a nonce",
			request:  func(_ *KMS, ct []byte) (string, []byte) { return "key-1", ct[:gcmNonceSize-1] },
			wantCode: codes.InvalidArgument,
		},
		{
			name: "labelled with another key",
			request: func(kms *KMS, ct []byte) (string, []byte) {
				return kms.Rotate(), ct
			},
			wantCode: codes.InvalidArgument,
		},
		{
			name: "key disabled",
			request: func(kms *KMS, ct []byte) (string, []byte) {
				_ = kms.Disable("key-1")
				return "key-1", ct
			},
			wantCode: codes.FailedPrecondition,
		},
		{
			name: "key destroyed",
			request: func(kms *KMS, ct []byte) (string, []byte) {
				_ = kms.Destroy("key-1")
				return "key-1", ct
			},
			wantCode: codes.NotFound,
		},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			kms := NewKMS()
			plaintext := []byte("secret")
			ciphertext, _, err := kms.encrypt(plaintext)
			if err != nil {
				t.Fatalf("encrypt: %v", err)
			}

			keyID, ct := scenario.request(kms, ciphertext)
			got, err := kms.decrypt(keyID, ct)
			if status.Code(err) != scenario.wantCode {
				t.Fatalf("decrypt = %v, want code %v", err, scenario.wantCode)
			}
			if err == nil && !bytes.Equal(got, plaintext) {
				t.Errorf("decrypt = %q, want %q", got, plaintext)
			}
		})
	}
}

func TestKMSKeyOperations(t *testing.T) {
	type op func(*KMS, string) error
	scenarios := []struct {
		name string
		// before is applied to "key-1" and must succeed.
		before   []op
		op       op
		keyID    string
		wantCode codes.Code
	}{
		{name: "disable enabled", op: (*KMS).Disable, keyID: "key-1", wantCode: codes.OK},
		{name: "disable disabled", before: []op{(*KMS).Disable}, op: (*KMS).Disable, keyID: "key-1", wantCode: codes.OK},
		{name: "disable destroyed", before: []op{(*KMS).Destroy}, op: (*KMS).Disable, keyID: "key-1", wantCode: codes.NotFound},
		{name: "disable unknown", op: (*KMS).Disable, keyID: "key-99", wantCode: codes.NotFound},
		{name: "restore disabled", before: []op{(*KMS).Disable}, op: (*KMS).Restore, keyID: "key-1", wantCode: codes.OK},
		{name: "restore enabled", op: (*KMS).Restore, keyID: "key-1", wantCode: codes.OK},
		{name: "restore destroyed", before: []op{(*KMS).Destroy}, op: (*KMS).Restore, keyID: "key-1", wantCode: codes.NotFound},
		{name: "restore unknown", op: (*KMS).Restore, keyID: "key-99", wantCode: codes.NotFound},
		{name: "destroy enabled", op: (*KMS).Destroy, keyID: "key-1", wantCode: codes.OK},
		{name: "destroy disabled", before: []op{(*KMS).Disable}, op: (*KMS).Destroy, keyID: "key-1", wantCode: codes.OK},
		{name: "destroy destroyed", before: []op{(*KMS).Destroy}, op: (*KMS).Destroy, keyID: "key-1", wantCode: codes.OK},
		{name: "destroy unknown", op: (*KMS).Destroy, keyID: "key-99", wantCode: codes.NotFound},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			kms := NewKMS()
			for _, before := range scenario.before {
				if err := before(kms, "key-1"); err != nil {
					t.Fatalf("setting up: %v", err)
				}
			}
			if err := scenario.op(kms, scenario.keyID); status.Code(err) != scenario.wantCode {
				t.Errorf("got %v, want code %v", err, scenario.wantCode)
			}
		})
	}
}

func TestKMSDestroyWipesMaterial(t *testing.T) {
	kms := NewKMS()
	if err := kms.Destroy("key-1"); err != nil {
		t.Fatalf("Destroy: %v", err)
	}
	if kms.keys["key-1"].aead != nil {
		t.Errorf("destroyed key still holds its cipher")
	}
}

// TestKMSNeverRevealsKeyMaterial drives every error path, and prints the KMS
// and its keys with every common verb, and checks that the key material never
// shows up in any encoding.
func TestKMSNeverRevealsKeyMaterial(t *testing.T) {
	const keys = 3
	kms := newTestKMS(t, keys)
	ciphertext, _, err := kms.encrypt([]byte("secret"))
	if err != nil {
		t.Fatalf("encrypt: %v", err)
	}
	kms.Rotate() // key-2, to be disabled
	kms.Rotate() // key-3, current, to be disabled and then destroyed

	var outputs []string
	record := func(err error) {
		t.Helper()
		if err == nil {
			t.Errorf("expected an error, got nil")
			return
		}
		outputs = append(outputs, err.Error(), fmt.Sprintf("%+v", err), status.Convert(err).Message())
	}
	mustSucceed := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	mustSucceed(kms.Disable("key-2"))
	mustSucceed(kms.Disable("key-3"))
	record(func() error { _, err := kms.decrypt("key-1", flipBit(ciphertext, 0)); return err }())
	record(func() error { _, err := kms.decrypt("key-2", ciphertext); return err }())
	record(func() error { _, err := kms.decrypt("key-99", ciphertext); return err }())
	record(func() error { _, err := kms.decrypt("", ciphertext); return err }())
	record(func() error { _, _, err := kms.encrypt([]byte("x")); return err }())
	mustSucceed(kms.Destroy("key-3"))
	record(func() error { _, err := kms.decrypt("key-3", ciphertext); return err }())
	record(func() error { _, _, err := kms.encrypt([]byte("x")); return err }())
	record(kms.Restore("key-3"))
	record(kms.Disable("key-99"))
	record(func() error { _, err := newKey("key-bad", testMaterial(1)[:keySize-1]); return err }())

	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		outputs = append(outputs, fmt.Sprintf(verb, kms))
		for _, k := range kms.keys {
			outputs = append(outputs, fmt.Sprintf(verb, k), fmt.Sprintf(verb, *k))
		}
	}

	for n := 1; n <= keys; n++ {
		material := testMaterial(n)
		encodings := map[string]string{
			"raw":    string(material),
			"hex":    hex.EncodeToString(material),
			"base64": base64.StdEncoding.EncodeToString(material),
			"bytes":  fmt.Sprintf("%d", material),
		}
		for _, out := range outputs {
			for encoding, secret := range encodings {
				if strings.Contains(out, secret) {
					t.Errorf("key-%d material (%s) revealed in %q", n, encoding, out)
				}
			}
		}
	}
}

// TestKMSConcurrentUse runs encryption and decryption against key changes.
// Its value is running under the race detector.
func TestKMSConcurrentUse(t *testing.T) {
	const workers, rounds = 4, 100
	kms := NewKMS()

	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range rounds {
				ct, keyID, err := kms.encrypt([]byte("data"))
				if err != nil {
					continue // the current key may be disabled right now
				}
				_, _ = kms.decrypt(keyID, ct)
			}
		})
	}
	wg.Go(func() {
		for range rounds {
			id := kms.Rotate()
			_ = kms.Disable(id)
			_ = kms.Restore(id)
			_ = kms.CurrentKEKID()
		}
	})
	wg.Wait()
}

// flipBit returns a copy of b with the low bit of b[i] flipped.
func flipBit(b []byte, i int) []byte {
	out := bytes.Clone(b)
	out[i] ^= 1
	return out
}
