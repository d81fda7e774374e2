package etcdvalue

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2"
	kmstypes "k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2"
)

// TestEncryptedObjectSchema pins the constants the decoder repeats from
// k8s.io/apiserver to their upstream definitions, so that a change there
// fails here rather than silently misreading values.
func TestEncryptedObjectSchema(t *testing.T) {
	fields := (&kmstypes.EncryptedObject{}).ProtoReflect().Descriptor().Fields()
	fieldScenarios := []struct {
		name string
		want protowire.Number
	}{
		{name: "encryptedData", want: fieldEncryptedData},
		{name: "keyID", want: fieldKeyID},
		{name: "encryptedDEKSource", want: fieldEncryptedDEKSource},
		{name: "annotations", want: fieldAnnotations},
		{name: "encryptedDEKSourceType", want: fieldEncryptedDEKSourceType},
	}
	for _, scenario := range fieldScenarios {
		t.Run("field "+scenario.name, func(t *testing.T) {
			fd := fields.ByJSONName(scenario.name)
			if fd == nil {
				t.Fatalf("EncryptedObject has no field %q", scenario.name)
			}
			if got := fd.Number(); got != scenario.want {
				t.Errorf("field %q has number %d upstream, the decoder uses %d", scenario.name, got, scenario.want)
			}
			if scenario.name == "annotations" {
				if got := fd.MapKey().Number(); got != fieldMapEntryKey {
					t.Errorf("annotations map key has number %d, the decoder uses %d", got, fieldMapEntryKey)
				}
				if got := fd.MapValue().Number(); got != fieldMapEntryValue {
					t.Errorf("annotations map value has number %d, the decoder uses %d", got, fieldMapEntryValue)
				}
			}
		})
	}
	if got := fields.Len(); got != len(fieldScenarios) {
		t.Errorf("EncryptedObject has %d fields upstream, the decoder knows %d", got, len(fieldScenarios))
	}

	enumScenarios := []struct {
		upstream kmstypes.EncryptedDEKSourceType
		value    int32
		name     DEKSourceType
	}{
		{upstream: kmstypes.EncryptedDEKSourceType_AES_GCM_KEY, value: dekSourceTypeAESGCMKey, name: DEKSourceAESGCMKey},
		{upstream: kmstypes.EncryptedDEKSourceType_HKDF_SHA256_XNONCE_AES_GCM_SEED, value: dekSourceTypeHKDFSeed, name: DEKSourceHKDFSeed},
	}
	for _, scenario := range enumScenarios {
		t.Run("enum "+scenario.upstream.String(), func(t *testing.T) {
			if int32(scenario.upstream) != scenario.value {
				t.Errorf("upstream value is %d, the decoder uses %d", scenario.upstream, scenario.value)
			}
			if scenario.upstream.String() != string(scenario.name) {
				t.Errorf("upstream name is %q, Parse reports %q", scenario.upstream, scenario.name)
			}
		})
	}
	if got := len(kmstypes.EncryptedDEKSourceType_name); got != len(enumScenarios) {
		t.Errorf("EncryptedDEKSourceType has %d values upstream, the decoder knows %d", got, len(enumScenarios))
	}

	if keyIDMaxSize != kmsv2.KeyIDMaxSize {
		t.Errorf("keyIDMaxSize = %d, kmsv2.KeyIDMaxSize = %d", keyIDMaxSize, kmsv2.KeyIDMaxSize)
	}
}
