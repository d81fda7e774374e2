package openshift

import (
	"embed"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	// Blank imports: they vendor the CRD manifests that sit beside each package's doc.go (openshift/api ships them
	// as packages per group version; payload-manifests/crds, where the cluster-version operator reads the same
	// files, is no package and is not vendored).
	_ "github.com/openshift/api/apiserver/v1/zz_generated.crd-manifests"
	_ "github.com/openshift/api/authorization/v1/zz_generated.crd-manifests"
	_ "github.com/openshift/api/config/v1/zz_generated.crd-manifests"
	_ "github.com/openshift/api/operator/v1/zz_generated.crd-manifests"
	_ "github.com/openshift/api/operatorcontrolplane/v1alpha1/zz_generated.crd-manifests"
	_ "github.com/openshift/api/quota/v1/zz_generated.crd-manifests"
	_ "github.com/openshift/api/security/v1/zz_generated.crd-manifests"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// crdPackages are the group versions whose CRDs the cluster has and kube-apiserver-operator reads, writes or
// watches: the cluster config (config.openshift.io, ClusterOperator among it), the operator resources, SCCs,
// cluster quotas, role binding restrictions, API request counts and the connectivity checks.
var crdPackages = []string{
	"github.com/openshift/api/apiserver/v1/zz_generated.crd-manifests",
	"github.com/openshift/api/authorization/v1/zz_generated.crd-manifests",
	"github.com/openshift/api/config/v1/zz_generated.crd-manifests",
	"github.com/openshift/api/operator/v1/zz_generated.crd-manifests",
	"github.com/openshift/api/operatorcontrolplane/v1alpha1/zz_generated.crd-manifests",
	"github.com/openshift/api/quota/v1/zz_generated.crd-manifests",
	"github.com/openshift/api/security/v1/zz_generated.crd-manifests",
}

// The CRDs of the two resources kube-apiserver-operator applies objects of that openshift/api does not ship.
//
//go:embed standins/*.yaml
var standins embed.FS

// FeatureSet is the lab cluster's feature set: KMSEncryption is a TechPreviewNoUpgrade gate in this openshift/api,
// and the CRDs with feature-set variants are installed in this one.
const FeatureSet = "TechPreviewNoUpgrade"

// InstallCRDs installs openshift/api's CRDs and the stand-ins through cfg. dir receives the stand-ins' files
// (envtest installs CRDs from files).
func InstallCRDs(cfg *rest.Config, dir string) error {
	var paths []string
	for _, pkg := range crdPackages {
		pkgDir, err := kmsenv.VendorDir(pkg)
		if err != nil {
			return err
		}
		entries, err := os.ReadDir(pkgDir)
		if err != nil {
			return err
		}
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			names = append(names, e.Name())
		}
		for _, name := range selectCRDFiles(names) {
			paths = append(paths, filepath.Join(pkgDir, name))
		}
	}
	entries, err := standins.ReadDir("standins")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for _, e := range entries {
		data, err := standins.ReadFile(path.Join("standins", e.Name()))
		if err != nil {
			return err
		}
		file := filepath.Join(dir, e.Name())
		if err := os.WriteFile(file, data, 0o600); err != nil {
			return err
		}
		paths = append(paths, file)
	}
	if _, err := envtest.InstallCRDs(cfg, envtest.CRDInstallOptions{Paths: paths, ErrorIfPathMissing: true}); err != nil {
		return fmt.Errorf("installing openshift/api's CRDs: %w", err)
	}
	return nil
}

// selectCRDFiles picks, of a directory of openshift/api's generated CRD manifests, the one file per CRD that a
// self-managed cluster of FeatureSet installs. openshift/api names a CRD's variants
// <base>[-<profile>][-<feature set>].crd.yaml, with profile Hypershift or SelfManagedHA and feature set Default,
// TechPreviewNoUpgrade, DevPreviewNoUpgrade, CustomNoUpgrade or OKD. Hypershift's variants are skipped; of the rest,
// FeatureSet's variant wins over one without a feature set, which wins over Default's.
func selectCRDFiles(names []string) []string {
	rank := map[string]int{FeatureSet: 3, "": 2, "Default": 1}
	best := map[string]string{}
	bestRank := map[string]int{}
	for _, name := range names {
		stem, ok := strings.CutSuffix(name, ".crd.yaml")
		if !ok {
			continue
		}
		base, featureSet := stem, ""
		for _, fs := range []string{"Default", "TechPreviewNoUpgrade", "DevPreviewNoUpgrade", "CustomNoUpgrade", "OKD"} {
			if b, ok := strings.CutSuffix(base, "-"+fs); ok {
				base, featureSet = b, fs
				break
			}
		}
		if strings.HasSuffix(base, "-Hypershift") {
			continue
		}
		base = strings.TrimSuffix(base, "-SelfManagedHA")
		r, ok := rank[featureSet]
		if !ok || r <= bestRank[base] {
			continue
		}
		best[base], bestRank[base] = name, r
	}
	selected := make([]string, 0, len(best))
	for _, name := range best {
		selected = append(selected, name)
	}
	sort.Strings(selected)
	return selected
}
