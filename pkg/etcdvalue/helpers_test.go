package etcdvalue_test

import (
	"bytes"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2"
	kmstypes "k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2"
)

// Payload markers. Every payload built by these tests contains one of them,
// and no error message may contain any part of one.
var (
	ciphertextMarker = []byte("ciphertext-that-must-never-be-printed")
	dekMarker        = []byte("wrapped-dek-that-must-never-be-printed")
)

// aesPayload returns a payload of n bytes made of ciphertextMarker.
func aesPayload(n int) []byte {
	return bytes.Repeat(ciphertextMarker, n/len(ciphertextMarker)+1)[:n]
}

// encrypted returns "k8s:enc:<marker><name>:<payload>".
func encrypted(marker, name string, payload []byte) []byte {
	return append([]byte("k8s:enc:"+marker+name+":"), payload...)
}

// kmsv2Value returns a KMS v2 value for provider name with the given payload.
func kmsv2Value(name string, payload []byte) []byte {
	return encrypted("kms:v2:", name, payload)
}

// validObject returns an EncryptedObject that kube-apiserver accepts.
func validObject() *kmstypes.EncryptedObject {
	return &kmstypes.EncryptedObject{
		EncryptedData:          bytes.Clone(ciphertextMarker),
		KeyID:                  "projects/p/locations/global/keyRings/r/cryptoKeys/k/cryptoKeyVersions/1",
		EncryptedDEKSource:     bytes.Clone(dekMarker),
		EncryptedDEKSourceType: kmstypes.EncryptedDEKSourceType_HKDF_SHA256_XNONCE_AES_GCM_SEED,
	}
}

// marshal encodes obj with the upstream generated type, as kube-apiserver does.
func marshal(t testing.TB, obj *kmstypes.EncryptedObject) []byte {
	t.Helper()
	b, err := proto.Marshal(obj)
	if err != nil {
		t.Fatalf("marshalling EncryptedObject: %v", err)
	}
	return b
}

// upstreamDecode does what kube-apiserver does with a KMS v2 payload before
// it calls the plugin: proto.Unmarshal, then kmsv2.ValidateEncryptedObject.
func upstreamDecode(payload []byte) (*kmstypes.EncryptedObject, error) {
	obj := &kmstypes.EncryptedObject{}
	if err := proto.Unmarshal(payload, obj); err != nil {
		return nil, err
	}
	if err := kmsv2.ValidateEncryptedObject(obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// leakWindow is the length of the smallest piece of a marker that counts as
// a leak. Shorter pieces, such as "the", occur in messages naturally.
const leakWindow = 8

// assertNoLeak fails the test if msg contains any leakWindow bytes of a
// payload marker or of extra.
func assertNoLeak(t testing.TB, msg string, extra ...[]byte) {
	t.Helper()
	for _, secret := range append([][]byte{ciphertextMarker, dekMarker}, extra...) {
		for i := 0; i+leakWindow <= len(secret); i++ {
			if piece := secret[i : i+leakWindow]; strings.Contains(msg, string(piece)) {
				t.Errorf("message %q contains payload bytes %q", msg, piece)
				return
			}
		}
	}
}
