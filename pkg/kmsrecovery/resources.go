package kmsrecovery

import (
	"fmt"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
)

// Resource is an encrypted resource as the dynamic client and pagedlist need it.
type Resource struct {
	schema.GroupVersionResource
	// Namespaced tells whether the resource's etcd keys end in <namespace>/<name> (true) or <name>.
	Namespaced bool
}

// DefaultResources are the resources OpenShift's apiserver operators encrypt when spec.encryption.type is set
// on the APIServer config: secrets and configmaps (kube-apiserver), routes (openshift-apiserver), OAuth access
// and authorize tokens (oauth-apiserver). They are the defaults of `kmsguard recover --resources`; an operator
// passes the resources its own encryption controllers encrypt.
var DefaultResources = []schema.GroupResource{
	{Resource: "secrets"},
	{Resource: "configmaps"},
	{Group: "route.openshift.io", Resource: "routes"},
	{Group: "oauth.openshift.io", Resource: "oauthaccesstokens"},
	{Group: "oauth.openshift.io", Resource: "oauthauthorizetokens"},
}

// Skipped is a resource Resolve could not resolve, and why.
type Skipped struct {
	Resource schema.GroupResource `json:"resource"`
	Reason   string               `json:"reason"`
}

// Resolve looks the resources up in discovery: the preferred version of each group and whether the resource is
// namespaced. Resources the server does not serve (an OpenShift resource on a plain Kubernetes apiserver) or
// cannot serve now (an aggregated apiserver that is down) are returned in skipped rather than failing the
// whole resolution; a failed discovery of the groups themselves is an error.
func Resolve(client discovery.DiscoveryInterface, resources []schema.GroupResource) (served []Resource, skipped []Skipped, err error) {
	groups, err := client.ServerGroups()
	if err != nil {
		return nil, nil, fmt.Errorf("discovering API groups: %w", err)
	}
	preferred := map[string]string{}
	for _, g := range groups.Groups {
		preferred[g.Name] = g.PreferredVersion.Version
	}
	for _, gr := range resources {
		version, ok := preferred[gr.Group]
		if !ok {
			skipped = append(skipped, Skipped{Resource: gr, Reason: "not served"})
			continue
		}
		gv := schema.GroupVersion{Group: gr.Group, Version: version}
		list, err := client.ServerResourcesForGroupVersion(gv.String())
		if apierrors.IsNotFound(err) {
			skipped = append(skipped, Skipped{Resource: gr, Reason: "not served"})
			continue
		}
		if apierrors.IsServiceUnavailable(err) {
			skipped = append(skipped, Skipped{Resource: gr, Reason: "its apiserver is unavailable: " + err.Error()})
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("discovering %s: %w", gv, err)
		}
		found := false
		for _, r := range list.APIResources {
			if r.Name == gr.Resource {
				served = append(served, Resource{GroupVersionResource: gv.WithResource(gr.Resource), Namespaced: r.Namespaced})
				found = true
				break
			}
		}
		if !found {
			skipped = append(skipped, Skipped{Resource: gr, Reason: "not served"})
		}
	}
	sort.Slice(skipped, func(i, j int) bool { return skipped[i].Resource.String() < skipped[j].Resource.String() })
	return served, skipped, nil
}
