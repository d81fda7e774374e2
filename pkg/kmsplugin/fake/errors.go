package fake

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The constructors below are the only place the KMS builds errors. Each
// message names the key by id and never includes key material, plaintext or
// ciphertext, so errors are safe to log and to surface in operator
// conditions, which is where the apiserver and the controllers under test
// put them.

// errKeyDisabled is returned when a key exists but has been disabled.
//
// FailedPrecondition rather than PermissionDenied: the request is valid and
// the caller is entitled to make it, but the system is not in the state the
// operation needs; re-enabling the key (Restore) makes the same request
// succeed unchanged. That is the gRPC definition of FailedPrecondition, and it
// is also what Google Cloud KMS answers for a disabled key version. A
// PermissionDenied would wrongly suggest a credentials problem on the node.
func errKeyDisabled(kekID string) error {
	return status.Errorf(codes.FailedPrecondition, "fake kms: key %q is disabled", kekID)
}

// errKeyDestroyed is returned when a key's material has been wiped.
//
// NotFound: the key material no longer exists anywhere and no retry or state
// change will bring it back, so from the caller's point of view the key is
// gone, exactly as if it had never existed. FailedPrecondition would invite a
// recovery that is impossible.
func errKeyDestroyed(kekID string) error {
	return status.Errorf(codes.NotFound, "fake kms: key %q has been destroyed", kekID)
}

// errKeyUnknown is returned for a KEK id this KMS never issued. NotFound, for
// the same reason as errKeyDestroyed.
func errKeyUnknown(kekID string) error {
	return status.Errorf(codes.NotFound, "fake kms: key %q does not exist", kekID)
}

// errMissingKEKID is returned for a decrypt request that names no key.
// InvalidArgument: the request itself is malformed, whatever the KMS state.
func errMissingKEKID() error {
	return status.Error(codes.InvalidArgument, "fake kms: decrypt request has no KEK id")
}

// errCiphertextRejected is returned when a ciphertext does not authenticate
// under the key it names: it was tampered with, truncated, or produced under
// another key. InvalidArgument: the KMS and the key are fine, the input is not.
// The reason is deliberately vague; an oracle that said which check failed
// would help an attacker and does not help a test.
func errCiphertextRejected(kekID string) error {
	return status.Errorf(codes.InvalidArgument, "fake kms: ciphertext does not authenticate under key %q", kekID)
}
