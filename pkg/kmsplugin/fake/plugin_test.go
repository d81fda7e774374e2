package fake_test

import (
	"bytes"
	"errors"
	"io/fs"
	"net"
	"os"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	kmsapi "k8s.io/kms/apis/v2"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
)

func TestPluginEncryptDecryptRoundTrip(t *testing.T) {
	scenarios := []struct {
		name      string
		plaintext []byte
	}{
		{name: "empty", plaintext: []byte{}},
		{name: "short text", plaintext: []byte("hello, kms")},
		// The apiserver sends a 32-byte seed from which it derives its
		// data encryption keys; this is the size that matters most.
		{name: "DEK seed sized", plaintext: bytes.Repeat([]byte{0x5a}, 32)},
		{name: "64 KiB", plaintext: bytes.Repeat([]byte("0123456789abcdef"), 4096)},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			kms := fake.NewKMS()
			_, client := startPlugin(t, kms)

			enc := mustEncrypt(t, client, scenario.plaintext)
			if enc.KeyId != kms.CurrentKEKID() {
				t.Errorf("Encrypt key id = %q, want current key %q", enc.KeyId, kms.CurrentKEKID())
			}
			if len(scenario.plaintext) > 0 && bytes.Contains(enc.Ciphertext, scenario.plaintext) {
				t.Errorf("ciphertext contains the plaintext")
			}
			again := mustEncrypt(t, client, scenario.plaintext)
			if bytes.Equal(enc.Ciphertext, again.Ciphertext) {
				t.Errorf("two encryptions of the same plaintext are identical; the nonce must be fresh per call")
			}

			got, err := decrypt(t, client, enc)
			if err != nil {
				t.Fatalf("Decrypt: %v", err)
			}
			if !bytes.Equal(got, scenario.plaintext) {
				t.Errorf("Decrypt = %q, want %q", got, scenario.plaintext)
			}
		})
	}
}

func TestPluginStatus(t *testing.T) {
	kms := fake.NewKMS()
	_, client := startPlugin(t, kms)

	// statusFields is the part of a StatusResponse the apiserver reads;
	// comparing it as a plain struct avoids comparing proto internals.
	type statusFields struct{ Version, Healthz, KeyID string }
	resp := mustStatus(t, client)
	got := statusFields{resp.Version, resp.Healthz, resp.KeyId}
	want := statusFields{Version: "v2", Healthz: "ok", KeyID: kms.CurrentKEKID()}
	if got != want {
		t.Errorf("Status = %+v, want %+v", got, want)
	}
}

func TestPluginEndpoint(t *testing.T) {
	p := fake.NewPlugin(fake.NewKMS(), "/run/kms/node-0.sock")
	if got, want := p.Endpoint(), "unix:///run/kms/node-0.sock"; got != want {
		t.Errorf("Endpoint() = %q, want %q", got, want)
	}
}

func TestPluginSocketIsOwnerOnly(t *testing.T) {
	p, _ := startPlugin(t, fake.NewKMS())

	info, err := os.Stat(socketPath(p))
	if err != nil {
		t.Fatalf("stat socket: %v", err)
	}
	if info.Mode().Type() != fs.ModeSocket {
		t.Errorf("%s has type %v, want a socket", socketPath(p), info.Mode().Type())
	}
	if got := info.Mode().Perm(); got != 0o600 {
		t.Errorf("socket mode = %#o, want 0600", got)
	}
}

func TestPluginStopAndStartAgain(t *testing.T) {
	kms := fake.NewKMS()
	p, client := startPlugin(t, kms)
	mustStatus(t, client)

	p.Stop()
	if _, err := os.Lstat(socketPath(p)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after Stop, stat socket = %v, want it gone", err)
	}
	if _, err := client.Status(rpcContext(t), &kmsapi.StatusRequest{}); status.Code(err) != codes.Unavailable {
		t.Errorf("Status after Stop = %v, want code %v", err, codes.Unavailable)
	}
	p.Stop() // Stop is idempotent.

	if err := p.Start(); err != nil {
		t.Fatalf("Start after Stop: %v", err)
	}
	// A client made before the restart reconnects, as the apiserver's
	// does; WaitForReady rides out gRPC's reconnect backoff.
	resp, err := client.Status(rpcContext(t), &kmsapi.StatusRequest{}, grpc.WaitForReady(true))
	if err != nil {
		t.Fatalf("Status after restart: %v", err)
	}
	if resp.KeyId != kms.CurrentKEKID() {
		t.Errorf("Status key id after restart = %q, want %q", resp.KeyId, kms.CurrentKEKID())
	}
}

func TestPluginStart(t *testing.T) {
	scenarios := []struct {
		name string
		// prepare puts something at the socket path before Start.
		prepare func(t *testing.T, path string)
		wantErr bool
		// wantPathKept says the thing prepare left must survive a
		// failed Start.
		wantPathKept bool
	}{
		{
			name:    "nothing at the path",
			prepare: func(*testing.T, string) {},
		},
		{
			name:    "stale socket of a dead plugin is replaced",
			prepare: leaveStaleSocket,
		},
		{
			name:         "socket something listens on is refused",
			prepare:      listenOn,
			wantErr:      true,
			wantPathKept: true,
		},
		{
			name: "regular file is refused",
			prepare: func(t *testing.T, path string) {
				if err := os.WriteFile(path, []byte("not a socket"), 0o600); err != nil {
					t.Fatal(err)
				}
			},
			wantErr:      true,
			wantPathKept: true,
		},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			p := newPlugin(t, fake.NewKMS())
			scenario.prepare(t, socketPath(p))

			err := p.Start()
			if gotErr := err != nil; gotErr != scenario.wantErr {
				t.Fatalf("Start() error = %v, want error: %v", err, scenario.wantErr)
			}
			if scenario.wantPathKept {
				if _, err := os.Lstat(socketPath(p)); err != nil {
					t.Errorf("failed Start removed what was at the path: %v", err)
				}
			}
			if err == nil {
				mustStatus(t, newClient(t, p))
			}
		})
	}
}

func TestPluginStartWhileRunningFails(t *testing.T) {
	p, client := startPlugin(t, fake.NewKMS())
	if err := p.Start(); err == nil {
		t.Fatal("second Start succeeded, want an error")
	}
	// The running server must be unaffected.
	mustStatus(t, client)
}

// socketPath recovers the socket path from the endpoint, so tests check what
// the apiserver would be told rather than a path they built themselves.
func socketPath(p *fake.Plugin) string {
	return strings.TrimPrefix(p.Endpoint(), "unix://")
}

// leaveStaleSocket leaves a socket file at path that nothing listens on, as a
// killed plugin process does.
func leaveStaleSocket(t *testing.T, path string) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// listenOn keeps a listener on path until the test ends, as another live
// plugin would.
func listenOn(t *testing.T, path string) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
}
