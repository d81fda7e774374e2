package lab

import (
	"fmt"
	"net/http"
	"net/url"
	"time"

	"k8s.io/client-go/rest"

	"github.com/kmsguard/kmsguard/pkg/kmsstate/apiserverprobe"
)

// apiServerProber is kmsstate's view of each node's kube-apiserver: its /healthz/kms-providers and KMS metrics.
//
// Adapter: in a cluster every kube-apiserver has a serving certificate from the same CA and accepts the same
// client certificate, so apiserverprobe.NewForConfig's one HTTP client reaches them all. envtest gives each lab
// apiserver a CA and admin credentials of its own, so the client here routes each request to the transport of
// the apiserver it is for. A shared serving CA in test/kmsenv would remove this.
func apiServerProber(nodes []*Node, reportInterval time.Duration) (*apiserverprobe.Prober, error) {
	routes := hostTransports{}
	targets := make([]apiserverprobe.Target, 0, len(nodes))
	for _, n := range nodes {
		cfg := n.APIServer().RESTConfig()
		if cfg == nil {
			return nil, fmt.Errorf("%s: its kube-apiserver has not started", n.Name())
		}
		u, err := url.Parse(cfg.Host)
		if err != nil {
			return nil, err
		}
		transport, err := rest.TransportFor(cfg)
		if err != nil {
			return nil, err
		}
		routes[u.Host] = transport
		targets = append(targets, apiserverprobe.Target{NodeName: n.Name(), URL: cfg.Host})
	}
	return apiserverprobe.New(&http.Client{Transport: routes}, targets, apiserverprobe.Options{MetricsInterval: reportInterval}), nil
}

// hostTransports sends each request with the transport of its host.
type hostTransports map[string]http.RoundTripper

func (h hostTransports) RoundTrip(req *http.Request) (*http.Response, error) {
	transport, ok := h[req.URL.Host]
	if !ok {
		return nil, fmt.Errorf("no lab kube-apiserver at %s", req.URL.Host)
	}
	return transport.RoundTrip(req)
}
