// Package etcdclient connects kmsguard's read-only etcd scans (kmsguard verify, kmsguard recover, an operator's
// CensusController) to the etcd cluster of the apiservers, and fails fast with the real reason when it
// cannot.
//
// etcd's client connects lazily: a wrong CA, a refused port or a client certificate etcd rejects all surface
// later as the first request's "context deadline exceeded", after the request's whole timeout. A scan bounded by
// 30 minutes would wait that long to say nothing useful. Connect therefore checks every endpoint first, with a
// short timeout, at the layer that fails: TCP (DNS, refused), TLS (the server's certificate), HTTP/2 (a client
// certificate the server rejects, which TLS 1.3 reports only after the handshake), then etcd itself (Status).
package etcdclient

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/transport"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"golang.org/x/net/http2"
)

// DefaultDialTimeout bounds the check of one endpoint: a healthy etcd member answers in milliseconds, and a
// command that is going to fail should say so before its user gives up on it.
const DefaultDialTimeout = 5 * time.Second

// Config is how to reach etcd: the flags --etcd-endpoints, --etcd-cacert, --etcd-cert and --etcd-key of
// kmsguard's commands.
type Config struct {
	// Endpoints are client URLs: https://host:2379, or http://host:2379 for a local test etcd without TLS.
	Endpoints []string
	// CAFile is the bundle that signed etcd's serving certificates; empty uses the system roots.
	CAFile string
	// CertFile and KeyFile are the client certificate and key, both or neither.
	CertFile, KeyFile string
	// DialTimeout bounds the check of each endpoint; DefaultDialTimeout when zero.
	DialTimeout time.Duration
}

// tlsFlags reports whether any certificate flag is given.
func (c Config) tlsFlags() bool { return c.CAFile != "" || c.CertFile != "" || c.KeyFile != "" }

// Validate rejects a config that would connect differently than its user thinks. In particular it refuses
// http:// endpoints together with certificate flags: etcd's client would connect in plaintext and ignore the
// certificates without a word.
func (c Config) Validate() error {
	if len(c.Endpoints) == 0 {
		return errors.New("no etcd endpoints given")
	}
	if (c.CertFile == "") != (c.KeyFile == "") {
		return errors.New("the etcd client certificate and key go together: give both --etcd-cert and --etcd-key, or neither")
	}
	schemes := map[string]bool{}
	for _, ep := range c.Endpoints {
		u, err := url.Parse(ep)
		if err != nil || u.Host == "" {
			return fmt.Errorf("etcd endpoint %q is not a URL such as https://10.0.0.1:2379", ep)
		}
		switch u.Scheme {
		case "https":
		case "http":
			if c.tlsFlags() {
				return fmt.Errorf("etcd endpoint %q is plaintext http, but certificate flags are given: use https:// or drop the flags", ep)
			}
		default:
			return fmt.Errorf("etcd endpoint %q: scheme %q is not http or https", ep, u.Scheme)
		}
		schemes[u.Scheme] = true
	}
	if len(schemes) > 1 {
		return errors.New("etcd endpoints mix http and https")
	}
	return nil
}

// TLSConfig is the client TLS configuration, built with etcd's own transport helpers; nil for http endpoints.
func (c Config) TLSConfig() (*tls.Config, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if u, _ := url.Parse(c.Endpoints[0]); u.Scheme == "http" {
		return nil, nil
	}
	info := transport.TLSInfo{CertFile: c.CertFile, KeyFile: c.KeyFile, TrustedCAFile: c.CAFile, Logger: zap.NewNop()}
	config, err := info.ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("loading the etcd TLS files: %w", err)
	}
	return config, nil
}

// Connect validates c, checks every endpoint (see the package documentation) and returns a client. The error
// names the endpoint and the layer that failed. The caller closes the client.
func Connect(ctx context.Context, c Config) (*clientv3.Client, error) {
	tlsConfig, err := c.TLSConfig()
	if err != nil {
		return nil, err
	}
	return connect(ctx, c.Endpoints, tlsConfig, c.DialTimeout)
}

