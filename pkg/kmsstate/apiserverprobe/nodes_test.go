package apiserverprobe

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// nodeAPIServers are TLS servers on one port at several loopback addresses, as every control-plane node's
// kube-apiserver listens on 6443 at its own address.
type nodeAPIServers struct {
	port int
	// listeners are the bound listeners by address, until start serves on them.
	listeners map[string]net.Listener
	// client trusts httptest's certificate for the name it holds (example.com), not for the addresses, as an
	// operator verifies a node's apiserver by ServiceNetworkServerName.
	client *http.Client
}

// newNodeAPIServers binds one port at each of addresses. The port is chosen at the first address; when another
// process holds it at one of the others, another port is tried.
func newNodeAPIServers(t *testing.T, addresses ...string) *nodeAPIServers {
	t.Helper()
	probe := httptest.NewTLSServer(http.NotFoundHandler())
	client := probe.Client()
	probe.Close()
	transport := client.Transport.(*http.Transport).Clone()
	transport.TLSClientConfig = transport.TLSClientConfig.Clone()
	transport.TLSClientConfig.ServerName = "example.com"
	s := &nodeAPIServers{client: &http.Client{Transport: transport}}
	var lastErr error
	for range 20 {
		first, err := net.Listen("tcp", net.JoinHostPort(addresses[0], "0"))
		if err != nil {
			t.Fatal(err)
		}
		s.port = first.Addr().(*net.TCPAddr).Port
		s.listeners = map[string]net.Listener{addresses[0]: first}
		for _, address := range addresses[1:] {
			l, err := net.Listen("tcp", net.JoinHostPort(address, strconv.Itoa(s.port)))
			if err != nil {
				lastErr = err
				break
			}
			s.listeners[address] = l
		}
		if len(s.listeners) == len(addresses) {
			for _, l := range s.listeners {
				t.Cleanup(func() { _ = l.Close() })
			}
			return s
		}
		for _, l := range s.listeners {
			_ = l.Close()
		}
	}
	t.Fatalf("no port free at all of %v: %v", addresses, lastErr)
	return nil
}

// start serves the health check and metrics at address on the shared port until the test ends.
func (s *nodeAPIServers) start(t *testing.T, address string, healthz, metrics http.HandlerFunc) {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+kmsHealthzPath, healthz)
	mux.HandleFunc("GET "+metricsPath, metrics)
	l, ok := s.listeners[address]
	if !ok {
		t.Fatalf("no listener at %s", address)
	}
	server := &httptest.Server{Listener: l, Config: &http.Server{Handler: mux, ErrorLog: log.New(io.Discard, "", 0)}}
	server.StartTLS()
	t.Cleanup(server.Close)
}

// nodeLister is a lister over nodes, each with the InternalIP given, or no address when it is empty.
func nodeLister(t *testing.T, internalIPs map[string]string) corev1listers.NodeLister {
	t.Helper()
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for name, ip := range internalIPs {
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
		node.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeHostName, Address: name}}
		if ip != "" {
			node.Status.Addresses = append(node.Status.Addresses,
				corev1.NodeAddress{Type: corev1.NodeInternalIP, Address: ip}, corev1.NodeAddress{Type: corev1.NodeInternalIP, Address: "127.0.0.9"})
		}
		if err := indexer.Add(node); err != nil {
			t.Fatal(err)
		}
	}
	return corev1listers.NewNodeLister(indexer)
}

func names(nodes ...string) kmsstate.NodeLister {
	return kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return nodes, nil })
}

