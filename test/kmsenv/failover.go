package kmsenv

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"syscall"

	"k8s.io/client-go/rest"
)

// FailoverRESTConfig returns an admin client config that reaches whichever kube-apiserver of the control plane
// answers, as clients in a cluster reach the apiservers through a load balancer: a request goes to the
// apiserver that answered last, and one that cannot be connected to (stopped for a restart) is skipped for
// the next. Controllers and node agents that must keep working while the apiservers restart one at a time use
// it.
//
// It balances on the client side because each envtest kube-apiserver has its own serving CA and client CA, so
// one TLS identity cannot be forwarded to all of them by a TCP load balancer. Only a request that could not be
// sent (connection refused) or that an apiserver shutting down rejected (429) moves on to the next apiserver,
// so no request is applied twice; a watch cut by a shutdown ends as it would behind a load balancer, and
// client-go starts a new one.
func (cp *ControlPlane) FailoverRESTConfig() (*rest.Config, error) {
	cp.mu.Lock()
	apiServers := append([]*APIServer(nil), cp.apiServers...)
	cp.mu.Unlock()
	if len(apiServers) == 0 {
		return nil, errors.New("no kube-apiserver to fail over between")
	}
	t := &failoverTransport{}
	for _, a := range apiServers {
		cfg := a.RESTConfig()
		if cfg == nil {
			return nil, fmt.Errorf("kube-apiserver-%d has not started yet", a.index)
		}
		u, err := url.Parse(cfg.Host)
		if err != nil {
			return nil, err
		}
		rt, err := rest.TransportFor(cfg)
		if err != nil {
			return nil, err
		}
		t.backends = append(t.backends, backend{url: u, transport: rt})
	}
	first := apiServers[0].RESTConfig()
	return &rest.Config{
		Host:      first.Host,
		Transport: t,
		QPS:       first.QPS,
		Burst:     first.Burst,
	}, nil
}

type backend struct {
	url       *url.URL
	transport http.RoundTripper
}

type failoverTransport struct {
	backends []backend

	mu sync.Mutex
	// preferred is the backend that answered last.
	preferred int
}

func (t *failoverTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.mu.Lock()
	start := t.preferred
	t.mu.Unlock()
	var lastErr error
	for i := range t.backends {
		index := (start + i) % len(t.backends)
		b := t.backends[index]
		attempt := req.Clone(req.Context())
		attempt.URL.Scheme, attempt.URL.Host, attempt.Host = b.url.Scheme, b.url.Host, ""
		if i > 0 && req.Body != nil && req.Body != http.NoBody {
			if req.GetBody == nil {
				return nil, lastErr // the body is gone with the first attempt
			}
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			attempt.Body = body
		}
		resp, err := b.transport.RoundTrip(attempt)
		if err == nil && resp.StatusCode == http.StatusTooManyRequests && i < len(t.backends)-1 && replayable(req) {
			// A kube-apiserver shutting down with --shutdown-send-retry-after rejects new requests with 429
			// until it closes its port; a load balancer would have taken it out already (its /readyz fails).
			// The request was rejected, not applied, so the next apiserver may take it.
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			lastErr = fmt.Errorf("%s answered %s", b.url.Host, resp.Status)
			continue
		}
		if err == nil {
			t.mu.Lock()
			t.preferred = index
			t.mu.Unlock()
			return resp, nil
		}
		if !notConnected(err) {
			return nil, err
		}
		lastErr = err
	}
	return nil, lastErr
}

// replayable says whether req can be sent again: it has no body, or one GetBody recreates.
func replayable(req *http.Request) bool {
	return req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
}

// notConnected says whether err means the request never reached a server, so sending it elsewhere cannot
// apply it twice.
func notConnected(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}
