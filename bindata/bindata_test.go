package bindata

import (
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	"sigs.k8s.io/yaml"
)

// TestLabKMSEncryptionIsValid: `make run` must not switch the lab with a spec the APIServer resource would refuse
// or library-go's key controller could not make a KMS key from.
func TestLabKMSEncryptionIsValid(t *testing.T) {
	var encryption configv1.APIServerEncryption
	if err := yaml.UnmarshalStrict(MustAsset(LabKMSEncryption), &encryption); err != nil {
		t.Fatal(err)
	}
	vault := encryption.KMS.Vault
	switch {
	case encryption.Type != configv1.EncryptionTypeKMS || encryption.KMS.Type != configv1.VaultKMSProvider:
		t.Errorf("type %q with provider %q, want KMS with Vault", encryption.Type, encryption.KMS.Type)
	case vault.VaultAddress == "" || vault.VaultKeyPath == "" || vault.KMSPluginImage == "":
		t.Errorf("the Vault config misses a field library-go's key controller needs: %+v", vault)
	case vault.Authentication.Type != configv1.VaultAuthenticationTypeAppRole || vault.Authentication.AppRole.Secret.Name == "":
		t.Errorf("the Vault config names no AppRole secret: %+v", vault.Authentication)
	}
}

func TestAssetMissing(t *testing.T) {
	if _, err := Asset("lab/nope.yaml"); err == nil {
		t.Error("want an error for a file that is not embedded")
	}
}
