package etcdvalue

import "bytes"

// encryptedPrefix starts every value written by an encrypting provider.
// kube-apiserver's identity provider refuses to read values that start with
// it, so no unencrypted value does.
var encryptedPrefix = []byte("k8s:enc:")

// Sizes of the fixed parts of the payloads written by the non-KMS-v2
// providers, from k8s.io/apiserver/pkg/storage/value/encrypt. Parse checks a
// payload against the smallest one its provider can write, and no more:
// when a name contains ':' (see the package documentation) the payload Parse
// sees is longer than the real one, and only a lower bound on the length
// still holds for it.
const (
	// aesBlockSize is the AES block size. aescbc writes a one-block IV and
	// then PKCS#7-padded ciphertext, and PKCS#7 always adds at least one
	// block of padding.
	aesBlockSize = 16
	// gcmNonceSize is the only nonce size the aesgcm provider accepts.
	gcmNonceSize = 12
	// gcmTagSize is the size of the GCM authentication tag that AES-GCM
	// appends to the ciphertext.
	gcmTagSize = 16
	// secretboxNonceSize is the size of the random nonce secretbox
	// writes in front of the ciphertext.
	secretboxNonceSize = 24
	// secretboxOverhead is the size of the Poly1305 tag, as
	// golang.org/x/crypto/nacl/secretbox.Overhead.
	secretboxOverhead = 16
	// kmsV1DEKLengthSize is the big-endian uint16 holding the length of
	// the encrypted DEK that KMS v1 writes first. The data after the DEK is
	// AES-GCM (or, from old releases, AES-CBC, which is never shorter).
	kmsV1DEKLengthSize = 2
)

// encryptedFormat is one "<provider>:<version>:" that kube-apiserver writes
// after encryptedPrefix.
type encryptedFormat struct {
	kind Kind
	// marker follows encryptedPrefix and precedes the name.
	marker string
	// minPayload is the fewest bytes the provider writes after the ':'
	// that ends the name. Unused for KMS v2, whose payload is decoded.
	minPayload int
}

var encryptedFormats = [...]encryptedFormat{
	{kind: KindAESCBC, marker: "aescbc:v1:", minPayload: aesBlockSize + aesBlockSize},
	{kind: KindAESGCM, marker: "aesgcm:v1:", minPayload: gcmNonceSize + gcmTagSize},
	{kind: KindSecretbox, marker: "secretbox:v1:", minPayload: secretboxNonceSize + secretboxOverhead},
	{kind: KindKMSv1, marker: "kms:v1:", minPayload: kmsV1DEKLengthSize + gcmNonceSize + gcmTagSize},
	{kind: KindKMSv2, marker: "kms:v2:"},
}

// lookupFormat returns the format whose marker starts rest, which is a value
// with encryptedPrefix removed.
func lookupFormat(rest []byte) (encryptedFormat, bool) {
	for _, f := range encryptedFormats {
		// Comparing as strings does not allocate.
		if len(rest) >= len(f.marker) && string(rest[:len(f.marker)]) == f.marker {
			return f, true
		}
	}
	return encryptedFormat{}, false
}

// Magic bytes of the serializations kube-apiserver stores unencrypted.
var (
	// protobufMagic is protoEncodingPrefix in
	// k8s.io/apimachinery/pkg/runtime/serializer/protobuf.
	protobufMagic = []byte("k8s\x00")
	// cborMagic is the self-described CBOR tag (RFC 8949, 3.4.6) that
	// k8s.io/apimachinery/pkg/runtime/serializer/cbor writes first.
	cborMagic = []byte{0xd9, 0xd9, 0xf7}
)

// isSerializedObject reports whether raw starts the way an object
// serialized by kube-apiserver does. The object itself is not decoded:
// Parse classifies values, it does not validate plaintext.
func isSerializedObject(raw []byte) bool {
	return bytes.HasPrefix(raw, protobufMagic) ||
		bytes.HasPrefix(raw, cborMagic) ||
		(len(raw) > 0 && raw[0] == '{')
}
