package etcdvalue_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	kmstypes "k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

// TestParseKMSv2EncryptedObject covers the checks kube-apiserver applies to
// an EncryptedObject, on objects encoded by the upstream generated type.
func TestParseKMSv2EncryptedObject(t *testing.T) {
	scenarios := []struct {
		name      string
		mutate    func(*kmstypes.EncryptedObject)
		wantValid bool
	}{
		{
			name:      "valid",
			mutate:    func(*kmstypes.EncryptedObject) {},
			wantValid: true,
		},
		{
			name:      "key id of the maximum size",
			mutate:    func(o *kmstypes.EncryptedObject) { o.KeyID = strings.Repeat("k", 1024) },
			wantValid: true,
		},
		{
			name:   "key id over the maximum size",
			mutate: func(o *kmstypes.EncryptedObject) { o.KeyID = strings.Repeat("k", 1025) },
		},
		{
			name:   "empty key id",
			mutate: func(o *kmstypes.EncryptedObject) { o.KeyID = "" },
		},
		{
			name:      "key id of one non-ASCII character",
			mutate:    func(o *kmstypes.EncryptedObject) { o.KeyID = "ü" },
			wantValid: true,
		},
		{
			name:   "unknown DEK source type",
			mutate: func(o *kmstypes.EncryptedObject) { o.EncryptedDEKSourceType = 2 },
		},
		{
			name:   "negative DEK source type",
			mutate: func(o *kmstypes.EncryptedObject) { o.EncryptedDEKSourceType = -1 },
		},
		{
			name:   "empty encrypted data",
			mutate: func(o *kmstypes.EncryptedObject) { o.EncryptedData = nil },
		},
		{
			name:   "empty encrypted DEK source",
			mutate: func(o *kmstypes.EncryptedObject) { o.EncryptedDEKSource = nil },
		},
		{
			name:      "encrypted DEK source of the maximum size",
			mutate:    func(o *kmstypes.EncryptedObject) { o.EncryptedDEKSource = aesPayload(1024) },
			wantValid: true,
		},
		{
			name:   "encrypted DEK source over the maximum size",
			mutate: func(o *kmstypes.EncryptedObject) { o.EncryptedDEKSource = aesPayload(1025) },
		},
		{
			name: "annotations with fully qualified keys",
			mutate: func(o *kmstypes.EncryptedObject) {
				o.Annotations = map[string][]byte{
					"version.kms.example.com":   []byte("1"),
					"algorithm.kms.example.com": dekMarker,
					"trailing.dot.example.com.": nil,
				}
			},
			wantValid: true,
		},
		{
			name:   "annotation key with one segment",
			mutate: func(o *kmstypes.EncryptedObject) { o.Annotations = map[string][]byte{"version": dekMarker} },
		},
		{
			name:   "annotation key with upper case letters",
			mutate: func(o *kmstypes.EncryptedObject) { o.Annotations = map[string][]byte{"Version.example.com": nil} },
		},
		{
			name:   "empty annotation key",
			mutate: func(o *kmstypes.EncryptedObject) { o.Annotations = map[string][]byte{"": nil} },
		},
		{
			name: "annotations of the maximum size",
			mutate: func(o *kmstypes.EncryptedObject) {
				key := "a.example.com"
				o.Annotations = map[string][]byte{key: aesPayload(32*1024 - len(key))}
			},
			wantValid: true,
		},
		{
			name: "annotations over the maximum size",
			mutate: func(o *kmstypes.EncryptedObject) {
				key := "a.example.com"
				o.Annotations = map[string][]byte{key: aesPayload(32*1024 - len(key) + 1)}
			},
		},
	}

	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			obj := validObject()
			scenario.mutate(obj)
			payload := marshal(t, obj)

			got, err := etcdvalue.Parse(kmsv2Value("kms", payload))
			if scenario.wantValid {
				want := etcdvalue.Value{
					Kind:          etcdvalue.KindKMSv2,
					Name:          "kms",
					KEKID:         obj.KeyID,
					DEKSourceType: etcdvalue.DEKSourceHKDFSeed,
				}
				checkParseResult(t, got, err, want, nil, "")
			} else {
				checkParseResult(t, got, err, etcdvalue.Value{}, etcdvalue.ErrMalformed, etcdvalue.KindKMSv2)
			}
			checkAgainstUpstream(t, payload, got, err)
		})
	}
}

