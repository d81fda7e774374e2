package etcdvalue_test

import (
	"errors"
	"testing"

	kmstypes "k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

func TestParse(t *testing.T) {
	seedObject := validObject()
	legacyObject := validObject()
	legacyObject.KeyID = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab"
	legacyObject.EncryptedDEKSourceType = kmstypes.EncryptedDEKSourceType_AES_GCM_KEY
	kmsv2Payload := marshal(t, seedObject)

	scenarios := []struct {
		name string
		raw  []byte

		want        etcdvalue.Value
		wantErr     error // nil, etcdvalue.ErrMalformed or etcdvalue.ErrUnknownFormat
		wantErrKind etcdvalue.Kind
	}{
		// Unencrypted objects.
		{
			name: "identity protobuf",
			raw:  []byte("k8s\x00\n\x0c\n\x02v1\x12\x06Secret"),
			want: etcdvalue.Value{Kind: etcdvalue.KindIdentity},
		},
		{
			name: "identity JSON",
			raw:  []byte(`{"apiVersion":"example.com/v1","kind":"Widget"}` + "\n"),
			want: etcdvalue.Value{Kind: etcdvalue.KindIdentity},
		},
		{
			name: "identity CBOR",
			raw:  []byte("\xd9\xd9\xf7\xa1\x44kind\x46Widget"),
			want: etcdvalue.Value{Kind: etcdvalue.KindIdentity},
		},

		// Each encrypting provider.
		{
			name: "aescbc with the smallest payload it writes",
			raw:  encrypted("aescbc:v1:", "1", aesPayload(32)),
			want: etcdvalue.Value{Kind: etcdvalue.KindAESCBC, Name: "1"},
		},
		{
			name: "aesgcm with the smallest payload it writes",
			raw:  encrypted("aesgcm:v1:", "key-2024.01_a~b", aesPayload(28)),
			want: etcdvalue.Value{Kind: etcdvalue.KindAESGCM, Name: "key-2024.01_a~b"},
		},
		{
			name: "secretbox with the smallest payload it writes",
			raw:  encrypted("secretbox:v1:", "key with spaces", aesPayload(40)),
			want: etcdvalue.Value{Kind: etcdvalue.KindSecretbox, Name: "key with spaces"},
		},
		{
			name: "kms v1 with the smallest payload it writes",
			raw:  encrypted("kms:v1:", "legacy/kms", aesPayload(30)),
			want: etcdvalue.Value{Kind: etcdvalue.KindKMSv1, Name: "legacy/kms"},
		},
		{
			name: "kms v2 with an HKDF seed",
			raw:  kmsv2Value("kms-provider", kmsv2Payload),
			want: etcdvalue.Value{
				Kind:          etcdvalue.KindKMSv2,
				Name:          "kms-provider",
				KEKID:         seedObject.KeyID,
				DEKSourceType: etcdvalue.DEKSourceHKDFSeed,
			},
		},
		{
			name: "kms v2 with a DEK and a key id containing ':'",
			raw:  kmsv2Value("kms", marshal(t, legacyObject)),
			want: etcdvalue.Value{
				Kind:          etcdvalue.KindKMSv2,
				Name:          "kms",
				KEKID:         legacyObject.KeyID,
				DEKSourceType: etcdvalue.DEKSourceAESGCMKey,
			},
		},

		// Names: anything but "" is valid, and only KMS v2 forbids ':'.
		{
			name: "kms v2 name with spaces, slashes, dots and non-ASCII letters",
			raw:  kmsv2Value("Cloud KMS/eu.west ü", kmsv2Payload),
			want: etcdvalue.Value{
				Kind:          etcdvalue.KindKMSv2,
				Name:          "Cloud KMS/eu.west ü",
				KEKID:         seedObject.KeyID,
				DEKSourceType: etcdvalue.DEKSourceHKDFSeed,
			},
		},
		{
			name: "aesgcm name in Cyrillic",
			raw:  encrypted("aesgcm:v1:", "ключ", aesPayload(28)),
			want: etcdvalue.Value{Kind: etcdvalue.KindAESGCM, Name: "ключ"},
		},
		{
			name: "aescbc payload starting with ':' does not lengthen the name",
			raw:  encrypted("aescbc:v1:", "1", append([]byte(":"), aesPayload(31)...)),
			want: etcdvalue.Value{Kind: etcdvalue.KindAESCBC, Name: "1"},
		},
		{
			name: "aescbc name containing ':' is reported up to the ':', as documented",
			raw:  encrypted("aescbc:v1:", "a:b", aesPayload(32)),
			want: etcdvalue.Value{Kind: etcdvalue.KindAESCBC, Name: "a"},
		},
		{
			name: "aescbc name starting with ':' keeps it, as names are never empty",
			raw:  encrypted("aescbc:v1:", ":a", aesPayload(32)),
			want: etcdvalue.Value{Kind: etcdvalue.KindAESCBC, Name: ":a"},
		},

		// Empty and cut-short values.
		{
			name:    "empty value",
			raw:     []byte{},
			wantErr: etcdvalue.ErrMalformed,
		},
		{
			name:    "nil value",
			raw:     nil,
			wantErr: etcdvalue.ErrMalformed,
		},
		{
			name:    "cut inside k8s:enc:",
			raw:     []byte("k8s:en"),
			wantErr: etcdvalue.ErrMalformed,
		},
		{
			name:    "nothing after k8s:enc:",
			raw:     []byte("k8s:enc:"),
			wantErr: etcdvalue.ErrMalformed,
		},
		{
			name:    "cut inside the provider",
			raw:     []byte("k8s:enc:aes"),
			wantErr: etcdvalue.ErrMalformed,
		},
		{
			name:    "cut before the ':' after the version",
			raw:     []byte("k8s:enc:kms:v2"),
			wantErr: etcdvalue.ErrMalformed,
		},
		{
			name:        "kms v2 cut before the name",
			raw:         []byte("k8s:enc:kms:v2:"),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindKMSv2,
		},
		{
			name:        "kms v2 cut inside the name",
			raw:         []byte("k8s:enc:kms:v2:kms-prov"),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindKMSv2,
		},
		{
			name:        "aescbc cut inside the name",
			raw:         []byte("k8s:enc:aescbc:v1:1"),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindAESCBC,
		},
		{
			name:        "kms v2 empty name",
			raw:         kmsv2Value("", kmsv2Payload),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindKMSv2,
		},
		{
			name:        "name that is not UTF-8",
			raw:         encrypted("aescbc:v1:", "\xff\xfe", aesPayload(32)),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindAESCBC,
		},
		{
			name:        "aescbc payload one byte short",
			raw:         encrypted("aescbc:v1:", "1", aesPayload(31)),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindAESCBC,
		},
		{
			name:        "aesgcm payload one byte short",
			raw:         encrypted("aesgcm:v1:", "1", aesPayload(27)),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindAESGCM,
		},
		{
			name:        "secretbox payload one byte short",
			raw:         encrypted("secretbox:v1:", "1", aesPayload(39)),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindSecretbox,
		},
		{
			name:        "kms v1 payload one byte short",
			raw:         encrypted("kms:v1:", "1", aesPayload(29)),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindKMSv1,
		},
		{
			name:        "kms v2 without payload",
			raw:         kmsv2Value("kms", nil),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindKMSv2,
		},
		{
			name:        "kms v2 protobuf cut inside encryptedData",
			raw:         kmsv2Value("kms", kmsv2Payload[:10]),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindKMSv2,
		},
		{
			name:        "kms v2 protobuf cut inside the keyID",
			raw:         kmsv2Value("kms", kmsv2Payload[:len(ciphertextMarker)+10]),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindKMSv2,
		},
		{
			name:        "kms v2 protobuf missing its last byte",
			raw:         kmsv2Value("kms", kmsv2Payload[:len(kmsv2Payload)-1]),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindKMSv2,
		},
		{
			name:        "kms v2 garbage after the prefix",
			raw:         kmsv2Value("kms", []byte("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff")),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindKMSv2,
		},
		{
			name:        "kms v2 text after the prefix",
			raw:         kmsv2Value("kms", ciphertextMarker),
			wantErr:     etcdvalue.ErrMalformed,
			wantErrKind: etcdvalue.KindKMSv2,
		},

		// Formats this package does not know.
		{
			name:    "unknown provider",
			raw:     encrypted("rot13:v1:", "k", aesPayload(32)),
			wantErr: etcdvalue.ErrUnknownFormat,
		},
		{
			name:    "unknown kms version",
			raw:     encrypted("kms:v3:", "kms", aesPayload(32)),
			wantErr: etcdvalue.ErrUnknownFormat,
		},
		{
			name:    "unknown aescbc version",
			raw:     encrypted("aescbc:v2:", "1", aesPayload(32)),
			wantErr: etcdvalue.ErrUnknownFormat,
		},
		{
			name:    "text",
			raw:     ciphertextMarker,
			wantErr: etcdvalue.ErrUnknownFormat,
		},
		{
			name:    "binary",
			raw:     []byte{0x00, 0x01, 0x02, 0xff},
			wantErr: etcdvalue.ErrUnknownFormat,
		},
		{
			name:    "YAML, which kube-apiserver does not store",
			raw:     []byte("apiVersion: v1\nkind: Secret\n"),
			wantErr: etcdvalue.ErrUnknownFormat,
		},
		{
			name:    "JSON after whitespace, which kube-apiserver does not write",
			raw:     []byte(` {"kind":"Secret"}`),
			wantErr: etcdvalue.ErrUnknownFormat,
		},
	}

	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			got, err := etcdvalue.Parse(scenario.raw)
			checkParseResult(t, got, err, scenario.want, scenario.wantErr, scenario.wantErrKind)
		})
	}
}

