package main

import (
	"bytes"
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/kmsguard/kmsguard/internal/cli"
	"github.com/kmsguard/kmsguard/internal/cli/clitest"
	"github.com/kmsguard/kmsguard/test/lab"
	"github.com/kmsguard/kmsguard/test/lab/tour"
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
			"nodes=3 timings=short secrets=300 reporter=library-go preflight=always-succeed stories=quick"},
		{"every story, short", labTourOptions{nodes: 3, shortTimings: true, secrets: quickSecrets, preflight: "always-succeed", stories: []string{"all"}},
			"nodes=3 timings=short secrets=300 reporter=library-go preflight=always-succeed stories=all"},
		{"full", labTourOptions{nodes: 3, full: true, secrets: fullSecrets, preflight: "always-succeed"},
			"nodes=3 timings=operator secrets=2000 reporter=library-go preflight=always-succeed stories=all"},
		{"two stories on one node", labTourOptions{nodes: 1, shortTimings: true, secrets: quickSecrets, preflight: "pod", stories: []string{"enable-kms", "key-rotated"}},
			"nodes=1 timings=short secrets=300 reporter=library-go preflight=pod stories=enable-kms,key-rotated"},
	} {
		if got := tc.o.recordKey(lab.ReporterLibraryGo); got != tc.want {
			t.Errorf("%s: recordKey = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTourStorySelection: without --stories the quick tour plays (its stories that apply to the nodes), --full and
// --stories all play every story that applies, and named stories play as named.
func TestTourStorySelection(t *testing.T) {
	names := func(stories []tour.Story) string {
		var out []string
		for _, s := range stories {
			out = append(out, s.Name)
		}
		return strings.Join(out, ",")
	}
	quick3 := "enable-kms,plugin-down-one-node,plugin-down-apiserver-restarted,key-disabled,key-rotated,key-destroyed,misconfigured-kms"
	for _, tc := range []struct {
		name string
		o    labTourOptions
		want string
	}{
		{"quick on three nodes", labTourOptions{nodes: 3}, quick3},
		{"quick on one node", labTourOptions{nodes: 1}, "enable-kms,key-disabled,key-rotated,key-destroyed,misconfigured-kms"},
		{"full", labTourOptions{nodes: 3, full: true}, names(tour.Stories)},
		{"all, short", labTourOptions{nodes: 3, stories: []string{"all"}}, names(tour.Stories)},
		{"named", labTourOptions{nodes: 3, full: true, stories: []string{"key-rotated", "enable-kms"}}, "enable-kms,key-rotated"},
	} {
		got, err := tc.o.selectStories()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if names(got) != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, names(got), tc.want)
		}
	}
}

// TestSourceCommitNamesHEAD: a recorded run names the commit the tree is at (the tests run inside the checkout).
func TestSourceCommitNamesHEAD(t *testing.T) {
	head, err := exec.Command("git", "rev-parse", "--short=7", "HEAD").Output()
	if err != nil {
		t.Skipf("no git checkout here: %v", err)
	}
	if got, want := sourceCommit(context.Background()), strings.TrimSpace(string(head)); !strings.HasPrefix(got, want) {
		t.Errorf("sourceCommit = %q, want it to start with HEAD %s", got, want)
	}
}
