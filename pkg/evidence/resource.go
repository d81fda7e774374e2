package evidence

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// DefaultEtcdPrefix is upstream kube-apiserver's default --etcd-prefix. OpenShift's apiservers use others
// (RootKubernetes, RootOpenShift); DetectRoot finds the one a resource is stored under.
const DefaultEtcdPrefix = RootRegistry

// Resource is one encrypted resource and the etcd prefix its objects are stored under.
type Resource struct {
	// GroupResource names the resource in reports, and lets a Sampler read its objects through the API.
	GroupResource schema.GroupResource `json:"resource"`
	// Prefix is the etcd key prefix of the resource's objects, ending in "/"; the object
	// <namespace>/<name> (or <name>, cluster-scoped) is stored at Prefix + "<namespace>/<name>".
	Prefix string `json:"prefix"`
}

// specialPrefixes are kube-apiserver's compiled-in storage paths that differ from the resource name
// (SpecialDefaultResourcePrefixes in k8s.io/kubernetes/pkg/kubeapiserver/default_storage_factory_builder.go).
var specialPrefixes = map[schema.GroupResource]string{
	{Group: "", Resource: "replicationcontrollers"}:     "controllers",
	{Group: "", Resource: "endpoints"}:                  "services/endpoints",
	{Group: "", Resource: "nodes"}:                      "minions",
	{Group: "", Resource: "services"}:                   "services/specs",
	{Group: "extensions", Resource: "ingresses"}:        "ingress",
	{Group: "networking.k8s.io", Resource: "ingresses"}: "ingress",
}

// BuiltInResource is where kube-apiserver stores a resource it serves itself: <etcdPrefix>/<resource>/ (for
// example /registry/secrets/ or /registry/deployments/), whatever the group, except for the few resources of
// specialPrefixes. It does not know about --storage-backend overrides set with --etcd-servers-overrides.
func BuiltInResource(etcdPrefix string, gr schema.GroupResource) Resource {
	return KubePath(gr).Under(etcdPrefix)
}

// CustomResource is where apiextensions-apiserver stores a custom resource: <etcdPrefix>/<group>/<resource>/.
func CustomResource(etcdPrefix string, gr schema.GroupResource) Resource {
	return CustomResourcePath(gr).Under(etcdPrefix)
}

// joinPrefix joins an --etcd-prefix and a storage path into a key prefix ending in "/". kube-apiserver
// accepts --etcd-prefix with or without slashes ("registry", "/registry/") and stores under "/registry/..."
// either way.
func joinPrefix(etcdPrefix, path string) string {
	return "/" + strings.Trim(strings.Trim(etcdPrefix, "/")+"/"+path, "/") + "/"
}

// validate rejects prefixes that would count other resources' objects: without the trailing "/",
// "/registry/secrets" also matches "/registry/secretsbackup/...".
func (r Resource) validate() error {
	if r.Prefix == "" || r.Prefix == "/" || !strings.HasSuffix(r.Prefix, "/") {
		return fmt.Errorf("resource %s: etcd prefix %q must be a path ending in \"/\"", r.GroupResource, r.Prefix)
	}
	return nil
}

// objectName splits an etcd key under r.Prefix into the namespace (empty when cluster-scoped) and name of the
// object stored there.
func (r Resource) objectName(key string) (namespace, name string, err error) {
	rest, ok := strings.CutPrefix(key, r.Prefix)
	if !ok || rest == "" {
		return "", "", fmt.Errorf("key %q is not an object under %q", key, r.Prefix)
	}
	parts := strings.Split(rest, "/")
	switch {
	case len(parts) == 1:
		return "", parts[0], nil
	case len(parts) == 2 && parts[0] != "" && parts[1] != "":
		return parts[0], parts[1], nil
	default:
		return "", "", fmt.Errorf("key %q is not <namespace>/<name> or <name> under %q", key, r.Prefix)
	}
}
