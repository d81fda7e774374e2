package evidence_test

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kmstypes "k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration/evidence"
)

// payloadMarker is in every payload these tests store; no report may contain it.
var payloadMarker = []byte("payload-that-must-never-be-reported")

var secrets = evidence.BuiltInResource(evidence.DefaultEtcdPrefix, schema.GroupResource{Resource: "secrets"})

// Keys of these tests.
var (
	currentKey = evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "kms", KeyID: "key-2"}
	identity   = evidence.WriteKey{Kind: etcdvalue.KindIdentity}
)

func identityValue() []byte { return append([]byte("k8s\x00"), payloadMarker...) }

func aescbcValue(name string) []byte {
	return append([]byte("k8s:enc:aescbc:v1:"+name+":"), bytes.Repeat(payloadMarker, 2)...)
}

func kmsv2Value(t testing.TB, provider, keyID string, dekType kmstypes.EncryptedDEKSourceType) []byte {
	t.Helper()
	payload, err := proto.Marshal(&kmstypes.EncryptedObject{
		EncryptedData:          payloadMarker,
		KeyID:                  keyID,
		EncryptedDEKSource:     payloadMarker,
		EncryptedDEKSourceType: dekType,
	})
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte("k8s:enc:kms:v2:"+provider+":"), payload...)
}

// current is a value written by currentKey.
func current(t testing.TB) []byte {
	return kmsv2Value(t, currentKey.Name, currentKey.KeyID, kmstypes.EncryptedDEKSourceType_HKDF_SHA256_XNONCE_AES_GCM_SEED)
}

// oldKMS is a value written by the same provider under the previous key id.
func oldKMS(t testing.TB) []byte {
	return kmsv2Value(t, currentKey.Name, "key-1", kmstypes.EncryptedDEKSourceType_HKDF_SHA256_XNONCE_AES_GCM_SEED)
}

func secretKey(name string) string { return secrets.Prefix + "default/" + name }
