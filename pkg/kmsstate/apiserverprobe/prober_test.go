package apiserverprobe

import (
	"context"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// metricsContentType is what kube-apiserver v1.36 answers to the Accept header the prober sends.
const metricsContentType = "text/plain; version=0.0.4; charset=utf-8; escaping=underscores"

// checkedAt is the fake clock of every Prober in these tests.
var checkedAt = time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)

// fakeAPIServer serves /healthz/kms-providers and /metrics over TLS with the given handlers.
func fakeAPIServer(t *testing.T, healthz, metrics http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+kmsHealthzPath, healthz)
	mux.HandleFunc("GET "+metricsPath, metrics)
	server := httptest.NewUnstartedServer(mux)
	// Failed handshakes and dropped connections are what several tests are about; the server need not log them.
	server.Config.ErrorLog = log.New(io.Discard, "", 0)
	server.StartTLS()
	t.Cleanup(server.Close)
	return server
}

// newTestProber returns a Prober for targets that trusts httptest's certificate, which every httptest TLS server
// shares.
func newTestProber(t *testing.T, server *httptest.Server, targets []Target, opts Options) *Prober {
	t.Helper()
	p := New(server.Client(), targets, opts)
	p.now = func() time.Time { return checkedAt }
	return p
}

func healthzOK(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") }

// healthzFailing answers as kube-apiserver v1.36 did with its plugin stopped.
func healthzFailing(w http.ResponseWriter, _ *http.Request) {
	http.Error(w, `internal server error: kms-provider-0: rpc error: code = DeadlineExceeded desc = latest balancer error: connection error: desc = "transport: Error while dialing: dial unix /tmp/kms/kms.sock: connect: no such file or directory"`, http.StatusInternalServerError)
}

func status(code int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) { http.Error(w, body, code) }
}

// metricsText serves body as kube-apiserver serves /metrics, after checking that the prober asked for text.
func metricsText(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.Header.Get("Accept"), "text/plain") {
			http.Error(w, "want text/plain", http.StatusNotAcceptable)
			return
		}
		w.Header().Set("Content-Type", metricsContentType)
		fmt.Fprint(w, body)
	}
}

