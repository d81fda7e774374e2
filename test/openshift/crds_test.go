package openshift

import (
	"slices"
	"testing"
)

func TestSelectCRDFiles(t *testing.T) {
	names := []string{
		"0000_10_config-operator_01_apiservers-CustomNoUpgrade.crd.yaml",
		"0000_10_config-operator_01_apiservers-Default.crd.yaml",
		"0000_10_config-operator_01_apiservers-OKD.crd.yaml",
		"0000_10_config-operator_01_apiservers-TechPreviewNoUpgrade.crd.yaml",
		"0000_00_cluster-version-operator_01_clusteroperators.crd.yaml",
		"0000_10_config-operator_01_schedulers-Hypershift.crd.yaml",
		"0000_10_config-operator_01_schedulers-SelfManagedHA-Default.crd.yaml",
		"0000_10_config-operator_01_schedulers-SelfManagedHA-TechPreviewNoUpgrade.crd.yaml",
		"0000_10_config-operator_01_criocredentialproviderconfigs-Hypershift.crd.yaml",
		"0000_10_config-operator_01_criocredentialproviderconfigs-SelfManagedHA.crd.yaml",
		// A CRD with variants but none of the lab's feature set: Default's.
		"0000_10_example_01_widgets-CustomNoUpgrade.crd.yaml",
		"0000_10_example_01_widgets-Default.crd.yaml",
		// Only other feature sets: not installed.
		"0000_10_example_01_gadgets-DevPreviewNoUpgrade.crd.yaml",
		"doc.go",
	}
	want := []string{
		"0000_00_cluster-version-operator_01_clusteroperators.crd.yaml",
		"0000_10_config-operator_01_apiservers-TechPreviewNoUpgrade.crd.yaml",
		"0000_10_config-operator_01_criocredentialproviderconfigs-SelfManagedHA.crd.yaml",
		"0000_10_config-operator_01_schedulers-SelfManagedHA-TechPreviewNoUpgrade.crd.yaml",
		"0000_10_example_01_widgets-Default.crd.yaml",
	}
	if got := selectCRDFiles(names); !slices.Equal(got, want) {
		t.Errorf("selectCRDFiles:\n got %q\nwant %q", got, want)
	}
}
