package lab

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// retryAPIInterval and retryAPITimeout bound retryAPI: a single-node lab has no apiserver for a few seconds
// while its only one restarts, and for the startup timeout when a revision fails to start.
const (
	retryAPIInterval = 250 * time.Millisecond
	retryAPITimeout  = 2 * time.Minute
)

// retryAPI retries a call while the apiservers restart or while it conflicts, for up to retryAPITimeout or
// until ctx ends. It returns nil only when a call succeeded; otherwise the last call's error (or ctx's, when
// no call was made). A NotFound, Invalid or Forbidden answer is final.
func retryAPI(ctx context.Context, call func() error) error {
	var last error
	err := wait.PollUntilContextTimeout(ctx, retryAPIInterval, retryAPITimeout, true, func(context.Context) (bool, error) {
		last = retryOnConflict(call)
		if last == nil {
			return true, nil
		}
		if apierrors.IsNotFound(last) || apierrors.IsInvalid(last) || apierrors.IsForbidden(last) {
			return false, last
		}
		return false, nil
	})
	if err != nil && last != nil {
		return last
	}
	return err
}

// retryOnConflict is retry.RetryOnConflict with retry.DefaultRetry, except that it never reports a call that
// failed as done. The vendored client-go's retry.OnError returns nil when the call fails with a context error
// before any conflict: it takes the call's error for its own backoff's interruption (kubernetes/kubernetes#140402).
// A request cut by its context's deadline then passed for one that succeeded, and the lab's node agent marked the
// failed revision's mirror pod ready, hiding the startup monitor's fallback. kubernetes/kubernetes#140406 fixes
// OnError; with a client-go that has it, this can be retry.RetryOnConflict again.
func retryOnConflict(call func() error) error {
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
