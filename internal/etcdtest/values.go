package etcdtest

import (
	"bytes"
	"crypto/aes"

	"google.golang.org/protobuf/proto"
	kmstypes "k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2"
)

// payload stands in for ciphertext: the readers under test never decrypt.
var payload = []byte("not-really-ciphertext")

// KMSv2Value is a value as kube-apiserver stores it under a KMS v2 provider
// whose plugin reported keyID.
func KMSv2Value(provider, keyID string) []byte {
	data, err := proto.Marshal(&kmstypes.EncryptedObject{
		EncryptedData:          payload,
		KeyID:                  keyID,
		EncryptedDEKSource:     payload,
		EncryptedDEKSourceType: kmstypes.EncryptedDEKSourceType_HKDF_SHA256_XNONCE_AES_GCM_SEED,
	})
	if err != nil {
		panic(err)
	}
	return append([]byte("k8s:enc:kms:v2:"+provider+":"), data...)
}

// AESCBCValue is a value stored under the aescbc key name: an IV and
// whole cipher blocks.
func AESCBCValue(name string) []byte {
	return append([]byte("k8s:enc:aescbc:v1:"+name+":"), bytes.Repeat([]byte{0x42}, 3*aes.BlockSize)...)
}
