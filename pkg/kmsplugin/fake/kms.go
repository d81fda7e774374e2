package fake

import (
	"crypto/rand"
	"fmt"
	"io"
	"sync"
)

// KMS simulates a remote key management service: the place where key
// encryption keys live. Several Plugins may share one KMS, as the KMS plugins
// on every control-plane node share one cloud key.
//
// A KMS is safe for concurrent use. Its zero value is not usable; call
// NewKMS.
type KMS struct {
	// keySource supplies key material. It is crypto/rand.Reader except in
	// this package's own tests, which need known material to prove that it
	// never leaks.
	keySource io.Reader

	mu      sync.RWMutex
	keys    map[string]*key
	current *key
	// issued counts the keys created so far; it numbers the KEK ids.
	issued int
}

// NewKMS returns a KMS holding a single enabled key, which is the current
// key.
func NewKMS() *KMS {
	return newKMS(rand.Reader)
}

func newKMS(keySource io.Reader) *KMS {
	k := &KMS{keySource: keySource, keys: map[string]*key{}}
	k.Rotate()
	return k
}

// CurrentKEKID returns the id of the key that new Encrypt calls use.
func (k *KMS) CurrentKEKID() string {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.current.id
}

// Rotate creates a new key and makes it current, and returns its id. Older
// keys stay as they are, so data encrypted under them still decrypts.
//
// Key ids are "key-1", "key-2", ... in creation order: deterministic, so test
// failures read well, and far below the 1 KiB limit the apiserver puts on
// KMS v2 KEK ids.
func (k *KMS) Rotate() (newKEKID string) {
	k.mu.Lock()
	defer k.mu.Unlock()

	material := make([]byte, keySize)
	if _, err := io.ReadFull(k.keySource, material); err != nil {
		// crypto/rand.Reader never fails (crypto/rand.Read crashes the
		// process instead), so only a broken test reader gets here.
		panic(fmt.Sprintf("fake kms: reading key material: %v", err))
	}
	id := fmt.Sprintf("key-%d", k.issued+1)
	next, err := newKey(id, material)
	clear(material)
	if err != nil {
		// keySize is a valid AES key length, so this cannot happen.
		panic(err)
	}

	k.issued++
	k.keys[id] = next
	k.current = next
	return id
}

// Disable makes Encrypt and Decrypt under kekID fail until Restore is called,
// like disabling a key in a cloud KMS. Disabling a disabled key is a no-op.
//
// The plugins' Status keeps answering "ok": real plugins often do not notice
// a disabled key until they use it (kubernetes#138950,
// aws-encryption-provider#139), and tests need to reproduce that.
func (k *KMS) Disable(kekID string) error {
	return k.transition(kekID, func(key *key) error {
		if key.state == keyDestroyed {
			return errKeyDestroyed(kekID)
		}
		key.state = keyDisabled
		return nil
	})
}

// Restore re-enables a disabled key. Restoring an enabled key is a no-op; a
// destroyed or unknown key cannot be restored.
func (k *KMS) Restore(kekID string) error {
	return k.transition(kekID, func(key *key) error {
		if key.state == keyDestroyed {
			return errKeyDestroyed(kekID)
		}
		key.state = keyEnabled
		return nil
	})
}

// Destroy wipes kekID's material for good: everything encrypted under it is
// lost, and Restore fails. Destroying a destroyed key is a no-op. The current
// key may be destroyed, after which Encrypt fails until Rotate.
func (k *KMS) Destroy(kekID string) error {
	return k.transition(kekID, func(key *key) error {
		key.state = keyDestroyed
		key.aead = nil
		return nil
	})
}

// transition applies change to kekID's key under the write lock, so that no
// Encrypt or Decrypt is in flight with the key while its state changes.
func (k *KMS) transition(kekID string, change func(*key) error) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	key, ok := k.keys[kekID]
	if !ok {
		return errKeyUnknown(kekID)
	}
	return change(key)
}

// encrypt seals plaintext under the current key and returns nonce||ciphertext
// and the id of the key used.
func (k *KMS) encrypt(plaintext []byte) (ciphertext []byte, kekID string, err error) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	key := k.current
	if err := key.usable(); err != nil {
		return nil, "", err
	}
	return key.aead.Seal(nil, nil, plaintext, nil), key.id, nil
}

// decrypt opens a nonce||ciphertext produced by encrypt under kekID.
func (k *KMS) decrypt(kekID string, ciphertext []byte) ([]byte, error) {
	if kekID == "" {
		return nil, errMissingKEKID()
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	key, ok := k.keys[kekID]
	if !ok {
		return nil, errKeyUnknown(kekID)
	}
	if err := key.usable(); err != nil {
		return nil, err
	}
	plaintext, err := key.aead.Open(nil, nil, ciphertext, nil)
	if err != nil {
		return nil, errCiphertextRejected(kekID)
	}
	return plaintext, nil
}
