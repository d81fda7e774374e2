package clitest

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/kmsguard/kmsguard/internal/cli"
)

// recordingTB is a testing.TB that records failures instead of failing, so that a test can check that
// CheckCommandsDocumented fails when a command is not documented. Like testing's, its Fatal ends the goroutine.
type recordingTB struct {
	testing.TB
	failures []string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Fatal(args ...any) {
	r.failures = append(r.failures, fmt.Sprint(args...))
	runtime.Goexit()
}

// codes are the exit codes of the commands of the trees below.
var codes = []cli.ExitCode{{Code: cli.ExitOK, Meaning: "done"}, {Code: cli.ExitError, Meaning: "error"}}

// command is a runnable command with an example.
func command(use string) *cobra.Command {
	return &cobra.Command{Use: use, Short: "Do " + use, Example: "  tool " + use, RunE: func(*cobra.Command, []string) error { return nil }}
}

// TestCheckCommandsDocumented: the check passes a tree whose runnable commands are all documented, and names a
// command at any depth whose exit codes or example are missing or whose help lists its codes twice.
func TestCheckCommandsDocumented(t *testing.T) {
	for _, s := range []struct {
		name string
		// breakTree changes the documented tree tool (not runnable) > lab (runnable) > tour (runnable).
		breakTree    func(root, lab, tour *cobra.Command)
		wantFailures []string
	}{
		{name: "all documented", breakTree: func(_, _, _ *cobra.Command) {}},
		{name: "a subcommand without exit codes", breakTree: func(_, _, tour *cobra.Command) {
			delete(tour.Annotations, "kmsguard.io/exit-codes")
		}, wantFailures: []string{"tool lab tour has no exit codes"}},
		{name: "a subcommand without an example", breakTree: func(_, _, tour *cobra.Command) {
			tour.Example = ""
		}, wantFailures: []string{"tool lab tour --help has no examples"}},
		{name: "exit codes listed twice", breakTree: func(_, lab, _ *cobra.Command) {
			cli.WithExitCodes(lab, codes)
		}, wantFailures: []string{"tool lab --help lists the exit codes [0 1 0 1] in 2 sections, want [0 1] in one"}},
		{name: "help that lists other codes", breakTree: func(_, lab, _ *cobra.Command) {
			lab.Long = strings.Replace(lab.Long, "  1    error", "  2    not done", 1)
		}, wantFailures: []string{"tool lab --help lists the exit codes [0 2] in 1 sections, want [0 1] in one"}},
	} {
		t.Run(s.name, func(t *testing.T) {
			newRoot := func() *cobra.Command {
				root := &cobra.Command{Use: "tool"}
				lab := cli.WithExitCodes(command("lab"), codes)
				tour := cli.WithExitCodes(command("tour"), codes)
				lab.AddCommand(tour)
				root.AddCommand(lab)
				s.breakTree(root, lab, tour)
				return root
			}
			r := &recordingTB{}
			var documented map[string][]int
			done := make(chan struct{})
			go func() {
				defer close(done)
				documented = CheckCommandsDocumented(r, newRoot)
			}()
			<-done
			if len(r.failures) != len(s.wantFailures) {
				t.Fatalf("failures %q, want %q", r.failures, s.wantFailures)
			}
			for i, want := range s.wantFailures {
				if !strings.HasPrefix(r.failures[i], want) {
					t.Errorf("failure %q, want one starting %q", r.failures[i], want)
				}
			}
			if len(s.wantFailures) == 0 {
				for _, path := range []string{"tool lab", "tool lab tour"} {
					if !slices.Equal(documented[path], []int{0, 1}) {
						t.Errorf("%s: exit codes %v, want [0 1]", path, documented[path])
					}
				}
			}
		})
	}
}
