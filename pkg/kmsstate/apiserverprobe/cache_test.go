package apiserverprobe

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// countingServer serves the fixture's health check and metrics, counting the requests of each, and answers
// /metrics with the body or status the test sets.
type countingServer struct {
	healthz, metrics atomic.Int64
	mu               sync.Mutex
	body             string
	code             int
}

func (c *countingServer) set(code int, body string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.code, c.body = code, body
}

func (c *countingServer) serveHealthz(w http.ResponseWriter, r *http.Request) {
	c.healthz.Add(1)
	healthzOK(w, r)
}

func (c *countingServer) serveMetrics(w http.ResponseWriter, r *http.Request) {
	c.metrics.Add(1)
	c.mu.Lock()
	code, body := c.code, c.body
	c.mu.Unlock()
	if code != http.StatusOK {
		status(code, body)(w, r)
		return
	}
	metricsText(body)(w, r)
}

// withDecryptErrors is the fixture with its kms-a Unavailable decrypt error count (4) set to n.
func withDecryptErrors(fixture string, n string) string {
	const series = `apiserver_storage_transformation_operations_total{resource="secrets",status="Unavailable",transformation_type="from_storage",transformer_prefix="k8s:enc:kms:v2:kms-a:"} 4`
	if !strings.Contains(fixture, series) {
		panic("the fixture no longer has the series " + series)
	}
	return strings.Replace(fixture, series, strings.TrimSuffix(series, "4")+n, 1)
}

// TestProbeReadsMetricsOncePerInterval: every Probe asks the health check, but /metrics is read about once per
// MetricsInterval (not before 9/10 of it); in between, the last sample is returned as it was, with the read before
// it as its Previous.
func TestProbeReadsMetricsOncePerInterval(t *testing.T) {
	fixture := readFixture(t)
	api := &countingServer{}
	api.set(http.StatusOK, fixture)
	server := fakeAPIServer(t, api.serveHealthz, api.serveMetrics)
	p := newTestProber(t, server, []Target{{NodeName: "master-0", URL: server.URL}}, Options{MetricsInterval: time.Minute})
	now := checkedAt
	p.now = func() time.Time { return now }
	probes := int64(0)

	probe := func(at time.Duration, wantReads int64, wantScrapedAt time.Duration, wantDecryptErrors float64, wantPrevious float64) kmsstate.APIServerView {
		t.Helper()
		now = checkedAt.Add(at)
		view := p.Probe(context.Background())[0]
		probes++
		if view.Err != "" || view.Metrics == nil {
			t.Fatalf("at +%s: view %+v, want a sample and no error", at, view)
		}
		if got := api.metrics.Load(); got != wantReads {
			t.Errorf("at +%s: /metrics read %d times, want %d", at, got, wantReads)
		}
		if got := api.healthz.Load(); got != probes {
			t.Errorf("at +%s: health check asked %d times, want %d (every Probe)", at, got, probes)
		}
		if want := checkedAt.Add(wantScrapedAt); !view.Metrics.ScrapedAt.Equal(want) {
			t.Errorf("at +%s: ScrapedAt %s, want %s", at, view.Metrics.ScrapedAt, want)
		}
		if view.Metrics.DecryptErrors != wantDecryptErrors {
			t.Errorf("at +%s: %v decrypt errors, want %v", at, view.Metrics.DecryptErrors, wantDecryptErrors)
		}
		switch {
		case wantPrevious < 0 && view.Metrics.Previous != nil:
			t.Errorf("at +%s: Previous %+v, want none", at, view.Metrics.Previous)
		case wantPrevious >= 0 && (view.Metrics.Previous == nil || view.Metrics.Previous.DecryptErrors != wantPrevious):
			t.Errorf("at +%s: Previous %+v, want one with %v decrypt errors", at, view.Metrics.Previous, wantPrevious)
		case view.Metrics.Previous != nil && view.Metrics.Previous.Previous != nil:
			t.Errorf("at +%s: Previous has a Previous: the chain would grow without end", at)
		}
		return view
	}

	first := probe(0, 1, 0, 10, -1)
	again := probe(30*time.Second, 1, 0, 10, -1)
	if again.Metrics != first.Metrics {
		t.Error("the sample returned before the next read is not the same one")
	}
	probe(53*time.Second, 1, 0, 10, -1)
	// The apiserver fails more reads; the next read shows it, with the read before as Previous. A Probe a little
	// less than an interval after the read, as the kmsstate controller's ticker makes them, reads again.
	api.set(http.StatusOK, withDecryptErrors(fixture, "7"))
	early := time.Minute - 50*time.Millisecond
	probe(early, 2, early, 13, 10)
	probe(90*time.Second, 2, early, 13, 10)
	probe(early+time.Minute-time.Second, 3, early+time.Minute-time.Second, 13, 13)
	// A clock that went back reads again.
	probe(0, 4, 0, 13, 13)
}