// connect checks every endpoint with tlsConfig (nil for http) and returns a client of them.
func connect(ctx context.Context, endpoints []string, tlsConfig *tls.Config, timeout time.Duration) (*clientv3.Client, error) {
	if timeout <= 0 {
		timeout = DefaultDialTimeout
	}
	for _, ep := range endpoints {
		if err := probe(ctx, ep, tlsConfig, timeout); err != nil {
			return nil, err
		}
	}
	client, err := clientv3.New(clientv3.Config{
		Endpoints:   endpoints,
		TLS:         tlsConfig,
		DialTimeout: timeout,
		// The commands print their own errors; etcd's client would add zap lines for every retry.
		Logger: zap.NewNop(),
	})
	if err != nil {
		return nil, fmt.Errorf("connecting to etcd: %w", err)
	}
	for _, ep := range endpoints {
		statusCtx, cancel := context.WithTimeout(ctx, timeout)
		_, err := client.Status(statusCtx, ep)
		cancel()
		if err != nil {
			client.Close()
			return nil, fmt.Errorf("etcd endpoint %s: status: %w", ep, err)
		}
	}
	return client, nil
}

// probe connects to one endpoint and exchanges the HTTP/2 connection preface with it, which is what gRPC does
// first. A server that accepts the connection answers with its SETTINGS frame; one that refuses the client
// certificate answers with a TLS alert instead.
func probe(ctx context.Context, endpoint string, tlsConfig *tls.Config, timeout time.Duration) error {
	u, err := url.Parse(endpoint)
	if err != nil {
		return fmt.Errorf("etcd endpoint %q: %w", endpoint, err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	fail := func(step string, err error) error {
		if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
			return fmt.Errorf("etcd endpoint %s: %s: no answer within %s", endpoint, step, timeout)
		}
		return fmt.Errorf("etcd endpoint %s: %s: %w", endpoint, step, err)
	}

	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return fail("connecting", err)
	}
	defer conn.Close()
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	if tlsConfig != nil {
		config := tlsConfig.Clone()
		if config.ServerName == "" {
			config.ServerName = u.Hostname()
		}
		config.NextProtos = []string{http2.NextProtoTLS}
		tlsConn := tls.Client(conn, config)
		if err := tlsConn.HandshakeContext(ctx); err != nil {
			return fail("TLS handshake", err)
		}
		conn = tlsConn
	}
	if _, err := conn.Write([]byte(http2.ClientPreface)); err != nil {
		return fail("HTTP/2 preface", alertOr(conn, err))
	}
	framer := http2.NewFramer(conn, conn)
	if err := framer.WriteSettings(); err != nil {
		return fail("HTTP/2 preface", alertOr(conn, err))
	}
	frame, err := framer.ReadFrame()
	if err != nil {
		return fail("waiting for the server's HTTP/2 settings", err)
	}
	if _, ok := frame.(*http2.SettingsFrame); !ok {
		return fail("HTTP/2 preface", fmt.Errorf("the server answered with a %s frame, not SETTINGS: is this etcd?", frame.Header().Type))
	}
	return nil
}

// alertOr returns the TLS alert the server sent, if one is waiting to be read, or else writeErr.
//
// With TLS 1.3 the server checks the client certificate after the client has finished its side of the
// handshake, so a refused certificate is not a handshake error on the client: the server sends an alert
// ("certificate required", "bad certificate") and closes. A write that races with that close fails with
// "broken pipe", which names neither the certificate nor the server's reason; the alert is still in the
// receive buffer and says both.
func alertOr(conn net.Conn, writeErr error) error {
	if _, ok := conn.(*tls.Conn); !ok {
		return writeErr
	}
	_ = conn.SetReadDeadline(time.Now().Add(time.Second))
	_, err := conn.Read(make([]byte, 1))
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "remote error" {
		return fmt.Errorf("the server refused the connection: %w", err)
	}
	return writeErr
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
