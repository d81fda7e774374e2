package kmsenv

import (
	"fmt"
	"path/filepath"

	// Blank import: vendors the config.openshift.io CRD manifests that sit beside this package's doc.go.
	_ "github.com/openshift/api/config/v1/zz_generated.crd-manifests"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// configCRDs are the config.openshift.io/v1 CRDs that library-go's encryption controllers and kmsguard read, as
// openshift/api generates them: the APIServer of the TechPreviewNoUpgrade feature set (its KMS encryption type)
// and the Infrastructure.
var configCRDs = []string{
	"0000_10_config-operator_01_apiservers-TechPreviewNoUpgrade.crd.yaml",
	"0000_10_config-operator_01_infrastructures-Default.crd.yaml",
}

// InstallConfigCRDs installs the config.openshift.io CRDs that library-go's encryption controllers and kmsguard
// read (APIServer, Infrastructure).
func (a *APIServer) InstallConfigCRDs() error {
	dir, err := VendorDir("github.com/openshift/api/config/v1/zz_generated.crd-manifests")
	if err != nil {
		return err
	}
	paths := make([]string, 0, len(configCRDs))
	for _, name := range configCRDs {
		paths = append(paths, filepath.Join(dir, name))
	}
	if _, err := envtest.InstallCRDs(a.RESTConfig(), envtest.CRDInstallOptions{Paths: paths, ErrorIfPathMissing: true}); err != nil {
		return fmt.Errorf("installing the config.openshift.io CRDs: %w", err)
	}
	return nil
}
