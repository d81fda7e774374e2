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

// TestTourRecordsItsCommandAndConfiguration: the command line a recorded table names is the one typed (the flags
// given, lists joined as typed), and each configuration writes its own block, --full's apart from the default's.
func TestTourRecordsItsCommandAndConfiguration(t *testing.T) {
	cmd := newLabTourCommand()
	if err := cmd.ParseFlags([]string{"--stories", "enable-kms,key-rotated", "--full", "--nodes", "1", "--record", "docs/tour.md"}); err != nil {
		t.Fatal(err)
	}
	if got, want := commandLine(cmd.Flags()), "kmsguard-lab tour --full --nodes 1 --record docs/tour.md --stories enable-kms,key-rotated"; got != want {
		t.Errorf("commandLine = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		name string
		o    labTourOptions
		want string
	}{
		{"default", labTourOptions{nodes: 3, shortTimings: true, secrets: quickSecrets, preflight: "always-succeed"},
			"nodes=3 timings=short secrets=300 reporter=library-go preflight=always-succeed stories=all"},
		{"full", labTourOptions{nodes: 3, secrets: fullSecrets, preflight: "always-succeed"},
			"nodes=3 timings=operator secrets=2000 reporter=library-go preflight=always-succeed stories=all"},
		{"two stories on one node", labTourOptions{nodes: 1, shortTimings: true, secrets: quickSecrets, preflight: "pod", stories: []string{"enable-kms", "key-rotated"}},
			"nodes=1 timings=short secrets=300 reporter=library-go preflight=pod stories=enable-kms,key-rotated"},
	} {
		if got := tc.o.recordKey(lab.ReporterLibraryGo); got != tc.want {
			t.Errorf("%s: recordKey = %q, want %q", tc.name, got, tc.want)
		}
	}
}
