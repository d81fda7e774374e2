package pluginprobe

import (
	"errors"
	"fmt"
)

var (
	// ErrNoStatus is returned when a plugin's Status call succeeded without a
	// response. kube-apiserver's gRPC client never does that, but a stub or a
	// future client might, and the probe must not panic on it.
	ErrNoStatus = errors.New("kms plugin returned nil status response")

	// ErrInvalidKEKID is wrapped when Status or Encrypt returned a KEK id that
	// kube-apiserver rejects (empty, or longer than 1 KiB). Such a key id is
	// never written to remoteKeyID, whose validation would reject it too.
	ErrInvalidKEKID = errors.New("invalid KEK id")

	// ErrPlaintextMismatch is wrapped when Decrypt succeeded but returned
	// something other than the payload that was encrypted: the plugin would
	// hand kube-apiserver a wrong DEK and every read would fail.
	ErrPlaintextMismatch = errors.New("decrypted plaintext does not match the encrypted payload")
)

// Step names the call of a round trip that failed.
type Step string

const (
	// StepEncrypt is the Encrypt call: the KMS could not seal a new DEK, so
	// kube-apiserver's writes fail once its current DEK expires.
	StepEncrypt Step = "encrypt"
	// StepDecrypt is the Decrypt call: the KMS could not open what it had
	// just sealed, so kube-apiserver cannot read data whose DEK is not cached.
	StepDecrypt Step = "decrypt"
)

// RoundTripError is the error of a failed Encrypt/Decrypt round trip. Its
// message becomes the report's Detail, so it names the step first.
type RoundTripError struct {
	// Step is the call that failed.
	Step Step
	// Err is the error of the call, or ErrInvalidKeyID or ErrPlaintextMismatch
	// when the call succeeded with an unusable answer.
	Err error
}

// Error implements error.
func (e *RoundTripError) Error() string {
	return fmt.Sprintf("%s round trip failed: %v", e.Step, e.Err)
}

// Unwrap returns Err, so errors.Is sees the gRPC status error or the sentinel.
func (e *RoundTripError) Unwrap() error {
	return e.Err
}
