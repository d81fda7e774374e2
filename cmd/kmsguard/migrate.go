package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
)

// Exit codes of kmsguard migrate, for scripts.
const (
	// migrateExitOK: every object of every resource is rewritten, already current, or gone.
	migrateExitOK = 0
	// migrateExitError: a resource could not be migrated at all (flags, discovery, LIST, interrupted).
	migrateExitError = 1
	// migrateExitIncomplete: every resource was walked to its end, but some objects are undecryptable or could
	// not be rewritten.
	migrateExitIncomplete = 2
)

const (
	// terminalRedraw is how often the progress bar is redrawn on a terminal.
	terminalRedraw = 200 * time.Millisecond
	// plainProgressInterval is how often a progress line is printed when the output is not a terminal (a log,
	// a pipe): often enough to show it is alive, rarely enough to stay readable.
	plainProgressInterval = 5 * time.Second
	// progressBarWidth is the bar's width in characters.
	progressBarWidth = 30
)

type migrateOptions struct {
	kubeconfig  string
	resources   []string
	qps         float32
	burst       int
	concurrency int
	pageSize    int64
	writeKey    string
	checkpoint  string
	output      string
	timeout     time.Duration

	// terminal forces the progress bar (true) or plain lines (false); nil detects it from the output.
	terminal *bool
	// progressInterval overrides the redraw or line interval, for tests.
	progressInterval time.Duration
}

// migrateClients are what a migration talks to; tests pass fakes.
type migrateClients struct {
	dynamic dynamic.Interface
	mapper  meta.RESTMapper
	// configMaps hold --checkpoint-configmap; nil without it.
	configMaps corev1client.ConfigMapsGetter
}

// migrateReport is what `kmsguard migrate -o json` prints.
type migrateReport struct {
	Resources []migrateResult `json:"resources"`
	ExitCode  int             `json:"exitCode"`
}

// migrateResult is the outcome of one resource.
type migrateResult struct {
	Resource string              `json:"resource"`
	Target   kmsmigration.Target `json:"target"`
	// Counts include those of earlier invocations the migration resumed from (Resumed).
	Counts  kmsmigration.Counts  `json:"counts"`
	Resumed *kmsmigration.Counts `json:"resumed,omitempty"`
	Total   int64                `json:"total,omitempty"`
	// Duration and ObjectsPerSecond are of this invocation only.
	Duration          metav1.Duration `json:"duration"`
	ObjectsPerSecond  float64         `json:"objectsPerSecond"`
	UndecryptableKeys []string        `json:"undecryptableKeys,omitempty"`
	FailedKeys        []string        `json:"failedKeys,omitempty"`
	Error             string          `json:"error,omitempty"`

	progress kmsmigration.Progress
	code     int
}

func newMigrateCommand() *cobra.Command {
	o := &migrateOptions{}
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Rewrite every object of the encrypted resources so that it is stored under the current write key",
		Long: `migrate runs kmsguard's migrator (pkg/kmsmigration) once against a cluster, outside any operator: it
lists each resource in pages and stores every object again, unchanged, with its resourceVersion as a
precondition. kube-apiserver then encrypts it with its current write provider and KMS key id, and skips the
etcd write of an object that is already under them, so running migrate again is cheap. An object written
concurrently is left alone (it is under the current key already); a concurrent write is never lost.

Resources are migrated one after the other. --qps and --burst bound the rewrites per second (a negative --qps
removes the bound and leaves the apiserver's priority and fairness as the only limit); --concurrency bounds the
rewrites in flight, and the migrator halves it while the apiserver's latency rises. A standalone run does not
watch KMS plugin health: transient errors back it off instead.

--write-key is only a label: it is recorded as the target of the checkpoints. With --checkpoint-configmap,
progress is saved every few seconds and on interruption (Ctrl-C) in that ConfigMap, and a later run with the
same --write-key resumes where the last one stopped; a finished migration is started again from the beginning.

Progress is a bar redrawn in place on a terminal and a line every few seconds otherwise (on stderr with -o
json). The summary gives per resource the counts, the objects per second of this run and the first keys of the
objects that are undecryptable (see kmsguard recover) or could not be rewritten.

Exit codes:
  0  every object is migrated
  1  error: a resource could not be migrated (bad flags, discovery, LIST failures, interrupted)
  2  finished, but some objects are undecryptable or could not be rewritten`,
		Args: cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			code, err := o.runWithClients(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr())
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "Error:", err)
			}
			if code != migrateExitOK {
				exit(code)
			}
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.kubeconfig, "kubeconfig", "", "path to a kubeconfig; empty uses in-cluster config")
	f.StringSliceVar(&o.resources, "resources", []string{"secrets"}, "resources to migrate, as resource or resource.group")
	f.Float32Var(&o.qps, "qps", kmsmigration.DefaultQPS, "rewrites per second; negative for no client-side limit")
	f.IntVar(&o.burst, "burst", kmsmigration.DefaultBurst, "rewrites allowed at once above --qps")
	f.IntVar(&o.concurrency, "concurrency", kmsmigration.DefaultConcurrency, "rewrites in flight at most")
	f.Int64Var(&o.pageSize, "page-size", kmsmigration.DefaultPageSize, "objects per LIST page")
	f.StringVar(&o.writeKey, "write-key", "standalone", "label of the write key, recorded as the checkpoints' target")
	f.StringVar(&o.checkpoint, "checkpoint-configmap", "", "namespace/name of a ConfigMap that keeps progress, to resume an interrupted run")
	f.StringVarP(&o.output, "output", "o", "", "output format of the summary: json")
	f.DurationVar(&o.timeout, "timeout", 0, "bound on the whole run; 0 for none")
	return cmd
}

