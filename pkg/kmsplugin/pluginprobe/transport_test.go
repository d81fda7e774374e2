package pluginprobe_test

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"google.golang.org/grpc"
	kmsapi "k8s.io/kms/apis/v2"
	"k8s.io/utils/clock"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
)

// TestProbeSomethingElseOnTheSocket puts servers that are not working KMS v2
// plugins on the socket, so that grpc-go itself makes the status the probe
// sees, with codes a plugin could also return. Each must be reported Error:
// no plugin answered. This checks pluginAnswered's list of grpc-go's own
// messages against the grpc-go the probe really runs.
func TestProbeSomethingElseOnTheSocket(t *testing.T) {
	scenarios := []struct {
		name  string
		serve func(t *testing.T, l net.Listener)
		// wantDetail is a regular expression the Error report's detail must
		// match.
		wantDetail string
	}{
		{
			name:       "nothing listens on the socket",
			serve:      func(_ *testing.T, l net.Listener) { _ = l.Close() },
			wantDetail: "code = Unavailable",
		},
		{
			name:       "a gRPC server without the KMS v2 service",
			serve:      func(t *testing.T, l net.Listener) { serveGRPC(t, l, grpc.NewServer()) },
			wantDetail: "code = Unimplemented",
		},
		{
			name: "a gRPC server whose Status response does not decode",
			serve: func(t *testing.T, l net.Listener) {
				// An EncryptRequest whose field 1, plaintext, is not
				// UTF-8; read as a StatusResponse, field 1 is the string
				// version, which must be.
				serveGRPC(t, l, grpc.NewServer(grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
					if err := stream.RecvMsg(&kmsapi.StatusRequest{}); err != nil {
						return err
					}
					return stream.SendMsg(&kmsapi.EncryptRequest{Plaintext: []byte{0xff}})
				})))
			},
			wantDetail: `code = Internal desc = grpc: failed to unmarshal`,
		},
		{
			name:       "an HTTP/2 server answering 403",
			serve:      func(t *testing.T, l net.Listener) { serveHTTP2(t, l, http.StatusForbidden) },
			wantDetail: `code = PermissionDenied desc = unexpected HTTP status code received from server: 403`,
		},
		{
			name:       "an HTTP/2 server answering 401",
			serve:      func(t *testing.T, l net.Listener) { serveHTTP2(t, l, http.StatusUnauthorized) },
			wantDetail: `code = Unauthenticated desc = unexpected HTTP status code received from server: 401`,
		},
		{
			name:       "an HTTP/2 server answering 400",
			serve:      func(t *testing.T, l net.Listener) { serveHTTP2(t, l, http.StatusBadRequest) },
			wantDetail: `code = Internal desc = unexpected HTTP status code received from server: 400`,
		},
		{
			name:       "an HTTP/2 server answering 200 without gRPC",
			serve:      func(t *testing.T, l net.Listener) { serveHTTP2(t, l, http.StatusOK) },
			wantDetail: `code = Unknown desc = unexpected HTTP status code received from server: 200`,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			dir, err := os.MkdirTemp("", "kms")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.RemoveAll(dir) })
			socket := filepath.Join(dir, "kms.sock")
			l, err := net.Listen("unix", socket)
			if err != nil {
				t.Fatal(err)
			}
			s.serve(t, l)
			target, err := pluginprobe.NewGRPCPlugin(t.Context(), "1", "unix://"+socket, callTimeout)
			if err != nil {
				t.Fatal(err)
			}
			prober := pluginprobe.NewProber("master-0", []pluginprobe.Plugin{target}, callTimeout, clock.RealClock{})

			report := prober.Probe(t.Context(), target)

			if got := *report.Status; got != operatorv1.KMSPluginHealthStatusError {
				t.Errorf("status %q, want %q (detail %q)", got, operatorv1.KMSPluginHealthStatusError, deref(report.Detail))
			}
			if got := deref(report.Detail); !regexp.MustCompile(s.wantDetail).MatchString(got) {
				t.Errorf("detail %q, want it to match %q", got, s.wantDetail)
			}
		})
	}
}

// serveGRPC serves server on l until the test ends.
func serveGRPC(t *testing.T, l net.Listener, server *grpc.Server) {
	t.Helper()
	go func() { _ = server.Serve(l) }()
	t.Cleanup(server.Stop)
}

// serveHTTP2 answers every request on l with code and a text body, over
// HTTP/2 without TLS, as gRPC clients speak it, until the test ends.
func serveHTTP2(t *testing.T, l net.Listener, code int) {
	t.Helper()
	var protocols http.Protocols
	protocols.SetUnencryptedHTTP2(true)
	server := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "not a KMS plugin", code)
		}),
		Protocols: &protocols,
	}
	go func() { _ = server.Serve(l) }()
	t.Cleanup(func() { _ = server.Close() })
}
