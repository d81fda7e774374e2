package etcdvalue

import (
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Limits that kube-apiserver enforces in kmsv2.ValidateEncryptedObject before
// it writes an EncryptedObject and after it reads one back. Only
// KeyIDMaxSize is exported upstream, so they are repeated here;
// TestEncryptedObjectSchema and the comparison tests pin them.
const (
	keyIDMaxSize              = 1024      // kmsv2.KeyIDMaxSize
	encryptedDEKSourceMaxSize = 1024      // kmsv2 encryptedDEKSourceMaxSize
	annotationsMaxSize        = 32 * 1024 // kmsv2 annotationsMaxSize, keys and values together
)

// Values of the EncryptedDEKSourceType enum in api.proto.
const (
	dekSourceTypeAESGCMKey int32 = 0
	dekSourceTypeHKDFSeed  int32 = 1
)

// validate applies the checks of kmsv2.ValidateEncryptedObject, in the same
// order so that the first problem reported is the one kube-apiserver would
// report. b is the payload obj was decoded from.
func (obj *encryptedObject) validate(b []byte) error {
	switch obj.dekSourceTypeNumber {
	case dekSourceTypeAESGCMKey, dekSourceTypeHKDFSeed:
	default:
		return malformed(KindKMSv2, "unknown encryptedDEKSourceType %d", obj.dekSourceTypeNumber)
	}
	if obj.encryptedDataLen == 0 {
		return malformed(KindKMSv2, "encrypted data is empty")
	}
	if obj.encryptedDEKSourceLen == 0 {
		return malformed(KindKMSv2, "encrypted DEK source is empty")
	}
	if obj.encryptedDEKSourceLen > encryptedDEKSourceMaxSize {
		return malformed(KindKMSv2, "encrypted DEK source is %d bytes, more than the maximum of %d",
			obj.encryptedDEKSourceLen, encryptedDEKSourceMaxSize)
	}
	if len(obj.keyID) == 0 {
		return malformed(KindKMSv2, "keyID is empty")
	}
	if len(obj.keyID) > keyIDMaxSize {
		return malformed(KindKMSv2, "keyID is %d bytes, more than the maximum of %d", len(obj.keyID), keyIDMaxSize)
	}
	if obj.annotationKeyInvalid {
		return malformed(KindKMSv2, "an annotation key is not a fully qualified domain name")
	}
	if obj.annotationsSize > annotationsMaxSize {
		// The wire may repeat a key, and kube-apiserver measures the map
		// that results. Deduplicating costs a map, so it is only done when
		// the cheap upper bound is over the limit.
		if size := deduplicatedAnnotationsSize(b); size > annotationsMaxSize {
			return malformed(KindKMSv2, "annotations are %d bytes, more than the maximum of %d", size, annotationsMaxSize)
		}
	}
	return nil
}

// deduplicatedAnnotationsSize returns the total size of the annotations map
// that proto.Unmarshal would build from b, which has already been decoded
// without error.
func deduplicatedAnnotationsSize(b []byte) int {
	annotations := map[string]int{}
	var scratch encryptedObject
	if err := scratch.unmarshal(b, annotations); err != nil {
		// Unreachable: b decoded once already. Report it as over the limit
		// rather than hide it.
		return annotationsMaxSize + 1
	}
	size := 0
	for key, valueLen := range annotations {
		size += len(key) + valueLen
	}
	return size
}

// annotationsPath is the path kube-apiserver validates annotation keys
// under. Only the verdict is used, so it merely avoids building a path per
// key.
var annotationsPath = field.NewPath("annotations")

// isFullyQualifiedDomainName reports whether an annotation key passes the
// same check kube-apiserver applies.
func isFullyQualifiedDomainName(key []byte) bool {
	return len(validation.IsFullyQualifiedDomainName(annotationsPath, string(key))) == 0
}

// dekSourceType names the DEK source type; validate has already rejected
// any other value.
func (obj *encryptedObject) dekSourceType() DEKSourceType {
	if obj.dekSourceTypeNumber == dekSourceTypeHKDFSeed {
		return DEKSourceHKDFSeed
	}
	return DEKSourceAESGCMKey
}
