package tour

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"time"
)

// RunInfo describes one run of the tour for the page that records its table: what produced the figures, so that a
// reader can tell them from any other run's and repeat it.
type RunInfo struct {
	// Commit is the source the run was built from, "+ uncommitted changes" when the tree differed from it.
	Commit string
	// Command is the command line as the reader would type it.
	Command string
	// Machine is the CPUs and memory it ran on.
	Machine string
	// Started is when the run started; Took how long it ran, the lab's start included.
	Started time.Time
	Took    time.Duration
	// Setup is the lab's configuration: nodes, timings, reporter, preflight.
	Setup string
}

// RecordMarkers are the comment lines between which Record writes a run's table: a page keeps one block per
// key, so that each table on it comes from exactly one run and a new run replaces the old one.
func RecordMarkers(key string) (begin, end string) {
	return "<!-- tour-run " + key + " begin: written by kmsguard-lab tour --record -->", "<!-- tour-run " + key + " end -->"
}

// Record replaces the block of key in the Markdown page at path with run's header and the table of results, as
// PrintTable writes it. The page must already hold the block's markers (RecordMarkers), so that a mistyped
// path or key changes nothing.
func Record(path, key string, run RunInfo, results []Result) error {
	page, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("--record: %w", err)
	}
	block, err := recordBlock(run, results)
	if err != nil {
		return err
	}
	updated, err := replaceBlock(string(page), key, block)
	if err != nil {
		return fmt.Errorf("--record %s: %w", path, err)
	}
	return os.WriteFile(path, []byte(updated), 0o644)
}

// recordBlock is the Markdown of one run: its header, then the table and its notes as a text block.
func recordBlock(run RunInfo, results []Result) (string, error) {
	var table bytes.Buffer
	if err := PrintTable(&table, results); err != nil {
		return "", err
	}
	passed := 0
	for i := range results {
		if results[i].Passed() {
			passed++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` at commit %s, on %s, started %s, %s in all; %d of %d stories passed.\n", run.Command, run.Commit, run.Machine,
		run.Started.UTC().Format("2006-01-02 15:04 MST"), run.Took.Round(time.Second), passed, len(results))
	fmt.Fprintf(&b, "Lab: %s.\n\n", run.Setup)
	fmt.Fprintf(&b, "```text\n%s```\n", table.String())
	return b.String(), nil
}

// replaceBlock returns page with what lies between key's markers replaced by block.
func replaceBlock(page, key, block string) (string, error) {
	begin, end := RecordMarkers(key)
	i := strings.Index(page, begin)
	if i < 0 {
		return "", fmt.Errorf("no line %q to write the run after", begin)
	}
	if strings.Count(page, begin) > 1 {
		return "", fmt.Errorf("%q appears more than once", begin)
	}
	rest := page[i+len(begin):]
	j := strings.Index(rest, end)
	if j < 0 {
		return "", fmt.Errorf("no line %q after %q", end, begin)
	}
	return page[:i+len(begin)] + "\n" + block + rest[j:], nil
}
