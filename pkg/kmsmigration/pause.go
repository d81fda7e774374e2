package kmsmigration

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// PauseReason says why a migration is not writing.
type PauseReason string

const (
	// NotPaused: writing.
	NotPaused PauseReason = ""
	// PausedKMSUnhealthy: the write key's plugin is unhealthy, so every
	// rewrite would fail or, worse, keep extending a cached DEK.
	PausedKMSUnhealthy PauseReason = "PausedKMSUnhealthy"
	// PausedErrorThreshold: too many transient errors in the error window.
	PausedErrorThreshold PauseReason = "ErrorThresholdExceeded"
	// PausedRetryAfter: the apiserver answered 429 with Retry-After.
	PausedRetryAfter PauseReason = "RetryAfter"
)

// gate holds every worker of one migration while it is paused. One
// goroutine (watchHealth) re-reads the health every interval, so a pause
// costs one health read per interval, never a spin, and lifts by itself.
type gate struct {
	clock clock.WithTicker

	lock    sync.Mutex
	reason  PauseReason
	detail  string
	until   time.Time     // for timed pauses (error threshold, Retry-After)
	resumed chan struct{} // closed when the current pause ends
	// errors are the times of transient errors within the window.
	errors    []time.Time
	threshold int
	window    time.Duration
	errPause  time.Duration
}

func newGate(c clock.WithTicker, threshold int, window, errPause time.Duration) *gate {
	return &gate{clock: c, threshold: threshold, window: window, errPause: errPause}
}

// wait blocks while the migration is paused.
func (g *gate) wait(ctx context.Context) error {
	for {
		g.lock.Lock()
		if g.reason == NotPaused {
			g.lock.Unlock()
			return nil
		}
		resumed, until := g.resumed, g.until
		g.lock.Unlock()

		if err := g.sleepUntilResumed(ctx, resumed, until); err != nil {
			return err
		}
	}
}

func (g *gate) sleepUntilResumed(ctx context.Context, resumed <-chan struct{}, until time.Time) error {
	var timer <-chan time.Time
	if !until.IsZero() {
		t := g.clock.NewTimer(until.Sub(g.clock.Now()))
		defer t.Stop()
		timer = t.C()
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-resumed:
	case <-timer:
		g.endTimedPause(until)
	}
	return nil
}

// paused returns the current pause, if any.
func (g *gate) paused() (PauseReason, string) {
	g.lock.Lock()
	defer g.lock.Unlock()
	if g.reason != NotPaused && !g.until.IsZero() && !g.clock.Now().Before(g.until) {
		g.resumeLocked()
	}
	return g.reason, g.detail
}

func (g *gate) pauseLocked(reason PauseReason, detail string, until time.Time) {
	if g.reason == NotPaused {
		g.resumed = make(chan struct{})
	}
	g.reason, g.detail, g.until = reason, detail, until
}

func (g *gate) resumeLocked() {
	if g.reason == NotPaused {
		return
	}
	g.reason, g.detail, g.until = NotPaused, "", time.Time{}
	close(g.resumed)
}

func (g *gate) endTimedPause(until time.Time) {
	g.lock.Lock()
	defer g.lock.Unlock()
	if g.until.Equal(until) && g.reason != PausedKMSUnhealthy {
		g.resumeLocked()
	}
}

// setHealth applies one health reading. A KMS pause outranks timed pauses:
// while the plugin is down nothing should be written at all.
func (g *gate) setHealth(err error) {
	g.lock.Lock()
	defer g.lock.Unlock()
	switch {
	case err != nil:
		g.pauseLocked(PausedKMSUnhealthy, err.Error(), time.Time{})
	case g.reason == PausedKMSUnhealthy:
		g.resumeLocked()
		// Errors seen while the KMS was down say nothing about the apiserver.
		g.errors = nil
	}
}

// retryAfter pauses every worker for d, as the apiserver asked.
func (g *gate) retryAfter(d time.Duration) {
	g.lock.Lock()
	defer g.lock.Unlock()
	until := g.clock.Now().Add(d)
	if g.reason == PausedKMSUnhealthy || (g.reason != NotPaused && g.until.After(until)) {
		return
	}
	g.pauseLocked(PausedRetryAfter, fmt.Sprintf("the apiserver asked to retry after %s", d), until)
}

// transientError records one error and pauses when the window holds
// threshold of them.
func (g *gate) transientError(err error) {
	g.lock.Lock()
	defer g.lock.Unlock()
	now := g.clock.Now()
	cutoff := now.Add(-g.window)
	kept := g.errors[:0]
	for _, t := range g.errors {
		if t.After(cutoff) {
			kept = append(kept, t)
		}
	}
	g.errors = append(kept, now)
	if len(g.errors) < g.threshold || g.reason == PausedKMSUnhealthy {
		return
	}
	g.errors = nil
	g.pauseLocked(PausedErrorThreshold, fmt.Sprintf("%d errors within %s, the last: %v; resuming at %s", g.threshold, g.window, err, now.Add(g.errPause).UTC().Format(time.RFC3339)), now.Add(g.errPause))
}

// recheckHealth reads health at once, after a failed write: kmsstate may
// already know that the KMS is down before the next interval.
func (g *gate) recheckHealth(ctx context.Context, health healthFunc) error {
	if health == nil {
		return nil
	}
	err := health(ctx)
	g.setHealth(err)
	return err
}

// watchHealth reads health every interval until ctx ends; execute has
// read it once before.
func (g *gate) watchHealth(ctx context.Context, health healthFunc, interval time.Duration) {
	if health == nil {
		return
	}
	ticker := g.clock.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C():
			g.setHealth(health(ctx))
		}
	}
}
