package operatorstate

import (
	"context"
	"encoding/json"
	"fmt"
)

// MaxValueBytes bounds the JSON of one store. Kubernetes allows 256 KiB for all annotations of an object
// together; the operator's own and the other stores' must fit beside it.
const MaxValueBytes = 32 << 10

// AnnotationPrefix starts every store's annotation key.
const AnnotationPrefix = "kmsguard.openshift.io/"

// Store keeps one value of type T as JSON in one annotation of a Resource, written under its own field manager.
type Store[T any] struct {
	resource     Resource
	key          string
	fieldManager string
}

// NewStore returns the store of annotation AnnotationPrefix+name, written by the field manager
// "kmsguard-"+name.
func NewStore[T any](resource Resource, name string) *Store[T] {
	return &Store[T]{resource: resource, key: AnnotationPrefix + name, fieldManager: "kmsguard-" + name}
}

// Key is the store's annotation key.
func (s *Store[T]) Key() string { return s.key }

// String names the store in errors and messages: "annotation kmsguard.openshift.io/<name> of <resource>".
func (s *Store[T]) String() string {
	return fmt.Sprintf("annotation %s of %s", s.key, s.resource)
}

// Load returns the stored value, and false with a zero value when nothing is stored. A value that cannot be
// decoded is a *CorruptValueError: the caller decides whether to refuse or to start afresh, and says so.
func (s *Store[T]) Load(ctx context.Context) (T, bool, error) {
	var value T
	annotations, err := s.resource.Annotations(ctx)
	if err != nil {
		return value, false, err
	}
	raw, ok := annotations[s.key]
	if !ok {
		return value, false, nil
	}
	if err := json.Unmarshal([]byte(raw), &value); err != nil {
		var zero T
		return zero, false, &CorruptValueError{Store: s.String(), Err: err}
	}
	return value, true, nil
}

// Save stores value. A value whose JSON exceeds MaxValueBytes is refused with a *TooLargeError and nothing is
// written: each store bounds what it keeps, and this is the check that it did.
func (s *Store[T]) Save(ctx context.Context, value T) error {
	raw, err := json.Marshal(value)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", s, err)
	}
	if len(raw) > MaxValueBytes {
		return &TooLargeError{Store: s.String(), Bytes: len(raw)}
	}
	return s.resource.ApplyAnnotations(ctx, s.fieldManager, map[string]string{s.key: string(raw)})
}

// Clear removes the annotation.
func (s *Store[T]) Clear(ctx context.Context) error {
	return s.resource.ApplyAnnotations(ctx, s.fieldManager, nil)
}

// CorruptValueError is a stored value that cannot be decoded.
type CorruptValueError struct {
	Store string
	Err   error
}

func (e *CorruptValueError) Error() string {
	return fmt.Sprintf("%s cannot be decoded: %v", e.Store, e.Err)
}

func (e *CorruptValueError) Unwrap() error { return e.Err }

// TooLargeError is a value over MaxValueBytes.
type TooLargeError struct {
	Store string
	Bytes int
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: the value is %d bytes, more than the %d a store may keep", e.Store, e.Bytes, MaxValueBytes)
}
