package pluginprobe

import (
	"context"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestPluginAnswered pins the classification table of pluginAnswered, row by
// row. The messages of grpc-go's own statuses are copied from grpc-go v1.83;
// TestProbeSomethingElseOnTheSocket makes grpc-go produce several of them for
// real.
func TestPluginAnswered(t *testing.T) {
	scenarios := []struct {
		name string
		err  error
		want bool
	}{
		// Not a gRPC status: the call never went out, or a wrapper failed.
		{name: "context deadline of a client that is not gRPC", err: context.DeadlineExceeded, want: false},
		{name: "nil status response", err: ErrNoStatus, want: false},

		// Codes grpc-go makes for transport failures, whatever the message.
		{name: "canceled", err: status.Error(codes.Canceled, "context canceled"), want: false},
		{name: "deadline exceeded", err: status.Error(codes.DeadlineExceeded, "context deadline exceeded"), want: false},
		{name: "deadline exceeded relayed by a plugin", err: status.Error(codes.DeadlineExceeded, "kms: request timed out"), want: false},
		{name: "connection refused", err: status.Error(codes.Unavailable, `connection error: desc = "transport: Error while dialing: dial unix /run/kms.sock: connect: connection refused"`), want: false},
		{name: "connection closed under the call", err: status.Error(codes.Unavailable, "error reading from server: EOF"), want: false},
		{name: "unavailable relayed by a plugin", err: status.Error(codes.Unavailable, "kms: service unavailable"), want: false},
		{name: "not a KMS v2 plugin", err: status.Error(codes.Unimplemented, "unknown service v2.KeyManagementService"), want: false},

		// Codes a plugin also uses, with a message grpc-go makes itself.
		{name: "response grpc-go cannot decode", err: status.Error(codes.Internal, "grpc: failed to unmarshal the received message: string field contains invalid UTF-8"), want: false},
		{name: "request the server library cannot decode", err: status.Error(codes.Internal, "grpc: error unmarshalling request: unexpected EOF"), want: false},
		{name: "response over the size limit", err: status.Error(codes.ResourceExhausted, "grpc: received message larger than max (5000000 vs. 4194304)"), want: false},
		{name: "malformed grpc-status", err: status.Error(codes.Unknown, `transport: malformed grpc-status: strconv.ParseInt: parsing "x": invalid syntax`), want: false},
		{name: "HTTP 403 of a server that is not gRPC", err: status.Error(codes.PermissionDenied, `unexpected HTTP status code received from server: 403 (Forbidden); transport: received unexpected content-type "text/plain; charset=utf-8"`), want: false},
		{name: "HTTP 401 of a server that is not gRPC", err: status.Error(codes.Unauthenticated, "unexpected HTTP status code received from server: 401 (Unauthorized); malformed header: missing HTTP content-type"), want: false},
		{name: "response without content-type", err: status.Error(codes.Internal, "malformed header: missing HTTP content-type"), want: false},
		{name: "stream reset", err: status.Error(codes.Internal, "stream terminated by RST_STREAM with error code: INTERNAL_ERROR"), want: false},
		{name: "stream reset for security", err: status.Error(codes.PermissionDenied, "stream terminated by RST_STREAM with error code: INADEQUATE_SECURITY"), want: false},
		{name: "no trailers", err: status.Error(codes.Internal, "server closed the stream without sending trailers"), want: false},
		{name: "response cut short", err: status.Error(codes.Internal, "unexpected EOF"), want: false},
		{name: "no response message", err: status.Error(codes.Internal, "cardinality violation: received no response message from non-server-streaming RPC"), want: false},

		// The plugin's own answers.
		{name: "key disabled", err: status.Error(codes.FailedPrecondition, "key disabled"), want: true},
		{name: "permission denied", err: status.Error(codes.PermissionDenied, "kms: caller lacks kms.cryptoKeyVersions.useToEncrypt"), want: true},
		{name: "unauthenticated", err: status.Error(codes.Unauthenticated, "kms: token expired"), want: true},
		{name: "internal", err: status.Error(codes.Internal, "plugin: nil pointer dereference"), want: true},
		{name: "plain Go error of the handler", err: status.Error(codes.Unknown, "failed to reach vault"), want: true},
		{name: "key destroyed", err: status.Error(codes.NotFound, "key version destroyed"), want: true},
		{name: "invalid argument", err: status.Error(codes.InvalidArgument, "bad key name"), want: true},
		{name: "quota", err: status.Error(codes.ResourceExhausted, "kms: quota exceeded"), want: true},
		{name: "data loss", err: status.Error(codes.DataLoss, "key material lost"), want: true},
		{name: "aborted", err: status.Error(codes.Aborted, "concurrent key update"), want: true},
		{name: "already exists", err: status.Error(codes.AlreadyExists, "key exists"), want: true},
		{name: "out of range", err: status.Error(codes.OutOfRange, "key version out of range"), want: true},
		{name: "wrapped answer", err: fmt.Errorf("calling status: %w", status.Error(codes.FailedPrecondition, "key disabled")), want: true},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			if got := pluginAnswered(s.err); got != s.want {
				t.Errorf("pluginAnswered(%v) = %t, want %t", s.err, got, s.want)
			}
		})
	}
}
