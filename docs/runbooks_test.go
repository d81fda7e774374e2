// Package docs_test keeps docs/runbooks true to the code: every reason the packages register (registry_test.go)
// has a runbook, every runbook names a registered reason, the index lists them all, and what they cite exists.
package docs_test

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const runbookDir = "runbooks"

// runbookSections are the headings every runbook has, in this order.
var runbookSections = []string{"## Meaning", "## Confirm", "## What to do", "## What not to do", "## Metrics", "## Related"}

var (
	// markdownLink is the target of a Markdown link.
	markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// metricName is a metric kmsguard registers or reads, as a runbook cites it.
	metricName = regexp.MustCompile(`\b(?:kmsguard|apiserver)_[a-z0-9_]+`)
)

// checkRunbooks returns what is wrong with the runbooks, files by name (README.md is the index, the one page that
// is no runbook), against the registered reasons and the metric names kmsguard registers or reads. exists says
// whether a relative link other than to a runbook leads to a file.
func checkRunbooks(found reasons, files map[string]string, metrics map[string]bool, exists func(rel string) bool) []string {
	var problems []string
	for _, reason := range slices.Sorted(maps.Keys(found)) {
		if _, ok := files[reason+".md"]; !ok {
			problems = append(problems, fmt.Sprintf("reason %s (%s) has no runbook %s.md", reason, strings.Join(found[reason], ", "), reason))
		}
	}
	index, ok := files["README.md"]
	if !ok {
		problems = append(problems, "README.md, the index, is missing")
	}
	indexed := map[string]bool{}
	for _, line := range strings.Split(index, "\n") {
		if strings.HasPrefix(line, "|") {
			for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
				indexed[m[1]] = true
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		content := files[name]
		if name != "README.md" {
			reason, isMarkdown := strings.CutSuffix(name, ".md")
			switch {
			case !isMarkdown:
				problems = append(problems, name+": not a runbook (<Reason>.md)")
				continue
			case found[reason] == nil:
				problems = append(problems, name+": no registry lists reason "+reason+": a stale runbook")
			}
			if !indexed[name] {
				problems = append(problems, name+": not in the index table of README.md")
			}
			problems = append(problems, checkRunbook(name, reason, content)...)
		}
		for _, m := range markdownLink.FindAllStringSubmatch(content, -1) {
			target, _, _ := strings.Cut(m[1], "#")
			switch {
			case target == "" || strings.Contains(target, "://"):
			case !strings.Contains(target, "/") && strings.HasSuffix(target, ".md"):
				if _, ok := files[target]; !ok {
					problems = append(problems, fmt.Sprintf("%s: links to %s, which is no runbook", name, target))
				}
			case !exists(target):
				problems = append(problems, fmt.Sprintf("%s: links to %s, which does not exist", name, target))
			}
		}
		for _, metric := range metricName.FindAllString(content, -1) {
			if !metrics[metric] {
				problems = append(problems, fmt.Sprintf("%s: cites metric %s, which kmsguard neither registers nor reads", name, metric))
			}
		}
	}
	return problems
}

// checkRunbook checks one runbook's title and sections.
func checkRunbook(name, reason, content string) []string {
	var problems []string
	lines := strings.Split(content, "\n")
	if lines[0] != "# "+reason {
		problems = append(problems, fmt.Sprintf("%s: the first line is %q, want %q", name, lines[0], "# "+reason))
	}
	next := 0
	for _, line := range lines {
		if next < len(runbookSections) && line == runbookSections[next] {
			next++
		}
	}
	if next < len(runbookSections) {
		problems = append(problems, fmt.Sprintf("%s: no section %q (sections, in order: %s)", name, runbookSections[next], strings.Join(runbookSections, ", ")))
	}
	return problems
}

// moduleRoot is the root of the module the docs describe.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// modulePath is the path of the module the docs describe, from its go.mod.
func modulePath(t *testing.T) string {
	t.Helper()
	goMod := filepath.Join(moduleRoot(t), "go.mod")
	data, err := os.ReadFile(goMod)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	t.Fatal(goMod + " has no module line")
	return ""
}

// TestRunbooks fails when a registered reason has no runbook in docs/runbooks, when a runbook names no registered
// reason, when the index misses a runbook, or when a runbook cites a link or a metric that does not exist.
func TestRunbooks(t *testing.T) {
	found := collectReasons(append(conditionRegistries(), quotedReasons()...)...)
	if len(found) == 0 {
		t.Fatal("no registered reason: the registries are not read")
	}
	entries, err := os.ReadDir(runbookDir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(runbookDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(data)
	}
	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(runbookDir, filepath.FromSlash(path.Clean(rel))))
		return err == nil
	}
	for _, p := range checkRunbooks(found, files, metricNames(), exists) {
		t.Error(p)
	}
}