// runWithClients builds the clients from the flags and runs.
func (o *migrateOptions) runWithClients(ctx context.Context, out, errOut io.Writer) (int, error) {
	if err := o.validate(); err != nil {
		return migrateExitError, err
	}
	config, err := clientcmd.BuildConfigFromFlags("", o.kubeconfig)
	if err != nil {
		return migrateExitError, fmt.Errorf("loading kubeconfig: %w", err)
	}
	config = rest.AddUserAgent(config, "kmsguard-migrate")
	// The migrator's token bucket (--qps) is the client-side limit; client-go's default of 5 requests per
	// second would otherwise override it.
	config.QPS, config.Burst = -1, 0
	disc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return migrateExitError, err
	}
	clients := migrateClients{mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))}
	if clients.dynamic, err = dynamic.NewForConfig(config); err != nil {
		return migrateExitError, err
	}
	if o.checkpoint != "" {
		kube, err := kubernetes.NewForConfig(config)
		if err != nil {
			return migrateExitError, err
		}
		clients.configMaps = kube.CoreV1()
	}
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	return o.run(ctx, out, errOut, clients)
}

func (o *migrateOptions) validate() error {
	switch {
	case o.output != "" && o.output != "json":
		return fmt.Errorf("unknown output format %q: want json or nothing", o.output)
	case len(o.resources) == 0:
		return errors.New("--resources is empty")
	case o.qps == 0:
		return errors.New("--qps must not be 0: give a negative value for no limit")
	case o.burst < 1:
		return errors.New("--burst must be at least 1")
	case o.concurrency < 1:
		return errors.New("--concurrency must be at least 1")
	case o.pageSize < 1:
		return errors.New("--page-size must be at least 1")
	case o.writeKey == "":
		return errors.New("--write-key is empty")
	}
	if _, _, err := o.checkpointRef(); err != nil {
		return err
	}
	return nil
}

// checkpointRef splits --checkpoint-configmap; both are empty without it.
func (o *migrateOptions) checkpointRef() (namespace, name string, err error) {
	if o.checkpoint == "" {
		return "", "", nil
	}
	namespace, name, ok := strings.Cut(o.checkpoint, "/")
	if !ok || namespace == "" || name == "" || strings.Contains(name, "/") {
		return "", "", fmt.Errorf("--checkpoint-configmap %q: want namespace/name", o.checkpoint)
	}
	return namespace, name, nil
}

