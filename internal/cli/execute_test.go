package cli

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// TestExitCodeOf: one error style, and an error of a command a signal stopped is ExitInterrupted.
func TestExitCodeOf(t *testing.T) {
	// refusal is a command's own exit code, such as kmsguard recover's 6.
	const refusal = 6
	stopped, cancel := context.WithCancelCause(context.Background())
	cancel(ErrInterrupted)
	for _, s := range []struct {
		name     string
		ctx      context.Context
		err      error
		want     int
		wantLine string
	}{
		{name: "success", ctx: context.Background()},
		{name: "plain error", ctx: context.Background(), err: errors.New("boom"), want: ExitError, wantLine: "error: boom\n"},
		{name: "a code without a message", ctx: context.Background(), err: ExitWith(ExitIncomplete, nil), want: ExitIncomplete},
		{name: "a code with a message", ctx: context.Background(), err: ExitWith(refusal, errors.New("unhealthy")), want: refusal, wantLine: "error: unhealthy\n"},
		{name: "an error after a signal", ctx: stopped, err: ExitWith(ExitError, context.Canceled), want: ExitInterrupted, wantLine: "error: context canceled\n"},
		{name: "a verdict after a signal stays", ctx: stopped, err: ExitWith(ExitIncomplete, nil), want: ExitIncomplete},
	} {
		var errOut bytes.Buffer
		if got := exitCodeOf(s.ctx, s.err, &errOut); got != s.want || errOut.String() != s.wantLine {
			t.Errorf("%s: %d, %q; want %d, %q", s.name, got, errOut.String(), s.want, s.wantLine)
		}
	}
}