func TestCheckRunbooks(t *testing.T) {
	runbook := func(reason, body string) string {
		return "# " + reason + "\n\n" + strings.Join(runbookSections, "\n\n") + "\n\n" + body + "\n"
	}
	index := "| reason | link |\n| --- | --- |\n| Foo | [Foo](Foo.md) |\n| Bar | [Bar](Bar.md) |\n"
	found := reasons{"Foo": {"a.ConditionReasons"}, "Bar": {"a.ConditionReasons", "b.ConditionReasons"}}
	metrics := map[string]bool{"kmsguard_foo_total": true}
	scenarios := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name:  "every reason has an indexed runbook",
			files: map[string]string{"README.md": index, "Foo.md": runbook("Foo", "See [Bar](Bar.md), kmsguard_foo_total and [code](../../pkg/x.go)."), "Bar.md": runbook("Bar", "")},
		},
		{
			name:  "a reason without a runbook",
			files: map[string]string{"README.md": index, "Foo.md": runbook("Foo", "")},
			want:  []string{"reason Bar (a.ConditionReasons, b.ConditionReasons) has no runbook Bar.md", "README.md: links to Bar.md, which is no runbook"},
		},
		{
			name:  "a runbook of no reason",
			files: map[string]string{"README.md": index + "| Baz | [Baz](Baz.md) |\n", "Foo.md": runbook("Foo", ""), "Bar.md": runbook("Bar", ""), "Baz.md": runbook("Baz", "")},
			want:  []string{"Baz.md: no registry lists reason Baz: a stale runbook"},
		},
		{
			name:  "a runbook missing from the index",
			files: map[string]string{"README.md": "| Foo | [Foo](Foo.md) |\nBar is in [Bar](Bar.md), but not in the table.\n", "Foo.md": runbook("Foo", ""), "Bar.md": runbook("Bar", "")},
			want:  []string{"Bar.md: not in the index table of README.md"},
		},
		{
			name:  "no index",
			files: map[string]string{"Foo.md": runbook("Foo", ""), "Bar.md": runbook("Bar", "")},
			want:  []string{"README.md, the index, is missing", "Bar.md: not in the index table of README.md", "Foo.md: not in the index table of README.md"},
		},
		{
			name:  "a wrong title and a missing section",
			files: map[string]string{"README.md": index, "Foo.md": "# Fool\n\n## Meaning\n\n## Confirm\n", "Bar.md": runbook("Bar", "")},
			want:  []string{`Foo.md: the first line is "# Fool", want "# Foo"`, `Foo.md: no section "## What to do" (sections, in order: ## Meaning, ## Confirm, ## What to do, ## What not to do, ## Metrics, ## Related)`},
		},
		{
			name:  "a broken link and an unknown metric",
			files: map[string]string{"README.md": index, "Foo.md": runbook("Foo", "[gone](../../pkg/gone.go), kmsguard_bar_total"), "Bar.md": runbook("Bar", "")},
			want:  []string{"Foo.md: links to ../../pkg/gone.go, which does not exist", "Foo.md: cites metric kmsguard_bar_total, which kmsguard neither registers nor reads"},
		},
		{
			name:  "a file that is no runbook",
			files: map[string]string{"README.md": index, "Foo.md": runbook("Foo", ""), "Bar.md": runbook("Bar", ""), "notes.txt": ""},
			want:  []string{"notes.txt: not a runbook (<Reason>.md)"},
		},
	}
	exists := func(rel string) bool { return rel == "../../pkg/x.go" }
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			got := checkRunbooks(found, s.files, metrics, exists)
			if strings.Join(got, "\n") != strings.Join(s.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(s.want, "\n"))
			}
		})
	}
}
