package apiserverprobe

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/rest"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

const (
	// DefaultTimeout bounds each request when Options.Timeout is zero. kube-apiserver's health check calls each
	// KMS provider's Status with the provider's timeout, which library-go writes as 10 s (upstream's default is
	// 3 s), one provider after the other (two during a key migration). A hanging plugin therefore answers in
	// 20 s at most, and the 5 s beyond leave it shown as a failed health check, not as a timeout of the prober,
	// which says nothing about KMS. At 10 s, the bound before, the check's answer and the prober's timeout raced
	// exactly when the plugin hung. It also leaves time to stream the several MiB of /metrics that a busy
	// apiserver serves. The kmsstate controller asks from a loop of its own, so a long wait holds no verdict.
	DefaultTimeout = 25 * time.Second
	// DefaultConcurrency bounds the targets asked at once when Options.Concurrency is zero. A control plane has
	// three, rarely five, kube-apiservers, so all are asked together, while a wrong target list cannot open
	// connections without limit.
	DefaultConcurrency = 5
	// DefaultMetricsInterval is how often one apiserver's /metrics is read when
	// Options.MetricsInterval is zero: kmsstate's default report interval, how often it asks. A busy
	// kube-apiserver serves several MiB of metrics, so a Prober asked more often than that still reads them only
	// once per interval: more would cost far more than the three KMS families are worth between two reports.
	DefaultMetricsInterval = kmsstate.DefaultReportInterval
)

// Target is one kube-apiserver to ask.
type Target struct {
	// NodeName is the node the kube-apiserver runs on; it is copied into the view.
	NodeName string
	// URL is the https base URL of that one apiserver, such as https://10.0.0.3:6443. It must not be a
	// load-balanced address, which would answer for whichever apiserver it picked.
	URL string
}

// Options tune a Prober. The zero value means the defaults.
type Options struct {
	// Timeout bounds each request, body included; zero means DefaultTimeout.
	Timeout time.Duration
	// Concurrency is the most targets asked at once; zero means DefaultConcurrency.
	Concurrency int
	// MetricsInterval is how often one apiserver's /metrics is read (never twice within 9/10 of it); zero or less means
	// DefaultMetricsInterval. Set it to the kmsstate controller's Config.ReportInterval. Probes in between
	// still ask /healthz/kms-providers, and carry the last sample read (or the error of the last read).
	MetricsInterval time.Duration
}

// Prober asks a fixed set of kube-apiservers about KMS. Build a new one when the set changes; the HTTP client,
// and so its connections, can be shared. A Prober is safe for concurrent use.
type Prober struct {
	client          *http.Client
	targets         []Target
	timeout         time.Duration
	concurrency     int
	metricsInterval time.Duration
	// metrics is the last read of each target's /metrics, by the target's index.
	metrics []*metricsCache
	// healthz is each target's health check, by the target's index.
	healthz []*healthzCache
	// healthzWait is how long a Probe waits for a health check (defaultHealthzWait; shorter in tests).
	healthzWait time.Duration
	// now is the clock of CheckedAt and of the metrics interval, replaced in tests.
	now func() time.Time
}

// New returns a Prober that sends its requests with client, which must carry the credentials and TLS trust
// that the targets require.
func New(client *http.Client, targets []Target, opts Options) *Prober {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = DefaultConcurrency
	}
	if opts.MetricsInterval <= 0 {
		opts.MetricsInterval = DefaultMetricsInterval
	}
	caches := make([]*metricsCache, len(targets))
	checks := make([]*healthzCache, len(targets))
	for i := range caches {
		caches[i], checks[i] = &metricsCache{}, &healthzCache{}
	}
	return &Prober{
		client:          client,
		targets:         append([]Target(nil), targets...),
		timeout:         opts.Timeout,
		concurrency:     opts.Concurrency,
		metricsInterval: opts.MetricsInterval,
		metrics:         caches,
		healthz:         checks,
		healthzWait:     defaultHealthzWait,
		now:             time.Now,
	}
}

// NewForConfig returns a Prober whose requests carry config's credentials and TLS settings; config.Host is
// ignored, every request goes to a Target's URL. When targets are addressed by IP, the serving certificate must
// hold that IP, or config.TLSClientConfig.ServerName must name a DNS name the certificate holds, since the name
// verified is the target's host unless ServerName is set.
func NewForConfig(config *rest.Config, targets []Target, opts Options) (*Prober, error) {
	client, err := rest.HTTPClientFor(config)
	if err != nil {
		return nil, fmt.Errorf("building an HTTP client for the kube-apiserver prober: %w", err)
	}
	return New(client, targets, opts), nil
}

