package lab

import (
	"context"
	"sync"

	"k8s.io/client-go/util/flowcontrol"
)

// migrationHold is the client-side rate limiter of kmsguard's migrator in the lab: while held, every request
// of the migrator's API client waits (and ends with its context), so a migration that starts or runs stands
// still and keeps its checkpoint; released, the requests go on at the migrator's own rate. It stands in for a
// migration that has not got to most objects yet, as on a cluster with a million of them, which the lab's
// few thousand never are for long: FaultMigrationHold.
type migrationHold struct {
	mu sync.Mutex
	// released is closed while the migration is not held.
	released chan struct{}
}

var _ flowcontrol.RateLimiter = &migrationHold{}

func newMigrationHold() *migrationHold {
	released := make(chan struct{})
	close(released)
	return &migrationHold{released: released}
}

// set holds or releases the migration and says whether that changed anything.
func (h *migrationHold) set(held bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-h.released:
		if held {
			h.released = make(chan struct{})
			return true
		}
	default:
		if !held {
			close(h.released)
			return true
		}
	}
	return false
}

func (h *migrationHold) channel() chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.released
}

// Wait returns once the migration is not held, or with ctx's error.
func (h *migrationHold) Wait(ctx context.Context) error {
	select {
	case <-h.channel():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TryAccept says whether a request may go now.
func (h *migrationHold) TryAccept() bool {
	select {
	case <-h.channel():
		return true
	default:
		return false
	}
}

// Accept waits until the migration is not held.
func (h *migrationHold) Accept() { _ = h.Wait(context.Background()) }

// Stop does nothing: there is no goroutine to stop.
func (h *migrationHold) Stop() {}

// QPS is 0: the hold limits nothing but whether requests go; the migrator's own token bucket sets the rate.
func (h *migrationHold) QPS() float32 { return 0 }
