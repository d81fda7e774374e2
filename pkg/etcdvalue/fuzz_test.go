package etcdvalue_test

import (
	"bytes"
	"errors"
	"testing"
	"unicode/utf8"

	kmstypes "k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

// markers maps every encrypted kind to the text between "k8s:enc:" and the
// name, to check that a parsed Name really is the one in the prefix.
var markers = map[etcdvalue.Kind]string{
	etcdvalue.KindAESCBC:    "aescbc:v1:",
	etcdvalue.KindAESGCM:    "aesgcm:v1:",
	etcdvalue.KindSecretbox: "secretbox:v1:",
	etcdvalue.KindKMSv1:     "kms:v1:",
	etcdvalue.KindKMSv2:     "kms:v2:",
}

func FuzzParse(f *testing.F) {
	withAnnotations := validObject()
	withAnnotations.Annotations = map[string][]byte{"version.kms.example.com": []byte("1"), "b.example.com": nil}
	legacy := validObject()
	legacy.EncryptedDEKSourceType = kmstypes.EncryptedDEKSourceType_AES_GCM_KEY
	for _, seed := range [][]byte{
		[]byte("k8s\x00\n\x0c\n\x02v1\x12\x06Secret"),
		[]byte(`{"kind":"Widget"}`),
		[]byte("\xd9\xd9\xf7\xa1\x44kind\x46Widget"),
		encrypted("aescbc:v1:", "1", aesPayload(48)),
		encrypted("aesgcm:v1:", "key:with:colons", aesPayload(40)),
		encrypted("secretbox:v1:", "ключ", aesPayload(64)),
		encrypted("kms:v1:", "legacy", append([]byte{0, 4}, aesPayload(40)...)),
		kmsv2Value("kms", marshal(f, validObject())),
		kmsv2Value("kms", marshal(f, withAnnotations)),
		kmsv2Value("kms", marshal(f, legacy)),
		encrypted("kms:v3:", "kms", aesPayload(8)),
		[]byte("k8s:enc:kms:v2"),
		nil,
	} {
		f.Add(seed)
	}

	f.Fuzz(func(t *testing.T, raw []byte) {
		input := bytes.Clone(raw)
		got, err := etcdvalue.Parse(raw)
		if !bytes.Equal(raw, input) {
			t.Fatal("Parse() modified its input")
		}

		if err != nil {
			checkFuzzedError(t, got, err)
		} else {
			checkFuzzedValue(t, raw, got)
		}

		// Whatever the bytes, a KMS v2 payload must get kube-apiserver's
		// verdict.
		if payload, ok := kmsv2PayloadOf(raw); ok {
			checkAgainstUpstream(t, payload, got, err)
		}
	})
}

// checkFuzzedError checks the invariants of a failed Parse.
func checkFuzzedError(t *testing.T, got etcdvalue.Value, err error) {
	t.Helper()
	var parseErr *etcdvalue.ParseError
	if !errors.As(err, &parseErr) {
		t.Fatalf("Parse() error is %T, want *etcdvalue.ParseError", err)
	}
	if errors.Is(err, etcdvalue.ErrMalformed) == errors.Is(err, etcdvalue.ErrUnknownFormat) {
		t.Fatalf("Parse() error %q must wrap exactly one of ErrMalformed and ErrUnknownFormat", err)
	}
	if got != (etcdvalue.Value{}) {
		t.Fatalf("Parse() returned %+v with an error, want the zero Value", got)
	}
	// Messages are built from constants, kind names and numbers. Bytes
	// from a random value would show up as something else.
	for _, r := range err.Error() {
		if r < ' ' || r > '~' {
			t.Fatalf("Parse() error %q contains %q, which no message template does", err, r)
		}
	}
}

// checkFuzzedValue checks the invariants of a successful Parse.
func checkFuzzedValue(t *testing.T, raw []byte, got etcdvalue.Value) {
	t.Helper()
	isKMSv2 := got.Kind == etcdvalue.KindKMSv2
	if (got.KEKID != "") != isKMSv2 {
		t.Fatalf("Parse() = %+v: KeyID must be set for kms-v2 and only for kms-v2", got)
	}
	if (got.DEKSourceType != "") != isKMSv2 {
		t.Fatalf("Parse() = %+v: DEKSourceType must be set for kms-v2 and only for kms-v2", got)
	}
	if !utf8.ValidString(got.Name) || !utf8.ValidString(got.KEKID) {
		t.Fatalf("Parse() = %+v: names must be valid UTF-8", got)
	}

	if got.Kind == etcdvalue.KindIdentity {
		if got.Name != "" {
			t.Fatalf("Parse() = %+v: identity values have no name", got)
		}
		return
	}
	marker, known := markers[got.Kind]
	if !known {
		t.Fatalf("Parse() returned unknown kind %q", got.Kind)
	}
	if got.Name == "" || !bytes.HasPrefix(raw, []byte("k8s:enc:"+marker+got.Name+":")) {
		t.Fatalf("Parse() = %+v: Name is not the name in the value's prefix", got)
	}
}

// kmsv2PayloadOf returns the payload of a value with a well-formed KMS v2
// prefix.
func kmsv2PayloadOf(raw []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(raw, []byte("k8s:enc:kms:v2:"))
	if !ok {
		return nil, false
	}
	name, payload, ok := bytes.Cut(rest, []byte(":"))
	if !ok || len(name) == 0 || !utf8.Valid(name) {
		return nil, false
	}
	return payload, true
}
