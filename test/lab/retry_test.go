package lab

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestRetryAPIIsNilOnlyWhenACallSucceeded(t *testing.T) {
	pods := schema.GroupResource{Resource: "pods"}
	conflict := apierrors.NewConflict(pods, "kube-apiserver-master-0", errors.New("the object has been modified"))
	notFound := apierrors.NewNotFound(pods, "kube-apiserver-master-0")
	refused := errors.New(`Delete "https://127.0.0.1:43107/api/v1/...": dial tcp 127.0.0.1:43107: connect: connection refused`)
	// What client-go returns when the request's context ends while it is in flight: the error wraps the
	// context's, and client-go's retry.OnError takes it for its own interruption.
	cutByDeadline := fmt.Errorf(`Post "https://127.0.0.1:43107/api/v1/...": %w`, context.DeadlineExceeded)

	scenarios := []struct {
		name string
		// results are the calls' errors in turn; the last repeats.
		results   []error
		timeout   time.Duration
		wantErr   error
		wantCalls int // 0: more than one, not counted exactly (the calls run until the timeout)
	}{
		{name: "succeeds at once", results: []error{nil}, timeout: time.Minute, wantCalls: 1},
		{name: "conflicts, then succeeds", results: []error{conflict, conflict, nil}, timeout: time.Minute, wantCalls: 3},
		{name: "apiserver down, then back", results: []error{refused, refused, nil}, timeout: time.Minute, wantCalls: 3},
		{name: "not found is final", results: []error{notFound}, timeout: time.Minute, wantErr: notFound, wantCalls: 1},
		{name: "apiserver down until the deadline", results: []error{refused}, timeout: time.Second, wantErr: refused},
		{name: "every call cut by the deadline", results: []error{cutByDeadline}, timeout: time.Second, wantErr: context.DeadlineExceeded},
		{name: "down, then cut by the deadline", results: []error{refused, cutByDeadline}, timeout: time.Second, wantErr: context.DeadlineExceeded},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
			defer cancel()
			calls := 0
			err := retryAPI(ctx, func() error {
				result := s.results[min(calls, len(s.results)-1)]
				calls++
				return result
			})
			switch {
			case s.wantErr == nil && err != nil:
				t.Fatalf("retryAPI = %v after %d calls, want success", err, calls)
			case s.wantErr != nil && !errors.Is(err, s.wantErr):
				t.Fatalf("retryAPI = %v after %d calls, want %v", err, calls, s.wantErr)
			}
			if s.wantCalls > 0 && calls != s.wantCalls {
				t.Errorf("%d calls, want %d", calls, s.wantCalls)
			}
			if s.wantCalls == 0 && calls < 2 {
				t.Errorf("%d calls, want retries until the deadline", calls)
			}
		})
	}
}
