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

// pauseLatch holds every worker of one migration while it is paused. One
// goroutine (watchHealth) re-reads the health every interval, so a pause
// costs one health read per interval, never a spin, and lifts by itself.
type pauseLatch struct {
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

func newPauseLatch(c clock.WithTicker, threshold int, window, errPause time.Duration) *pauseLatch {
	return &pauseLatch{clock: c, threshold: threshold, window: window, errPause: errPause}
}

// wait blocks while the migration is paused.
func (l *pauseLatch) wait(ctx context.Context) error {
	for {
		l.lock.Lock()
		if l.reason == NotPaused {
			l.lock.Unlock()
			return nil
		}
		resumed, until := l.resumed, l.until
		l.lock.Unlock()

		if err := l.sleepUntilResumed(ctx, resumed, until); err != nil {
			return err
		}
	}
}

func (l *pauseLatch) sleepUntilResumed(ctx context.Context, resumed <-chan struct{}, until time.Time) error {
	var timer <-chan time.Time
	if !until.IsZero() {
		t := l.clock.NewTimer(until.Sub(l.clock.Now()))
		defer t.Stop()
		timer = t.C()
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-resumed:
	case <-timer:
		l.endTimedPause(until)
	}
	return nil
}

// paused returns the current pause, if any.
func (l *pauseLatch) paused() (PauseReason, string) {
	l.lock.Lock()
	defer l.lock.Unlock()
	if l.reason != NotPaused && !l.until.IsZero() && !l.clock.Now().Before(l.until) {
		l.resumeLocked()
	}
	return l.reason, l.detail
}

func (l *pauseLatch) pauseLocked(reason PauseReason, detail string, until time.Time) {
	if l.reason == NotPaused {
		l.resumed = make(chan struct{})
	}
	l.reason, l.detail, l.until = reason, detail, until
}

func (l *pauseLatch) resumeLocked() {
	if l.reason == NotPaused {
		return
	}
	l.reason, l.detail, l.until = NotPaused, "", time.Time{}
	close(l.resumed)
}

func (l *pauseLatch) endTimedPause(until time.Time) {
	l.lock.Lock()
	defer l.lock.Unlock()
	if l.until.Equal(until) && l.reason != PausedKMSUnhealthy {
		l.resumeLocked()
	}
}

// setHealth applies one health reading. A KMS pause outranks timed pauses:
// while the plugin is down nothing should be written at all.
func (l *pauseLatch) setHealth(err error) {
	l.lock.Lock()
	defer l.lock.Unlock()
	switch {
	case err != nil:
		l.pauseLocked(PausedKMSUnhealthy, err.Error(), time.Time{})
	case l.reason == PausedKMSUnhealthy:
		l.resumeLocked()
		// Errors seen while the KMS was down say nothing about the apiserver.
		l.errors = nil
	}
}

// retryAfter pauses every worker for d, as the apiserver asked.
func (l *pauseLatch) retryAfter(d time.Duration) {
	l.lock.Lock()
	defer l.lock.Unlock()
	until := l.clock.Now().Add(d)
	if l.reason == PausedKMSUnhealthy || (l.reason != NotPaused && l.until.After(until)) {
		return
	}
	l.pauseLocked(PausedRetryAfter, fmt.Sprintf("the apiserver asked to retry after %s", d), until)
}

// transientError records one error and pauses when the window holds
// threshold of them.
func (l *pauseLatch) transientError(err error) {
	l.lock.Lock()
	defer l.lock.Unlock()
	now := l.clock.Now()
	cutoff := now.Add(-l.window)
	kept := l.errors[:0]
	for _, t := range l.errors {
		if t.After(cutoff) {
			kept = append(kept, t)
		}
	}
	l.errors = append(kept, now)
	if len(l.errors) < l.threshold || l.reason == PausedKMSUnhealthy {
		return
	}
	l.errors = nil
	l.pauseLocked(PausedErrorThreshold, fmt.Sprintf("%d errors within %s, the last: %v; resuming at %s", l.threshold, l.window, err, now.Add(l.errPause).UTC().Format(time.RFC3339)), now.Add(l.errPause))
}

// recheckHealth reads health at once, after a failed write: kmsstate may
// already know that the KMS is down before the next interval.
func (l *pauseLatch) recheckHealth(ctx context.Context, health healthFunc) error {
	if health == nil {
		return nil
	}
	err := health(ctx)
	l.setHealth(err)
	return err
}

// watchHealth reads health every interval until ctx ends; execute has
// read it once before.
func (l *pauseLatch) watchHealth(ctx context.Context, health healthFunc, interval time.Duration) {
	if health == nil {
		return
	}
	ticker := l.clock.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C():
			l.setHealth(health(ctx))
		}
	}
}