// Probe asks every target and returns one view per target, in the order of the targets. It never fails as a
// whole: what went wrong with one apiserver is in its view's Err.
func (p *Prober) Probe(ctx context.Context) []kmsstate.APIServerView {
	views := make([]kmsstate.APIServerView, len(p.targets))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(p.concurrency, len(p.targets)) {
		wg.Go(func() {
			for i := range next {
				views[i] = p.probe(ctx, i)
			}
		})
	}
	for i := range p.targets {
		next <- i
	}
	close(next)
	wg.Wait()
	return views
}

// probe asks target i: the health check first (the last answer, when the check in flight takes longer than
// healthzWait), then, unless the apiserver could not be reached at all, its metrics when they are due.
func (p *Prober) probe(ctx context.Context, i int) kmsstate.APIServerView {
	target := p.targets[i]
	view := kmsstate.APIServerView{NodeName: target.NodeName, CheckedAt: p.now()}
	base, err := baseURL(target.URL)
	if err != nil {
		view.Err = err.Error()
		return view
	}
	healthz, healthzErr := p.healthz[i].get(ctx, p, base)
	if healthzErr != nil && unreachable(healthzErr) {
		view.Err = healthzErr.Error()
		return view
	}
	metrics, metricsErr := p.metrics[i].get(ctx, p, base)
	view.KMSHealthz, view.Metrics = healthz, metrics
	view.Err = joinErrors(healthzErr, metricsErr)
	return view
}

// metricsIntervalSlack: a sample is read again once it is older than MetricsInterval less 1/metricsIntervalSlack
// of it. The kmsstate controller probes every MetricsInterval, and the time its health check takes before the
// metrics are asked for varies by milliseconds from one tick to the next; without the slack, a tick that came a
// little early found the sample one interval old less those milliseconds and reused it, so /metrics was read
// every other tick and a failure that ended took up to two intervals more to clear, not one (at a 30 s interval,
// the tour's key-destroyed story saw DecryptFailing clear 84 and 114 s after the last failed read; 55 s with the
// slack).
const metricsIntervalSlack = 10

// metricsCache is the last read of one apiserver's /metrics. Its mutex is held during a read, so that Probes
// that overlap read once.
type metricsCache struct {
	mu sync.Mutex
	// readAt is when the last read that was not canceled started; zero before the first.
	readAt time.Time
	// sample is the last sample read, kept after a failed read as the baseline of the next.
	sample *kmsstate.MetricsSample
	// err is the failure of the last read; nil when it gave sample.
	err error
}

// get returns the sample of the last read, or its error, while it is younger than the Prober's metrics interval;
// otherwise it reads /metrics again. A new sample is stamped with ScrapedAt and carries the one before it as
// Previous, so that the growth it shows is the same however often it is returned. A read stopped by Probe's
// context is not kept: the next Probe reads again.
func (c *metricsCache) get(ctx context.Context, p *Prober, base *url.URL) (*kmsstate.MetricsSample, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := p.now()
	if !c.readAt.IsZero() && !now.Before(c.readAt) && now.Sub(c.readAt) < p.metricsInterval-p.metricsInterval/metricsIntervalSlack {
		if c.err != nil {
			return nil, c.err
		}
		return c.sample, nil
	}
	sample, err := p.kmsMetrics(ctx, base)
	var probeErr *probeError
	if errors.As(err, &probeErr) && probeErr.kind == failureCanceled {
		return nil, err
	}
	c.readAt = now
	if err != nil {
		c.err = err
		return nil, err
	}
	sample.ScrapedAt = now
	if c.sample != nil {
		previous := *c.sample
		previous.Previous = nil
		sample.Previous = &previous
	}
	c.sample, c.err = sample, nil
	return sample, nil
}

// unreachable reports whether err, from the health check, means that the apiserver could not be reached, or the
// Probe was stopped, so that asking it for its metrics is not worth the time. A check that answered with an
// HTTP error, or has not answered yet, leaves the metrics worth reading: they show failed reads at once.
func unreachable(err error) bool {
	var probeErr *probeError
	if !errors.As(err, &probeErr) {
		return true
	}
	switch probeErr.kind {
	case failureHTTP, failureTimeout:
		return false
	}
	return true
}

// joinErrors joins the messages of the errors that are not nil on one line, as a view's Err holds them.
func joinErrors(errs ...error) string {
	var msgs []string
	for _, err := range errs {
		if err != nil {
			msgs = append(msgs, err.Error())
		}
	}
	return strings.Join(msgs, "; ")
}

// baseURL parses a Target URL. Plain http is refused: the requests carry a bearer token.
func baseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", failureTarget, err)
	}
	if u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("%s: URL %q: want https://<host>:<port>", failureTarget, raw)
	}
	return u, nil
}
