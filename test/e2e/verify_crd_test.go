package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/dynamic"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

var widgetsGVR = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

// TestVerifyCustomResource runs `kmsguard verify` on a custom resource that kube-apiserver encrypts with KMS
// v2: it must find the objects at <prefix>/<group>/<resource>/, count exactly the objects the API lists, and
// exit with the error code when --etcd-prefix names a prefix that holds none of them.
func TestVerifyCustomResource(t *testing.T) {
	ctx := context.Background()
	kms := fake.NewKMS()
	plugin := fake.StartForTest(t, kms)
	cp := kmsenv.StartForTest(t, kmsenv.Options{APIServerOptions: kmsenv.APIServerOptions{
		EncryptionConfig: &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{{
			Resources: []string{"widgets.example.com"},
			Providers: []apiserverv1.ProviderConfiguration{kmsenv.KMSv2Provider(providerName, plugin.Endpoint()), ectest.Identity()},
		}}},
	}})
	a := cp.APIServer(0)
	createWidgetCRD(ctx, t, a)
	client := dynamic.NewForConfigOrDie(a.RESTConfig()).Resource(widgetsGVR)
	const widgets = 37
	for i := range widgets {
		w := &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": "example.com/v1", "kind": "Widget", "spec": map[string]interface{}{"size": int64(i)}}}
		w.SetName(fmt.Sprintf("w-%02d", i))
		w.SetNamespace([]string{"default", "kube-system"}[i%2])
		if _, err := client.Namespace(w.GetNamespace()).Create(ctx, w, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating widget %s: %v", w.GetName(), err)
		}
	}
	listed, err := client.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(listed.Items) != widgets {
		t.Fatalf("the API lists %d widgets, want %d", len(listed.Items), widgets)
	}

	kmsguard := buildKMSGuard(t)
	kubeconfig := writeKubeconfig(t, a)
	want := evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: providerName, KEKID: kms.CurrentKEKID()}
	start := time.Now()
	report := runVerifyCommand(t, kmsguard, kubeconfig, cp.EtcdEndpoint(), want, exitCodeVerified, "--resources=widgets.example.com")
	t.Logf("kmsguard verify of %d widgets took %s", widgets, time.Since(start).Round(time.Millisecond))
	got := report.Resources[0]
	if got.Prefix != "/registry/example.com/widgets/" || got.Total != int64(len(listed.Items)) || got.UnderWriteKey != got.Total {
		t.Errorf("scanned %s: %d keys, %d under %s; want /registry/example.com/widgets/ with all %d", got.Prefix, got.Total, got.UnderWriteKey, want, len(listed.Items))
	}
	if c := got.APICount; c == nil || c.Objects != int64(len(listed.Items)) || c.Comparison != evidence.CompareExact || c.Revision != got.Revisions[0] {
		t.Errorf("API count %+v, want %d objects at the scan's revision %v", c, len(listed.Items), got.Revisions)
	}
	if !report.Verified() {
		t.Errorf("not verified: %+v", got.Verdict())
	}

	out, code, stderr := execKMSGuard(t, kmsguard, "verify", "--kubeconfig="+kubeconfig, "--etcd-endpoints="+cp.EtcdEndpoint(),
		"--write-provider="+want.String(), "--resources=widgets.example.com", "--etcd-prefix=/kubernetes.io", "-o", "json")
	if code != exitCodeError || !strings.Contains(stderr, "no resource has any key under --etcd-prefix=/kubernetes.io") || len(out) != 0 {
		t.Errorf("with a wrong --etcd-prefix: exit %d, stdout %q, stderr:\n%s\nwant exit %d and the error", code, out, stderr, exitCodeError)
	}
}

// Exit codes of kmsguard verify, as its --help lists them (the scheme all kmsguard commands share:
// cmd/kmsguard/exitcodes.go).
const (
	exitCodeVerified    = 0
	exitCodeError       = 1
	exitCodeNotVerified = 2
)

// createWidgetCRD creates the namespaced CustomResourceDefinition widgets.example.com and waits until it is
// served.
func createWidgetCRD(ctx context.Context, t *testing.T, a *kmsenv.APIServer) {
	t.Helper()
	crds := apiextensionsclient.NewForConfigOrDie(a.RESTConfig()).ApiextensionsV1().CustomResourceDefinitions()
	preserve := true
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve,
				}},
			}},
		},
	}
	if _, err := crds.Create(ctx, crd, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	client := dynamic.NewForConfigOrDie(a.RESTConfig()).Resource(widgetsGVR)
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := client.List(ctx, metav1.ListOptions{Limit: 1})
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("the CRD widgets.example.com is not served: %v", err)
	}
}
