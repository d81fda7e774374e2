package bindata

import (
	"testing"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
)

// TestLabEncryptionConfigIsValid: `make run` must not start from a config kube-apiserver would refuse.
func TestLabEncryptionConfigIsValid(t *testing.T) {
	config, err := encryptionconfig.Decode(MustAsset(LabEncryptionConfig))
	if err != nil {
		t.Fatal(err)
	}
	first := config.Resources[0].Providers[0]
	if first.KMS == nil || first.KMS.APIVersion != "v2" {
		t.Errorf("the lab must write with KMS v2, its first provider is %+v", first)
	}
}

func TestAssetMissing(t *testing.T) {
	if _, err := Asset("lab/nope.yaml"); err == nil {
		t.Error("want an error for a file that is not embedded")
	}
}
