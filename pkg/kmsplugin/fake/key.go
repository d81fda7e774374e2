package fake

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"
)

// keySize is the AES key length in bytes. 32 bytes selects AES-256, the
// strength cloud KMS services use for symmetric key encryption keys.
const keySize = 32

// keyState is where a key is in its lifecycle.
type keyState int

const (
	// keyEnabled keys encrypt (when current) and decrypt.
	keyEnabled keyState = iota
	// keyDisabled keys refuse every operation but keep their material, so
	// Restore can bring them back.
	keyDisabled
	// keyDestroyed keys have no material left; nothing brings them back.
	keyDestroyed
)

func (s keyState) String() string {
	switch s {
	case keyEnabled:
		return "enabled"
	case keyDisabled:
		return "disabled"
	case keyDestroyed:
		return "destroyed"
	default:
		return fmt.Sprintf("keyState(%d)", int(s))
	}
}

// key is one key encryption key.
//
// The raw key bytes are not kept: they are expanded into the AEAD and then
// dropped, so no field of key holds material that a stray fmt verb could
// print. String and GoString are defined anyway, so that printing a key, or a
// struct that embeds one, shows only its id and state.
type key struct {
	id    string
	state keyState
	// aead is nil once the key is destroyed.
	aead cipher.AEAD
}

// newKey builds an enabled AES-256-GCM key from material, which must be
// keySize bytes long. The AEAD draws a fresh random 96-bit nonce for every
// Seal and prepends it to the ciphertext, which is the nonce||ciphertext
// format this KMS promises.
func newKey(id string, material []byte) (*key, error) {
	block, err := aes.NewCipher(material)
	if err != nil {
		// aes.KeySizeError names only the length, never the bytes.
		return nil, fmt.Errorf("fake kms: building key %q: %w", id, err)
	}
	aead, err := cipher.NewGCMWithRandomNonce(block)
	if err != nil {
		return nil, fmt.Errorf("fake kms: building key %q: %w", id, err)
	}
	return &key{id: id, state: keyEnabled, aead: aead}, nil
}

// usable returns nil if the key may be used for an operation, or the error
// that explains why it may not.
func (k *key) usable() error {
	switch k.state {
	case keyEnabled:
		return nil
	case keyDisabled:
		return errKeyDisabled(k.id)
	default:
		return errKeyDestroyed(k.id)
	}
}

// String implements fmt.Stringer without revealing key material.
func (k *key) String() string {
	return fmt.Sprintf("%s (%s)", k.id, k.state)
}

// GoString implements fmt.GoStringer so that %#v is as safe as %v.
func (k *key) GoString() string {
	return fmt.Sprintf("fake.key{id: %q, state: %s}", k.id, k.state)
}
