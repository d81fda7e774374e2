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
	"unicode"

	"sigs.k8s.io/yaml"
)

// The alert runbooks, docs/runbooks/alerts, keep to kmsguard's PrometheusRule: one page per alert, named after it,
// with the sections openshift/runbooks uses, in an index that gives each alert's severity as the rule does, and
// linking the runbooks of the condition reasons (docs/runbooks/<Reason>.md) for the details.

const (
	// alertDir holds one page per alert, <Alert>.md, and the index, README.md.
	alertDir = "runbooks/alerts"
	// ruleFile is the PrometheusRule whose alerts the pages answer to.
	ruleFile = "../bindata/monitoring/kmsguard-prometheusrule.yaml"
)

// alertPageSections are the second-level headings of every alert page: exactly these, in this order.
var alertPageSections = []string{"## Meaning", "## Impact", "## Diagnosis", "## Mitigation"}

var (
	// kmsguardMetric is a metric of kmsguard's own, as a page cites it. Pages cite kube-apiserver's and etcd's
	// metrics in PromQL too; those are not kmsguard's to check.
	kmsguardMetric = regexp.MustCompile(`\bkmsguard_[a-z0-9_]+`)
	// reasonRunbook is a link to the runbook of a condition reason, one directory up.
	reasonRunbook = regexp.MustCompile(`^\.\./[A-Za-z]+\.md$`)
)

// alertRule is one alert of the PrometheusRule.
type alertRule struct {
	name, severity string
}

// readLinked reads the target of a relative link of an alert page, a path relative to docs/runbooks/alerts that
// leads out of it: ok is false when there is no such file or directory; content is the file's text.
type readLinked func(rel string) (content string, ok bool)

// checkAlertPages returns what is wrong with the alert pages, files by name (README.md is the index, the one file
// that is no alert's page), against the alerts of the rule file and the metrics kmsguard registers. Links within
// the directory are resolved in files, the others with read; a link's #fragment must name a heading of a
// Markdown target.
func checkAlertPages(alerts []alertRule, files map[string]string, metrics map[string]bool, read readLinked) []string {
	var problems []string
	severity := map[string]string{}
	for _, a := range alerts {
		severity[a.name] = a.severity
	}
	for _, a := range alerts {
		if _, ok := files[a.name+".md"]; !ok {
			problems = append(problems, fmt.Sprintf("alert %s (%s) has no page %s.md", a.name, a.severity, a.name))
		}
	}
	index, ok := files["README.md"]
	if !ok {
		problems = append(problems, "README.md, the index, is missing")
	}
	// indexed are the cells of the index's table row of each page it links.
	indexed := indexRows(index)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		content := files[name]
		if name != "README.md" {
			alert, isMarkdown := strings.CutSuffix(name, ".md")
			switch {
			case !isMarkdown:
				problems = append(problems, name+": not an alert page (<Alert>.md)")
				continue
			case severity[alert] == "":
				problems = append(problems, fmt.Sprintf("%s: no alert %s in the rule file: a stale page", name, alert))
			}
			problems = append(problems, checkAlertPage(name, alert, content)...)
			switch cells, ok := indexed[name]; {
			case !ok:
				problems = append(problems, name+": not in the index table of README.md")
			case severity[alert] != "" && !slices.Contains(cells, severity[alert]):
				problems = append(problems, fmt.Sprintf("%s: the index row %q does not give the rule's severity %s", name, strings.Join(cells, " | "), severity[alert]))
			}
		}
		for _, m := range markdownLink.FindAllStringSubmatch(content, -1) {
			if p := checkLink(name, m[1], files, read); p != "" {
				problems = append(problems, p)
			}
		}
		for _, metric := range kmsguardMetric.FindAllString(content, -1) {
			if !metrics[metric] {
				problems = append(problems, fmt.Sprintf("%s: cites metric %s, which kmsguard does not register", name, metric))
			}
		}
	}
	return problems
}

// checkAlertPage checks one page's title, its sections and its link to a condition reason's runbook.
func checkAlertPage(name, alert, content string) []string {
	var problems []string
	if first, _, _ := strings.Cut(content, "\n"); first != "# "+alert {
		problems = append(problems, fmt.Sprintf("%s: the first line is %q, want %q", name, first, "# "+alert))
	}
	var sections []string
	for _, line := range outsideCodeBlocks(content) {
		if strings.HasPrefix(line, "## ") {
			sections = append(sections, strings.TrimRight(line, " "))
		}
	}
	if !slices.Equal(sections, alertPageSections) {
		problems = append(problems, fmt.Sprintf("%s: sections %q, want exactly %q", name, sections, alertPageSections))
	}
	if !slices.ContainsFunc(markdownLink.FindAllStringSubmatch(content, -1), func(m []string) bool {
		target, _, _ := strings.Cut(m[1], "#")
		return reasonRunbook.MatchString(target) && target != "../README.md"
	}) {
		problems = append(problems, name+": links no runbook of a condition reason (../<Reason>.md)")
	}
	return problems
}

