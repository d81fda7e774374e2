package fake

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// faults is the set of failures injected into one plugin. Tests change
// faults from their own goroutines while the plugin serves, so every fault is
// an atomic.
type faults struct {
	// unhealthy makes Status report healthzUnreachable.
	unhealthy atomic.Bool
	// failures holds, per Method, the status that method answers with, or
	// nil to serve it. The map is filled once by newFailures and never
	// written again, so it is read without a lock; only the pointers change.
	failures map[Method]*atomic.Pointer[status.Status]
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

// newFailures returns the failures of a plugin that serves every method.
func newFailures() map[Method]*atomic.Pointer[status.Status] {
	failures := map[Method]*atomic.Pointer[status.Status]{}
	for _, m := range methodsByFullName {
		failures[m] = new(atomic.Pointer[status.Status])
	}
	return failures
}

// FailWith makes every RPC, Status included, fail with code and a message
// that names the injected failure. codes.OK clears the fault of every method,
// including those set by FailMethodWith.
func (p *Plugin) FailWith(code codes.Code) {
	for m := range p.faults.failures {
		p.FailMethodWith(m, code, "")
	}
}

// FailMethodWith makes every call of method answer with code and message, as
// a plugin does that returns a gRPC status of its own: upstream's test plugin
// answers Status with FailedPrecondition "key disabled", for example. The
// status travels to the client in the response trailers exactly as a real
// plugin's would. An empty message is replaced by one that names the injected
// failure; codes.OK clears the fault of method. The other methods keep their
// faults.
//
// It panics on a Method the plugin does not serve: that is a bug in the test.
func (p *Plugin) FailMethodWith(method Method, code codes.Code, message string) {
	failure, ok := p.faults.failures[method]
	if !ok {
		panic(fmt.Sprintf("fake kms plugin: FailMethodWith(%q): no such method", method))
	}
	if code == codes.OK {
		failure.Store(nil)
		return
	}
	if message == "" {
		message = fmt.Sprintf("fake kms plugin: injected failure (%s)", code)
	}
	failure.Store(status.New(code, message))
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
	if err := p.faults.injectedError(info.FullMethod); err != nil {
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

// injectedError returns the error FailWith or FailMethodWith asked the gRPC
// method fullMethod to answer with, or nil.
func (f *faults) injectedError(fullMethod string) error {
	m, ok := methodsByFullName[fullMethod]
	if !ok {
		return nil
	}
	return f.failures[m].Load().Err()
}
