package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/logs"
	"k8s.io/klog/v2"
)

// The kmsguard commands behave like kubectl: errors go to stderr as one "error: ..." line, client-go's klog
// diagnostics are silent unless -v asks for them, the exit code follows one scheme (exitcodes.go), and Ctrl-C
// ends a command with exitInterrupted.

// longRunning are the commands whose output is a log: klog stays on for them, as for any Kubernetes component.
var longRunning = map[string]bool{"health-reporter": true, "lab": true}

// errInterrupted is the cause of a command's context when a signal stops it.
var errInterrupted = errors.New("interrupted")

// codeError carries a command's exit code to execute; err, when set, is printed as "error: ...".
type codeError struct {
	code int
	err  error
}

func (e *codeError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit code %d", e.code)
	}
	return e.err.Error()
}

func (e *codeError) Unwrap() error { return e.err }

// exitWith turns a command's result into what RunE returns: nil for exitOK without an error.
func exitWith(code int, err error) error {
	if code == exitOK && err == nil {
		return nil
	}
	if code == exitOK {
		code = exitError
	}
	return &codeError{code: code, err: err}
}

// configureRoot sets what every command shares: flag name normalization, klog's flags (-v, --vmodule, ...) and
// the logging and error conventions of the command that runs.
func configureRoot(root *cobra.Command) {
	root.SilenceUsage = true
	root.SilenceErrors = true
	root.SetGlobalNormalizationFunc(cliflag.WordSepNormalizeFunc)
	logs.AddFlags(root.PersistentFlags())
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w\nSee '%s --help' for usage", err, c.CommandPath())
	})
	root.PersistentPreRun = func(cmd *cobra.Command, _ []string) {
		logs.InitLogs()
		if longRunning[cmd.Name()] || klog.V(1).Enabled() {
			klog.ClearLogger()
			return
		}
		// A CLI command's output is its report: client-go's diagnostics ("Neither --kubeconfig nor --master was
		// specified", throttling notes, ...) stay out of it unless -v asks for them, and the apiserver's
		// warnings are shown as kubectl shows them.
		klog.SetLogger(logr.Discard())
		rest.SetDefaultWarningHandler(rest.NewWarningWriter(cmd.ErrOrStderr(), rest.WarningWriterOptions{Deduplicate: true}))
	}
}

// execute runs the command line args and returns the process's exit code. Errors are printed on errOut as
// kubectl prints them; a command stopped by SIGINT or SIGTERM exits with exitInterrupted.
func execute(ctx context.Context, root *cobra.Command, args []string, out, errOut io.Writer) int {
	defer logs.FlushLogs()
	ctx, stop := interruptible(ctx)
	defer stop()
	root.SetArgs(args)
	root.SetOut(out)
	root.SetErr(errOut)
	err := root.ExecuteContext(ctx)
	return exitCodeOf(ctx, err, errOut)
}

// exitCodeOf prints err and returns the exit code it stands for.
func exitCodeOf(ctx context.Context, err error, errOut io.Writer) int {
	if err == nil {
		return exitOK
	}
	code := exitError
	var e *codeError
	if errors.As(err, &e) {
		code = e.code
		err = e.err
	}
	if err != nil {
		fmt.Fprintf(errOut, "error: %s\n", strings.TrimSuffix(err.Error(), "\n"))
	}
	if code == exitError && errors.Is(context.Cause(ctx), errInterrupted) {
		code = exitInterrupted
	}
	return code
}

// interruptible ends ctx with errInterrupted on the first SIGINT or SIGTERM; a second one kills the process
// as usual.
func interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-signals:
			signal.Stop(signals)
			cancel(errInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		signal.Stop(signals)
		cancel(nil)
	}
}

// interrupted says whether ctx was ended by a signal.
func interrupted(ctx context.Context) bool { return errors.Is(context.Cause(ctx), errInterrupted) }