// TestNodeProberAsksEachNodeAtItsInternalIP: each listed node's apiserver is asked at its first InternalIP on
// the one port, and its view carries its own answer; a node that cannot be addressed gets a view that says why,
// in the listed order, and is not asked.
func TestNodeProberAsksEachNodeAtItsInternalIP(t *testing.T) {
	fixture := readFixture(t)
	servers := newNodeAPIServers(t, "127.0.0.2", "127.0.0.3")
	healthy, failing := &countingServer{}, &countingServer{}
	healthy.set(http.StatusOK, fixture)
	failing.set(http.StatusOK, fixture)
	servers.start(t, "127.0.0.2", healthy.serveHealthz, healthy.serveMetrics)
	servers.start(t, "127.0.0.3", healthzFailing, failing.serveMetrics)

	lister := nodeLister(t, map[string]string{"master-0": "127.0.0.2", "master-1": "127.0.0.3", "master-2": ""})
	p := ForNodes(servers.client, names("master-1", "master-2", "master-0", "master-3"), lister, NodeOptions{Port: servers.port})
	p.now = func() time.Time { return checkedAt }
	views := p.Probe(context.Background())

	var got []string
	for _, v := range views {
		got = append(got, v.NodeName)
		if !v.CheckedAt.Equal(checkedAt) {
			t.Errorf("%s: CheckedAt %s, want the prober's clock", v.NodeName, v.CheckedAt)
		}
	}
	if want := "master-1 master-2 master-0 master-3"; strings.Join(got, " ") != want {
		t.Fatalf("views for %v, want %s", got, want)
	}
	if v := views[2]; v.Err != "" || v.KMSHealthz == nil || !v.KMSHealthz.OK || v.Metrics == nil {
		t.Errorf("master-0 (127.0.0.2, healthy): %+v, want a passing check and a sample", v)
	}
	if v := views[0]; v.KMSHealthz == nil || v.KMSHealthz.OK || !strings.Contains(v.KMSHealthz.Detail, "kms-provider-0") || v.Metrics == nil {
		t.Errorf("master-1 (127.0.0.3, failing): %+v, want its failing check and a sample", v)
	}
	for i, want := range map[int]string{1: `target: node "master-2" has no InternalIP address`, 3: `target: node "master-3": node "master-3" not found`} {
		if v := views[i]; v.Err != want || v.KMSHealthz != nil || v.Metrics != nil {
			t.Errorf("%s: %+v, want only Err %q", v.NodeName, v, want)
		}
	}
	if healthy.healthz.Load() != 1 || healthy.metrics.Load() != 1 || failing.metrics.Load() != 1 {
		t.Errorf("asked master-0 %d/%d and master-1 -/%d times (health check/metrics), want once each",
			healthy.healthz.Load(), healthy.metrics.Load(), failing.metrics.Load())
	}
}

// TestNodeProberFollowsTheNodes: a node that joins is asked from the next Probe; the nodes that stay keep their
// metrics baseline (no read before the interval), and a node whose address changed is asked at the new one.
func TestNodeProberFollowsTheNodes(t *testing.T) {
	fixture := readFixture(t)
	servers := newNodeAPIServers(t, "127.0.0.2", "127.0.0.3", "127.0.0.4")
	apis := map[string]*countingServer{}
	for _, address := range []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"} {
		apis[address] = &countingServer{}
		apis[address].set(http.StatusOK, fixture)
		servers.start(t, address, apis[address].serveHealthz, apis[address].serveMetrics)
	}
	listed := []string{"master-0"}
	lister := kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return listed, nil })
	addresses := map[string]string{"master-0": "127.0.0.2", "master-1": "127.0.0.3"}
	p := ForNodes(servers.client, lister, nodeLister(t, addresses), NodeOptions{Port: servers.port, Options: Options{MetricsInterval: time.Hour}})
	p.now = func() time.Time { return checkedAt }

	probe := func(step string) []kmsstate.APIServerView {
		t.Helper()
		views := p.Probe(context.Background())
		for _, v := range views {
			if v.Err != "" || v.Metrics == nil {
				t.Fatalf("%s: %s: %+v, want a sample and no error", step, v.NodeName, v)
			}
		}
		return views
	}
	reads := func(step string, want map[string]int64) {
		t.Helper()
		for address, n := range want {
			if got := apis[address].metrics.Load(); got != n {
				t.Errorf("%s: /metrics at %s read %d times, want %d", step, address, got, n)
			}
		}
	}

	first := probe("one node")
	reads("one node", map[string]int64{"127.0.0.2": 1, "127.0.0.3": 0})
	listed = []string{"master-0", "master-1"}
	joined := probe("a node joined")
	reads("a node joined", map[string]int64{"127.0.0.2": 1, "127.0.0.3": 1})
	if joined[0].Metrics != first[0].Metrics {
		t.Error("master-0's sample was read again when master-1 joined: its baseline was lost")
	}
	// master-1 is replaced by a machine at another address under the same name.
	p.nodes = nodeLister(t, map[string]string{"master-0": "127.0.0.2", "master-1": "127.0.0.4"})
	probe("master-1 moved")
	reads("master-1 moved", map[string]int64{"127.0.0.2": 1, "127.0.0.3": 1, "127.0.0.4": 1})
}

// TestNodeProberWithoutNodes: when the nodes cannot be listed, nothing is asked and no view is given, so that
// kmsstate judges on the health reports alone rather than on views that say nothing.
func TestNodeProberWithoutNodes(t *testing.T) {
	lister := kmsstate.NodeListerFunc(func(context.Context) ([]string, error) { return nil, errors.New("operator status unreadable") })
	p := ForNodes(http.DefaultClient, lister, nodeLister(t, nil), NodeOptions{})
	if views := p.Probe(context.Background()); views != nil {
		t.Errorf("views %+v, want none", views)
	}
	if p.opts.Port != DefaultPort {
		t.Errorf("port %d, want DefaultPort", p.opts.Port)
	}
}
