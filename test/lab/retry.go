package lab

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kmsguard/kmsguard/internal/conflictretry"
)

// retryAPIInterval and retryAPITimeout bound retryAPI: a single-node lab has no apiserver for a few seconds
// while its only one restarts, and for the startup timeout when a revision fails to start.
const (
	retryAPIInterval = 250 * time.Millisecond
	retryAPITimeout  = 2 * time.Minute
)

// retryAPI retries a call while the apiservers restart or while it conflicts, for up to retryAPITimeout or
// until ctx ends. It returns nil only when a call succeeded, and otherwise the last call's own error: a call cut
// by ctx's deadline is a failure (see conflictretry). A NotFound, Invalid or Forbidden answer is final.
func retryAPI(ctx context.Context, call func() error) error {
	var last error
	err := wait.PollUntilContextTimeout(ctx, retryAPIInterval, retryAPITimeout, true, func(context.Context) (bool, error) {
		last = conflictretry.Do(call)
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
