package apiserverprobe

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/klog/v2"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// DefaultPort is the port kube-apiserver serves on every OpenShift control-plane node (its static pod uses the
// host network).
const DefaultPort = 6443

// ServiceNetworkServerName is the name to verify the kube-apiserver's serving certificate against when it is
// reached at a node's address. An apiserver asked for a name its certificates do not hold answers with its
// default one, in OpenShift the service network's (kube-apiserver-operator's service-network-serving-certkey),
// which names kubernetes.default.svc and is signed by a CA that an in-cluster client already trusts (the
// service account's ca.crt). The node's IP address is in none of the apiserver's certificates.
const ServiceNetworkServerName = "kubernetes.default.svc"

// NodeOptions tune a NodeProber.
type NodeOptions struct {
	Options
	// Port is the port of every node's kube-apiserver; zero means DefaultPort.
	Port int
}

// NodeProber asks the kube-apiserver of each control-plane node, at https://<InternalIP>:<Port>, as a
// static-pod operator runs them: one per node, on the host network. The nodes are listed at every Probe, so
// that a node that joins or is replaced is asked without a new NodeProber; the answers of the nodes that stay
// are kept across such a change (the metrics baseline, a health check in flight).
//
// A node the Node lister does not know, or one without an InternalIP address, gets a view with only Err set
// ("target: ..."): it could not be asked, which kmsstate does not count as a KMS failure. When the names cannot
// be listed, Probe returns no view at all, and kmsstate judges on the health reports alone.
type NodeProber struct {
	client *http.Client
	names  kmsstate.NodeLister
	nodes  corev1listers.NodeLister
	opts   NodeOptions

	mu sync.Mutex
	// prober asks the targets of the last Probe; nil before the first.
	prober *Prober
	// now is the clock of every view, replaced in tests.
	now func() time.Time
}

// ForNodes returns a NodeProber that asks the kube-apiserver of every node that names lists (for
// kube-apiserver-operator, kmsstate.StaticPodNodes), at the InternalIP address nodes has for it. client carries
// the credentials and the TLS trust: for an OpenShift operator, rest.HTTPClientFor of a copy of its in-cluster
// config with TLSClientConfig.ServerName set to ServiceNetworkServerName.
func ForNodes(client *http.Client, names kmsstate.NodeLister, nodes corev1listers.NodeLister, opts NodeOptions) *NodeProber {
	if opts.Port <= 0 {
		opts.Port = DefaultPort
	}
	return &NodeProber{client: client, names: names, nodes: nodes, opts: opts, now: time.Now}
}

// Probe asks every node's kube-apiserver; see NodeProber. The views are in the order the names were listed.
func (n *NodeProber) Probe(ctx context.Context) []kmsstate.APIServerView {
	names, err := n.names.Nodes(ctx)
	if err != nil {
		klog.ErrorS(err, "kmsstate's apiserver prober could not list the control-plane nodes; no apiserver is asked")
		return nil
	}
	targets := make([]Target, 0, len(names))
	unaddressed := map[string]string{}
	for _, name := range names {
		address, err := n.internalIP(name)
		if err != nil {
			unaddressed[name] = fmt.Sprintf("%s: %v", failureTarget, err)
			continue
		}
		targets = append(targets, Target{NodeName: name, URL: "https://" + net.JoinHostPort(address, strconv.Itoa(n.opts.Port))})
	}

	asked := n.proberFor(targets).Probe(ctx)
	views := make([]kmsstate.APIServerView, 0, len(names))
	for _, name := range names {
		if reason, ok := unaddressed[name]; ok {
			views = append(views, kmsstate.APIServerView{NodeName: name, CheckedAt: n.now(), Err: reason})
			continue
		}
		views = append(views, asked[0])
		asked = asked[1:]
	}
	return views
}

// internalIP returns the first InternalIP address of the named node, the one its kubelet reports first and
// that the kube-apiserver advertises.
func (n *NodeProber) internalIP(name string) (string, error) {
	node, err := n.nodes.Get(name)
	if err != nil {
		return "", fmt.Errorf("node %q: %w", name, err)
	}
	for _, address := range node.Status.Addresses {
		if address.Type == corev1.NodeInternalIP && address.Address != "" {
			return address.Address, nil
		}
	}
	return "", fmt.Errorf("node %q has no %s address", name, corev1.NodeInternalIP)
}

// proberFor returns a Prober for targets: the last one when they are unchanged, else a new one that keeps the
// caches of the targets it shares with the last.
func (n *NodeProber) proberFor(targets []Target) *Prober {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.prober != nil && slices.Equal(n.prober.targets, targets) {
		return n.prober
	}
	next := New(n.client, targets, n.opts.Options)
	next.now = n.now
	if n.prober != nil {
		kept := map[Target]int{}
		for i, t := range n.prober.targets {
			kept[t] = i
		}
		for i, t := range targets {
			if j, ok := kept[t]; ok {
				next.metrics[i], next.healthz[i] = n.prober.metrics[j], n.prober.healthz[j]
			}
		}
	}
	n.prober = next
	return next
}