// checkLink returns what is wrong with one link of a file of the directory, "" when nothing is.
func checkLink(name, link string, files map[string]string, read readLinked) string {
	target, fragment, hasFragment := strings.Cut(link, "#")
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	var content string
	switch {
	case target == "":
		content = files[name]
	case !strings.Contains(target, "/"):
		c, ok := files[target]
		if !ok {
			return fmt.Sprintf("%s: links to %s, which is no file of %s", name, target, alertDir)
		}
		content = c
	default:
		c, ok := read(target)
		if !ok {
			return fmt.Sprintf("%s: links to %s, which does not exist", name, target)
		}
		content = c
	}
	if hasFragment && (target == "" || strings.HasSuffix(target, ".md")) && !headingAnchors(content)[fragment] {
		return fmt.Sprintf("%s: links to %s, whose target has no heading #%s", name, link, fragment)
	}
	return ""
}

// outsideCodeBlocks returns the lines of a Markdown text that are not in a fenced code block.
func outsideCodeBlocks(content string) []string {
	var lines []string
	inCode := false
	for _, line := range strings.Split(content, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if !inCode {
			lines = append(lines, line)
		}
	}
	return lines
}

// headingAnchors are the fragments that lead to the headings of a Markdown text, as GitHub makes them: the
// heading's text in lower case, without punctuation, blanks turned into hyphens.
func headingAnchors(content string) map[string]bool {
	anchors := map[string]bool{}
	for _, line := range outsideCodeBlocks(content) {
		text := strings.TrimLeft(line, "#")
		if text == line || !strings.HasPrefix(text, " ") {
			continue
		}
		var anchor strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(text)) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				anchor.WriteRune(r)
			case r == ' ':
				anchor.WriteRune('-')
			}
		}
		anchors[anchor.String()] = true
	}
	return anchors
}

