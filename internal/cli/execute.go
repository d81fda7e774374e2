package cli

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

// ErrInterrupted is the cause of a command's context when a signal stops it.
var ErrInterrupted = errors.New("interrupted")

// CodeError carries a command's exit code to execute; err, when set, is printed as "error: ...".
type CodeError struct {
	code int
	err  error
}

func (e *CodeError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit code %d", e.code)
	}
	return e.err.Error()
}

func (e *CodeError) Unwrap() error { return e.err }

// ExitWith turns a command's result into what RunE returns: nil for ExitOK without an error.
func ExitWith(code int, err error) error {
	if code == ExitOK && err == nil {
		return nil
	}
	if code == ExitOK {
		code = ExitError
	}
	return &CodeError{code: code, err: err}
}

// annotationLogs marks a command whose output is a log (see Logs).
const annotationLogs = "kmsguard.io/logs"

// Logs marks cmd as a command whose output is a log, or whose klog output has a place of its own: ConfigureRoot
// leaves klog on for it. It is an annotation of the command itself, so that a subcommand is marked as surely as
// a top-level one.
func Logs(cmd *cobra.Command) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[annotationLogs] = "true"
	return cmd
}

// ConfigureRoot sets what every command shares: flag name normalization, klog's flags (-v, --vmodule, ...) and
// the logging and error conventions of the command that runs. A command marked with Logs keeps klog on, as any
// Kubernetes component does; the others discard klog unless -v asks for it.
func ConfigureRoot(root *cobra.Command) {
	root.SilenceUsage = true
	root.SilenceErrors = true
	root.SetGlobalNormalizationFunc(cliflag.WordSepNormalizeFunc)
	logs.AddFlags(root.PersistentFlags())
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w\nSee '%s --help' for usage", err, c.CommandPath())
	})
	root.PersistentPreRun = func(cmd *cobra.Command, _ []string) {
		logs.InitLogs()
		if cmd.Annotations[annotationLogs] == "true" || klog.V(1).Enabled() {
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

// Execute runs the command line args and returns the process's exit code. Errors are printed on errOut as
// kubectl prints them; a command stopped by SIGINT or SIGTERM exits with ExitInterrupted.
func Execute(ctx context.Context, root *cobra.Command, args []string, out, errOut io.Writer) int {
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
		return ExitOK
	}
	code := ExitError
	var e *CodeError
	if errors.As(err, &e) {
		code = e.code
		err = e.err
	}
	if err != nil {
		fmt.Fprintf(errOut, "error: %s\n", strings.TrimSuffix(err.Error(), "\n"))
	}
	if code == ExitError && errors.Is(context.Cause(ctx), ErrInterrupted) {
		code = ExitInterrupted
	}
	return code
}

// interruptible ends ctx with ErrInterrupted on the first SIGINT or SIGTERM; a second one kills the process
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
			cancel(ErrInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		signal.Stop(signals)
		cancel(nil)
	}
}

// Interrupted says whether ctx was ended by a signal.
func Interrupted(ctx context.Context) bool { return errors.Is(context.Cause(ctx), ErrInterrupted) }
