package apiserverprobe

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// defaultHealthzWait is how long a Probe waits for the health check it started, or found in flight, before it
// answers with the last check that came back. kube-apiserver answers its KMS check from a cache, in
// milliseconds, except when the cache has expired and the plugin hangs: then it waits for its own Status call,
// up to the provider's timeout (10 s as library-go writes it). The metrics, which show failed reads at once, and
// the verdict built from them must not wait for that; the check's answer comes with the next Probe.
const defaultHealthzWait = time.Second

// healthzCache is one apiserver's KMS health check: the one in flight, and the answer of the last one that
// came back.
type healthzCache struct {
	mu sync.Mutex
	// inFlight is closed when the check in flight ends; nil while none is.
	inFlight chan struct{}
	// answered says whether a check has come back; result and err are what it gave.
	answered bool
	result   *kmsstate.HealthzResult
	err      error
}

// get starts a health check unless one is in flight, waits for it up to p.healthzWait, and returns the answer
// of the last check that came back: this one's if it was quick enough. A check outlives the Probe that started
// it (bounded by p.timeout) and answers a later one, so that a slow check is neither cut short nor asked again
// before it ends.
func (c *healthzCache) get(ctx context.Context, p *Prober, base *url.URL) (*kmsstate.HealthzResult, error) {
	rawURL := base.JoinPath(kmsHealthzPath).String()
	if ctx.Err() != nil {
		return nil, requestFailure(ctx, rawURL, p.timeout, ctx.Err())
	}
	c.mu.Lock()
	if c.inFlight == nil {
		done := make(chan struct{})
		c.inFlight = done
		go func() {
			defer close(done)
			result, err := p.kmsHealthz(context.WithoutCancel(ctx), base)
			c.mu.Lock()
			c.inFlight, c.answered, c.result, c.err = nil, true, result, err
			c.mu.Unlock()
		}()
	}
	done := c.inFlight
	c.mu.Unlock()

	wait := time.NewTimer(p.healthzWait)
	defer wait.Stop()
	select {
	case <-done:
	case <-wait.C:
	case <-ctx.Done():
		return nil, requestFailure(ctx, rawURL, p.timeout, ctx.Err())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.answered {
		return nil, &probeError{kind: failureTimeout, url: rawURL, err: fmt.Errorf("no answer yet after %s (waiting up to %s)", p.healthzWait, p.timeout)}
	}
	return c.result, c.err
}
