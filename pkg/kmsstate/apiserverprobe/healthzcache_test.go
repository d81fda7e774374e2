package apiserverprobe

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestProbeDoesNotWaitForASlowHealthCheck: kube-apiserver's KMS check hangs as long as its plugin does. A Probe
// must still come back, with the metrics, and say the check has not answered; the check must not be asked again
// while it is in flight; and its answer, when it comes, is the next Probe's.
func TestProbeDoesNotWaitForASlowHealthCheck(t *testing.T) {
	release := make(chan struct{})
	var checks atomic.Int32
	server := fakeAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
		checks.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		healthzFailing(w, r)
	}, metricsText(readFixture(t)))
	// The timeout is a bound for a test that goes wrong, the wait is what a Probe gives the check.
	p := newTestProber(t, server, []Target{{NodeName: "master-2", URL: server.URL}}, Options{Timeout: time.Minute})
	p.healthzWait = 50 * time.Millisecond

	for i := range 2 {
		view := p.Probe(context.Background())[0]
		if view.Metrics == nil {
			t.Errorf("probe %d: no metrics while the check hangs (Err %q)", i, view.Err)
		}
		if view.KMSHealthz != nil || errKind(view) != failureTimeout || !strings.Contains(view.Err, "no answer yet") {
			t.Errorf("probe %d: KMSHealthz %+v, Err %q; want none and a timeout saying there is no answer yet", i, view.KMSHealthz, view.Err)
		}
	}
	if got := checks.Load(); got != 1 {
		t.Errorf("the check was asked %d times while in flight, want 1", got)
	}

	close(release)
	// The check ends now; a Probe waits for the one in flight at most healthzWait, so this may take a few.
	deadline := time.Now().Add(30 * time.Second)
	for {
		view := p.Probe(context.Background())[0]
		if view.KMSHealthz != nil {
			if view.KMSHealthz.OK || !strings.Contains(view.KMSHealthz.Detail, "kms-provider-0") {
				t.Errorf("KMSHealthz %+v, want the failed check", view.KMSHealthz)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the check's answer never reached a Probe: Err %q", view.Err)
		}
	}
}
