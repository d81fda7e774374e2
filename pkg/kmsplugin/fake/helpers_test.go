package fake_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	kmsapi "k8s.io/kms/apis/v2"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
)

// rpcTimeout bounds every RPC a test expects to complete, so that a bug
// fails the test instead of hanging it. It is generous on purpose: it is a
// safety net, not something the tests measure.
const rpcTimeout = 30 * time.Second

// socketDir returns a new, empty directory that the test removes when it
// ends. It is made under os.TempDir rather than with t.TempDir because a
// unix socket path may not exceed about 108 bytes, and t.TempDir paths embed
// the test name and can be longer than that.
func socketDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "kms")
	if err != nil {
		t.Fatalf("creating socket directory: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// newPlugin returns a stopped plugin for kms with a socket in a fresh
// directory, which is stopped when the test ends.
func newPlugin(t *testing.T, kms *fake.KMS) *fake.Plugin {
	t.Helper()
	p := fake.NewPlugin(kms, filepath.Join(socketDir(t), "kms.sock"))
	t.Cleanup(p.Stop)
	return p
}

// startPlugin returns a running plugin for kms and a client connected to it.
func startPlugin(t *testing.T, kms *fake.KMS) (*fake.Plugin, kmsapi.KeyManagementServiceClient) {
	t.Helper()
	p := newPlugin(t, kms)
	if err := p.Start(); err != nil {
		t.Fatalf("Start: %v", err)
	}
	return p, newClient(t, p)
}

// newClient connects to p the way the apiserver does: plain gRPC over the
// unix socket named by the endpoint.
func newClient(t *testing.T, p *fake.Plugin) kmsapi.KeyManagementServiceClient {
	t.Helper()
	conn, err := grpc.NewClient(p.Endpoint(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("connecting to %s: %v", p.Endpoint(), err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return kmsapi.NewKeyManagementServiceClient(conn)
}

// rpcContext returns a context for one RPC that is expected to complete.
func rpcContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), rpcTimeout)
	t.Cleanup(cancel)
	return ctx
}

// mustEncrypt encrypts plaintext and fails the test on error.
func mustEncrypt(t *testing.T, client kmsapi.KeyManagementServiceClient, plaintext []byte) *kmsapi.EncryptResponse {
	t.Helper()
	resp, err := client.Encrypt(rpcContext(t), &kmsapi.EncryptRequest{Uid: t.Name(), Plaintext: plaintext})
	if err != nil {
		t.Fatalf("Encrypt: %v", err)
	}
	return resp
}

// decrypt asks client to decrypt what an Encrypt call returned.
func decrypt(t *testing.T, client kmsapi.KeyManagementServiceClient, enc *kmsapi.EncryptResponse) ([]byte, error) {
	t.Helper()
	resp, err := client.Decrypt(rpcContext(t), &kmsapi.DecryptRequest{
		Uid:         t.Name(),
		Ciphertext:  enc.Ciphertext,
		KeyId:       enc.KeyId,
		Annotations: enc.Annotations,
	})
	if err != nil {
		return nil, err
	}
	return resp.Plaintext, nil
}

// mustStatus calls Status and fails the test on error.
func mustStatus(t *testing.T, client kmsapi.KeyManagementServiceClient) *kmsapi.StatusResponse {
	t.Helper()
	resp, err := client.Status(rpcContext(t), &kmsapi.StatusRequest{})
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	return resp
}

// invoke makes one call of method with a throwaway request and returns its
// error. It is for tests that care whether and how a call fails, not what it
// returns.
func invoke(ctx context.Context, client kmsapi.KeyManagementServiceClient, method fake.Method) error {
	var err error
	switch method {
	case fake.MethodStatus:
		_, err = client.Status(ctx, &kmsapi.StatusRequest{})
	case fake.MethodEncrypt:
		_, err = client.Encrypt(ctx, &kmsapi.EncryptRequest{Uid: "invoke", Plaintext: []byte("data")})
	case fake.MethodDecrypt:
		_, err = client.Decrypt(ctx, &kmsapi.DecryptRequest{Uid: "invoke", Ciphertext: []byte("not a ciphertext"), KeyId: "key-1"})
	default:
		err = fmt.Errorf("invoke: unknown method %q", method)
	}
	return err
}
