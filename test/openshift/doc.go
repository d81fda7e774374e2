// Package openshift publishes on a bare kube-apiserver what the rest of an OpenShift cluster publishes around
// kube-apiserver-operator, so that the operator itself, the binary built from
// third_party/cluster-kube-apiserver-operator with hack/integration's patch, runs as it does on a cluster:
//
//   - openshift/api's CRDs at the version kmsguard builds against (crds.go), the TechPreviewNoUpgrade variant
//     where a CRD has feature-set variants, and stand-ins for the two CRDs the operator applies objects of that
//     openshift/api does not ship;
//   - the objects other components publish (publish.go), each grouped under the component that would publish it on
//     a cluster: the cluster-version operator, the installer, etcd-operator, kube-controller-manager-operator, the
//     authentication operator and the kubelets;
//   - the operator process (operator.go): `cluster-kube-apiserver-operator operator` with a kubeconfig, leader
//     election on, and the environment its Deployment sets.
//
// Nothing the operator itself produces is written here.
package openshift
