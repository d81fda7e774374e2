package kmsrecovery_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	discoveryfake "k8s.io/client-go/discovery/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
)

// TestResolve: served resources get their preferred version and scope; the others are skipped with a reason.
func TestResolve(t *testing.T) {
	disc := &discoveryfake.FakeDiscovery{Fake: &clienttesting.Fake{Resources: []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{{Name: "secrets", Namespaced: true}, {Name: "configmaps", Namespaced: true}}},
		{GroupVersion: "oauth.openshift.io/v1", APIResources: []metav1.APIResource{{Name: "oauthaccesstokens"}}},
	}}}
	served, skipped, err := kmsrecovery.Resolve(disc, kmsrecovery.DefaultResources)
	if err != nil {
		t.Fatal(err)
	}
	want := []kmsrecovery.Resource{
		{GroupVersionResource: schema.GroupVersionResource{Version: "v1", Resource: "secrets"}, Namespaced: true},
		{GroupVersionResource: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Namespaced: true},
		{GroupVersionResource: schema.GroupVersionResource{Group: "oauth.openshift.io", Version: "v1", Resource: "oauthaccesstokens"}},
	}
	if diff := cmp.Diff(want, served); diff != "" {
		t.Errorf("served (-want +got):\n%s", diff)
	}
	wantSkipped := []kmsrecovery.Skipped{
		{Resource: schema.GroupResource{Group: "oauth.openshift.io", Resource: "oauthauthorizetokens"}, Reason: "not served"},
		{Resource: schema.GroupResource{Group: "route.openshift.io", Resource: "routes"}, Reason: "not served"},
	}
	if diff := cmp.Diff(wantSkipped, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}
