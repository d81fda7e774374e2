// Package clitest holds the checks that both kmsguard binaries (cmd/kmsguard and test/cmd/kmsguard-lab) run on
// their command trees, so that each keeps the conventions of package cli alike.
package clitest

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/kmsguard/kmsguard/internal/cli"
)

// exitCodeLine is a line of a list of exit codes that starts one; its continuation lines are indented further.
var exitCodeLine = regexp.MustCompile(`^  ([0-9]+) `)

// CheckCommandsDocumented checks that every runnable command of the tree newRoot builds, subcommands at any depth
// included, was given its exit codes (cli.WithExitCodes) and that its --help, as the binary prints it, has
// examples and one "Exit codes:" section listing exactly those codes. newRoot must build a new tree on each call:
// each command's --help runs on one of its own. It returns the exit codes of each command, by command path.
func CheckCommandsDocumented(t testing.TB, newRoot func() *cobra.Command) map[string][]int {
	t.Helper()
	documented := map[string][]int{}
	var walk func(cmd *cobra.Command, args []string)
	walk = func(cmd *cobra.Command, args []string) {
		for _, sub := range cmd.Commands() {
			walk(sub, append(slices.Clone(args), sub.Name()))
		}
		if !cmd.Runnable() {
			return
		}
		path := cmd.CommandPath()
		codes, err := cli.ExitCodesOf(cmd)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return
		}
		if len(codes) == 0 {
			t.Errorf("%s has no exit codes: build it with cli.WithExitCodes", path)
			return
		}
		documented[path] = codes
		help := helpOf(t, newRoot(), append(args, "--help"))
		if !strings.Contains(help, "\nExamples:\n") {
			t.Errorf("%s --help has no examples:\n%s", path, help)
		}
		if listed, sections := ListedUnder(help, cli.ExitCodesHeading); sections != 1 || !slices.Equal(listed, codes) {
			t.Errorf("%s --help lists the exit codes %v in %d sections, want %v in one:\n%s", path, listed, sections, codes, help)
		}
	}
	walk(newRoot(), nil)
	return documented
}

// helpOf runs root with args and returns what it prints.
func helpOf(t testing.TB, root *cobra.Command, args []string) string {
	t.Helper()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		t.Errorf("%s %s: %v", root.Name(), strings.Join(args, " "), err)
	}
	return out.String()
}

// ListedUnder returns the codes listed, one to a line as cli.ExitCodeList lists them, in the sections of help
// that a line heading starts, in order, and how many such sections there are.
func ListedUnder(help, heading string) (codes []int, sections int) {
	inSection := false
	for _, line := range strings.Split(help, "\n") {
		switch {
		case line == heading:
			inSection = true
			sections++
		case !strings.HasPrefix(line, "  "):
			inSection = false
		case inSection:
			if m := exitCodeLine.FindStringSubmatch(line); m != nil {
				code, _ := strconv.Atoi(m[1])
				codes = append(codes, code)
			}
		}
	}
	return codes, sections
}