// checkParseResult checks what Parse returned: the value, the class and
// kind of the error, and that the error message carries no payload.
func checkParseResult(t *testing.T, got etcdvalue.Value, err error, want etcdvalue.Value, wantErr error, wantErrKind etcdvalue.Kind) {
	t.Helper()
	if wantErr == nil {
		if err != nil {
			t.Fatalf("Parse() error = %v, want none", err)
		}
		if got != want {
			t.Errorf("Parse() = %+v, want %+v", got, want)
		}
		return
	}

	if !errors.Is(err, wantErr) {
		t.Fatalf("Parse() error = %v, want one wrapping %v", err, wantErr)
	}
	var parseErr *etcdvalue.ParseError
	if !errors.As(err, &parseErr) {
		t.Fatalf("Parse() error is %T, want *etcdvalue.ParseError", err)
	}
	if parseErr.Kind != wantErrKind {
		t.Errorf("ParseError.Kind = %q, want %q", parseErr.Kind, wantErrKind)
	}
	if got != (etcdvalue.Value{}) {
		t.Errorf("Parse() returned %+v with an error, want the zero Value", got)
	}
	assertNoLeak(t, err.Error())
}

func TestParseErrorMessage(t *testing.T) {
	scenarios := []struct {
		name string
		raw  []byte
		want string
	}{
		{
			name: "without a kind",
			raw:  nil,
			want: "etcdvalue: malformed value: value is empty",
		},
		{
			name: "with a kind",
			raw:  encrypted("aesgcm:v1:", "1", aesPayload(3)),
			want: "etcdvalue: malformed value (aesgcm): payload is 3 bytes, shorter than the 28 bytes every aesgcm value has",
		},
		{
			name: "kms v2 protobuf cut short",
			raw:  kmsv2Value("kms", []byte{0x0a, 0x05, 'a'}),
			want: "etcdvalue: malformed value (kms-v2): EncryptedObject protobuf is cut short",
		},
		{
			name: "unknown format",
			raw:  encrypted("kms:v3:", "kms", aesPayload(32)),
			want: "etcdvalue: unknown value format: unknown encryption provider or version",
		},
	}

	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			_, err := etcdvalue.Parse(scenario.raw)
			if err == nil {
				t.Fatal("Parse() succeeded, want an error")
			}
			if got := err.Error(); got != scenario.want {
				t.Errorf("Parse() error = %q, want %q", got, scenario.want)
			}
		})
	}
}
