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
	// DefaultTimeout bounds each request when Options.Timeout is zero. kube-apiserver gives each KMS Status call
	// 3 s by default and runs the calls of several providers one after the other (two during a key migration), so
	// a hanging plugin still shows as a failed health check rather than as a timeout of the prober; it also leaves
	// time to stream the several MiB of /metrics that a busy apiserver serves.
	DefaultTimeout = 10 * time.Second
	// DefaultConcurrency bounds the targets asked at once when Options.Concurrency is zero. A control plane has
	// three, rarely five, kube-apiservers, so all are asked together, while a wrong target list cannot open
	// connections without limit.
	DefaultConcurrency = 5
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
}

// Prober asks a fixed set of kube-apiservers about KMS. Build a new one when the set changes; the HTTP client,
// and so its connections, can be shared. A Prober is safe for concurrent use.
type Prober struct {
	client      *http.Client
	targets     []Target
	timeout     time.Duration
	concurrency int
	// now is the clock of CheckedAt, replaced in tests.
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
	return &Prober{
		client:      client,
		targets:     append([]Target(nil), targets...),
		timeout:     opts.Timeout,
		concurrency: opts.Concurrency,
		now:         time.Now,
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
				views[i] = p.probe(ctx, p.targets[i])
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

// probe asks one apiserver: the health check first, then, unless the apiserver could not be reached at all,
// its metrics.
func (p *Prober) probe(ctx context.Context, target Target) kmsstate.APIServerView {
	view := kmsstate.APIServerView{NodeName: target.NodeName, CheckedAt: p.now()}
	base, err := baseURL(target.URL)
	if err != nil {
		view.Err = err.Error()
		return view
	}
	healthz, healthzErr := p.kmsHealthz(ctx, base)
	if healthzErr != nil && !answered(healthzErr) {
		view.Err = healthzErr.Error()
		return view
	}
	metrics, metricsErr := p.kmsMetrics(ctx, base)
	view.KMSHealthz, view.Metrics = healthz, metrics
	view.Err = joinErrors(healthzErr, metricsErr)
	return view
}

// answered reports whether err, from the health check, still means that the apiserver answered, so that asking
// it for its metrics is worth the time.
func answered(err error) bool {
	var probeErr *probeError
	return errors.As(err, &probeErr) && probeErr.kind == failureHTTP
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
