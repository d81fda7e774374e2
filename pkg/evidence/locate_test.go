package evidence_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// fakeLookup serves custom resources and aggregated groups from sets.
type fakeLookup struct {
	crds       map[schema.GroupResource]bool
	aggregated map[string]bool
	asked      []string
}

func (l *fakeLookup) IsCustomResource(_ context.Context, gr schema.GroupResource) (bool, error) {
	l.asked = append(l.asked, "crd "+gr.String())
	return l.crds[gr], nil
}

func (l *fakeLookup) IsAggregated(_ context.Context, group string) (bool, error) {
	l.asked = append(l.asked, "apiservice "+group)
	return l.aggregated[group], nil
}

func TestResolveStoragePath(t *testing.T) {
	widgets := schema.GroupResource{Group: "example.com", Resource: "widgets"}
	routes := schema.GroupResource{Group: "route.openshift.io", Resource: "routes"}
	scenarios := []struct {
		name       string
		gr         schema.GroupResource
		crds       []schema.GroupResource
		aggregated []string
		// wantPrefix is the resource's prefix under its first root.
		wantServer evidence.Server
		wantPrefix string
		wantErr    string
	}{
		{name: "core resource, no API call", gr: schema.GroupResource{Resource: "secrets"}, wantServer: evidence.ServerKube, wantPrefix: "/kubernetes.io/secrets/"},
		{name: "core special path", gr: schema.GroupResource{Resource: "services"}, wantServer: evidence.ServerKube, wantPrefix: "/kubernetes.io/services/specs/"},
		{name: "built-in group", gr: schema.GroupResource{Group: "apps", Resource: "deployments"}, wantServer: evidence.ServerKube, wantPrefix: "/kubernetes.io/deployments/"},
		{name: "custom resource", gr: widgets, crds: []schema.GroupResource{widgets}, wantServer: evidence.ServerCustom, wantPrefix: "/kubernetes.io/example.com/widgets/"},
		{name: "routes of openshift-apiserver", gr: routes, aggregated: []string{"route.openshift.io"}, wantServer: evidence.ServerOpenShift, wantPrefix: "/openshift.io/routes/"},
		{name: "routes served as a CRD", gr: routes, crds: []schema.GroupResource{routes}, wantServer: evidence.ServerCustom, wantPrefix: "/kubernetes.io/route.openshift.io/routes/"},
		{name: "OAuth access tokens", gr: schema.GroupResource{Group: "oauth.openshift.io", Resource: "oauthaccesstokens"}, wantServer: evidence.ServerOAuth, wantPrefix: "/openshift.io/oauth/accesstokens/"},
		{name: "OAuth authorize tokens", gr: schema.GroupResource{Group: "oauth.openshift.io", Resource: "oauthauthorizetokens"}, wantServer: evidence.ServerOAuth, wantPrefix: "/openshift.io/oauth/authorizetokens/"},
		{name: "identities", gr: schema.GroupResource{Group: "user.openshift.io", Resource: "identities"}, wantServer: evidence.ServerOAuth, wantPrefix: "/openshift.io/useridentities/"},
		{name: "images", gr: schema.GroupResource{Group: "image.openshift.io", Resource: "images"}, wantServer: evidence.ServerOpenShift, wantPrefix: "/openshift.io/images/"},
		{name: "another aggregated apiserver", gr: schema.GroupResource{Group: "metrics.k8s.io", Resource: "pods"}, aggregated: []string{"metrics.k8s.io"}, wantErr: "aggregated apiserver"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			lookup := &fakeLookup{crds: map[schema.GroupResource]bool{}, aggregated: map[string]bool{}}
			for _, gr := range s.crds {
				lookup.crds[gr] = true
			}
			for _, g := range s.aggregated {
				lookup.aggregated[g] = true
			}
			p, err := evidence.ResolveStoragePath(context.Background(), lookup, s.gr)
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("got %+v, %v; want an error containing %q", p, err, s.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Server != s.wantServer || p.Under(p.Roots[0]).Prefix != s.wantPrefix || p.GroupResource != s.gr {
				t.Errorf("got %+v (prefix %s), want %s at %s", p, p.Under(p.Roots[0]).Prefix, s.wantServer, s.wantPrefix)
			}
			if s.gr.Group == "" && len(lookup.asked) > 0 {
				t.Errorf("asked the API %v for a core resource", lookup.asked)
			}
		})
	}
}

