package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/klog/v2"
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

// TestLogsKeepsKlogForTheMarkedCommandOnly: a subcommand marked with Logs keeps klog on (kmsguard-lab tour, whose
// controllers' lines go to the lab's operator.log); an unmarked sibling discards it.
func TestLogsKeepsKlogForTheMarkedCommandOnly(t *testing.T) {
	for _, s := range []struct {
		name     string
		marked   bool
		wantLogs bool
	}{
		{name: "marked subcommand", marked: true, wantLogs: true},
		{name: "unmarked subcommand", marked: false, wantLogs: false},
	} {
		t.Run(s.name, func(t *testing.T) {
			var logged bytes.Buffer
			fs := flag.NewFlagSet("klog", flag.ContinueOnError)
			klog.InitFlags(fs)
			_ = fs.Set("logtostderr", "false")
			_ = fs.Set("alsologtostderr", "false")
			klog.SetOutput(&logged)
			t.Cleanup(func() { klog.SetOutput(io.Discard); klog.ClearLogger() })

			root := &cobra.Command{Use: "root"}
			sub := &cobra.Command{Use: "sub", RunE: func(*cobra.Command, []string) error {
				klog.Info("a controller's line")
				klog.Flush()
				return nil
			}}
			if s.marked {
				Logs(sub)
			}
			root.AddCommand(sub)
			ConfigureRoot(root)
			if code := Execute(context.Background(), root, []string{"sub"}, io.Discard, io.Discard); code != ExitOK {
				t.Fatalf("exit code %d", code)
			}
			if got := strings.Contains(logged.String(), "a controller's line"); got != s.wantLogs {
				t.Errorf("klog wrote the line: %v, want %v (output %q)", got, s.wantLogs, logged.String())
			}
		})
	}
}

// TestInterruptibleEndsTheContextOnASignal: the one signal handler every command runs under ends its context with
// ErrInterrupted at SIGINT or SIGTERM, and leaves it alone otherwise.
func TestInterruptibleEndsTheContextOnASignal(t *testing.T) {
	for _, s := range []struct {
		name   string
		signal syscall.Signal
	}{
		{name: "SIGINT", signal: syscall.SIGINT},
		{name: "SIGTERM", signal: syscall.SIGTERM},
	} {
		t.Run(s.name, func(t *testing.T) {
			ctx, stop := interruptible(context.Background())
			defer stop()
			if ctx.Err() != nil {
				t.Fatalf("the context ended before any signal: %v", context.Cause(ctx))
			}
			if err := syscall.Kill(os.Getpid(), s.signal); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(30 * time.Second):
				t.Fatalf("the context did not end within 30s of %s", s.name)
			}
			if !Interrupted(ctx) {
				t.Errorf("the context ended with %v, want %v", context.Cause(ctx), ErrInterrupted)
			}
		})
	}
}
