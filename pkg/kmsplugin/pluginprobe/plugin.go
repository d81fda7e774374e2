package pluginprobe

import (
	"context"
	"fmt"
	"net"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	kmsapi "k8s.io/kms/apis/v2"
	kmsservice "k8s.io/kms/pkg/service"
	kmsutil "k8s.io/kms/pkg/util"
)

// Plugin is one KMS plugin to probe.
type Plugin struct {
	// KeyID is the id of library-go's encryption-key secret the plugin serves,
	// the <id> of unix:///var/run/kmsplugin/kms-<id>.sock. It becomes the
	// report's keyID; it is not a key id of the remote KMS.
	KeyID string
	// Service is the client the probe calls. Unit tests put a stub here.
	Service kmsservice.Service
}

// reconnectBackoff is how the probe's client dials a plugin again after its
// connection failed. grpc-go's default backs off up to 2 minutes; after a long
// outage the tour measured 1m22s between a plugin coming back and the first
// probe that reached it. Dialing a unix socket costs a failed connect(2), so
// the probe tries every second, and a plugin that is back is seen by the next
// probe.
var reconnectBackoff = backoff.Config{BaseDelay: time.Second, Multiplier: 1.6, Jitter: 0.2, MaxDelay: time.Second}

// NewGRPCPlugin returns a Plugin that reaches the plugin at endpoint
// (unix:///path or unix:///@abstract) over the KMS v2 gRPC API, with the
// endpoint syntax and the per-call timeout of kube-apiserver's own client.
// Every call the client makes is bounded by callTimeout.
//
// It differs from kube-apiserver's client (envelope/kmsv2.NewGRPCService) in
// two ways, both so that the report says what is wrong as soon as it is:
//
//   - Calls fail fast. kube-apiserver's client waits for a connection
//     (grpc.WaitForReady), so a plugin that is not listening is a call that
//     hangs for its whole timeout; this one gets the dial's error at once, and
//     the report is Error with "connection refused" or "no such file" one
//     call timeout sooner, instead of "context deadline exceeded". A plugin
//     that is listening but slow still costs the timeout: only it can tell.
//   - It reconnects every second (reconnectBackoff), not with grpc-go's
//     default backoff of up to 2 minutes.
//
// If NewGRPCService took dial options, this client could be it; until then it
// is the three calls of kmsservice.Service over the generated client.
//
// The connection is made lazily, on the first call, so a plugin that is not
// up yet is reported by the probe rather than failing here. It is closed when
// ctx is done.
func NewGRPCPlugin(ctx context.Context, keyID, endpoint string, callTimeout time.Duration) (Plugin, error) {
	addr, err := kmsutil.ParseEndpoint(endpoint)
	if err != nil {
		return Plugin{}, err
	}
	conn, err := grpc.NewClient("passthrough:///"+addr,
		// The authority kube-apiserver's client sends, so a plugin that checks it sees the same.
		grpc.WithAuthority("localhost"),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithConnectParams(grpc.ConnectParams{Backoff: reconnectBackoff, MinConnectTimeout: callTimeout}),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", addr)
		}),
	)
	if err != nil {
		return Plugin{}, fmt.Errorf("creating KMS v2 client for %q: %w", endpoint, err)
	}
	context.AfterFunc(ctx, func() { _ = conn.Close() })
	return Plugin{KeyID: keyID, Service: &grpcService{client: kmsapi.NewKeyManagementServiceClient(conn), callTimeout: callTimeout}}, nil
}

// grpcService is kmsservice.Service over a KMS v2 gRPC client, each call
// bounded by callTimeout.
type grpcService struct {
	client      kmsapi.KeyManagementServiceClient
	callTimeout time.Duration
}

func (s *grpcService) Status(ctx context.Context) (*kmsservice.StatusResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, s.callTimeout)
	defer cancel()
	resp, err := s.client.Status(ctx, &kmsapi.StatusRequest{})
	if err != nil {
		return nil, err
	}
	return &kmsservice.StatusResponse{Version: resp.Version, Healthz: resp.Healthz, KeyID: resp.KeyId}, nil
}

func (s *grpcService) Encrypt(ctx context.Context, uid string, plaintext []byte) (*kmsservice.EncryptResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, s.callTimeout)
	defer cancel()
	resp, err := s.client.Encrypt(ctx, &kmsapi.EncryptRequest{Plaintext: plaintext, Uid: uid})
	if err != nil {
		return nil, err
	}
	return &kmsservice.EncryptResponse{Ciphertext: resp.Ciphertext, KeyID: resp.KeyId, Annotations: resp.Annotations}, nil
}

func (s *grpcService) Decrypt(ctx context.Context, uid string, req *kmsservice.DecryptRequest) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, s.callTimeout)
	defer cancel()
	resp, err := s.client.Decrypt(ctx, &kmsapi.DecryptRequest{Ciphertext: req.Ciphertext, Uid: uid, KeyId: req.KeyID, Annotations: req.Annotations})
	if err != nil {
		return nil, err
	}
	return resp.Plaintext, nil
}
