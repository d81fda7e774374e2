package clitest

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/kmsguard/kmsguard/internal/cli"
	"github.com/kmsguard/kmsguard/internal/tbrecorder"
)

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
			var documented map[string][]int
			failures := tbrecorder.Failures(func(tb testing.TB) { documented = CheckCommandsDocumented(tb, newRoot) })
			if len(failures) != len(s.wantFailures) {
				t.Fatalf("failures %q, want %q", failures, s.wantFailures)
			}
			for i, want := range s.wantFailures {
				if !strings.HasPrefix(failures[i], want) {
					t.Errorf("failure %q, want one starting %q", failures[i], want)
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
