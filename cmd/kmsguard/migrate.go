package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kmsguard/kmsguard/internal/cli"

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

	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
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
	kube        *kubeFlags
	resources   []string
	qps         float32
	burst       int
	concurrency int
	pageSize    int64
	writeKey    string
	checkpoint  string
	output      cli.OutputFormat
	timeout     time.Duration

	// terminal forces the progress bar (true) or plain lines (false); nil detects it from the output.
	terminal *bool
	// progressInterval overrides the redraw or line interval, for tests.
	progressInterval time.Duration
}

// migrateClients are what a migration talks to; tests pass fakes.
type migrateClients struct {
	dynamic dynamic.Interface
	// config lets the migrator rewrite built-in resources in protobuf (kmsmigration.Options.RESTConfig); nil
	// takes dynamic for every resource.
	config *rest.Config
	mapper meta.RESTMapper
	// configMaps hold --checkpoint-configmap; nil without it.
	configMaps corev1client.ConfigMapsGetter
}

// migrateReport is what `kmsguard migrate -o json|yaml` prints.
type migrateReport struct {
	Resources []migrateResult `json:"resources"`
	ExitCode  int             `json:"cli.ExitCode"`
}

// migrateResult is the outcome of one resource (kmsmigration.ResourceRun) as printed.
type migrateResult struct {
	Resource string                  `json:"resource"`
	Target   kmsmigration.Target     `json:"target"`
	Outcome  kmsmigration.RunOutcome `json:"outcome"`
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
}

