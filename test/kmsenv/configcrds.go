package kmsenv

import (
	"embed"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// The CRDs of config.openshift.io/v1 (APIServer, Infrastructure) are copies, in crds/, of openshift/api's
// generated manifests at the vendored version: the package that holds them
// (github.com/openshift/api/config/v1/zz_generated.crd-manifests) is not vendored. A blank import of it, as
// operator.go does for operator/v1, followed by `go work vendor`, removes the copies.
//
//go:embed crds/*.yaml
var configCRDFiles embed.FS

// InstallConfigCRDs installs the config.openshift.io CRDs that library-go's encryption controllers and kmsguard
// read (APIServer, Infrastructure). They are written to the apiserver's directory first: envtest installs CRDs
// from files (its typed option would make k8s.io/apiextensions-apiserver a dependency).
func (a *APIServer) InstallConfigCRDs() error {
	entries, err := configCRDFiles.ReadDir("crds")
	if err != nil {
		return err
	}
	dir := filepath.Join(a.dir, "config-crds")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for _, e := range entries {
		data, err := configCRDFiles.ReadFile(path.Join("crds", e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o600); err != nil {
			return err
		}
	}
	if _, err := envtest.InstallCRDs(a.RESTConfig(), envtest.CRDInstallOptions{Paths: []string{dir}, ErrorIfPathMissing: true}); err != nil {
		return fmt.Errorf("installing the config.openshift.io CRDs: %w", err)
	}
	return nil
}
