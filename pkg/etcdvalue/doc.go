// Package etcdvalue classifies the raw values that kube-apiserver stores in
// etcd, telling which storage transformer wrote each one, without decrypting
// anything.
//
// A storage migration is only finished once every value under the
// apiserver's prefix has been rewritten by the current write provider.
// Checking that means reading every key in etcd directly, which has to be
// cheap, must not need key material, and must never let ciphertext reach a
// log. Parse does just that: it reads the transformer prefix that
// kube-apiserver puts in front of every encrypted value and, for KMS v2,
// decodes the EncryptedObject envelope far enough to return the KEK id the
// value was written under.
//
// # Formats
//
// kube-apiserver writes these prefixes (see the *TransformerPrefix*
// constants in k8s.io/apiserver/pkg/server/options/encryptionconfig):
//
//	k8s:enc:aescbc:v1:<key name>:<IV><AES-CBC ciphertext>
//	k8s:enc:aesgcm:v1:<key name>:<nonce><AES-GCM ciphertext and tag>
//	k8s:enc:secretbox:v1:<key name>:<nonce><secretbox ciphertext>
//	k8s:enc:kms:v1:<provider name>:<uint16 length><encrypted DEK><ciphertext>
//	k8s:enc:kms:v2:<provider name>:<EncryptedObject protobuf>
//
// The identity provider writes the serialized object unchanged: protobuf
// (which starts with "k8s\x00"), JSON (which starts with '{') or CBOR (which
// starts with the self-described CBOR tag). No object serialization can
// start with "k8s:enc:", which is why the identity provider refuses to read
// such a value.
//
// # Names
//
// KMS v2 provider names cannot contain ':', so the name of a KMS v2 value is
// unambiguous. Key names of aescbc, aesgcm and secretbox and KMS v1 provider
// names can contain ':'. kube-apiserver resolves that by matching the names
// it is configured with, which a reader without the configuration cannot do.
// For those kinds Parse reports the shortest non-empty name, the text up to
// the first ':' after the first byte. That is exact for every name without a
// ':', including the numeric key names that OpenShift's encryption
// controllers generate.
//
// # Errors
//
// Every error returned by Parse is a *ParseError that wraps either
// ErrMalformed (the value claims a known format but could not have been
// written, or read back, by kube-apiserver) or ErrUnknownFormat (the value
// does not start like anything this package knows, for example an
// encryption provider added by a newer kube-apiserver). Error messages are
// built from constant text, kind names and lengths only; they never contain
// bytes of the value.
package etcdvalue