// TestParseKMSv2Wire covers encodings that proto.Marshal does not produce
// but that may be stored anyway, to check that they are accepted or
// rejected exactly as proto.Unmarshal does.
func TestParseKMSv2Wire(t *testing.T) {
	var (
		data       = bytesField(1, ciphertextMarker)
		keyID      = bytesField(2, []byte("key-1"))
		dekSource  = bytesField(3, dekMarker)
		seedType   = varintField(5, 1)
		valid      = cat(data, keyID, dekSource, seedType)
		bigValue   = aesPayload(20 * 1024)
		annotation = func(entry ...[]byte) []byte { return bytesField(4, cat(entry...)) }
	)

	scenarios := []struct {
		name      string
		payload   []byte
		wantKeyID string // "" when the payload is invalid
	}{
		{
			name:      "fields in reverse order",
			payload:   cat(seedType, dekSource, keyID, data),
			wantKeyID: "key-1",
		},
		{
			name:      "repeated key id: the last one wins",
			payload:   cat(valid, bytesField(2, []byte("key-2"))),
			wantKeyID: "key-2",
		},
		{
			name:    "repeated key id: the last one is empty",
			payload: cat(valid, bytesField(2, nil)),
		},
		{
			name:      "unknown varint, fixed and bytes fields are skipped",
			payload:   cat(valid, varintField(6, 7), tag(7, protowire.Fixed32Type), []byte{1, 2, 3, 4}, bytesField(1000, dekMarker)),
			wantKeyID: "key-1",
		},
		{
			name:      "unknown group is skipped",
			payload:   cat(valid, tag(8, protowire.StartGroupType), varintField(1, 1), tag(8, protowire.EndGroupType)),
			wantKeyID: "key-1",
		},
		{
			name:      "key id with a varint wire type is skipped",
			payload:   cat(valid, varintField(2, 5)),
			wantKeyID: "key-1",
		},
		{
			name:    "key id only with a varint wire type",
			payload: cat(data, varintField(2, 5), dekSource, seedType),
		},
		{
			name:      "DEK source type with a bytes wire type is skipped",
			payload:   cat(valid, bytesField(5, []byte{2})),
			wantKeyID: "key-1",
		},
		{
			name:      "DEK source type is truncated to 32 bits",
			payload:   cat(data, keyID, dekSource, varintField(5, 1<<32|1)),
			wantKeyID: "key-1",
		},
		{
			name:    "key id that is not UTF-8",
			payload: cat(data, bytesField(2, []byte("key-\xff")), dekSource, seedType),
		},
		{
			name:    "annotation key that is not UTF-8",
			payload: cat(valid, annotation(bytesField(1, []byte("a.example.com\xff")))),
		},
		{
			name:      "annotation entry with unknown fields",
			payload:   cat(valid, annotation(varintField(3, 1), bytesField(1, []byte("a.example.com")), bytesField(9, nil))),
			wantKeyID: "key-1",
		},
		{
			name:      "annotation without a value",
			payload:   cat(valid, annotation(bytesField(1, []byte("a.example.com")))),
			wantKeyID: "key-1",
		},
		{
			name:    "annotation without a key",
			payload: cat(valid, annotation(bytesField(2, dekMarker))),
		},
		{
			name:      "annotations field with a varint wire type is skipped",
			payload:   cat(valid, varintField(4, 1)),
			wantKeyID: "key-1",
		},
		{
			name: "repeated annotation key: only the last value counts towards the size limit",
			payload: cat(valid,
				annotation(bytesField(1, []byte("a.example.com")), bytesField(2, bigValue)),
				annotation(bytesField(1, []byte("a.example.com")), bytesField(2, bigValue))),
			wantKeyID: "key-1",
		},
		{
			name: "distinct annotation keys over the size limit",
			payload: cat(valid,
				annotation(bytesField(1, []byte("a.example.com")), bytesField(2, bigValue)),
				annotation(bytesField(1, []byte("b.example.com")), bytesField(2, bigValue))),
		},
		{
			name:    "field number 0",
			payload: cat(valid, tag(0, protowire.VarintType), []byte{1}),
		},
		{
			name:    "field number above the maximum",
			payload: cat(valid, protowire.AppendVarint(nil, uint64(protowire.MaxValidNumber+1)<<3), []byte{1}),
		},
		{
			name:    "end group without a start",
			payload: cat(valid, tag(8, protowire.EndGroupType)),
		},
		{
			name:    "group ended by another field number",
			payload: cat(valid, tag(8, protowire.StartGroupType), tag(9, protowire.EndGroupType)),
		},
		{
			name:    "group that is never ended",
			payload: cat(valid, tag(8, protowire.StartGroupType)),
		},
		{
			name:    "end group inside an annotation entry",
			payload: cat(valid, annotation(tag(1, protowire.EndGroupType))),
		},
		{
			name:    "reserved wire type",
			payload: cat(valid, tag(9, 6)),
		},
		{
			name:    "varint longer than ten bytes",
			payload: cat(valid, tag(6, protowire.VarintType), bytes.Repeat([]byte{0xff}, 10), []byte{1}),
		},
		{
			name:    "length past the end",
			payload: cat(valid, tag(1, protowire.BytesType), protowire.AppendVarint(nil, 1<<20), dekMarker),
		},
	}

	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			got, err := etcdvalue.Parse(kmsv2Value("kms", scenario.payload))
			if scenario.wantKeyID != "" {
				want := etcdvalue.Value{
					Kind:          etcdvalue.KindKMSv2,
					Name:          "kms",
					KEKID:         scenario.wantKeyID,
					DEKSourceType: etcdvalue.DEKSourceHKDFSeed,
				}
				checkParseResult(t, got, err, want, nil, "")
			} else {
				checkParseResult(t, got, err, etcdvalue.Value{}, etcdvalue.ErrMalformed, etcdvalue.KindKMSv2)
			}
			checkAgainstUpstream(t, scenario.payload, got, err)
		})
	}
}