func readFixture(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/kms_metrics.txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sampleOnly is what a sample read from /metrics says, without when it was read and the read before it.
func sampleOnly(sample *kmsstate.MetricsSample) *kmsstate.MetricsSample {
	if sample == nil {
		return nil
	}
	only := *sample
	only.ScrapedAt, only.Previous = time.Time{}, nil
	return &only
}

// errKind is the failure kind a view's Err starts with, or "".
func errKind(view kmsstate.APIServerView) failureKind {
	kind, _, _ := strings.Cut(view.Err, ":")
	return failureKind(kind)
}

func TestProbeAnswers(t *testing.T) {
	fixture := readFixture(t)
	scenarios := []struct {
		name        string
		healthz     http.HandlerFunc
		metrics     http.HandlerFunc
		wantHealthz *kmsstate.HealthzResult
		wantMetrics *kmsstate.MetricsSample
		wantErrKind failureKind
		wantErr     string
	}{
		{
			name:        "healthy",
			healthz:     healthzOK,
			metrics:     metricsText(fixture),
			wantHealthz: &kmsstate.HealthzResult{OK: true},
			wantMetrics: fixtureSample,
		},
		{
			name:    "KMS check failing, as kube-apiserver answers it",
			healthz: healthzFailing,
			metrics: metricsText(fixture),
			wantHealthz: &kmsstate.HealthzResult{Detail: `HTTP 500: internal server error: kms-provider-0: rpc error: code = DeadlineExceeded desc = latest balancer error: ` +
				`connection error: desc = "transport: Error while dialing: dial unix /tmp/kms/kms.sock: connect: no such file or directory"`},
			wantMetrics: fixtureSample,
		},
		{
			name:        "KMS check failing, with verbose lines",
			healthz:     status(http.StatusInternalServerError, "[+]ping ok\n[-]kms-provider-0 failed: rpc error: code = Unavailable\n[-]kms-provider-1 failed: reason withheld\nhealthz check failed"),
			metrics:     metricsText(fixture),
			wantHealthz: &kmsstate.HealthzResult{Detail: "[-]kms-provider-0 failed: rpc error: code = Unavailable; [-]kms-provider-1 failed: reason withheld"},
			wantMetrics: fixtureSample,
		},
		{
			name:        "health check forbidden is no verdict on KMS",
			healthz:     status(http.StatusForbidden, `forbidden: User "system:serviceaccount:openshift-kube-apiserver-operator:kube-apiserver-operator" cannot get path "/healthz/kms-providers"`),
			metrics:     metricsText(fixture),
			wantMetrics: fixtureSample,
			wantErrKind: failureHTTP,
			wantErr:     "403 Forbidden (the prober's identity needs RBAC get on this nonResourceURL)",
		},
		{
			name:        "no kms-providers check is no verdict on KMS",
			healthz:     http.NotFound,
			metrics:     metricsText(fixture),
			wantMetrics: fixtureSample,
			wantErrKind: failureHTTP,
			wantErr:     "404 Not Found",
		},
		{
			name:        "metrics forbidden",
			healthz:     healthzOK,
			metrics:     status(http.StatusForbidden, "forbidden"),
			wantHealthz: &kmsstate.HealthzResult{OK: true},
			wantErrKind: failureHTTP,
			wantErr:     "/metrics: 403 Forbidden",
		},
		{
			name:        "garbage metrics",
			healthz:     healthzOK,
			metrics:     metricsText("this is not\nprometheus text\n"),
			wantHealthz: &kmsstate.HealthzResult{OK: true},
			wantErrKind: failureMetrics,
			wantErr:     "line 1",
		},
		{
			name:        "metrics cut in the middle of a line",
			healthz:     healthzOK,
			metrics:     metricsText(fixture[:len(fixture)/2]),
			wantHealthz: &kmsstate.HealthzResult{OK: true},
			wantErrKind: failureMetrics,
			wantErr:     "truncated",
		},
		{
			name:    "metrics connection dropped before the declared length",
			healthz: healthzOK,
			metrics: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", metricsContentType)
				w.Header().Set("Content-Length", fmt.Sprint(len(fixture)))
				fmt.Fprint(w, fixture[:len(fixture)/2])
			},
			wantHealthz: &kmsstate.HealthzResult{OK: true},
			wantErrKind: failureTransport,
			wantErr:     "unexpected EOF",
		},
		{
			name:    "metrics in an HTML page",
			healthz: healthzOK,
			metrics: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprint(w, "<html>"+fixture+"</html>")
			},
			wantHealthz: &kmsstate.HealthzResult{OK: true},
			wantErrKind: failureMetrics,
			wantErr:     `content type "text/html" is not the Prometheus text format`,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			server := fakeAPIServer(t, s.healthz, s.metrics)
			p := newTestProber(t, server, []Target{{NodeName: "master-0", URL: server.URL}}, Options{})

			views := p.Probe(context.Background())
			if len(views) != 1 {
				t.Fatalf("got %d views, want 1", len(views))
			}
			view := views[0]
			if view.NodeName != "master-0" || !view.CheckedAt.Equal(checkedAt) {
				t.Errorf("view is of %q at %s, want master-0 at %s", view.NodeName, view.CheckedAt, checkedAt)
			}
			if !reflect.DeepEqual(view.KMSHealthz, s.wantHealthz) {
				t.Errorf("KMSHealthz = %+v, want %+v", view.KMSHealthz, s.wantHealthz)
			}
			if view.Metrics != nil && !view.Metrics.ScrapedAt.Equal(checkedAt) {
				t.Errorf("Metrics.ScrapedAt = %s, want %s", view.Metrics.ScrapedAt, checkedAt)
			}
			if got := sampleOnly(view.Metrics); !reflect.DeepEqual(got, s.wantMetrics) {
				t.Errorf("Metrics = %+v, want %+v", got, s.wantMetrics)
			}
			if errKind(view) != s.wantErrKind || !strings.Contains(view.Err, s.wantErr) {
				t.Errorf("Err = %q, want kind %q containing %q", view.Err, s.wantErrKind, s.wantErr)
			}
		})
	}
}

