package kmsmigration

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// UndecryptableError is the result of a migration that rewrote everything
// it could read but found objects the apiserver cannot decrypt or decode.
//
// It is an error on purpose: library-go records a resource as migrated only
// when the result is nil, and a migrated resource lets the state machine
// drop the old read key. The objects may only be unreadable for now (the old
// key's KMS is down); dropping the key would make that permanent. They are
// resolved deliberately instead: the key comes back, or an admin deletes
// them with kmsrollback's recovery (KEP-3926).
type UndecryptableError struct {
	Resource schema.GroupResource
	Count    int64
	// Keys are the first keys found (etcd keys from LIST, namespace/name
	// from a failed PUT).
	Keys []string
}

func (e *UndecryptableError) Error() string {
	return fmt.Sprintf("%d %s cannot be decrypted or decoded by the apiserver and were not rewritten (first: %s)", e.Count, e.Resource, strings.Join(e.Keys, ", "))
}

// FailedError is the result of a migration that could not rewrite some
// readable objects, after retries.
type FailedError struct {
	Resource schema.GroupResource
	Count    int64
	Keys     []string
}

func (e *FailedError) Error() string {
	return fmt.Sprintf("%d %s could not be rewritten (first: %s)", e.Count, e.Resource, strings.Join(e.Keys, ", "))
}

// resultError is the result a finished checkpoint stands for.
func resultError(gr schema.GroupResource, cp Checkpoint) error {
	var errs []error
	if cp.Counts.Undecryptable > 0 {
		errs = append(errs, &UndecryptableError{Resource: gr, Count: cp.Counts.Undecryptable, Keys: cp.UndecryptableKeys})
	}
	if cp.Counts.Failed > 0 {
		errs = append(errs, &FailedError{Resource: gr, Count: cp.Counts.Failed, Keys: cp.FailedKeys})
	}
	return errors.Join(errs...)
}

// storedResult turns a finished checkpoint's result back into an error
// after a restart. The typed errors are rebuilt from the counts; any other
// error comes back as its message.
func storedResult(gr schema.GroupResource, cp *Checkpoint) error {
	if err := resultError(gr, *cp); err != nil {
		return err
	}
	if cp.Result != "" {
		return errors.New(cp.Result)
	}
	return nil
}
