package kmsmigration

import (
	"context"
	"sync"
	"time"
)

// latencyLimiter is an additive-increase, multiplicative-decrease bound on
// the PUTs in flight, driven by PUT latency. When the apiserver (or etcd, or
// the KMS behind them) slows down, its queueing shows in latency before it
// shows in errors; halving the concurrency then gives it room.
//
// "Slows down" is relative to the migration's own steady state: a fast
// moving average (about the last 10 PUTs) is compared with a slow one
// (about the last 200). A cluster that is simply slow, or a steady state
// with every worker busy, moves both alike and is left alone; a sudden rise
// (etcd compacting or defragmenting, a leader election, another heavy
// client) moves the fast one first. Comparing with the lowest latency ever
// seen instead would mistake the queueing of normal full-speed operation
// for trouble and throttle a healthy migration for good.
type latencyLimiter struct {
	max    int
	factor float64

	lock     sync.Mutex
	cond     *sync.Cond
	limit    int
	inFlight int
	// ewma is the fast moving average, baseline the slow one.
	ewma     time.Duration
	baseline time.Duration
	samples  int
	// sinceChange counts samples since the limit last changed, so that one
	// change is judged on fresh latencies before the next.
	sinceChange int
}

const (
	// latencyWarmup samples before the baseline is trusted.
	latencyWarmup = 20
	// latencyEWMAWeight is the weight of a new sample in the fast moving
	// average, latencyBaselineWeight in the slow one.
	latencyEWMAWeight     = 0.1
	latencyBaselineWeight = 0.005
)

func newLatencyLimiter(max int, factor float64) *latencyLimiter {
	l := &latencyLimiter{max: max, factor: factor, limit: max}
	l.cond = sync.NewCond(&l.lock)
	return l
}

// acquire blocks until a PUT may start.
func (l *latencyLimiter) acquire(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {
		l.lock.Lock()
		defer l.lock.Unlock()
		l.cond.Broadcast()
	})
	defer stop()
	l.lock.Lock()
	defer l.lock.Unlock()
	for l.inFlight >= l.limit {
		if err := ctx.Err(); err != nil {
			return err
		}
		l.cond.Wait()
	}
	l.inFlight++
	return nil
}

// release ends a PUT that took latency; zero latency records nothing.
func (l *latencyLimiter) release(latency time.Duration) {
	l.lock.Lock()
	defer l.lock.Unlock()
	l.inFlight--
	defer l.cond.Broadcast()
	if latency <= 0 {
		return
	}
	if l.samples == 0 {
		l.ewma = latency
	} else {
		l.ewma += time.Duration(latencyEWMAWeight * float64(latency-l.ewma))
	}
	l.samples++
	l.sinceChange++
	if l.samples < latencyWarmup {
		return
	}
	if l.baseline == 0 {
		l.baseline = l.ewma
	} else {
		l.baseline += time.Duration(latencyBaselineWeight * float64(l.ewma-l.baseline))
	}
	// Judge a change only after every slot has been used a few times.
	if l.sinceChange < 2*l.max {
		return
	}
	switch {
	case float64(l.ewma) > l.factor*float64(l.baseline) && l.limit > 1:
		l.limit /= 2
		l.sinceChange = 0
	case float64(l.ewma) < 1.5*float64(l.baseline) && l.limit < l.max:
		l.limit++
		l.sinceChange = 0
	}
}

// current returns the in-flight limit, for progress reports and tests.
func (l *latencyLimiter) current() int {
	l.lock.Lock()
	defer l.lock.Unlock()
	return l.limit
}