// TestProbeCouldNotAsk covers apiservers that give no answer at all: the view then says why, and holds nothing
// else. Timeouts are asserted by their classification only, never by how long they took.
func TestProbeCouldNotAsk(t *testing.T) {
	// stall answers only once the client has given up.
	stall := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

	scenarios := []struct {
		name        string
		target      func(t *testing.T) string
		ctx         func() context.Context
		wantErrKind failureKind
		wantErr     string
	}{
		{
			name: "connection refused",
			target: func(t *testing.T) string {
				// A port that was just free and is no longer listened on.
				l, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				addr := l.Addr().String()
				l.Close()
				return "https://" + addr
			},
			wantErrKind: failureTransport,
			wantErr:     "connection refused",
		},
		{
			name:        "no answer in time",
			target:      func(t *testing.T) string { return fakeAPIServer(t, stall, stall).URL },
			wantErrKind: failureTimeout,
			wantErr:     "no complete answer within 100ms",
		},
		{
			name:   "probe stopped",
			target: func(t *testing.T) string { return fakeAPIServer(t, healthzOK, healthzOK).URL },
			ctx: func() context.Context {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				return ctx
			},
			wantErrKind: failureCanceled,
		},
		{
			name:        "plain http target",
			target:      func(t *testing.T) string { return "http://127.0.0.1:6443" },
			wantErrKind: failureTarget,
			wantErr:     "want https://<host>:<port>",
		},
		{
			name:        "not a URL",
			target:      func(t *testing.T) string { return "https://[::1" },
			wantErrKind: failureTarget,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			ctx := context.Background()
			if s.ctx != nil {
				ctx = s.ctx()
			}
			// The client is only used for its trust in httptest's certificate.
			client := fakeAPIServer(t, healthzOK, healthzOK)
			p := newTestProber(t, client, []Target{{NodeName: "master-1", URL: s.target(t)}}, Options{Timeout: 100 * time.Millisecond})

			view := p.Probe(ctx)[0]
			if errKind(view) != s.wantErrKind || !strings.Contains(view.Err, s.wantErr) {
				t.Errorf("Err = %q, want kind %q containing %q", view.Err, s.wantErrKind, s.wantErr)
			}
			if view.KMSHealthz != nil || view.Metrics != nil {
				t.Errorf("an apiserver that was not asked has KMSHealthz %+v and Metrics %+v", view.KMSHealthz, view.Metrics)
			}
			if view.NodeName != "master-1" {
				t.Errorf("NodeName = %q, want master-1", view.NodeName)
			}
		})
	}
}

