package kmsenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"
	// Blank import: vendors the operator CRD manifests that sit beside this package's doc.go.
	_ "github.com/openshift/api/operator/v1/zz_generated.crd-manifests"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/operator/genericoperatorclient"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// kubeAPIServerCRD is the KubeAPIServer CRD of the TechPreviewNoUpgrade feature set: the one with
// status.encryptionStatus (KMS health reports) in this openshift/api.
const kubeAPIServerCRD = "0000_20_kube-apiserver_01_kubeapiservers-TechPreviewNoUpgrade.crd.yaml"

// InstallKubeAPIServerOperator installs the KubeAPIServer CRD into the apiserver, creates the "cluster"
// resource with the given node names in status.nodeStatuses (the control-plane nodes of a static-pod
// operator), and returns library-go's operator client for it, as kube-apiserver-operator builds it, with its
// informer factory (not yet started).
func (a *APIServer) InstallKubeAPIServerOperator(ctx context.Context, nodes ...string) (v1helpers.StaticPodOperatorClient, dynamicinformer.DynamicSharedInformerFactory, error) {
	cfg := a.RESTConfig()
	dir, err := crdManifestDir()
	if err != nil {
		return nil, nil, err
	}
	if _, err := envtest.InstallCRDs(cfg, envtest.CRDInstallOptions{Paths: []string{filepath.Join(dir, kubeAPIServerCRD)}, ErrorIfPathMissing: true}); err != nil {
		return nil, nil, fmt.Errorf("installing the KubeAPIServer CRD: %w", err)
	}
	client, err := operatorclient.NewForConfig(cfg)
	if err != nil {
		return nil, nil, err
	}
	kas, err := client.OperatorV1().KubeAPIServers().Create(ctx, &operatorv1.KubeAPIServer{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Spec:       operatorv1.KubeAPIServerSpec{StaticPodOperatorSpec: operatorv1.StaticPodOperatorSpec{OperatorSpec: operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}}},
	}, metav1.CreateOptions{})
	if err != nil {
		return nil, nil, fmt.Errorf("creating KubeAPIServer cluster: %w", err)
	}
	for _, node := range nodes {
		kas.Status.NodeStatuses = append(kas.Status.NodeStatuses, operatorv1.NodeStatus{NodeName: node})
	}
	if _, err := client.OperatorV1().KubeAPIServers().UpdateStatus(ctx, kas, metav1.UpdateOptions{}); err != nil {
		return nil, nil, fmt.Errorf("setting the node statuses of KubeAPIServer cluster: %w", err)
	}
	return a.KubeAPIServerOperatorClient()
}

// KubeAPIServerOperatorClient returns a new library-go operator client, with its informer factory (not yet
// started), for the KubeAPIServer "cluster" that InstallKubeAPIServerOperator created. Tests that restart the
// apiserver stop their informers first (kube-apiserver does not finish its shutdown while watches are open)
// and take a new client afterwards.
func (a *APIServer) KubeAPIServerOperatorClient() (v1helpers.StaticPodOperatorClient, dynamicinformer.DynamicSharedInformerFactory, error) {
	return NewKubeAPIServerOperatorClient(a.RESTConfig())
}

// NewKubeAPIServerOperatorClient returns library-go's operator client for the KubeAPIServer "cluster" through
// cfg (for example FailoverRESTConfig), with its informer factory (not yet started).
func NewKubeAPIServerOperatorClient(cfg *rest.Config) (v1helpers.StaticPodOperatorClient, dynamicinformer.DynamicSharedInformerFactory, error) {
	return genericoperatorclient.NewStaticPodOperatorClient(clock.RealClock{}, cfg,
		operatorv1.GroupVersion.WithResource("kubeapiservers"), operatorv1.GroupVersion.WithKind("KubeAPIServer"),
		extractKubeAPIServerSpec, extractKubeAPIServerStatus)
}

func extractKubeAPIServerSpec(obj *unstructured.Unstructured, fieldManager string) (*applyoperatorv1.StaticPodOperatorSpecApplyConfiguration, error) {
	kas := &operatorv1.KubeAPIServer{}
	if err := kruntime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, kas); err != nil {
		return nil, err
	}
	extracted, err := applyoperatorv1.ExtractKubeAPIServer(kas, fieldManager)
	if err != nil || extracted.Spec == nil {
		return nil, err
	}
	return &extracted.Spec.StaticPodOperatorSpecApplyConfiguration, nil
}

func extractKubeAPIServerStatus(obj *unstructured.Unstructured, fieldManager string) (*applyoperatorv1.StaticPodOperatorStatusApplyConfiguration, error) {
	kas := &operatorv1.KubeAPIServer{}
	if err := kruntime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, kas); err != nil {
		return nil, err
	}
	extracted, err := applyoperatorv1.ExtractKubeAPIServerStatus(kas, fieldManager)
	if err != nil || extracted.Status == nil {
		return nil, err
	}
	return &extracted.Status.StaticPodOperatorStatusApplyConfiguration, nil
}

// crdManifestDir is openshift/api's operator CRD directory in vendor/: the blank import above keeps it there.
func crdManifestDir() (string, error) {
	return VendorDir("github.com/openshift/api/operator/v1/zz_generated.crd-manifests")
}

// VendorDir is the directory of a vendored package in kmsguard's vendor/, for the files beside its Go sources
// (CRD manifests) that a blank import of the package keeps there.
func VendorDir(importPath string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "vendor", filepath.FromSlash(importPath)), nil
}

// ModuleRoot is the root of the kmsguard checkout, found from the working directory (a test runs in its package
// directory, `make run` in the root), not from this file's compiled-in path, which -trimpath removes.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(data), "module "+modulePath+"\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod of %s above the working directory: run from the kmsguard repository", modulePath)
		}
		dir = parent
	}
}

// modulePath is kmsguard's module, whose vendor/ holds the CRD manifests.
const modulePath = "github.com/kmsguard/kmsguard"
