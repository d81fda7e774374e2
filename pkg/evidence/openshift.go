package evidence

import "k8s.io/apimachinery/pkg/runtime/schema"

// OpenShift's aggregated apiservers store their resources under their own --etcd-prefix, "/openshift.io", at
// <resource> except for a few compiled-in paths. Sources:
//
//   - openshift-apiserver: the prefix is defaulted by SetRecommendedOpenShiftAPIServerConfigDefaults
//     (storageConfig.storagePrefix "openshift.io", which the operator's bindata/v3.11.0/config/defaultconfig.yaml
//     leaves unset); the special paths are specialDefaultResourcePrefixes in openshift/openshift-apiserver
//     pkg/cmd/openshift-apiserver/openshiftapiserver/restoptionsgetter.go; the groups it serves are the
//     APIServices of openshift/cluster-openshift-apiserver-operator pkg/operator/starter.go, which encrypts
//     routes.route.openshift.io (encryption.StaticEncryptionProvider there).
//   - oauth-apiserver: etcdStoragePrefix "openshift.io" and specialDefaultResourcePrefixes in
//     openshift/oauth-apiserver pkg/cmd/oauth-apiserver/cmd.go; openshift/cluster-authentication-operator
//     encrypts oauthaccesstokens and oauthauthorizetokens of oauth.openshift.io
//     (pkg/operator/encryptionprovider/encyrptionprovider.go).

// openshiftServers are the API groups each OpenShift apiserver serves.
var openshiftServers = map[string]Server{
	"apps.openshift.io":          ServerOpenShift,
	"authorization.openshift.io": ServerOpenShift,
	"build.openshift.io":         ServerOpenShift,
	"image.openshift.io":         ServerOpenShift,
	"project.openshift.io":       ServerOpenShift,
	"quota.openshift.io":         ServerOpenShift,
	"route.openshift.io":         ServerOpenShift,
	"security.openshift.io":      ServerOpenShift,
	"template.openshift.io":      ServerOpenShift,
	"oauth.openshift.io":         ServerOAuth,
	"user.openshift.io":          ServerOAuth,
}

// openshiftSpecialPaths are the compiled-in storage paths of both servers that differ from the resource name.
var openshiftSpecialPaths = map[schema.GroupResource]string{
	{Group: "oauth.openshift.io", Resource: "oauthaccesstokens"}:         "oauth/accesstokens",
	{Group: "oauth.openshift.io", Resource: "oauthauthorizetokens"}:      "oauth/authorizetokens",
	{Group: "oauth.openshift.io", Resource: "oauthclients"}:              "oauth/clients",
	{Group: "oauth.openshift.io", Resource: "oauthclientauthorizations"}: "oauth/clientauthorizations",
	{Group: "user.openshift.io", Resource: "identities"}:                 "useridentities",

	{Group: "authorization.openshift.io", Resource: "clusterpolicies"}:       "authorization/cluster/policies",
	{Group: "authorization.openshift.io", Resource: "clusterpolicybindings"}: "authorization/cluster/policybindings",
	{Group: "authorization.openshift.io", Resource: "policies"}:              "authorization/local/policies",
	{Group: "authorization.openshift.io", Resource: "policybindings"}:        "authorization/local/policybindings",
}

// OpenShiftPath is where openshift-apiserver or oauth-apiserver stores gr, and false when neither serves its
// group. Resources of these groups that are CustomResourceDefinitions on a cluster (some topologies serve
// routes that way) are custom resources instead: ResolveStoragePath asks the API first.
func OpenShiftPath(gr schema.GroupResource) (StoragePath, bool) {
	server, ok := openshiftServers[gr.Group]
	if !ok {
		return StoragePath{}, false
	}
	path, ok := openshiftSpecialPaths[gr]
	if !ok {
		path = gr.Resource
	}
	return StoragePath{GroupResource: gr, Server: server, Path: path, Roots: []string{RootOpenShift}}, true
}
