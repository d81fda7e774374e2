package pluginprobe

import (
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// pluginAnswered reports whether err, the error of a call to a plugin, is the
// plugin's own answer: a gRPC status its code returned, which proves that the
// socket, the connection and the plugin process work and the plugin refused
// the call (its key is disabled, its credentials expired, ...). Otherwise err
// is a transport failure, and the plugin may never have seen the call.
//
// The code alone does not say who made a status: grpc-go (v1.83, vendored)
// makes statuses itself, in the probe's client or in the server library at
// the socket, without the plugin's code running. It makes them with a fixed
// set of codes, and with messages of its own for the codes a plugin also
// uses, so err is classified by its code, then by its message:
//
//	error                               who made it                                       report
//	not a gRPC status                   the client, before or instead of a call: a stub's  Error
//	                                    context error, a wrapper's own error
//	Canceled                            grpc-go: the probe's context ended, or the server  Error
//	                                    reset the stream (RST_STREAM CANCEL)
//	DeadlineExceeded                    grpc-go: the call timeout passed while dialing or  Error
//	                                    waiting; a plugin relaying its KMS's timeout
//	                                    cannot be told apart and is reported the same
//	Unavailable                         grpc-go: no socket, connection refused, reset or   Error
//	                                    closed, server stopping; a plugin relaying "KMS
//	                                    unavailable" cannot be told apart
//	Unimplemented                       grpc-go: what listens on the socket is not a KMS   Error
//	                                    v2 plugin (no such service or method, HTTP 404,
//	                                    a compression it cannot read): the plugin the
//	                                    config names is not reachable there
//	any code with a message in          grpc-go: a malformed or non-gRPC response, a codec Error
//	grpcLocalMessagePrefixes            or size-limit error, an HTTP/2 stream reset; it
//	                                    maps HTTP statuses to Internal, Unauthenticated,
//	                                    PermissionDenied, Unknown, and HTTP/2 error codes
//	                                    to Internal, ResourceExhausted, PermissionDenied
//	Unknown, other message              the plugin: its handler returned a plain Go error  Unhealthy
//	                                    (grpc-go's server turns those into Unknown)
//	Internal, DataLoss, other message   the plugin: its own failure, or its KMS's          Unhealthy
//	InvalidArgument, NotFound,          the plugin, about its key or its KMS: disabled     Unhealthy
//	AlreadyExists, FailedPrecondition,  (upstream's test plugin answers FailedPrecondition
//	Aborted, OutOfRange                 "key disabled"), deleted, busy
//	PermissionDenied, Unauthenticated,  the plugin: its credentials to the KMS were        Unhealthy
//	other message                       revoked or expired; grpc-go makes these only from
//	                                    per-RPC credentials, which the probe has none of,
//	                                    or with its own messages (above)
//	ResourceExhausted, other message    the plugin: its KMS quota is used up; grpc-go's    Unhealthy
//	                                    own size limits carry its messages (above)
//
// A message a future grpc-go makes locally that is not listed would turn a
// transport failure into Unhealthy: still degraded, only the reason differs.
// The opposite mistake, a plugin's message that starts like grpc-go's, keeps
// the report Error, as it was before plugins' answers were told apart.
func pluginAnswered(err error) bool {
	st, ok := status.FromError(err)
	if !ok {
		return false
	}
	switch st.Code() {
	case codes.OK, codes.Canceled, codes.DeadlineExceeded, codes.Unavailable, codes.Unimplemented:
		return false
	}
	return !madeByGRPC(st.Message())
}

// grpcLocalMessagePrefixes start the messages of the statuses grpc-go v1.83
// makes itself, on the client or in the server library, with a code a plugin
// could also return (see pluginAnswered), as read from grpc-go's rpc_util.go,
// stream.go, server.go and internal/transport. Left out are those a unary call
// over a plain unix socket cannot meet (balancer and interceptor misuse) and a
// flow control violation, whose message ("received N-bytes data exceeding the
// limit") has no prefix of its own.
var grpcLocalMessagePrefixes = []string{
	// Codec, compression and message size errors of both ends, and the
	// server library's "error unmarshalling request".
	"grpc: ",
	// The HTTP/2 transport: malformed grpc-status, content-type or metadata,
	// per-RPC credential failures.
	"transport: ",
	// A non-gRPC HTTP/2 server answered; the HTTP status picks the code.
	"unexpected HTTP status code received from server",
	// A response without :status or content-type.
	"malformed header: ",
	// The server reset the stream; the HTTP/2 error code picks the code.
	"stream terminated by RST_STREAM",
	// A response that ended too early.
	"server closed the stream without sending trailers",
	"unexpected EOF",
	"cardinality violation: ",
	"protocol error: ",
	// Header and flow control limits.
	"peer header list size exceeded limit",
	"header list size to send violates",
	"a HEADERS frame cannot appear in the middle of a stream",
	"trying to send message larger than max",
}

// madeByGRPC reports whether message is one of grpc-go's own.
func madeByGRPC(message string) bool {
	for _, prefix := range grpcLocalMessagePrefixes {
		if strings.HasPrefix(message, prefix) {
			return true
		}
	}
	return false
}
