package apiserverprobe

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"
)

// failureKind is the first word of a view's Err. It classifies the failure so that a reader (or a test) can
// tell "could not ask" from "asked, and the answer was unusable" without parsing the detail that follows.
type failureKind string

const (
	// failureTimeout: the apiserver did not answer, or did not finish its answer, within Options.Timeout.
	failureTimeout failureKind = "timeout"
	// failureTransport: the request failed without an HTTP answer: connection refused, TLS, DNS, reset.
	failureTransport failureKind = "transport"
	// failureCanceled: Probe's own context ended first, typically because the controller is stopping.
	failureCanceled failureKind = "canceled"
	// failureHTTP: the apiserver answered with a status that is no answer to the question asked, such as 403
	// (the prober lacks RBAC) or 404 (no kms-providers check is installed).
	failureHTTP failureKind = "http"
	// failureMetrics: /metrics answered 200 but the body is not a complete, parseable Prometheus text exposition.
	failureMetrics failureKind = "metrics"
	// failureTarget: the Target itself is unusable (not an https URL); nothing was sent.
	failureTarget failureKind = "target"
)

// probeError is why one request of a probe gave no usable answer.
type probeError struct {
	kind failureKind
	url  string
	err  error
}

func (e *probeError) Error() string { return fmt.Sprintf("%s: GET %s: %v", e.kind, e.url, e.err) }

func (e *probeError) Unwrap() error { return e.err }

// requestFailure classifies err, returned by sending a request to rawURL or reading its body. parent is the
// context Probe was called with: when it is done, the probe was stopped rather than the apiserver being slow.
func requestFailure(parent context.Context, rawURL string, timeout time.Duration, err error) *probeError {
	if parent.Err() != nil {
		return &probeError{kind: failureCanceled, url: rawURL, err: context.Cause(parent)}
	}
	if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return &probeError{kind: failureTimeout, url: rawURL, err: fmt.Errorf("no complete answer within %s", timeout)}
	}
	// *url.Error repeats the method and URL that probeError already prints.
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	return &probeError{kind: failureTransport, url: rawURL, err: err}
}

// isTimeout reports whether err says it is a timeout (net.Error, *url.Error), which a deadline hit while
// reading a body may be without wrapping context.DeadlineExceeded.
func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