func resultOf(r kmsmigration.ResourceRun) migrateResult {
	m := migrateResult{
		Resource: r.Resource.String(), Target: r.Target, Outcome: r.Outcome, Counts: r.Progress.Counts, Resumed: r.Resumed, Total: r.Progress.Total,
		Duration: metav1.Duration{Duration: r.Duration}, ObjectsPerSecond: r.ObjectsPerSecond,
		UndecryptableKeys: r.Progress.UndecryptableKeys, FailedKeys: r.Progress.FailedKeys,
	}
	if r.Err != nil {
		m.Error = r.Err.Error()
	}
	return m
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
rewrites in flight, and the migrator halves it while the apiserver's latency rises. A standalone run has no
kmsstate controller to ask (kmsmigration.Options.KMS is nil), so it does not pause while the write key's KMS
plugin is down: transient errors back it off instead, and objects it could not rewrite are counted. Run it
while kmsguard status shows the operator's current evaluation healthy.

--write-key is only a label: it is recorded as the target of the checkpoints. With --checkpoint-configmap,
progress is saved every few seconds and on interruption (Ctrl-C) in that ConfigMap, and a later run with the
same --write-key resumes where the last one stopped; a finished migration is started again from the beginning.

Progress is a bar redrawn in place on a terminal and a line every few seconds otherwise (on stderr with -o
json). The summary gives per resource the counts, the objects per second of this run and the first keys of the
objects that are undecryptable (see kmsguard recover) or could not be rewritten.`,
		Example: `  # Secrets and ConfigMaps, 200 rewrites per second, 16 in flight
  kmsguard migrate --resources secrets,configmaps --qps 200 --concurrency 16

  # Resumable: Ctrl-C saves the progress, the same command resumes it
  kmsguard migrate --resources secrets --write-key kms-2 --checkpoint-configmap openshift-kube-apiserver-operator/kmsguard-migrate

  # The summary as JSON, progress on stderr
  kmsguard migrate --resources secrets -o json`,
		Args: cobra.NoArgs,
		// The flags are checked before anything is read (the runbooks' commands are checked so in a test).
		PreRunE: func(*cobra.Command, []string) error { return o.validate() },
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cli.ExitWith(o.runWithClients(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()))
		},
	}
	f := cmd.Flags()
	o.kube = addKubeFlags(f)
	f.StringSliceVar(&o.resources, "resources", []string{"secrets"}, "resources to migrate, as resource or resource.group")
	f.Float32Var(&o.qps, "qps", kmsmigration.DefaultQPS, "rewrites per second; negative for no client-side limit")
	f.IntVar(&o.burst, "burst", kmsmigration.DefaultBurst, "rewrites allowed at once above --qps")
	f.IntVar(&o.concurrency, "concurrency", kmsmigration.DefaultConcurrency, "rewrites in flight at most")
	f.Int64Var(&o.pageSize, "page-size", kmsmigration.DefaultPageSize, "objects per LIST page")
	f.StringVar(&o.writeKey, "write-key", "standalone", "label of the write key, recorded as the checkpoints' target")
	f.StringVar(&o.checkpoint, "checkpoint-configmap", "", "namespace/name of a ConfigMap that keeps progress, to resume an interrupted run")
	cli.AddOutputFlag(f, &o.output, "the summary")
	f.DurationVar(&o.timeout, "timeout", 0, "bound on the whole run; 0 for none")
	return cli.WithExitCodes(cmd, migrateExitCodes)
}

// runWithClients builds the clients from the flags and runs.
func (o *migrateOptions) runWithClients(ctx context.Context, out, errOut io.Writer) (int, error) {
	if err := o.validate(); err != nil {
		return cli.ExitError, err
	}
	o.kube.userAgent = "kmsguard-migrate"
	config, err := o.kube.restConfig()
	if err != nil {
		return cli.ExitError, err
	}
	// The migrator's token bucket (--qps) is the client-side limit; client-go's default of 5 requests per
	// second would otherwise override it.
	config.QPS, config.Burst = -1, 0
	disc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return cli.ExitError, err
	}
	clients := migrateClients{config: config, mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))}
	if clients.dynamic, err = dynamic.NewForConfig(config); err != nil {
		return cli.ExitError, err
	}
	if o.checkpoint != "" {
		kube, err := kubernetes.NewForConfig(config)
		if err != nil {
			return cli.ExitError, err
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
	case o.output.Validate() != nil:
		return o.output.Validate()
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

// run migrates every resource with kmsmigration's MigrateAll, prints as it goes and the summary, and returns
// the exit code with the error behind it.
func (o *migrateOptions) run(ctx context.Context, out, errOut io.Writer, clients migrateClients) (int, error) {
	if err := o.validate(); err != nil {
		return cli.ExitError, err
	}
	grs, err := kmsmigration.ParseResources(o.resources)
	if err != nil {
		return cli.ExitError, fmt.Errorf("--resources: %w", err)
	}
	// No KMS: a standalone run has no kmsstate controller whose fresh verdict it could pause on (see --help).
	opts := kmsmigration.Options{
		Dynamic:     clients.dynamic,
		RESTConfig:  clients.config,
		Mapper:      clients.mapper,
		PageSize:    o.pageSize,
		Concurrency: o.concurrency,
		QPS:         o.qps,
		Burst:       o.burst,
	}
	if namespace, name, _ := o.checkpointRef(); name != "" {
		if clients.configMaps == nil {
			return cli.ExitError, errors.New("--checkpoint-configmap needs a ConfigMap client")
		}
		opts.Checkpoints = kmsmigration.ConfigMapCheckpoints{Client: clients.configMaps, Namespace: namespace, Name: name}
	}
	migrator, err := kmsmigration.New(opts)
	if err != nil {
		return cli.ExitError, err
	}

	// Progress goes where it does not corrupt the summary: stderr when stdout carries JSON or YAML.
	progressOut := out
	if o.output.Structured() {
		progressOut = errOut
	}
	reporter := o.newProgressReporter(progressOut)
	run, err := migrator.MigrateAll(ctx, grs, kmsmigration.Target{WriteKey: o.writeKey}, kmsmigration.RunHooks{
		Started: func(gr schema.GroupResource, resumed kmsmigration.Counts, started time.Time) func() {
			return reporter.watch(migrator, gr, resumed, started)
		},
		Finished: func(r kmsmigration.ResourceRun) {
			if !o.output.Structured() {
				printMigrateResult(out, r)
			}
		},
	})
	if err != nil {
		return cli.ExitError, err
	}

	report := &migrateReport{ExitCode: migrateExitCode(ctx, run.Outcome)}
	for _, r := range run.Resources {
		report.Resources = append(report.Resources, resultOf(r))
	}
	if o.output.Structured() {
		if err := o.output.Print(out, report); err != nil {
			return cli.ExitError, err
		}
	}
	if run.Outcome != kmsmigration.RunFailed {
		return report.ExitCode, nil
	}
	err = run.Err
	if opts.Checkpoints != nil {
		err = errors.Join(err, fmt.Errorf("progress is saved in ConfigMap %s: run again with the same --write-key to resume", o.checkpoint))
	}
	return report.ExitCode, err
}

// migrateExitCode maps a run's outcome to the exit code scheme.
func migrateExitCode(ctx context.Context, outcome kmsmigration.RunOutcome) int {
	switch {
	case outcome == kmsmigration.RunMigrated:
		return cli.ExitOK
	case outcome == kmsmigration.RunIncomplete:
		return cli.ExitIncomplete
	case cli.Interrupted(ctx):
		return cli.ExitInterrupted
	}
	return cli.ExitError
}

func printMigrateResult(out io.Writer, r kmsmigration.ResourceRun) {
	if !r.Started() {
		fmt.Fprintf(out, "%s: %s\n", r.Resource, r.Err)
		return
	}
	fmt.Fprintf(out, "%s; %.0f objects/s over %s\n", r.Progress, r.ObjectsPerSecond, r.Duration.Round(time.Millisecond))
	if r.Resumed != nil {
		fmt.Fprintf(out, "  resumed from a checkpoint with %d objects migrated\n", r.Resumed.Done())
	}
	printKeys(out, "undecryptable (kmsguard recover deletes them)", r.Progress.UndecryptableKeys, r.Progress.Counts.Undecryptable)
	printKeys(out, "not rewritten", r.Progress.FailedKeys, r.Progress.Counts.Failed)
	if r.Outcome == kmsmigration.RunFailed {
		fmt.Fprintf(out, "  error: %s\n", r.Err)
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
func handled(c kmsmigration.Counts) int64 { return c.Handled() }

func rate(objects int64, elapsed time.Duration) float64 { return kmsmigration.Rate(objects, elapsed) }

// progressReporter shows the progress of the running migration: a bar redrawn in place on a terminal, a line
// every few seconds otherwise.
type progressReporter struct {
	out      io.Writer
	terminal bool
	interval time.Duration
}

func (o *migrateOptions) newProgressReporter(out io.Writer) *progressReporter {
	r := &progressReporter{out: out}
	r.terminal, r.interval = progressCadence(out, o.terminal, o.progressInterval)
	return r
}

// progressCadence is how long-running commands (migrate, verify) draw progress on out: redrawn in place every
// terminalRedraw on a terminal, a line every plainProgressInterval otherwise. terminal and interval, when set
// (tests), override what out is and how often.
func progressCadence(out io.Writer, terminal *bool, interval time.Duration) (bool, time.Duration) {
	isTTY := cli.IsTerminal(out)
	if terminal != nil {
		isTTY = *terminal
	}
	switch {
	case interval > 0:
		return isTTY, interval
	case isTTY:
		return true, terminalRedraw
	default:
		return false, plainProgressInterval
	}
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
