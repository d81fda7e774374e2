package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/kmsguard/kmsguard/internal/cli"
	"github.com/kmsguard/kmsguard/internal/cli/clitest"
	"github.com/kmsguard/kmsguard/test/lab"
)

// TestCommandsDocumented: every command of kmsguard-lab, the subcommands included, has examples and lists its exit
// codes in its --help, all of them codes that package cli defines (the lab has no refusals of its own).
func TestCommandsDocumented(t *testing.T) {
	shared := []int{cli.ExitOK, cli.ExitError, cli.ExitIncomplete, cli.ExitInterrupted}
	for path, codes := range clitest.CheckCommandsDocumented(t, newRoot) {
		for _, code := range codes {
			if !slices.Contains(shared, code) {
				t.Errorf("%s exits %d, which is none of package cli's %v", path, code, shared)
			}
		}
	}
}

// TestInjectHelpListsEveryFault: inject's --help and its completions offer every fault the lab injects, each on a
// line of its own with its arguments.
func TestInjectHelpListsEveryFault(t *testing.T) {
	var help bytes.Buffer
	root := newRoot()
	root.SetOut(&help)
	root.SetArgs([]string{"inject", "--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	inject, _, err := newRoot().Find([]string{"inject"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range lab.Faults {
		if want := "\n  " + strings.TrimSpace(string(f)+" "+f.Usage().Args) + " "; !strings.Contains(help.String(), want) {
			t.Errorf("inject --help has no line starting %q:\n%s", want, help.String())
		}
		if !slices.Contains(inject.ValidArgs, string(f)) {
			t.Errorf("inject does not complete %s", f)
		}
	}
}
