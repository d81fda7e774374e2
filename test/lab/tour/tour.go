// Package tour runs the user stories of kmsguard on a lab (test/lab): each story puts a KMS fault or change into
// a running control plane while applications keep writing Secrets, and measures what kmsguard reports and how
// the cluster recovers. `kmsguard-lab tour` (make run) prints the summary table; the e2e suite runs the same
// stories.
//
// A story's result says when kmsguard reported the fault (the condition and reason an admin sees), when the
// cluster was back (by itself, or after the admin action the story takes, which it names), how many writes the
// applications attempted and how many failed meanwhile, and how many objects were lost. After every story,
// every Secret whose write the apiserver acknowledged must read back with that value: a story that loses an
// acknowledged write fails, whatever else it shows.
package tour

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kmsguard/kmsguard/test/lab"
)

// Story is one user story or drill.
type Story struct {
	// Name is what --stories picks it by.
	Name string
	// Title says what the story shows, in a line.
	Title string
	// MinNodes is the fewest nodes the story makes sense with (a fault on one node of several needs 3).
	MinNodes int
	// Run plays the story on env and fills in res; an error ends the tour (the lab is in no known state).
	// A story that ran but did not show what it should records that in res.Problems.
	Run func(ctx context.Context, env *Env, res *Result) error
	// Takes is about how long the story takes on three nodes with the short timings and 300 Secrets on 2 cores:
	// its TOOK in the run of every story docs/tour.md records, plus the settling before it (settledFor and a
	// look), rounded up. The tour says the sum before it starts.
	Takes time.Duration
	// Quick puts the story in the tour `kmsguard-lab tour` plays without --stories or --full, which must end within
	// 20 minutes on 2 cores. The drills and plugin-down-all-nodes (minutes of writes on cached DEKs before the
	// outage shows) are left out of it.
	Quick bool
	// Calm says that nothing goes wrong in the story: with Options.Alerts, an alert that went pending or fired
	// during it (its settling included) is a problem.
	Calm bool
}

// QuickTour names the stories of the quick tour, in the tour's order.
func QuickTour(all []Story) []string {
	var names []string
	for _, s := range all {
		if s.Quick {
			names = append(names, s.Name)
		}
	}
	return names
}

// labStart is about how long `make run` takes to build the lab's command and start a lab of three nodes on 2
// cores.
const labStart = 90 * time.Second

// Expected is about how long a tour of stories takes with the short timings, the lab's start included; false
// with the operator's timings, which no story records on its own (the whole tour's figure is in docs/tour.md).
func Expected(stories []Story, short bool) (time.Duration, bool) {
	if !short {
		return 0, false
	}
	total := labStart
	for _, s := range stories {
		total += s.Takes
	}
	return total, true
}

// Result is what one story measured.
type Result struct {
	Story string `json:"story"`
	Title string `json:"title"`
	// Reporter is what ran as the pods' kms-health-reporter sidecar (lab.Reporter).
	Reporter string `json:"reporter"`
	// Detected is how long after the fault kmsguard reported it, and DetectedBy the condition that did
	// (type, status and reason); zero when the story injects no fault.
	Detected   time.Duration `json:"detectedAfterSeconds"`
	DetectedBy string        `json:"detectedBy,omitempty"`
	// Bound is the longest Detected should take, and BoundBy what sets it: kmsguard's own probe interval for
	// what its probe sees, the apiserver's or another controller's timing for the rest. Zero without a fault.
	// A detection above it is noted, and does not fail the story.
	Bound   time.Duration `json:"boundSeconds"`
	BoundBy string        `json:"boundBy,omitempty"`
	// NotSeen says the story's fault went unreported while it lasted, as the story expected of this lab (a
	// disabled key under a reporter that calls Status only); the notes say why.
	NotSeen bool `json:"notSeen,omitempty"`
	// Recovered is how long after the fault (or after the change, for a story without one) the cluster was
	// back to normal, and Recovery how: "automatic", or the admin action the story took.
	Recovered time.Duration `json:"recoveredAfterSeconds"`
	Recovery  string        `json:"recovery,omitempty"`
	// Writes are the applications' writes during the story; LastWriteError the last failure, as they saw it.
	Writes         Counts `json:"writes"`
	LastWriteError string `json:"lastWriteError,omitempty"`
	// Lost are the etcd keys of the objects the story lost (only a destroyed key loses any; the story makes the
	// writers forget those of theirs); ReadBack how many acknowledged Secrets were read back after the story.
	Lost     []string `json:"lost,omitempty"`
	ReadBack int      `json:"readBack"`
	// Alerts are kmsguard's alerts that went pending or fired during the story, as Prometheus's rule engine
	// evaluated them over the operator's metrics (Options.Alerts); AlertsEvaluated says whether it did.
	Alerts          []AlertEvent `json:"alerts,omitempty"`
	AlertsEvaluated bool         `json:"alertsEvaluated"`
	// Notes are what the story observed besides, one line each; Problems what it should have shown and did not.
	Notes    []string      `json:"notes,omitempty"`
	Problems []string      `json:"problems,omitempty"`
	Took     time.Duration `json:"tookSeconds"`
}