// TestParseKMSv2EveryTruncation cuts a valid payload at every length. Most
// cuts are invalid, but a cut just before the DEK source type leaves a valid
// object of the default type; either way Parse must agree with
// kube-apiserver.
func TestParseKMSv2EveryTruncation(t *testing.T) {
	obj := validObject()
	obj.Annotations = map[string][]byte{"version.kms.example.com": []byte("1")}
	payload := marshal(t, obj)

	for n := range len(payload) {
		got, err := etcdvalue.Parse(kmsv2Value("kms", payload[:n]))
		if err != nil {
			if !errors.Is(err, etcdvalue.ErrMalformed) {
				t.Errorf("cut at %d: Parse() error = %v, want one wrapping ErrMalformed", n, err)
			}
			assertNoLeak(t, err.Error())
		}
		checkAgainstUpstream(t, payload[:n], got, err)
	}
}

// checkAgainstUpstream fails the test unless Parse's verdict on a KMS v2
// payload is kube-apiserver's.
func checkAgainstUpstream(t testing.TB, payload []byte, got etcdvalue.Value, err error) {
	t.Helper()
	want, upstreamErr := upstreamDecode(payload)
	switch {
	case err == nil && upstreamErr != nil:
		t.Errorf("Parse() accepted a payload that kube-apiserver rejects with: %v", upstreamErr)
	case err != nil && upstreamErr == nil:
		t.Errorf("Parse() rejected a payload that kube-apiserver accepts: %v", err)
	case err == nil:
		if got.KEKID != want.KeyID {
			t.Errorf("Parse() KeyID = %q, kube-apiserver reads %q", got.KEKID, want.KeyID)
		}
		if string(got.DEKSourceType) != want.EncryptedDEKSourceType.String() {
			t.Errorf("Parse() DEKSourceType = %q, kube-apiserver reads %q", got.DEKSourceType, want.EncryptedDEKSourceType)
		}
	}
}

func tag(num protowire.Number, typ protowire.Type) []byte {
	return protowire.AppendTag(nil, num, typ)
}

func bytesField(num protowire.Number, v []byte) []byte {
	return protowire.AppendBytes(tag(num, protowire.BytesType), v)
}

func varintField(num protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(tag(num, protowire.VarintType), v)
}

func cat(parts ...[]byte) []byte {
	return bytes.Join(parts, nil)
}
