package etcdvalue

import (
	"errors"
	"io"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// The KMS v2 payload is an EncryptedObject from
// k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2. It is decoded
// here with protowire rather than with proto.Unmarshal into the generated
// type: proto.Unmarshal copies encryptedData, which is the whole ciphertext
// of the object, and builds the annotations map, for every value, only for
// Parse to throw both away. Walking the wire format keeps only lengths and
// the KEK id, aliases the input instead of copying it, and allocates nothing
// for a value without annotations. The price is having to accept exactly
// what proto.Unmarshal accepts; the tests compare the two on crafted and
// fuzzed input.

// Field numbers from api.proto. TestEncryptedObjectSchema checks them
// against the generated descriptor.
const (
	fieldEncryptedData          protowire.Number = 1
	fieldKeyID                  protowire.Number = 2
	fieldEncryptedDEKSource     protowire.Number = 3
	fieldAnnotations            protowire.Number = 4
	fieldEncryptedDEKSourceType protowire.Number = 5

	// A protobuf map is a repeated message with the key in field 1 and the
	// value in field 2.
	fieldMapEntryKey   protowire.Number = 1
	fieldMapEntryValue protowire.Number = 2
)

// encryptedObject is what Parse needs from an EncryptedObject. The
// ciphertext fields are kept as lengths only.
type encryptedObject struct {
	encryptedDataLen      int
	keyID                 []byte // aliases the input
	encryptedDEKSourceLen int
	dekSourceTypeNumber   int32

	// annotationsSize is the sum of key and value lengths over every map
	// entry on the wire. A map keeps only the last entry for a key, so this
	// is an upper bound on the size kube-apiserver validates.
	annotationsSize int
	// annotationKeyInvalid records that some annotation key is not a
	// fully qualified domain name. Kept as a flag so that errors are
	// reported in the order kube-apiserver validates fields.
	annotationKeyInvalid bool
}

// decodeEncryptedObject decodes and validates a KMS v2 payload.
func decodeEncryptedObject(b []byte) (encryptedObject, error) {
	var obj encryptedObject
	if err := obj.unmarshal(b, nil); err != nil {
		return encryptedObject{}, err
	}
	if err := obj.validate(b); err != nil {
		return encryptedObject{}, err
	}
	return obj, nil
}

// unmarshal decodes b into obj with the semantics of proto.Unmarshal: the
// last occurrence of a field wins, unknown fields and known fields with an
// unexpected wire type are skipped, and strings must be valid UTF-8. When
// annotations is not nil, every annotation is also recorded in it, last
// value winning, as a map[string][]byte would hold it.
func (obj *encryptedObject) unmarshal(b []byte, annotations map[string]int) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if err := wireError(n); err != nil {
			return err
		}
		if num > protowire.MaxValidNumber {
			return malformed(KindKMSv2, "EncryptedObject protobuf has an invalid field number")
		}
		b = b[n:]

		switch {
		case num == fieldEncryptedData && typ == protowire.BytesType:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			obj.encryptedDataLen = len(v)
		case num == fieldKeyID && typ == protowire.BytesType:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			if n >= 0 && !utf8.Valid(v) {
				return malformed(KindKMSv2, "keyID is not valid UTF-8")
			}
			obj.keyID = v
		case num == fieldEncryptedDEKSource && typ == protowire.BytesType:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			obj.encryptedDEKSourceLen = len(v)
		case num == fieldAnnotations && typ == protowire.BytesType:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			if n >= 0 {
				if err := obj.unmarshalAnnotation(v, annotations); err != nil {
					return err
				}
			}
		case num == fieldEncryptedDEKSourceType && typ == protowire.VarintType:
			var v uint64
			v, n = protowire.ConsumeVarint(b)
			// Enums are int32 on the wire; proto.Unmarshal truncates too.
			obj.dekSourceTypeNumber = int32(v)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if err := wireError(n); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// unmarshalAnnotation decodes one entry of the annotations map.
func (obj *encryptedObject) unmarshalAnnotation(b []byte, annotations map[string]int) error {
	// A missing key or value is the zero value, as in proto.Unmarshal.
	var key []byte
	valueLen := 0
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if err := wireError(n); err != nil {
			return err
		}
		if num > protowire.MaxValidNumber {
			return malformed(KindKMSv2, "EncryptedObject protobuf has an invalid field number")
		}
		b = b[n:]

		switch {
		case num == fieldMapEntryKey && typ == protowire.BytesType:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			if n >= 0 && !utf8.Valid(v) {
				return malformed(KindKMSv2, "annotation key is not valid UTF-8")
			}
			key = v
		case num == fieldMapEntryValue && typ == protowire.BytesType:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			valueLen = len(v)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if err := wireError(n); err != nil {
			return err
		}
		b = b[n:]
	}

	obj.annotationsSize += len(key) + valueLen
	if !obj.annotationKeyInvalid && !isFullyQualifiedDomainName(key) {
		obj.annotationKeyInvalid = true
	}
	if annotations != nil {
		annotations[string(key)] = valueLen
	}
	return nil
}

// wireError turns a negative protowire length into an error. protowire's
// own messages are deliberately unstable (their "proto:" prefix is followed
// by a randomly chosen space character), so only their class is reported.
func wireError(n int) error {
	if n >= 0 {
		return nil
	}
	if errors.Is(protowire.ParseError(n), io.ErrUnexpectedEOF) {
		return malformed(KindKMSv2, "EncryptedObject protobuf is cut short")
	}
	return malformed(KindKMSv2, "EncryptedObject protobuf is not valid wire format")
}
