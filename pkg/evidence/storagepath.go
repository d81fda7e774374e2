package evidence

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Server is the apiserver that stores a resource; it decides the etcd path and the --etcd-prefix in front.
type Server string

const (
	// ServerKube is kube-apiserver serving a resource compiled into it.
	ServerKube Server = "kube-apiserver"
	// ServerCustom is kube-apiserver serving a custom resource of a CustomResourceDefinition.
	ServerCustom Server = "CustomResourceDefinition"
	// ServerOpenShift is openshift-apiserver (routes, builds, images, ...).
	ServerOpenShift Server = "openshift-apiserver"
	// ServerOAuth is oauth-apiserver (OAuth tokens and clients, users, groups, identities).
	ServerOAuth Server = "oauth-apiserver"
)

// Known --etcd-prefix values. kube-apiserver defaults to "/registry"; OpenShift's kube-apiserver to
// "/kubernetes.io" (SetRecommendedKubeAPIServerConfigDefaults in openshift/kubernetes'
// openshift-kube-apiserver/configdefault); openshift-apiserver and oauth-apiserver to "/openshift.io" (see
// openshiftPaths).
const (
	RootRegistry   = "/registry"
	RootKubernetes = "/kubernetes.io"
	RootOpenShift  = "/openshift.io"
)

// kubeRoots are where kube-apiserver's own and custom resources may be: OpenShift's first, as a cluster
// holding keys under both is refused anyway.
var kubeRoots = []string{RootKubernetes, RootRegistry}

// StoragePath is where a resource's objects are stored, relative to its apiserver's --etcd-prefix.
type StoragePath struct {
	GroupResource schema.GroupResource `json:"resource"`
	Server        Server               `json:"server"`
	// Path is the resource's storage path under the prefix: "secrets", "services/specs", "example.com/widgets",
	// "oauth/accesstokens".
	Path string `json:"path"`
	// Roots are the --etcd-prefix values the server is known to use, in the order detection tries them.
	Roots []string `json:"roots"`
}

// Under is the resource stored under the etcd prefix root.
func (p StoragePath) Under(root string) Resource {
	return Resource{GroupResource: p.GroupResource, Prefix: joinPrefix(root, p.Path)}
}

// KubePath is where kube-apiserver stores a resource compiled into it: <resource> whatever the group, except
// for the few resources of specialPrefixes.
func KubePath(gr schema.GroupResource) StoragePath {
	path, ok := specialPrefixes[gr]
	if !ok {
		path = strings.ToLower(gr.Resource)
	}
	return StoragePath{GroupResource: gr, Server: ServerKube, Path: path, Roots: kubeRoots}
}

// CustomResourcePath is where apiextensions-apiserver (inside kube-apiserver) stores a custom resource:
// <group>/<resource> (the storage it builds per CRD in k8s.io/apiextensions-apiserver's
// customresource_handler.go; test/e2e/verify_test.go checks the path on a real kube-apiserver).
func CustomResourcePath(gr schema.GroupResource) StoragePath {
	return StoragePath{GroupResource: gr, Server: ServerCustom, Path: gr.Group + "/" + gr.Resource, Roots: kubeRoots}
}