// run migrates every resource, prints the summary and returns the exit code with the error behind
// migrateExitError.
func (o *migrateOptions) run(ctx context.Context, out, errOut io.Writer, clients migrateClients) (int, error) {
	if err := o.validate(); err != nil {
		return migrateExitError, err
	}
	grs, err := o.resolve(clients.mapper)
	if err != nil {
		return migrateExitError, err
	}
	opts := kmsmigration.Options{
		Dynamic:     clients.dynamic,
		Mapper:      clients.mapper,
		PageSize:    o.pageSize,
		Concurrency: o.concurrency,
		QPS:         o.qps,
		Burst:       o.burst,
	}
	if namespace, name, _ := o.checkpointRef(); name != "" {
		if clients.configMaps == nil {
			return migrateExitError, errors.New("--checkpoint-configmap needs a ConfigMap client")
		}
		opts.Checkpoints = kmsmigration.ConfigMapCheckpoints{Client: clients.configMaps, Namespace: namespace, Name: name}
	}
	migrator, err := kmsmigration.New(opts)
	if err != nil {
		return migrateExitError, err
	}

	// Progress goes where it does not corrupt the summary: stderr when stdout carries JSON.
	progressOut := out
	if o.output == "json" {
		progressOut = errOut
	}
	reporter := o.newProgressReporter(progressOut)
	target := kmsmigration.Target{WriteKey: o.writeKey}
	report := &migrateReport{}
	for _, gr := range grs {
		if ctx.Err() != nil {
			break
		}
		result := migrateResource(ctx, migrator, opts.Checkpoints, reporter, gr, target)
		report.Resources = append(report.Resources, result)
		if o.output == "" {
			printMigrateResult(out, result)
		}
	}

	report.ExitCode = migrateExitOK
	var errs []error
	for _, r := range report.Resources {
		switch r.code {
		case migrateExitError:
			report.ExitCode = migrateExitError
			errs = append(errs, fmt.Errorf("%s: %s", r.Resource, r.Error))
		case migrateExitIncomplete:
			if report.ExitCode == migrateExitOK {
				report.ExitCode = migrateExitIncomplete
			}
		}
	}
	if err := ctx.Err(); err != nil && len(report.Resources) < len(grs) {
		report.ExitCode = migrateExitError
		errs = append(errs, fmt.Errorf("stopped before migrating %d of %d resources: %w", len(grs)-len(report.Resources), len(grs), err))
	}
	if o.output == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return migrateExitError, err
		}
	}
	if report.ExitCode == migrateExitError {
		if opts.Checkpoints != nil {
			errs = append(errs, fmt.Errorf("progress is saved in ConfigMap %s: run again with the same --write-key to resume", o.checkpoint))
		}
		return migrateExitError, errors.Join(errs...)
	}
	return report.ExitCode, nil
}

// resolve parses --resources and checks that the server serves each, before anything is migrated.
func (o *migrateOptions) resolve(mapper meta.RESTMapper) ([]schema.GroupResource, error) {
	var grs []schema.GroupResource
	seen := map[schema.GroupResource]bool{}
	for _, r := range o.resources {
		gr := schema.ParseGroupResource(strings.TrimSpace(r))
		if gr.Resource == "" {
			return nil, fmt.Errorf("--resources: %q is not a resource", r)
		}
		if seen[gr] {
			continue
		}
		seen[gr] = true
		if _, err := mapper.ResourceFor(gr.WithVersion("")); err != nil {
			return nil, fmt.Errorf("resolving %s: %w", gr, err)
		}
		grs = append(grs, gr)
	}
	return grs, nil
}

// migrateResource runs the migration of gr with progress reports, and summarizes it.
func migrateResource(ctx context.Context, m *kmsmigration.Migrator, checkpoints kmsmigration.CheckpointStore, reporter *progressReporter, gr schema.GroupResource, target kmsmigration.Target) migrateResult {
	result := migrateResult{Resource: gr.String(), Target: target}
	// Migrate resumes from an unfinished checkpoint of the same target; its counts are not this run's work.
	var base kmsmigration.Counts
	if checkpoints != nil {
		cp, err := checkpoints.Load(ctx, gr)
		if err != nil {
			result.Error, result.code = err.Error(), migrateExitError
			return result
		}
		if cp != nil && cp.Target == target && cp.Finished.IsZero() {
			base = cp.Counts
			result.Resumed = &base
		}
	}

	started := time.Now()
	stop := reporter.watch(m, gr, base, started)
	p, err := m.Migrate(ctx, gr, target)
	stop()
	elapsed := time.Since(started)

	result.progress = p
	result.Counts, result.Total = p.Counts, p.Total
	result.UndecryptableKeys, result.FailedKeys = p.UndecryptableKeys, p.FailedKeys
	result.Duration = metav1.Duration{Duration: elapsed}
	result.ObjectsPerSecond = rate(handled(p.Counts)-handled(base), elapsed)
	switch {
	case err == nil:
		result.code = migrateExitOK
	case onlyUnmigratedObjects(err):
		result.Error, result.code = err.Error(), migrateExitIncomplete
	default:
		result.Error, result.code = err.Error(), migrateExitError
	}
	return result
}

// onlyUnmigratedObjects says whether err only reports objects the migration walked past: undecryptable ones
// or ones it could not rewrite.
func onlyUnmigratedObjects(err error) bool {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			if !onlyUnmigratedObjects(e) {
				return false
			}
		}
		return true
	}
	var undecryptable *kmsmigration.UndecryptableError
	var failed *kmsmigration.FailedError
	return errors.As(err, &undecryptable) || errors.As(err, &failed)
}

