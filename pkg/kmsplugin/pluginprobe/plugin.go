package pluginprobe

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2"
	kmsservice "k8s.io/kms/pkg/service"
)

// providerNamePrefix prefixes the provider name given to the gRPC client.
// The client records apiserver_envelope_encryption_kms_operations_latency_seconds
// under that name, so each plugin gets its own name and their calls are not
// merged into one series.
const providerNamePrefix = "kmsguard-probe-kms-"

// Plugin is one KMS plugin to probe.
type Plugin struct {
	// KeyID is the id of library-go's encryption-key secret the plugin serves,
	// the <id> of unix:///var/run/kmsplugin/kms-<id>.sock. It becomes the
	// report's keyId; it is not a key id of the remote KMS.
	KeyID string
	// Service is the client the probe calls. Unit tests put a stub here.
	Service kmsservice.Service
}

// NewGRPCPlugin returns a Plugin that reaches the plugin at endpoint
// (unix:///path or unix:///@abstract) with kube-apiserver's own KMS v2 gRPC
// client, so the probe sees the plugin exactly as kube-apiserver does. Every
// call the client makes is bounded by callTimeout.
//
// The connection is made lazily, on the first call, so a plugin that is not
// up yet is reported by the probe rather than failing here. It is closed when
// ctx is done.
func NewGRPCPlugin(ctx context.Context, keyID, endpoint string, callTimeout time.Duration) (Plugin, error) {
	service, err := kmsv2.NewGRPCService(ctx, endpoint, providerNamePrefix+keyID, callTimeout)
	if err != nil {
		return Plugin{}, fmt.Errorf("creating KMS v2 client for %q: %w", endpoint, err)
	}
	return Plugin{KeyID: keyID, Service: service}, nil
}