func TestDetectRoot(t *testing.T) {
	secretsPath := evidence.KubePath(schema.GroupResource{Resource: "secrets"})
	routesPath, _ := evidence.OpenShiftPath(schema.GroupResource{Group: "route.openshift.io", Resource: "routes"})
	scenarios := []struct {
		name        string
		path        evidence.StoragePath
		keys        []string
		wantPrefix  string
		wantHasKeys bool
		wantErr     string
	}{
		{name: "OpenShift's kube-apiserver", path: secretsPath, keys: []string{"/kubernetes.io/secrets/a/b", "/kubernetes.io/configmaps/a/b"}, wantPrefix: "/kubernetes.io/secrets/", wantHasKeys: true},
		{name: "upstream kube-apiserver", path: secretsPath, keys: []string{"/registry/secrets/a/b"}, wantPrefix: "/registry/secrets/", wantHasKeys: true},
		{name: "a prefix that only starts like the resource's does not count", path: secretsPath, keys: []string{"/registry/secretsbackup/a/b", "/kubernetes.io/secrets/a/b"}, wantPrefix: "/kubernetes.io/secrets/", wantHasKeys: true},
		{name: "keys under both roots", path: secretsPath, keys: []string{"/registry/secrets/a/b", "/kubernetes.io/secrets/a/b"}, wantErr: "give --etcd-prefix"},
		{name: "no keys of the resource: the root holding other keys", path: secretsPath, keys: []string{"/registry/configmaps/a/b"}, wantPrefix: "/registry/secrets/"},
		{name: "no keys at all: the first root", path: secretsPath, wantPrefix: "/kubernetes.io/secrets/"},
		{name: "routes under /openshift.io", path: routesPath, keys: []string{"/openshift.io/routes/ns/r", "/kubernetes.io/routes/ns/r"}, wantPrefix: "/openshift.io/routes/", wantHasKeys: true},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kv := etcdtest.NewKV()
			for _, k := range s.keys {
				kv.Store(k, identityValue())
			}
			d, err := evidence.DetectRoot(context.Background(), kv, s.path)
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("got %+v, %v; want an error containing %q", d, err, s.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Resource.Prefix != s.wantPrefix || d.HasKeys != s.wantHasKeys || !strings.HasPrefix(s.wantPrefix, d.Root+"/") || d.Why == "" {
				t.Errorf("got %+v, want %s with keys %v", d, s.wantPrefix, s.wantHasKeys)
			}
			for _, op := range kv.Calls {
				if op.Limit() != 1 || !op.IsKeysOnly() {
					t.Errorf("a detection read with limit %d, keys only %v", op.Limit(), op.IsKeysOnly())
				}
			}
		})
	}
}

func TestDynamicServingLookup(t *testing.T) {
	crd := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]interface{}{"name": "widgets.example.com"},
		"spec":     map[string]interface{}{"group": "example.com", "names": map[string]interface{}{"plural": "widgets"}},
	}}
	apiService := func(name, group string, service bool) *unstructured.Unstructured {
		spec := map[string]interface{}{"group": group}
		if service {
			spec["service"] = map[string]interface{}{"namespace": "openshift-apiserver", "name": "api"}
		}
		return &unstructured.Unstructured{Object: map[string]interface{}{
			"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
			"metadata": map[string]interface{}{"name": name}, "spec": spec,
		}}
	}
	client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}: "CustomResourceDefinitionList",
		{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}:             "APIServiceList",
	}, crd, apiService("v1.route.openshift.io", "route.openshift.io", true), apiService("v1.apps", "apps", false))
	lookup := &evidence.DynamicServingLookup{Client: client}
	ctx := context.Background()
	var got []bool
	for _, gr := range []schema.GroupResource{{Group: "example.com", Resource: "widgets"}, {Group: "example.com", Resource: "gadgets"}} {
		ok, err := lookup.IsCustomResource(ctx, gr)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ok)
	}
	for _, group := range []string{"route.openshift.io", "apps", "example.com"} {
		ok, err := lookup.IsAggregated(ctx, group)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ok)
	}
	if diff := cmp.Diff([]bool{true, false, true, false, false}, got); diff != "" {
		t.Errorf("widgets CRD, gadgets CRD, route aggregated, apps aggregated, example.com aggregated (-want +got):\n%s", diff)
	}
}