func printMigrateResult(out io.Writer, r migrateResult) {
	if r.code == migrateExitError && r.progress.Resource.Empty() {
		// Not started.
		fmt.Fprintf(out, "%s: %s\n", r.Resource, r.Error)
		return
	}
	fmt.Fprintf(out, "%s; %.0f objects/s over %s\n", r.progress, r.ObjectsPerSecond, r.Duration.Round(time.Millisecond))
	if r.Resumed != nil {
		fmt.Fprintf(out, "  resumed from a checkpoint with %d objects migrated\n", r.Resumed.Done())
	}
	printKeys(out, "undecryptable (kmsguard recover deletes them)", r.UndecryptableKeys, r.Counts.Undecryptable)
	printKeys(out, "not rewritten", r.FailedKeys, r.Counts.Failed)
	if r.code == migrateExitError {
		fmt.Fprintf(out, "  error: %s\n", r.Error)
	}
}

func printKeys(out io.Writer, what string, keys []string, count int64) {
	if count == 0 {
		return
	}
	fmt.Fprintf(out, "  %s (first %d of %d):\n", what, len(keys), count)
	for _, key := range keys {
		fmt.Fprintf(out, "    %s\n", key)
	}
}

// handled are the objects a migration is done with, rewritten or not.
func handled(c kmsmigration.Counts) int64 { return c.Done() + c.Failed + c.Undecryptable }

func rate(objects int64, elapsed time.Duration) float64 {
	if elapsed <= 0 {
		return 0
	}
	return float64(objects) / elapsed.Seconds()
}

// progressReporter shows the progress of the running migration: a bar redrawn in place on a terminal, a line
// every few seconds otherwise.
type progressReporter struct {
	out      io.Writer
	terminal bool
	interval time.Duration
}

func (o *migrateOptions) newProgressReporter(out io.Writer) *progressReporter {
	r := &progressReporter{out: out}
	if o.terminal != nil {
		r.terminal = *o.terminal
	} else {
		r.terminal = isTerminal(out)
	}
	r.interval = plainProgressInterval
	if r.terminal {
		r.interval = terminalRedraw
	}
	if o.progressInterval > 0 {
		r.interval = o.progressInterval
	}
	return r
}

// isTerminal says whether out is a character device, as a terminal is. (golang.org/x/term's IsTerminal is
// exact, but not a direct dependency of kmsguard; a redrawn bar sent to /dev/null is harmless.)
func isTerminal(out io.Writer) bool {
	f, ok := out.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// watch reports the progress of the migration of gr until the returned stop is called; base are the counts the
// migration resumed from.
func (r *progressReporter) watch(m *kmsmigration.Migrator, gr schema.GroupResource, base kmsmigration.Counts, started time.Time) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	drawn := false
	go func() {
		defer close(stopped)
		ticker := time.NewTicker(r.interval)
		defer ticker.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-ticker.C:
				for _, p := range m.Progress() {
					if p.Resource == gr && p.Running() {
						r.draw(p, rate(handled(p.Counts)-handled(base), now.Sub(started)))
						drawn = true
					}
				}
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
		if r.terminal && drawn {
			// Clear the bar: the summary takes its line.
			fmt.Fprint(r.out, "\r\x1b[K")
		}
	}
}

func (r *progressReporter) draw(p kmsmigration.Progress, objectsPerSecond float64) {
	if r.terminal {
		fmt.Fprintf(r.out, "\r%s\x1b[K", progressBar(p, objectsPerSecond))
		return
	}
	fmt.Fprintf(r.out, "%s; %.0f objects/s\n", p, objectsPerSecond)
}

// progressBar is one short line, like
//
//	secrets [=================>            ] 41200/50000  82%  1234 objects/s, 3 undecryptable
func progressBar(p kmsmigration.Progress, objectsPerSecond float64) string {
	n := handled(p.Counts)
	var b strings.Builder
	b.WriteString(p.Resource.String())
	if p.Total > 0 {
		fraction := min(float64(n)/float64(p.Total), 1)
		filled := int(fraction * progressBarWidth)
		bar := strings.Repeat("=", filled)
		if filled < progressBarWidth {
			bar += ">" + strings.Repeat(" ", progressBarWidth-filled-1)
		}
		fmt.Fprintf(&b, " [%s] %d/%d %3.0f%%", bar, n, p.Total, 100*fraction)
	} else {
		fmt.Fprintf(&b, " %d/?", n)
	}
	fmt.Fprintf(&b, "  %.0f objects/s", objectsPerSecond)
	if c := p.Counts.Undecryptable; c > 0 {
		fmt.Fprintf(&b, ", %d undecryptable", c)
	}
	if c := p.Counts.Failed; c > 0 {
		fmt.Fprintf(&b, ", %d failed", c)
	}
	if p.Paused != kmsmigration.NotPaused {
		fmt.Fprintf(&b, ", paused: %s", p.Paused)
	}
	return b.String()
}
