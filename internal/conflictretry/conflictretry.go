// Package conflictretry retries a read-modify-write on conflicts, as client-go's retry.RetryOnConflict does,
// without ever reporting a call that failed as done.
//
// The vendored client-go's retry.OnError (under RetryOnConflict) returns nil when the call fails with an error
// that wraps a context error before any conflict: it takes the call's error for its own backoff's interruption
// (kubernetes/kubernetes#140402). A write cut by its context's deadline then passes for one that was made.
// kubernetes/kubernetes#140406 fixes OnError; with a client-go that has it, this package can go.
package conflictretry

import "k8s.io/client-go/util/retry"

// Do runs call until it succeeds or fails with anything but a conflict, at most as often as retry.DefaultRetry
// allows. It returns nil only when the last call succeeded, and otherwise that call's own error.
func Do(call func() error) error {
	var last error
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		last = call()
		return last
	})
	if last != nil {
		return last // the call's own error, which OnError may have replaced by nil or an older conflict
	}
	return err
}
