package kmsmigration

import (
	"context"
	"testing"
	"time"
)

// feed releases n PUTs that took latency each, one slot at a time.
func feed(t *testing.T, l *latencyLimiter, n int, latency time.Duration) {
	t.Helper()
	for range n {
		if err := l.acquire(context.Background()); err != nil {
			t.Fatal(err)
		}
		l.release(latency)
	}
}

func TestLatencyLimiter(t *testing.T) {
	scenarios := []struct {
		name string
		// phases of (samples, latency), fed in order.
		phases []struct {
			n       int
			latency time.Duration
		}
		wantLimit func(limit int) bool
		want      string
	}{
		{
			name: "steady latency keeps every slot",
			phases: []struct {
				n       int
				latency time.Duration
			}{{2000, 20 * time.Millisecond}},
			wantLimit: func(l int) bool { return l == 16 },
			want:      "16",
		},
		{
			name: "a slow but steady cluster keeps every slot",
			phases: []struct {
				n       int
				latency time.Duration
			}{{100, 5 * time.Millisecond}, {3000, 20 * time.Millisecond}},
			wantLimit: func(l int) bool { return l == 16 },
			want:      "16 once the baseline followed",
		},
		{
			name: "a sudden rise halves the slots",
			phases: []struct {
				n       int
				latency time.Duration
			}{{1000, 10 * time.Millisecond}, {100, 200 * time.Millisecond}},
			wantLimit: func(l int) bool { return l <= 4 },
			want:      "at most 4",
		},
		{
			name: "recovery grows the slots back",
			phases: []struct {
				n       int
				latency time.Duration
			}{{1000, 10 * time.Millisecond}, {100, 200 * time.Millisecond}, {3000, 10 * time.Millisecond}},
			wantLimit: func(l int) bool { return l == 16 },
			want:      "16",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			l := newLatencyLimiter(16, DefaultLatencyFactor)
			for _, p := range s.phases {
				feed(t, l, p.n, p.latency)
			}
			if got := l.current(); !s.wantLimit(got) {
				t.Errorf("limit %d, want %s", got, s.want)
			}
		})
	}
}

func TestLatencyLimiterBlocksAtTheLimit(t *testing.T) {
	l := newLatencyLimiter(2, DefaultLatencyFactor)
	for range 2 {
		if err := l.acquire(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- l.acquire(ctx) }()
	select {
	case err := <-done:
		t.Fatalf("a third PUT started with two in flight and a limit of 2 (err %v)", err)
	case <-time.After(20 * time.Millisecond):
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("a cancelled wait for a slot returned no error")
	}
	l.release(time.Millisecond)
	if err := l.acquire(context.Background()); err != nil {
		t.Fatalf("a released slot was not available: %v", err)
	}
}
