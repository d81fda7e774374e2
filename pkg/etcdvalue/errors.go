package etcdvalue

import (
	"errors"
	"fmt"
)

var (
	// ErrMalformed is wrapped by errors for values that claim a known
	// format but could not have been written, or read back, by
	// kube-apiserver: empty, truncated, or carrying an invalid KMS v2
	// EncryptedObject. Migration tooling should count these as corrupt.
	ErrMalformed = errors.New("malformed value")

	// ErrUnknownFormat is wrapped by errors for values that start like
	// nothing this package knows. An encryption provider or version added
	// by a newer kube-apiserver ends up here rather than in ErrMalformed,
	// so callers can tell "cannot judge" from "corrupt".
	ErrUnknownFormat = errors.New("unknown value format")
)

// ParseError is the error returned by Parse. It never holds bytes of the
// value it describes, so it is safe to log and to put in conditions.
type ParseError struct {
	// Kind is the kind announced by the value's prefix, or "" when Parse
	// could not tell, so that callers can count corrupt values per kind.
	Kind Kind
	// Reason explains what is wrong. It is made of constant text and
	// lengths only.
	Reason string

	// class is ErrMalformed or ErrUnknownFormat.
	class error
}

// Error implements error.
func (e *ParseError) Error() string {
	if e.Kind == "" {
		return fmt.Sprintf("etcdvalue: %v: %s", e.class, e.Reason)
	}
	return fmt.Sprintf("etcdvalue: %v (%s): %s", e.class, e.Kind, e.Reason)
}

// Unwrap returns ErrMalformed or ErrUnknownFormat, for errors.Is.
func (e *ParseError) Unwrap() error {
	return e.class
}

// malformed returns a ParseError wrapping ErrMalformed. Callers must only
// pass lengths and constants as args, never bytes from the value.
func malformed(kind Kind, format string, args ...any) *ParseError {
	return &ParseError{Kind: kind, Reason: fmt.Sprintf(format, args...), class: ErrMalformed}
}

// unknownFormat returns a ParseError wrapping ErrUnknownFormat.
func unknownFormat(reason string) *ParseError {
	return &ParseError{Reason: reason, class: ErrUnknownFormat}
}
