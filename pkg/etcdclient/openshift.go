package etcdclient

import (
	"context"
	"fmt"
	"net"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// Where cluster-etcd-operator publishes etcd's members: a ConfigMap whose data maps each member's id to its IP
// address, and whose annotation holds the bootstrap member's address while there is one. library-go's
// configobserver/etcd reads the same names (unexported there) to build kube-apiserver's --etcd-servers.
const (
	OpenShiftEndpointsNamespace = "openshift-etcd"
	OpenShiftEndpointsConfigMap = "etcd-endpoints"
	bootstrapIPAnnotation       = "alpha.installer.openshift.io/etcd-bootstrap"
	etcdClientPort              = "2379"
)

// OpenShiftEndpoints lists etcd's client URLs from openshift-etcd/etcd-endpoints, https://<member IP>:2379 for
// every member and the bootstrap member, sorted, as kube-apiserver-operator's config observer
// (library-go's ObserveStorageURLsToArgumentsWithAlwaysLocal) makes kube-apiserver's --etcd-servers, less the
// https://localhost:2379 it adds: an operator's pod is not on a control-plane node. An address that is not an IP
// is an error, as there, rather than a member silently left out.
func OpenShiftEndpoints(configMaps corev1client.ConfigMapsGetter) EndpointSource {
	return func(ctx context.Context) ([]string, error) {
		cm, err := configMaps.ConfigMaps(OpenShiftEndpointsNamespace).Get(ctx, OpenShiftEndpointsConfigMap, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		addresses := make([]string, 0, len(cm.Data)+1)
		for _, address := range cm.Data {
			addresses = append(addresses, address)
		}
		if address, ok := cm.Annotations[bootstrapIPAnnotation]; ok {
			addresses = append(addresses, address)
		}
		endpoints := make([]string, 0, len(addresses))
		for _, address := range addresses {
			ip := net.ParseIP(address)
			if ip == nil {
				return nil, fmt.Errorf("%s/%s: %q is not an IP address", OpenShiftEndpointsNamespace, OpenShiftEndpointsConfigMap, address)
			}
			endpoints = append(endpoints, "https://"+net.JoinHostPort(ip.String(), etcdClientPort))
		}
		if len(endpoints) == 0 {
			return nil, fmt.Errorf("%s/%s lists no etcd member", OpenShiftEndpointsNamespace, OpenShiftEndpointsConfigMap)
		}
		slices.Sort(endpoints)
		return slices.Compact(endpoints), nil
	}
}
