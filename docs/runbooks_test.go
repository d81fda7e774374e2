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

// runbookSections are the sections every runbook has, in this order: openshift/runbooks' structure. Only
// optionalLastSection may follow them, and nothing may follow it.
var runbookSections = []string{"## Meaning", "## Impact", "## Diagnosis", "## Mitigation"}

// optionalLastSection is the one section a runbook may add after runbookSections, as its last.
const optionalLastSection = "## Related"

// runbookSubsections are the subsections every runbook has, each inside its section: how to see the reason in the
// metrics belongs to its diagnosis, what not to do to its mitigation.
var runbookSubsections = []struct{ heading, section string }{
	{"### Metrics", "## Diagnosis"},
	{"### What not to do", "## Mitigation"},
}

var (
	// markdownLink is the target of a Markdown link.
	markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// metricName is a metric kmsguard registers or reads, as a runbook cites it.
	metricName = regexp.MustCompile(`\b(?:kmsguard|apiserver)_[a-z0-9_]+`)
)

// indexRows returns the rows of an index page's tables by the links in them: each link's row, as its cells.
func indexRows(index string) map[string][]string {
	rows := map[string][]string{}
	for _, line := range strings.Split(index, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		var cells []string
		for _, cell := range strings.Split(strings.Trim(line, "|"), "|") {
			cells = append(cells, strings.TrimSpace(cell))
		}
		for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
			rows[m[1]] = cells
		}
	}
	return rows
}

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
	indexed := indexRows(index)
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
			if _, ok := indexed[name]; !ok {
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

// checkRunbook checks one runbook's title, its sections and their order, and its subsections.
func checkRunbook(name, reason, content string) []string {
	var problems []string
	lines := strings.Split(content, "\n")
	if lines[0] != "# "+reason {
		problems = append(problems, fmt.Sprintf("%s: the first line is %q, want %q", name, lines[0], "# "+reason))
	}
	order := fmt.Sprintf("(sections, in order: %s, then %s if any, last)", strings.Join(runbookSections, ", "), optionalLastSection)
	sections, subsections := headings(lines)
	for i, section := range sections {
		switch {
		case i < len(runbookSections) && section != runbookSections[i]:
			problems = append(problems, fmt.Sprintf("%s: section %d is %q, want %q %s", name, i+1, section, runbookSections[i], order))
		case i == len(runbookSections) && section != optionalLastSection, i > len(runbookSections):
			problems = append(problems, fmt.Sprintf("%s: section %q after %q %s", name, section, sections[i-1], order))
		default:
			continue
		}
		return problems
	}
	if len(sections) < len(runbookSections) {
		problems = append(problems, fmt.Sprintf("%s: no section %q %s", name, runbookSections[len(sections)], order))
		return problems
	}
	for _, want := range runbookSubsections {
		if in, ok := subsections[want.heading]; !ok {
			problems = append(problems, fmt.Sprintf("%s: no subsection %q in %q", name, want.heading, want.section))
		} else if in != want.section {
			problems = append(problems, fmt.Sprintf("%s: subsection %q is in %q, want it in %q", name, want.heading, in, want.section))
		}
	}
	return problems
}

// headings returns a page's sections ("## ") in order, and for each subsection ("### ") the section it is in (its
// first occurrence), leaving out what fenced code blocks hold.
func headings(lines []string) ([]string, map[string]string) {
	var sections []string
	subsections := map[string]string{}
	inCode := false
	for _, line := range lines {
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "```"):
			inCode = !inCode
		case inCode:
		case strings.HasPrefix(line, "## "):
			sections = append(sections, line)
		case strings.HasPrefix(line, "### "):
			if _, seen := subsections[line]; !seen {
				subsections[line] = ""
				if len(sections) > 0 {
					subsections[line] = sections[len(sections)-1]
				}
			}
		}
	}
	return sections, subsections
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
// reason, when the index misses a runbook, when a runbook lacks a section or subsection or has them out of order,
// or when a runbook cites a link or a metric that does not exist.
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
		if e.IsDir() {
			// alerts/ holds the alerts' pages, no reason's runbook: the index links them, and
			// cmd/kmsguard/runbooks_test.go parses their commands.
			continue
		}
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
		return "# " + reason + "\n\n## Meaning\n\n## Impact\n\n## Diagnosis\n\n### Metrics\n\n## Mitigation\n\n### What not to do\n\n## Related\n\n" + body + "\n"
	}
	// page is a runbook of Foo with the given headings, and a line of text under each.
	page := func(headings ...string) string {
		return "# Foo\n\n" + strings.Join(headings, "\n\ntext\n\n") + "\n\ntext\n"
	}
	const order = "(sections, in order: ## Meaning, ## Impact, ## Diagnosis, ## Mitigation, then ## Related if any, last)"
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
			name:  "a wrong title and missing sections",
			files: map[string]string{"README.md": index, "Foo.md": "# Fool\n\n## Meaning\n\n## Impact\n", "Bar.md": runbook("Bar", "")},
			want:  []string{`Foo.md: the first line is "# Fool", want "# Foo"`, `Foo.md: no section "## Diagnosis" ` + order},
		},
		{
			name: "without the optional Related",
			files: map[string]string{"README.md": index, "Bar.md": runbook("Bar", ""),
				"Foo.md": page("## Meaning", "## Impact", "## Diagnosis", "### Metrics", "## Mitigation", "### What not to do")},
		},
		{
			name:  "headings in a code block are no sections",
			files: map[string]string{"README.md": index, "Bar.md": runbook("Bar", ""), "Foo.md": runbook("Foo", "```sh\n## Confirm\n### Metrics\n```")},
		},
		{
			name: "no Impact",
			files: map[string]string{"README.md": index, "Bar.md": runbook("Bar", ""),
				"Foo.md": page("## Meaning", "## Diagnosis", "### Metrics", "## Mitigation", "### What not to do", "## Related")},
			want: []string{`Foo.md: section 2 is "## Diagnosis", want "## Impact" ` + order},
		},
		{
			name: "sections out of order",
			files: map[string]string{"README.md": index, "Bar.md": runbook("Bar", ""),
				"Foo.md": page("## Meaning", "## Diagnosis", "### Metrics", "## Impact", "## Mitigation", "### What not to do")},
			want: []string{`Foo.md: section 2 is "## Diagnosis", want "## Impact" ` + order},
		},
		{
			name: "the old sections",
			files: map[string]string{"README.md": index, "Bar.md": runbook("Bar", ""),
				"Foo.md": page("## Meaning", "## Confirm", "## What to do", "## What not to do", "## Metrics", "## Related")},
			want: []string{`Foo.md: section 2 is "## Confirm", want "## Impact" ` + order},
		},
		{
			name: "Related not last",
			files: map[string]string{"README.md": index, "Bar.md": runbook("Bar", ""),
				"Foo.md": page("## Meaning", "## Impact", "## Diagnosis", "### Metrics", "## Related", "## Mitigation", "### What not to do")},
			want: []string{`Foo.md: section 4 is "## Related", want "## Mitigation" ` + order},
		},
		{
			name: "a section after Related",
			files: map[string]string{"README.md": index, "Bar.md": runbook("Bar", ""),
				"Foo.md": page("## Meaning", "## Impact", "## Diagnosis", "### Metrics", "## Mitigation", "### What not to do", "## Related", "## Metrics")},
			want: []string{`Foo.md: section "## Metrics" after "## Related" ` + order},
		},
		{
			name: "a section other than Related after Mitigation",
			files: map[string]string{"README.md": index, "Bar.md": runbook("Bar", ""),
				"Foo.md": page("## Meaning", "## Impact", "## Diagnosis", "### Metrics", "## Mitigation", "### What not to do", "## What not to do")},
			want: []string{`Foo.md: section "## What not to do" after "## Mitigation" ` + order},
		},
		{
			name: "subsections missing or in the wrong section",
			files: map[string]string{"README.md": index, "Bar.md": runbook("Bar", ""),
				"Foo.md": page("## Meaning", "## Impact", "## Diagnosis", "## Mitigation", "### Metrics")},
			want: []string{
				`Foo.md: subsection "### Metrics" is in "## Mitigation", want it in "## Diagnosis"`,
				`Foo.md: no subsection "### What not to do" in "## Mitigation"`,
			},
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
