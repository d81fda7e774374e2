package etcdclient

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestValidate(t *testing.T) {
	scenarios := []struct {
		name    string
		config  Config
		wantErr string
	}{
		{name: "https with certificates", config: Config{Endpoints: []string{"https://10.0.0.1:2379"}, CAFile: "ca", CertFile: "c", KeyFile: "k"}},
		{name: "http without certificates", config: Config{Endpoints: []string{"http://127.0.0.1:2379"}}},
		{name: "no endpoints", config: Config{}, wantErr: "no etcd endpoints"},
		{name: "http with a CA", config: Config{Endpoints: []string{"http://127.0.0.1:2379"}, CAFile: "ca"}, wantErr: "plaintext http, but certificate flags"},
		{name: "http with a client certificate", config: Config{Endpoints: []string{"http://127.0.0.1:2379"}, CertFile: "c", KeyFile: "k"}, wantErr: "plaintext http"},
		{name: "certificate without key", config: Config{Endpoints: []string{"https://a:2379"}, CertFile: "c"}, wantErr: "go together"},
		{name: "no scheme", config: Config{Endpoints: []string{"10.0.0.1:2379"}}, wantErr: "is not a URL"},
		{name: "unknown scheme", config: Config{Endpoints: []string{"unix://a:2379"}}, wantErr: `scheme "unix"`},
		{name: "mixed schemes", config: Config{Endpoints: []string{"https://a:2379", "http://b:2379"}}, wantErr: "mix http and https"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			err := s.config.Validate()
			switch {
			case s.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case s.wantErr != "" && (err == nil || !strings.Contains(err.Error(), s.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, s.wantErr)
			}
		})
	}
}

// TestConnectFailsWithTheRealReason checks that each way of not reaching etcd is reported as what it is, not
// as a deadline.
func TestConnectFailsWithTheRealReason(t *testing.T) {
	dir := t.TempDir()
	h2 := newH2Server(t, nil)
	serverCA := writePEM(t, dir, "server-ca.crt", h2.Certificate().Raw)
	otherCA := writePEM(t, dir, "other-ca.crt", selfSignedCert(t))
	mTLS := newH2Server(t, &tls.Config{ClientAuth: tls.RequireAnyClientCert})

	scenarios := []struct {
		name    string
		config  Config
		wantErr []string
	}{
		{
			name:    "refused",
			config:  Config{Endpoints: []string{"http://" + closedPort(t)}},
			wantErr: []string{"connecting", "connection refused"},
		},
		{
			name:    "server certificate from another CA",
			config:  Config{Endpoints: []string{h2.URL}, CAFile: otherCA},
			wantErr: []string{"TLS handshake", "certificate signed by unknown authority"},
		},
		{
			name:    "client certificate required but not given",
			config:  Config{Endpoints: []string{mTLS.URL}, CAFile: serverCA},
			wantErr: []string{"certificate required"},
		},
		{
			name:    "TLS and HTTP/2 work, but the server is not etcd",
			config:  Config{Endpoints: []string{h2.URL}, CAFile: serverCA},
			wantErr: []string{"status:"},
		},
		{
			name:    "a CA file that does not exist",
			config:  Config{Endpoints: []string{h2.URL}, CAFile: filepath.Join(dir, "missing.crt")},
			wantErr: []string{"loading the etcd TLS files"},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			s.config.DialTimeout = 10 * time.Second
			client, err := Connect(context.Background(), s.config)
			if err == nil {
				client.Close()
				t.Fatal("Connect succeeded")
			}
			for _, want := range s.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
			if strings.Contains(err.Error(), "deadline exceeded") {
				t.Errorf("error %q hides its cause behind a deadline", err)
			}
		})
	}
}

// TestProbeAcceptsAnHTTP2Server is the positive side of the probe: a server that speaks TLS and HTTP/2 with a
// certificate the CA signed passes it.
func TestProbeAcceptsAnHTTP2Server(t *testing.T) {
	h2 := newH2Server(t, nil)
	config := Config{Endpoints: []string{h2.URL}, CAFile: writePEM(t, t.TempDir(), "ca.crt", h2.Certificate().Raw)}
	tlsConfig, err := config.TLSConfig()
	if err != nil {
		t.Fatal(err)
	}
	if err := probe(context.Background(), h2.URL, tlsConfig, 10*time.Second); err != nil {
		t.Fatalf("probe: %v", err)
	}
}

func newH2Server(t *testing.T, tlsConfig *tls.Config) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.EnableHTTP2 = true
	srv.TLS = tlsConfig
	// The rejected handshakes are the point of some scenarios; the server's log of them is noise.
	srv.Config.ErrorLog = nil
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func writePEM(t *testing.T, dir, name string, der []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func selfSignedCert(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "another CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return der
}
