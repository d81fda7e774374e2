package conflictretry

import (
	"context"
	"errors"
	"fmt"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestDoReportsEveryFailedCall(t *testing.T) {
	conflict := apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "kmsguard-kms-state", errors.New("the object has been modified"))
	// What client-go returns when the request's context ends while it is in flight.
	cutByDeadline := fmt.Errorf(`Put "https://127.0.0.1:6443/api/v1/...": %w`, context.DeadlineExceeded)
	scenarios := []struct {
		name string
		// results are the calls' errors in turn; the last repeats.
		results   []error
		wantErr   error
		wantCalls int
	}{
		{name: "succeeds at once", results: []error{nil}, wantCalls: 1},
		{name: "succeeds after conflicts", results: []error{conflict, conflict, nil}, wantCalls: 3},
		{name: "cut by its deadline before any conflict", results: []error{cutByDeadline}, wantErr: context.DeadlineExceeded, wantCalls: 1},
		{name: "canceled before any conflict", results: []error{context.Canceled}, wantErr: context.Canceled, wantCalls: 1},
		{name: "cut by its deadline after a conflict", results: []error{conflict, cutByDeadline}, wantErr: context.DeadlineExceeded, wantCalls: 2},
		{name: "conflicts every time", results: []error{conflict}, wantErr: conflict},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			calls := 0
			err := Do(func() error {
				result := s.results[min(calls, len(s.results)-1)]
				calls++
				return result
			})
			if s.wantErr == nil && err != nil || s.wantErr != nil && !errors.Is(err, s.wantErr) {
				t.Fatalf("Do = %v after %d calls, want %v", err, calls, s.wantErr)
			}
			if s.wantCalls > 0 && calls != s.wantCalls {
				t.Errorf("%d calls, want %d", calls, s.wantCalls)
			}
		})
	}
}
