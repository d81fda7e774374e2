package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/component-base/metrics/legacyregistry"

	"github.com/kmsguard/kmsguard/internal/cli"
	"github.com/kmsguard/kmsguard/test/lab"
	"github.com/kmsguard/kmsguard/test/lab/tour"
)

// labTourOptions are the flags of `kmsguard-lab tour`.
type labTourOptions struct {
	nodes   int
	dir     string
	keep    bool
	stories []string
	secrets int
	writers int
	// rebootDown is how long node-reboots keeps each node down.
	rebootDown time.Duration
	output     cli.OutputFormat

	full         bool
	shortTimings bool
	reporters    []string
	preflight    string
	record       string
}

// The tour's two profiles: by default a run that ends within 20 minutes on 2 cores (the short timings make test
// uses, fewer Secrets), and with --full every story as the operator times it.
const (
	quickSecrets = 300
	fullSecrets  = 2000
)

var labTourExitCodes = []cli.ExitCode{
	{Code: cli.ExitOK, Meaning: "every story passed"},
	{Code: cli.ExitError, Meaning: "error: bad flags, or the lab could not start or a story could not run"},
	{Code: cli.ExitIncomplete, Meaning: "a story did not show what it should (the table says what)"},
	{Code: cli.ExitInterrupted, Meaning: "interrupted (Ctrl-C, SIGTERM)"},
}