// TestProbeStalledMetricsBody: headers and the first half of the lines come, then nothing. The body read times
// out, which is a timeout and not a short exposition, and the health answer already taken is kept. The cut is at
// the end of a line, where the text alone would not show it.
func TestProbeStalledMetricsBody(t *testing.T) {
	fixture := readFixture(t)
	half := fixture[:strings.LastIndex(fixture[:len(fixture)/2], "\n")+1]
	server := fakeAPIServer(t, healthzOK, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", metricsContentType)
		fmt.Fprint(w, half)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	p := newTestProber(t, server, []Target{{NodeName: "master-2", URL: server.URL}}, Options{Timeout: 200 * time.Millisecond})

	view := p.Probe(context.Background())[0]
	if errKind(view) != failureTimeout {
		t.Errorf("Err = %q, want kind %q", view.Err, failureTimeout)
	}
	if view.Metrics != nil {
		t.Errorf("a half-read exposition gave Metrics %+v", view.Metrics)
	}
	if want := (&kmsstate.HealthzResult{OK: true}); !reflect.DeepEqual(view.KMSHealthz, want) {
		t.Errorf("KMSHealthz = %+v, want %+v", view.KMSHealthz, want)
	}
}

// TestProbeBoundsConcurrency asks more targets than the bound allows at once and checks that every target gets
// its own view, in order, while never more than the bound are in flight.
func TestProbeBoundsConcurrency(t *testing.T) {
	const concurrency = 2
	var inFlight, maxInFlight atomic.Int32
	track := func(next http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			for {
				m := maxInFlight.Load()
				if n <= m || maxInFlight.CompareAndSwap(m, n) {
					break
				}
			}
			// A hold, not a wait: it keeps the request in flight long enough for the other workers' requests to
			// overlap it, which is what lets a prober that asks more than the bound at once show itself. There is
			// no condition to wait on instead: what a correct prober does is not send a request, and an absence
			// cannot be awaited. 10ms stays well below the health check wait (defaultHealthzWait, 1s), so each
			// answer is still taken in line and no check is left in flight in the background.
			time.Sleep(10 * time.Millisecond)
			next(w, r)
		}
	}
	server := fakeAPIServer(t, track(healthzOK), track(metricsText(readFixture(t))))
	var targets []Target
	for i := range 7 {
		targets = append(targets, Target{NodeName: fmt.Sprintf("master-%d", i), URL: server.URL})
	}
	p := newTestProber(t, server, targets, Options{Concurrency: concurrency})

	views := p.Probe(context.Background())
	if len(views) != len(targets) {
		t.Fatalf("got %d views for %d targets", len(views), len(targets))
	}
	for i, view := range views {
		if view.NodeName != targets[i].NodeName || view.Err != "" || view.KMSHealthz == nil || !view.KMSHealthz.OK {
			t.Errorf("view %d is %+v, want a healthy view of %s", i, view, targets[i].NodeName)
		}
	}
	if got := maxInFlight.Load(); got > concurrency {
		t.Errorf("%d requests were in flight at once, want at most %d", got, concurrency)
	}
}

// TestNewForConfig checks that a Prober built from a rest.Config sends its bearer token and trusts its CA, and
// goes to the target rather than to config.Host.
func TestNewForConfig(t *testing.T) {
	const token = "service-account-token"
	var mu sync.Mutex
	var gotAuth []string
	authorized := func(next http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			gotAuth = append(gotAuth, r.Header.Get("Authorization"))
			mu.Unlock()
			if r.Header.Get("Authorization") != "Bearer "+token {
				http.Error(w, "Unauthorized", http.StatusUnauthorized)
				return
			}
			next(w, r)
		}
	}
	server := fakeAPIServer(t, authorized(healthzOK), authorized(metricsText(readFixture(t))))
	config := &rest.Config{
		Host:            "https://api.example.invalid:6443",
		BearerToken:     token,
		TLSClientConfig: rest.TLSClientConfig{CAData: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: server.Certificate().Raw})},
	}
	p, err := NewForConfig(config, []Target{{NodeName: "master-0", URL: server.URL}}, Options{})
	if err != nil {
		t.Fatal(err)
	}

	view := p.Probe(context.Background())[0]
	if view.Err != "" || view.KMSHealthz == nil || !view.KMSHealthz.OK || !reflect.DeepEqual(sampleOnly(view.Metrics), fixtureSample) {
		t.Errorf("view is %+v, want a healthy view with the fixture's sample", view)
	}
	if want := []string{"Bearer " + token, "Bearer " + token}; !reflect.DeepEqual(gotAuth, want) {
		t.Errorf("Authorization headers %q, want %q", gotAuth, want)
	}
}

// TestNewForConfigRejectsUntrustedServer: without the CA the TLS handshake fails, a transport failure.
func TestNewForConfigRejectsUntrustedServer(t *testing.T) {
	server := fakeAPIServer(t, healthzOK, healthzOK)
	p, err := NewForConfig(&rest.Config{BearerToken: "t"}, []Target{{NodeName: "master-0", URL: server.URL}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	view := p.Probe(context.Background())[0]
	if errKind(view) != failureTransport || !strings.Contains(view.Err, "certificate") {
		t.Errorf("Err = %q, want a transport failure about the certificate", view.Err)
	}
}