// TestProbeKeepsAFailedMetricsRead: a failed read is not retried before the interval has passed, and its error is
// in every view until then; the next good read measures from the last good one.
func TestProbeKeepsAFailedMetricsRead(t *testing.T) {
	fixture := readFixture(t)
	api := &countingServer{}
	api.set(http.StatusOK, fixture)
	server := fakeAPIServer(t, api.serveHealthz, api.serveMetrics)
	p := newTestProber(t, server, []Target{{NodeName: "master-0", URL: server.URL}}, Options{})
	now := checkedAt
	p.now = func() time.Time { return now }

	if view := p.Probe(context.Background())[0]; view.Metrics == nil {
		t.Fatalf("first probe: %+v, want a sample", view)
	}
	api.set(http.StatusServiceUnavailable, "shutting down")
	for _, at := range []time.Duration{DefaultMetricsInterval, DefaultMetricsInterval + 10*time.Second} {
		now = checkedAt.Add(at)
		view := p.Probe(context.Background())[0]
		if view.Metrics != nil || errKind(view) != failureHTTP || !strings.Contains(view.Err, "503") || view.KMSHealthz == nil {
			t.Errorf("at +%s: view %+v, want the health answer and the failed read's http error", at, view)
		}
		if got := api.metrics.Load(); got != 2 {
			t.Errorf("at +%s: /metrics read %d times, want 2", at, got)
		}
	}
	api.set(http.StatusOK, withDecryptErrors(fixture, "5"))
	now = checkedAt.Add(2 * DefaultMetricsInterval)
	view := p.Probe(context.Background())[0]
	if view.Metrics == nil || view.Metrics.DecryptErrors != 11 || view.Metrics.Previous == nil || view.Metrics.Previous.DecryptErrors != 10 {
		t.Errorf("after the failed read: view %+v, want 11 decrypt errors measured from the last good read's 10", view)
	}
	if got := api.metrics.Load(); got != 3 {
		t.Errorf("/metrics read %d times, want 3", got)
	}
}

// TestProbeDoesNotKeepACanceledMetricsRead: a read stopped by Probe's own context says nothing about the
// apiserver, so the next Probe reads again at once.
func TestProbeDoesNotKeepACanceledMetricsRead(t *testing.T) {
	fixture := readFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	var reads atomic.Int64
	server := fakeAPIServer(t, healthzOK, func(w http.ResponseWriter, r *http.Request) {
		if reads.Add(1) == 1 {
			cancel()
			<-r.Context().Done()
			return
		}
		metricsText(fixture)(w, r)
	})
	p := newTestProber(t, server, []Target{{NodeName: "master-0", URL: server.URL}}, Options{})

	if view := p.Probe(ctx)[0]; errKind(view) != failureCanceled {
		t.Fatalf("canceled probe: %+v, want a canceled Err", view)
	}
	view := p.Probe(context.Background())[0]
	if view.Err != "" || !reflect.DeepEqual(sampleOnly(view.Metrics), fixtureSample) || reads.Load() != 2 {
		t.Errorf("probe after a canceled one: %+v after %d reads, want the fixture's sample from a second read", view, reads.Load())
	}
}

// TestOverlappingProbesReadMetricsOnce: Probes that run at the same time share one read.
func TestOverlappingProbesReadMetricsOnce(t *testing.T) {
	api := &countingServer{}
	api.set(http.StatusOK, readFixture(t))
	server := fakeAPIServer(t, api.serveHealthz, api.serveMetrics)
	p := newTestProber(t, server, []Target{{NodeName: "master-0", URL: server.URL}}, Options{})

	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if view := p.Probe(context.Background())[0]; view.Metrics == nil {
				t.Errorf("view %+v, want a sample", view)
			}
		})
	}
	wg.Wait()
	if got := api.metrics.Load(); got != 1 {
		t.Errorf("/metrics read %d times by 8 overlapping Probes, want 1", got)
	}
}

func TestMetricsIntervalDefault(t *testing.T) {
	for _, s := range []struct {
		set, want time.Duration
	}{
		{want: DefaultMetricsInterval},
		{set: -time.Second, want: DefaultMetricsInterval},
		{set: time.Minute, want: time.Minute},
	} {
		if got := New(http.DefaultClient, nil, Options{MetricsInterval: s.set}).metricsInterval; got != s.want {
			t.Errorf("MetricsInterval %s: interval %s, want %s", s.set, got, s.want)
		}
	}
}