func newLabTourCommand() *cobra.Command {
	o := &labTourOptions{}
	names := make([]string, 0, len(tour.Stories))
	stories := make([]cli.Term, 0, len(tour.Stories))
	for _, s := range tour.Stories {
		names = append(names, s.Name)
		stories = append(stories, cli.Term{Name: s.Name, Text: s.Title})
	}
	cmd := &cobra.Command{
		Use:   "tour",
		Short: "Run kmsguard's user stories on a fresh lab and print what each measured",
		Long: `tour starts a lab (as kmsguard-lab does), writes --secrets Secrets, keeps --writers applications writing
Secrets throughout, and plays each story in turn:
` + cli.TermList(22, stories) + `

Each story's line says when kmsguard reported the fault and with which condition, when the cluster was back and
how (by itself, or the admin action taken), the applications' writes and failed writes meanwhile, the objects
lost, and how many acknowledged Secrets were read back unchanged afterwards. --nodes 1 runs the stories that
apply to a single node.

By default the tour is the quick one: the operator's timeouts shortened as make test does, 300 Secrets, and every
story but the drills and plugin-down-all-nodes, within 20 minutes on 2 cores. --full plays every story as the
operator times them, with 2,000 Secrets; --stories all plays every story with the short timings.
Before it starts, the tour says what it will play and about how long that takes; --record writes the table into
a page (docs/tour.md) with the commit, command, machine and date that produced it.`,
		Example: `  # the quick tour on three nodes with short timings, under 20 minutes (what make run runs)
  kmsguard-lab tour

  # every story with the operator's own timings and 2,000 Secrets, about 40 minutes
  kmsguard-lab tour --full

  # every story with the short timings
  kmsguard-lab tour --stories all

  # the first story alone: kmsguard at work in about 5 minutes
  kmsguard-lab tour --stories enable-kms

  # the detections with library-go's health reporter and with kmsguard's, side by side
  kmsguard-lab tour --reporter library-go,kmsguard

  # two stories on a single-node cluster, the table as JSON
  kmsguard-lab tour --nodes 1 --stories enable-kms,key-rotated -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cli.ExitWith(o.run(cmd.Context(), cmd.Flags(), cmd.OutOrStdout(), cmd.ErrOrStderr()))
		},
	}
	cmd.Flags().IntVar(&o.nodes, "nodes", 3, "control-plane nodes: 3, or 1 for single-node OpenShift")
	cmd.Flags().StringVar(&o.dir, "dir", "_output/lab", "directory for the lab (emptied at start)")
	cmd.Flags().BoolVar(&o.keep, "keep", false, "keep the directory afterwards")
	cmd.Flags().StringSliceVar(&o.stories, "stories", nil, "the stories to run, in the tour's order: "+strings.Join(names, ", ")+
		", or all (default: with --full every one that applies to --nodes, else the quick tour's: "+strings.Join(tour.QuickTour(tour.Stories), ", ")+")")
	cmd.Flags().IntVar(&o.secrets, "secrets", quickSecrets, fmt.Sprintf("Secrets written before the first story; every one must read back after each (default %d with --full)", fullSecrets))
	cmd.Flags().IntVar(&o.writers, "writers", 4, "applications writing a Secret every 200ms throughout")
	cmd.Flags().DurationVar(&o.rebootDown, "reboot-down", lab.DefaultRebootDown, "node-reboots: how long each node is down in its reboot")
	cmd.Flags().BoolVar(&o.full, "full", false, fmt.Sprintf("every story, with the operator's own timings and %d Secrets, as on a cluster: about 40 minutes on three nodes (default: the quick tour, --short-timings and %d Secrets, under 20 minutes)", fullSecrets, quickSecrets))
	cmd.Flags().BoolVar(&o.shortTimings, "short-timings", true, "shorten the operator's timeouts as make test does: "+lab.ShortOperatorTimings().String()+" (default true, false with --full)")
	cmd.Flags().StringVar(&o.record, "record", "", "a Markdown page (docs/tour.md) to write each tour's table into, with the commit, command, machine and date, "+
		"between the page's markers for this run's configuration; a page without them is left alone and the command fails")
	cmd.Flags().StringSliceVar(&o.reporters, "reporter", []string{string(lab.ReporterLibraryGo)}, reporterFlagUsage+
		"; several, comma-separated, play the tour once with each, on a fresh lab, and compare their detections")
	cmd.Flags().StringVar(&o.preflight, "preflight", string(lab.PreflightAlwaysSucceed), preflightFlagUsage)
	cli.AddOutputFlag(cmd.Flags(), &o.output, "the summary table")
	// klog stays on: the lab sends the controllers' lines to operator.log in its directory
	// (lab.Options.ControllerLog), so the output stays the table.
	return cli.Logs(cli.WithExitCodes(cmd, labTourExitCodes))
}

// liveViewSteps is how many of the latest steps the live view shows below the lab's view.
const liveViewSteps = 12

func (o *labTourOptions) run(ctx context.Context, flags *pflag.FlagSet, out, errOut io.Writer) (int, error) {
	if o.full {
		if !flags.Changed("short-timings") {
			o.shortTimings = false
		}
		if !flags.Changed("secrets") {
			o.secrets = fullSecrets
		}
	}
	if o.nodes != 1 && o.nodes != 3 {
		return cli.ExitError, fmt.Errorf("--nodes must be 1 or 3, not %d", o.nodes)
	}
	if err := o.output.Validate(); err != nil {
		return cli.ExitError, err
	}
	stories, err := o.selectStories()
	if err != nil {
		return cli.ExitError, err
	}
	reporters, err := parseReporters(o.reporters)
	if err != nil {
		return cli.ExitError, err
	}

	// Progress goes to stderr when the table is structured, so that stdout is the table alone. On a terminal,
	// the live view is redrawn in place with the latest steps below it.
	progress := out
	var tail *logTail
	switch {
	case o.output.Structured():
		progress = errOut
	case cli.IsTerminal(out):
		tail = newLogTail(liveViewSteps, out)
		progress = tail
	}
	run := tour.RunInfo{Commit: sourceCommit(ctx), Command: commandLine(flags), Machine: machine()}
	expect := "longer with the operator's timings than with --short-timings (docs/tour.md has a whole tour's time)"
	if d, ok := tour.Expected(stories, o.shortTimings); ok {
		expect = fmt.Sprintf("about %.0f minutes per tour on 2 cores", d.Round(time.Minute).Minutes())
	}
	nodes := fmt.Sprintf("%d nodes", o.nodes)
	if o.nodes == 1 {
		nodes = "one node"
	}
	count := fmt.Sprintf("%d stories", len(stories))
	if len(stories) == 1 {
		count = "1 story"
	}
	fmt.Fprintf(progress, "tour: %s plays %s on %s, %s: %s\n  (%s)\n", run.Command, count, nodes, expect, storyNames(stories), timings(o.shortTimings))
	var all []tour.Result
	var tours [][]tour.Result
	for _, reporter := range reporters {
		results, err := o.runOne(ctx, reporter, stories, run, out, errOut, progress, tail)
		all = append(all, results...)
		tours = append(tours, results)
		if err != nil {
			return cli.ExitError, err
		}
	}
	if o.output.Structured() {
		if err := o.output.Print(out, all); err != nil {
			return cli.ExitError, err
		}
	} else if len(tours) > 1 {
		fmt.Fprintf(out, "\nDetection with each health reporter:\n")
		if err := tour.PrintDetections(out, tours...); err != nil {
			return cli.ExitError, err
		}
	}
	if !tour.AllPassed(all) {
		return cli.ExitIncomplete, nil
	}
	return cli.ExitOK, nil
}

// parseReporters reads --reporter: one tour per reporter, in the order given.
func parseReporters(names []string) ([]lab.Reporter, error) {
	var out []lab.Reporter
	for _, name := range names {
		r := lab.Reporter(name)
		if !slices.Contains(lab.Reporters, r) {
			return nil, fmt.Errorf("--reporter %q: not one of %v", name, lab.Reporters)
		}
		if slices.Contains(out, r) {
			return nil, fmt.Errorf("--reporter %q given twice", name)
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, errors.New("--reporter names no reporter")
	}
	return out, nil
}

// runOne plays the stories on a fresh lab whose pods run reporter, and prints its table unless the output is
// structured. The results are those of the stories that ran, also when it fails.
func (o *labTourOptions) runOne(ctx context.Context, reporter lab.Reporter, stories []tour.Story, run tour.RunInfo, out, errOut, progress io.Writer, tail *logTail) ([]tour.Result, error) {
	dir, controllerLog, cleanup, err := newLabDir(o.dir, o.keep)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	started := time.Now()
	fmt.Fprintf(progress, "tour: starting a lab of %d nodes in %s (%s; %s; KMS preflight %s) ...\n", o.nodes, dir, timings(o.shortTimings), reporter, o.preflight)
	l, err := lab.Start(ctx, lab.Options{Dir: dir, Nodes: o.nodes, Log: progress, ControllerLog: controllerLog, Timings: timings(o.shortTimings), Reporter: reporter,
		Preflight: lab.Preflight(o.preflight)})
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := l.Stop(); err != nil {
			fmt.Fprintln(errOut, "lab:", err)
		}
	}()
	fmt.Fprintf(progress, "tour: lab ready after %s (kubeconfig %s); %d stories\n", time.Since(started).Round(time.Second), l.KubeConfigPath(), len(stories))
	stopView := func() {}
	if tail != nil {
		tail.hold()
		viewCtx, cancel := context.WithCancel(ctx)
		viewDone := make(chan struct{})
		go func() {
			defer close(viewDone)
			l.Watch(viewCtx, out, lab.WatchOptions{Interval: 2 * time.Second, Terminal: true, Title: "kmsguard-lab tour", Footer: tail.String})
		}()
		stopView = func() {
			cancel()
			<-viewDone
		}
	}
	// kmsguard's alerts, evaluated at the report interval over the operator's metrics: the lab's operator runs in
	// this process, so its metrics are the legacy registry's.
	alerts, stopAlerts, err := tour.StartAlerts(ctx, legacyregistry.DefaultGatherer, l.DetectionTimings().ReportInterval, filepath.Join(dir, "alerts-tsdb"))
	if err != nil {
		return nil, err
	}
	defer stopAlerts()
	results, err := tour.Run(ctx, l, stories, tour.Options{Secrets: o.secrets, Writers: o.writers, Log: progress, Alerts: alerts, RebootDown: o.rebootDown}, func(r tour.Result) {
		// Off a terminal, the view after each story; on one, the live view shows it all along.
		if tail == nil && !o.output.Structured() {
			_ = l.PrintStatus(ctx, progress)
		}
	})
	stopView()
	run.Started, run.Took = started, time.Since(started)
	run.Setup = fmt.Sprintf("%d nodes, %d Secrets, %d writers; %s; %s; KMS preflight %s; a rebooted node down %s", o.nodes, o.secrets, o.writers, l.Timings(), l.Reporter(), l.Preflight(), o.rebootDown)
	if !o.output.Structured() {
		fmt.Fprintf(out, "\nThe tour on %d nodes, %s in all (%s; %s; KMS preflight %s):\n", o.nodes, run.Took.Round(time.Second), l.Timings(), l.Reporter(), l.Preflight())
		if printErr := tour.PrintTable(out, results); printErr != nil && err == nil {
			err = printErr
		}
	}
	if o.record != "" && err == nil {
		if err = tour.Record(o.record, o.recordKey(reporter), run, results); err == nil {
			fmt.Fprintf(progress, "tour: the table is in %s\n", o.record)
		}
	}
	return results, err
}

// selectStories picks the stories --stories names, all of them for "all" or --full, else the quick tour's.
func (o *labTourOptions) selectStories() ([]tour.Story, error) {
	switch {
	case len(o.stories) == 1 && o.stories[0] == allStories:
		return tour.Select(tour.Stories, nil, o.nodes)
	case len(o.stories) > 0:
		return tour.Select(tour.Stories, o.stories, o.nodes)
	case o.full:
		return tour.Select(tour.Stories, nil, o.nodes)
	default:
		return tour.SelectQuick(tour.Stories, o.nodes)
	}
}

// allStories is the --stories value that plays every story that applies.
const allStories = "all"

// recordKey names the block of --record that a tour with reporter writes: one per configuration, so that a run
// replaces the table of the same configuration and no other.
func (o *labTourOptions) recordKey(reporter lab.Reporter) string {
	timing, stories := "operator", "quick"
	if o.shortTimings {
		timing = "short"
	}
	switch {
	case len(o.stories) > 0:
		stories = strings.Join(o.stories, ",")
	case o.full:
		stories = allStories
	}
	return fmt.Sprintf("nodes=%d timings=%s secrets=%d reporter=%s preflight=%s stories=%s", o.nodes, timing, o.secrets, string(reporter), o.preflight, stories)
}

func storyNames(stories []tour.Story) string {
	names := make([]string, 0, len(stories))
	for _, s := range stories {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}
