package etcdclient

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/klog/v2"
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
// (library-go's ObserveStorageURLsToArgumentsWithAlwaysLocal) makes kube-apiserver's --etcd-servers: an address
// that is not an IP, or one of the documentation ranges the installer writes as a placeholder (192.0.2.0/24,
// 2001:db8::/32), is left out and logged, and the others are kept. Unlike there, https://localhost:2379 is not
// added: an operator's pod is not on a control-plane node. No member left is an error.
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
		var skipped []string
		for _, address := range addresses {
			ip := net.ParseIP(address)
			switch {
			case ip == nil:
				skipped = append(skipped, fmt.Sprintf("%q is not an IP address", address))
			case placeholder(ip):
				skipped = append(skipped, fmt.Sprintf("%s is a reserved documentation address", ip))
			default:
				endpoints = append(endpoints, "https://"+net.JoinHostPort(ip.String(), etcdClientPort))
			}
		}
		slices.Sort(skipped)
		if len(skipped) > 0 {
			klog.Warningf("%s/%s: left out: %s", OpenShiftEndpointsNamespace, OpenShiftEndpointsConfigMap, strings.Join(skipped, "; "))
		}
		if len(endpoints) == 0 {
			if len(skipped) > 0 {
				return nil, fmt.Errorf("%s/%s lists no usable etcd member: %s", OpenShiftEndpointsNamespace, OpenShiftEndpointsConfigMap, strings.Join(skipped, "; "))
			}
			return nil, fmt.Errorf("%s/%s lists no etcd member", OpenShiftEndpointsNamespace, OpenShiftEndpointsConfigMap)
		}
		slices.Sort(endpoints)
		return slices.Compact(endpoints), nil
	}
}

// documentationRanges are the address ranges reserved for documentation, which the installer's placeholders use
// and library-go refuses as etcd members.
var documentationRanges = []*net.IPNet{mustCIDR("192.0.2.0/24"), mustCIDR("2001:db8::/32")}

func placeholder(ip net.IP) bool {
	return slices.ContainsFunc(documentationRanges, func(n *net.IPNet) bool { return n.Contains(ip) })
}

func mustCIDR(s string) *net.IPNet {
	_, n, err := net.ParseCIDR(s)
	if err != nil {
		panic(err)
	}
	return n
}