// ruleAlerts reads the alerts of the PrometheusRule, with their severities.
func ruleAlerts(t *testing.T) []alertRule {
	t.Helper()
	data, err := os.ReadFile(ruleFile)
	if err != nil {
		t.Fatal(err)
	}
	var rule struct {
		Spec struct {
			Groups []struct {
				Rules []struct {
					Alert  string            `json:"alert"`
					Labels map[string]string `json:"labels"`
				} `json:"rules"`
			} `json:"groups"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(data, &rule); err != nil {
		t.Fatalf("%s: %v", ruleFile, err)
	}
	var alerts []alertRule
	for _, g := range rule.Spec.Groups {
		for _, r := range g.Rules {
			if r.Alert != "" {
				alerts = append(alerts, alertRule{name: r.Alert, severity: r.Labels["severity"]})
			}
		}
	}
	if len(alerts) == 0 {
		t.Fatalf("%s has no alerts: the rule file is not read", ruleFile)
	}
	return alerts
}

// TestAlertRunbooks fails when an alert of the PrometheusRule has no page in docs/runbooks/alerts, when a page
// names no alert, when a page's title or sections are not those of an alert runbook, when the index misses a page
// or gives another severity than the rule, or when a page cites a link, a heading or a kmsguard metric that does
// not exist.
func TestAlertRunbooks(t *testing.T) {
	alerts := ruleAlerts(t)
	entries, err := os.ReadDir(alertDir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		if e.IsDir() {
			files[e.Name()+"/"] = ""
			continue
		}
		data, err := os.ReadFile(filepath.Join(alertDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(data)
	}
	read := func(rel string) (string, bool) {
		p := filepath.Join(alertDir, filepath.FromSlash(path.Clean(rel)))
		info, err := os.Stat(p)
		if err != nil {
			return "", false
		}
		if info.IsDir() {
			return "", true
		}
		data, err := os.ReadFile(p)
		return string(data), err == nil
	}
	for _, p := range checkAlertPages(alerts, files, metricNames(), read) {
		t.Error(p)
	}
}

func TestCheckAlertPages(t *testing.T) {
	page := func(alert, body string) string {
		return "# " + alert + "\n\n" + strings.Join(alertPageSections, "\n\nSee [Reason](../Reason.md).\n\n") + "\n\n" + body + "\n"
	}
	index := "| Alert | Severity | Runbook |\n| --- | --- | --- |\n| Foo | warning | [Foo](Foo.md) |\n| Bar | critical | [Bar](Bar.md) |\n"
	alerts := []alertRule{{name: "Foo", severity: "warning"}, {name: "Bar", severity: "critical"}}
	metrics := map[string]bool{"kmsguard_foo_total": true}
	outside := map[string]string{
		"../Reason.md": "# Reason\n\n## Meaning\n",
		"../README.md": "# Runbooks\n\n## etcd access for kmsguard verify\n",
		"../../../pkg": "",
	}
	read := func(rel string) (string, bool) {
		content, ok := outside[rel]
		return content, ok
	}
	scenarios := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name: "every alert has an indexed page",
			files: map[string]string{
				"README.md": index,
				"Foo.md": page("Foo", "See [Bar](Bar.md#impact), [etcd access](../README.md#etcd-access-for-kmsguard-verify), "+
					"[the code](../../../pkg), [above](#diagnosis), kmsguard_foo_total, apiserver_request_total and "+
					"[openshift/runbooks](https://github.com/openshift/runbooks).\n\n```sh\n## a comment, no section\n```"),
				"Bar.md": page("Bar", ""),
			},
		},
		{
			name:  "an alert without a page",
			files: map[string]string{"README.md": index, "Foo.md": page("Foo", "")},
			want:  []string{"alert Bar (critical) has no page Bar.md", "README.md: links to Bar.md, which is no file of runbooks/alerts"},
		},
		{
			name:  "a page of no alert",
			files: map[string]string{"README.md": index + "| Baz | warning | [Baz](Baz.md) |\n", "Foo.md": page("Foo", ""), "Bar.md": page("Bar", ""), "Baz.md": page("Baz", "")},
			want:  []string{"Baz.md: no alert Baz in the rule file: a stale page"},
		},
		{
			name:  "a wrong title",
			files: map[string]string{"README.md": index, "Foo.md": page("Fool", ""), "Bar.md": page("Bar", "")},
			want:  []string{`Foo.md: the first line is "# Fool", want "# Foo"`},
		},
		{
			name: "a missing section, sections out of order, and a section too many",
			files: map[string]string{
				"README.md": index,
				"Foo.md":    "# Foo\n\n## Meaning\n\n[Reason](../Reason.md)\n\n## Diagnosis\n\n## Mitigation\n",
				"Bar.md":    "# Bar\n\n## Meaning\n\n[Reason](../Reason.md)\n\n## Diagnosis\n\n## Impact\n\n## Mitigation\n\n## Related\n",
			},
			want: []string{
				`Bar.md: sections ["## Meaning" "## Diagnosis" "## Impact" "## Mitigation" "## Related"], want exactly ["## Meaning" "## Impact" "## Diagnosis" "## Mitigation"]`,
				`Foo.md: sections ["## Meaning" "## Diagnosis" "## Mitigation"], want exactly ["## Meaning" "## Impact" "## Diagnosis" "## Mitigation"]`,
			},
		},
		{
			name: "no link to a condition reason's runbook",
			files: map[string]string{
				"README.md": index,
				"Foo.md":    "# Foo\n\n" + strings.Join(alertPageSections, "\n\n") + "\n\nSee [the index](../README.md) and [Bar](Bar.md).\n",
				"Bar.md":    page("Bar", ""),
			},
			want: []string{"Foo.md: links no runbook of a condition reason (../<Reason>.md)"},
		},
		{
			name:  "a page missing from the index table",
			files: map[string]string{"README.md": "| Foo | warning | [Foo](Foo.md) |\n\nBar is in [Bar](Bar.md), but not in the table.\n", "Foo.md": page("Foo", ""), "Bar.md": page("Bar", "")},
			want:  []string{"Bar.md: not in the index table of README.md"},
		},
		{
			name:  "an index that gives another severity",
			files: map[string]string{"README.md": strings.Replace(index, "critical", "warning", 1), "Foo.md": page("Foo", ""), "Bar.md": page("Bar", "")},
			want:  []string{`Bar.md: the index row "Bar | warning | [Bar](Bar.md)" does not give the rule's severity critical`},
		},
		{
			name:  "no index",
			files: map[string]string{"Foo.md": page("Foo", ""), "Bar.md": page("Bar", "")},
			want:  []string{"README.md, the index, is missing", "Bar.md: not in the index table of README.md", "Foo.md: not in the index table of README.md"},
		},
		{
			name: "broken links, a heading that is not there, and an unknown metric",
			files: map[string]string{
				"README.md": index,
				"Foo.md":    page("Foo", "[gone](../Gone.md), [code](../../../pkg/gone.go), [a section](../README.md#etcd-access), [here](#confirm), kmsguard_bar_total"),
				"Bar.md":    page("Bar", "[Foo's impact](Foo.md#what-is-lost)"),
			},
			want: []string{
				"Bar.md: links to Foo.md#what-is-lost, whose target has no heading #what-is-lost",
				"Foo.md: links to ../Gone.md, which does not exist",
				"Foo.md: links to ../../../pkg/gone.go, which does not exist",
				"Foo.md: links to ../README.md#etcd-access, whose target has no heading #etcd-access",
				"Foo.md: links to #confirm, whose target has no heading #confirm",
				"Foo.md: cites metric kmsguard_bar_total, which kmsguard does not register",
			},
		},
		{
			name:  "a file that is no alert page",
			files: map[string]string{"README.md": index, "Foo.md": page("Foo", ""), "Bar.md": page("Bar", ""), "notes.txt": "", "img/": ""},
			want:  []string{"img/: not an alert page (<Alert>.md)", "notes.txt: not an alert page (<Alert>.md)"},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			got := checkAlertPages(alerts, s.files, metrics, read)
			if strings.Join(got, "\n") != strings.Join(s.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(s.want, "\n"))
			}
		})
	}
}
