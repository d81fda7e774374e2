package fake

import (
	"fmt"
	"os"
	"sync"

	"google.golang.org/grpc"
	kmsapi "k8s.io/kms/apis/v2"
	"k8s.io/kms/pkg/service"
)

// Plugin is a KMS v2 plugin: a gRPC server on a unix socket, backed by a
// shared KMS, with faults that affect this plugin only. Use one Plugin per
// simulated node.
//
// Faults and call counts belong to the Plugin, not to one run of its server:
// they survive Stop and Start, so a test can set a fault before the plugin
// comes up.
//
// A Plugin is safe for concurrent use.
type Plugin struct {
	kms        *KMS
	socketPath string
	faults     faults
	calls      callCounts

	mu sync.Mutex
	// server is non-nil while the plugin is running.
	server *grpc.Server
	// served is closed when the running server's Serve returns.
	served chan struct{}
}

// NewPlugin returns a stopped plugin that will serve kms on socketPath.
//
// socketPath should be absolute: the apiserver only accepts absolute unix
// endpoints. It must also be short, because a unix socket path is limited to
// about 108 bytes; a testing.T.TempDir is often too long, a directory from
// os.MkdirTemp("", ...) usually is not.
func NewPlugin(kms *KMS, socketPath string) *Plugin {
	return &Plugin{
		kms:        kms,
		socketPath: socketPath,
		faults:     faults{failures: newFailures()},
		calls:      newCallCounts(),
	}
}

// Endpoint returns the plugin's address in the form the endpoint field of an
// EncryptionConfiguration kms provider expects.
func (p *Plugin) Endpoint() string {
	return "unix://" + p.socketPath
}

// Start listens on the socket, with mode 0600, and serves in the background
// until Stop. A socket file left behind by a plugin that died is replaced;
// a socket something still listens on, or a file that is not a socket, is an
// error. Starting a running plugin is an error.
//
// Start builds its own grpc.Server and listener and registers a
// service.GRPCService on it, rather than calling GRPCService.ListenAndServe,
// because ListenAndServe creates the listener itself and gives no chance to
// set the socket mode before serving. A k8s.io/kms constructor that accepted
// a net.Listener would remove the need for this.
func (p *Plugin) Start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.server != nil {
		return fmt.Errorf("fake kms plugin on %s is already running", p.socketPath)
	}

	listener, err := listenUnix(p.socketPath)
	if err != nil {
		return err
	}

	server := grpc.NewServer(grpc.ChainUnaryInterceptor(p.intercept))
	// The address and timeout are only used by ListenAndServe, which is not
	// called; the server above owns the listener.
	grpcService := service.NewGRPCService(p.socketPath, 0, &pluginService{kms: p.kms, faults: &p.faults})
	kmsapi.RegisterKeyManagementServiceServer(server, grpcService)

	served := make(chan struct{})
	go func() {
		defer close(served)
		// Serve returns nil after Stop. Any other error means the
		// listener broke; the plugin is then as dead as after Stop, which
		// is what the test would observe from a real plugin too.
		_ = server.Serve(listener)
	}()

	p.server = server
	p.served = served
	return nil
}

// Stop stops serving, closes every connection, cancels RPCs in flight and
// removes the socket file, as if the plugin process died. It returns once the
// server has stopped. Stopping a stopped plugin does nothing.
func (p *Plugin) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.server == nil {
		return
	}

	p.server.Stop()
	<-p.served
	p.server, p.served = nil, nil

	// Closing the listener has normally unlinked the socket already.
	// Removing it again makes Stop's promise independent of how Serve
	// ended. A failure is not reported: Start replaces a stale socket.
	_ = os.Remove(p.socketPath)
}
