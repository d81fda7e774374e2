package fake

import (
	"context"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// faults is the set of failures injected into one plugin. Tests change
// faults from their own goroutines while the plugin serves, so every field is
// an atomic.
type faults struct {
	// unhealthy makes Status report healthzUnreachable.
	unhealthy atomic.Bool
	// failCode, when not codes.OK, fails every RPC with that code.
	failCode atomic.Uint32
	// latency, in nanoseconds, is added before every RPC is handled.
	latency atomic.Int64
}

// SetUnhealthy makes Status report a Healthz other than "ok" while
// unhealthy is true. Encrypt and Decrypt keep working: a real plugin whose
// health check fails may still serve, and the apiserver must react to the
// Status answer alone.
func (p *Plugin) SetUnhealthy(unhealthy bool) {
	p.faults.unhealthy.Store(unhealthy)
}

// FailWith makes every RPC, Status included, fail with code. codes.OK clears
// the fault.
func (p *Plugin) FailWith(code codes.Code) {
	p.faults.failCode.Store(uint32(code))
}

// SetLatency adds d before every RPC is handled, so tests can push a call
// past the apiserver's KMS timeout. The wait ends early if the call's
// context is done. Zero or a negative d clears the fault.
func (p *Plugin) SetLatency(d time.Duration) {
	p.faults.latency.Store(int64(d))
}

// intercept is the unary interceptor every RPC passes through. It counts the
// call first, so that calls failed by a fault are counted too, then applies
// latency, then the injected error; latency comes first so that a slow,
// failing KMS can be simulated.
func (p *Plugin) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	p.calls.record(info.FullMethod)
	if err := p.faults.delay(ctx); err != nil {
		return nil, err
	}
	if err := p.faults.injectedError(); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

// delay waits for the injected latency, or returns the gRPC error for ctx if
// it is done first (the client gave up, or the plugin is stopping).
func (f *faults) delay(ctx context.Context) error {
	d := time.Duration(f.latency.Load())
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return status.FromContextError(ctx.Err()).Err()
	}
}

// injectedError returns the error FailWith asked for, or nil.
func (f *faults) injectedError() error {
	code := codes.Code(f.failCode.Load())
	if code == codes.OK {
		return nil
	}
	return status.Errorf(code, "fake kms plugin: injected failure (%s)", code)
}