// Passed says whether the story showed everything it should.
func (r *Result) Passed() bool { return len(r.Problems) == 0 }

// notef records an observation.
func (r *Result) notef(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// problemf records something the story should have shown and did not.
func (r *Result) problemf(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

// MarshalJSON writes durations in seconds.
func (r Result) MarshalJSON() ([]byte, error) {
	type result Result
	return json.Marshal(struct {
		result
		Detected    float64 `json:"detectedAfterSeconds"`
		Bound       float64 `json:"boundSeconds"`
		WithinBound bool    `json:"withinBound"`
		Recovered   float64 `json:"recoveredAfterSeconds"`
		Took        float64 `json:"tookSeconds"`
		Passed      bool    `json:"passed"`
	}{result(r), r.Detected.Seconds(), r.Bound.Seconds(), r.WithinBound(), r.Recovered.Seconds(), r.Took.Seconds(), r.Passed()})
}

// Options configure a tour.
type Options struct {
	// Stories are the names of the stories to run, in the order of Stories; empty means all that apply to the
	// lab's number of nodes.
	Stories []string
	// Secrets is how many Secrets are written before the first story (all must read back after each).
	Secrets int
	// Writers is how many applications keep writing during the stories, each a Secret every WriteInterval.
	Writers       int
	WriteInterval time.Duration
	// Log receives a line per step.
	Log io.Writer
	// Alerts, when set, evaluates kmsguard's alerts while the stories run; each story's result lists those that
	// went pending or fired during it.
	Alerts *Alerts
	// RebootDown is how long each node is down in node-reboots; zero is lab.DefaultRebootDown.
	RebootDown time.Duration
}

// Env is what a story works with.
type Env struct {
	Lab     *lab.Lab
	Writers *Writers
	// RebootDown is how long a rebooted node is down (Options.RebootDown).
	RebootDown time.Duration
	log        io.Writer
}

// Logf writes a step line.
func (e *Env) Logf(format string, args ...any) {
	fmt.Fprintf(e.log, "%s tour: %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, args...))
}

// Select returns the stories of names, in the order of all, or every story that applies to nodes when names
// is empty. An unknown name, or a story that needs more nodes, is an error.
func Select(all []Story, names []string, nodes int) ([]Story, error) {
	return selectStories(all, names, nodes, false)
}

// SelectQuick returns the quick tour's stories that apply to nodes, in the order of all.
func SelectQuick(all []Story, nodes int) ([]Story, error) {
	return selectStories(all, QuickTour(all), nodes, true)
}

func selectStories(all []Story, names []string, nodes int, skipInapplicable bool) ([]Story, error) {
	if len(names) == 0 {
		var out []Story
		for _, s := range all {
			if nodes >= s.MinNodes {
				out = append(out, s)
			}
		}
		return out, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []Story
	for _, s := range all {
		if !want[s.Name] {
			continue
		}
		delete(want, s.Name)
		if nodes < s.MinNodes {
			if skipInapplicable {
				continue
			}
			return nil, fmt.Errorf("story %s needs %d nodes, the lab has %d", s.Name, s.MinNodes, nodes)
		}
		out = append(out, s)
	}
	for n := range want {
		known := make([]string, 0, len(all))
		for _, s := range all {
			known = append(known, s.Name)
		}
		return nil, fmt.Errorf("no story %q (the stories: %s)", n, strings.Join(known, ", "))
	}
	return out, nil
}

// Run plays stories on l in turn, with the writers running throughout, and returns their results. onResult,
// when set, is called after each story. It stops at a story's error.
func Run(ctx context.Context, l *lab.Lab, stories []Story, opts Options, onResult func(Result)) ([]Result, error) {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.WriteInterval <= 0 {
		opts.WriteInterval = 200 * time.Millisecond
	}
	kube, err := kubernetesClient(l)
	if err != nil {
		return nil, err
	}
	env := &Env{Lab: l, Writers: NewWriters(kube, Namespace), RebootDown: opts.RebootDown, log: opts.Log}
	if env.RebootDown == 0 {
		env.RebootDown = lab.DefaultRebootDown
	}
	if err := ensureNamespace(ctx, kube, Namespace); err != nil {
		return nil, err
	}
	env.Logf("writing %d Secrets in %s", opts.Secrets, Namespace)
	if err := env.Writers.Seed(ctx, opts.Secrets); err != nil {
		return nil, err
	}
	writersCtx, stopWriters := context.WithCancel(ctx)
	writersDone := make(chan struct{})
	go func() {
		defer close(writersDone)
		env.Writers.Run(writersCtx, opts.Writers, opts.WriteInterval)
	}()
	defer func() {
		stopWriters()
		<-writersDone
	}()

	var results []Result
	for _, s := range stories {
		// The story's alerts are those from the end of the one before: the settling belongs to it too, so that
		// no alert raised in between goes unreported.
		window := time.Now()
		if err := env.settle(ctx); err != nil {
			return results, fmt.Errorf("before story %s: %w", s.Name, err)
		}
		env.Logf("story %s: %s", s.Name, s.Title)
		res := Result{Story: s.Name, Title: s.Title, Reporter: string(l.Reporter())}
		before, _ := env.Writers.Counts()
		started := time.Now()
		if err := s.Run(ctx, env, &res); err != nil {
			return results, fmt.Errorf("story %s: %w", s.Name, err)
		}
		after, lastErr := env.Writers.Counts()
		res.Writes = after.Sub(before)
		if res.Writes.Failed > 0 {
			res.LastWriteError = lastErr
		}
		checked, problems, err := env.Writers.Check(ctx)
		if err != nil {
			res.problemf("reading the Secrets back: %v", err)
		}
		res.ReadBack = checked
		res.Problems = append(res.Problems, problems...)
		res.Took = time.Since(started)
		if opts.Alerts != nil {
			res.AlertsEvaluated = true
			res.Alerts = opts.Alerts.Between(window, time.Now())
			if len(res.Alerts) > 0 {
				res.notef("alerts (times from the story's start; negative while it settled): %s", alertsNote(res.Alerts, started))
				if s.Calm {
					res.problemf("an alert went pending or fired in a story in which nothing is wrong: %s", alertsNote(res.Alerts, started))
				}
			}
		}
		env.Logf("story %s: passed %t after %s", s.Name, res.Passed(), res.Took.Round(time.Second))
		results = append(results, res)
		if onResult != nil {
			onResult(res)
		}
	}
	return results, nil
}

// Namespace is where the tour's Secrets are written.
const Namespace = "kmsguard-tour"

// PrintTable writes the summary table.
func PrintTable(w io.Writer, results []Result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STORY\tDETECTED\tBOUND\tBY\tRECOVERED\tHOW\tWRITES (FAILED)\tLOST\tREAD BACK\tALERTS\tTOOK\tRESULT")
	for _, r := range results {
		result := "passed"
		if !r.Passed() {
			result = "FAILED: " + strings.Join(r.Problems, "; ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d (%d)\t%d\t%d\t%s\t%s\t%s\n", r.Story, detectedColumn(r), boundColumn(r), orDash(r.DetectedBy),
			seconds(r.Recovered), orDash(r.Recovery), r.Writes.Attempted, r.Writes.Failed, len(r.Lost), r.ReadBack, alertsColumn(r), r.Took.Round(time.Second), result)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range results {
		if r.Bound > 0 {
			fmt.Fprintf(w, "  %s: bound %s: %s\n", r.Story, seconds(r.Bound), r.BoundBy)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "  %s: %s\n", r.Story, n)
		}
		if r.LastWriteError != "" {
			fmt.Fprintf(w, "  %s: last failed write: %s\n", r.Story, r.LastWriteError)
		}
	}
	return nil
}

// PrintDetections writes, for tours of the same stories with different health reporters, one line per story
// with each tour's detection and its bound side by side: what kmsguard's reporter buys over library-go's.
// Stories are in the order of the first tour; a story a tour did not run is "not run" there.
func PrintDetections(w io.Writer, tours ...[]Result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	header := []string{"STORY"}
	byStory := make([]map[string]Result, len(tours))
	for i, results := range tours {
		reporter := "?"
		if len(results) > 0 {
			reporter = results[0].Reporter
		}
		header = append(header, "DETECTED ("+reporter+")", "BOUND", "BY")
		byStory[i] = map[string]Result{}
		for _, r := range results {
			byStory[i][r.Story] = r
		}
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	if len(tours) > 0 {
		for _, first := range tours[0] {
			row := []string{first.Story}
			for i := range tours {
				r, ok := byStory[i][first.Story]
				switch {
				case !ok:
					row = append(row, "not run", "-", "-")
				default:
					row = append(row, detectedColumn(r), boundColumn(r), orDash(r.DetectedBy))
				}
			}
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
	}
	return tw.Flush()
}

// detectedColumn is the DETECTED cell: how long the detection took, "not seen" for a fault that went unreported
// as expected, "-" without a fault.
func detectedColumn(r Result) string {
	if r.NotSeen {
		return "not seen"
	}
	return seconds(r.Detected)
}

// boundColumn is the BOUND cell: the bound, marked when the detection went above it.
func boundColumn(r Result) string {
	if r.Bound == 0 {
		return "-"
	}
	if !r.WithinBound() {
		return "OVER " + seconds(r.Bound)
	}
	return "<= " + seconds(r.Bound)
}

func seconds(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return d.Round(100 * time.Millisecond).String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// AllPassed says whether every story passed.
func AllPassed(results []Result) bool {
	for i := range results {
		if !results[i].Passed() {
			return false
		}
	}
	return true
}
