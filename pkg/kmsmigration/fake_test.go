package kmsmigration

import (
	"context"
	"sync"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
)

var secretsGR = apiservertest.GR

// fakeCluster is kube-apiserver serving Secrets as a migration sees it (apiservertest).
type fakeCluster = apiservertest.Secrets

// fastClock is a fake clock that a background goroutine moves forward by
// step every millisecond, so that pauses, backoffs and intervals of minutes
// pass in milliseconds while the code under test waits on the clock it is
// given, never on the wall clock.
func fastClock(t *testing.T, step time.Duration) *clocktesting.FakeClock {
	c := clocktesting.NewFakeClock(time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ticker := time.NewTicker(time.Millisecond)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
				c.Step(step)
			}
		}
	}()
	t.Cleanup(func() { cancel(); wg.Wait() })
	return c
}

func testOptions(t *testing.T, c *fakeCluster) Options {
	return Options{
		Dynamic:     c.Dynamic(),
		Mapper:      apiservertest.Mapper(),
		PageSize:    7,
		Concurrency: 4,
		QPS:         -1,
		Clock:       fastClock(t, 100*time.Millisecond),
	}
}

func newTestMigrator(t *testing.T, opts Options) *Migrator {
	t.Helper()
	m, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
