package etcdvalue

// Kind names the storage transformer that wrote a value. The strings are
// stable and short, so they can be used as metric label values.
type Kind string

const (
	// KindIdentity is a value stored unencrypted by the identity provider.
	KindIdentity Kind = "identity"
	// KindAESCBC is a value written by the aescbc provider.
	KindAESCBC Kind = "aescbc"
	// KindAESGCM is a value written by the aesgcm provider.
	KindAESGCM Kind = "aesgcm"
	// KindSecretbox is a value written by the secretbox provider.
	KindSecretbox Kind = "secretbox"
	// KindKMSv1 is a value written by a kms provider with apiVersion v1.
	KindKMSv1 Kind = "kms-v1"
	// KindKMSv2 is a value written by a kms provider with apiVersion v2.
	KindKMSv2 Kind = "kms-v2"
)

// DEKSourceType says how the data encryption key of a KMS v2 value is
// derived from the plaintext of its encrypted DEK source. The values are the
// names of the EncryptedDEKSourceType enum in
// k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2/api.proto.
//
// kube-apiserver reports a KMS v2 value as stale, and so in need of
// migration, when either its KEK id or its DEK source type differs from what
// it currently writes, which is why Parse returns both.
type DEKSourceType string

const (
	// DEKSourceAESGCMKey means the plaintext is the DEK itself. Written by
	// kube-apiserver releases before the KMSv2KDF feature was locked on in
	// 1.29.
	DEKSourceAESGCMKey DEKSourceType = "AES_GCM_KEY"
	// DEKSourceHKDFSeed means the plaintext is a seed from which a DEK is
	// derived per write with HKDF-SHA256. Written by current releases.
	DEKSourceHKDFSeed DEKSourceType = "HKDF_SHA256_XNONCE_AES_GCM_SEED"
)

// Value is what Parse learns about a stored value. It holds names and
// identifiers only, never payload bytes, so it is safe to log.
type Value struct {
	// Kind is the transformer that wrote the value.
	Kind Kind

	// Name is the key name (aescbc, aesgcm, secretbox) or provider name
	// (kms-v1, kms-v2) from the value's prefix, and "" for identity. See the
	// package documentation for names that contain ':'.
	Name string

	// KEKID is the KEK id the value's DEK source was encrypted with,
	// for KindKMSv2 only. It is chosen by the KMS plugin and is not secret,
	// but kube-apiserver only exposes hashes of KEK ids in its metrics;
	// callers exporting KEK ids should do the same.
	KEKID string

	// DEKSourceType is set for KindKMSv2 only.
	DEKSourceType DEKSourceType
}
