package pluginprobe

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	kmsservice "k8s.io/kms/pkg/service"
)

// TestRoundTripError checks that callers can tell the failed step and the
// cause apart without parsing the message.
func TestRoundTripError(t *testing.T) {
	scenarios := []struct {
		name     string
		service  *stubService
		wantStep Step
		wantIs   error
		wantCode codes.Code
	}{
		{
			name: "encrypt denied",
			service: &stubService{encrypt: func(context.Context, string, []byte) (*kmsservice.EncryptResponse, error) {
				return nil, status.Error(codes.PermissionDenied, "denied")
			}},
			wantStep: StepEncrypt,
			wantCode: codes.PermissionDenied,
		},
		{
			name: "encrypt key id empty",
			service: &stubService{encrypt: func(context.Context, string, []byte) (*kmsservice.EncryptResponse, error) {
				return &kmsservice.EncryptResponse{Ciphertext: []byte("c")}, nil
			}},
			wantStep: StepEncrypt,
			wantIs:   ErrInvalidKEKID,
			wantCode: codes.Unknown,
		},
		{
			name: "decrypt key disabled",
			service: &stubService{decrypt: func(context.Context, string, *kmsservice.DecryptRequest) ([]byte, error) {
				return nil, status.Error(codes.FailedPrecondition, "disabled")
			}},
			wantStep: StepDecrypt,
			wantCode: codes.FailedPrecondition,
		},
		{
			name: "plaintext mismatch",
			service: &stubService{decrypt: func(context.Context, string, *kmsservice.DecryptRequest) ([]byte, error) {
				return []byte("other"), nil
			}},
			wantStep: StepDecrypt,
			wantIs:   ErrPlaintextMismatch,
			wantCode: codes.Unknown,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			err := newTestProber().roundTrip(t.Context(), s.service)

			var rtErr *RoundTripError
			if !errors.As(err, &rtErr) {
				t.Fatalf("roundTrip returned %v (%T), want a *RoundTripError", err, err)
			}
			if rtErr.Step != s.wantStep {
				t.Errorf("step %q, want %q", rtErr.Step, s.wantStep)
			}
			if s.wantIs != nil && !errors.Is(err, s.wantIs) {
				t.Errorf("errors.Is(%v, %v) = false", err, s.wantIs)
			}
			if got := status.Code(err); got != s.wantCode {
				t.Errorf("gRPC code %s, want %s", got, s.wantCode)
			}
		})
	}
}
