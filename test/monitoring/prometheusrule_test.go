package monitoring

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"text/template"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"

	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// runbookBase is where an alert's runbook_url points: each alert has its own runbook,
// docs/runbooks/alerts/<alert>.md in the repository, which links the runbooks of the condition reasons.
const (
	runbookBase = "https://github.com/kmsguard/kmsguard/blob/main/"
	runbookDir  = "docs/runbooks/alerts/"
)

// severities are the values OpenShift's alerting uses.
var severities = sets.New("critical", "warning", "info")

// The test files keep their own short names for the rule file's types.
type (
	prometheusRule = PrometheusRule
	ruleGroup      = RuleGroup
	rule           = Rule
)

// registeredMetrics are the names of the metrics kmsguard's packages register in component-base's legacy
// registry, which the operator serves on /metrics. Each must be created (component-base creates a metric when a
// registry registers it) and registering it again must find the very collector in the legacy registry: a
// metric a package declares but does not register is not served, and no alert may name it.
func registeredMetrics(t *testing.T) sets.Set[string] {
	t.Helper()
	names := sets.New[string]()
	for _, collectors := range [][]metrics.Registerable{
		kmsstate.RegisterMetrics(), kmsmigration.RegisterMetrics(), evidence.RegisterMetrics(), kmsrollback.RegisterMetrics(), kmsrecovery.RegisterMetrics(),
	} {
		for _, c := range collectors {
			// An uncreated metric has no descriptor yet: the Prometheus registry would dereference nil.
			if created, ok := c.(interface{ IsCreated() bool }); !ok || !created.IsCreated() {
				t.Fatalf("%s is not registered in any registry", c.FQName())
			}
			var already prometheus.AlreadyRegisteredError
			if err := legacyregistry.Registerer().Register(c); !errors.As(err, &already) || already.ExistingCollector != c {
				t.Fatalf("%s is not registered in the legacy registry: registering it again gave %v", c.FQName(), err)
			}
			names.Insert(c.FQName())
		}
	}
	return names
}

// selectedMetrics returns the name of every metric expr selects, instant and range selectors alike; a selector
// without a fixed name (a regular expression on __name__, or none) is an error: nothing could check it.
func selectedMetrics(expr parser.Expr) ([]string, error) {
	var names []string
	var errs []error
	parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
		vs, ok := node.(*parser.VectorSelector)
		if !ok {
			return nil
		}
		name := vs.Name
		for _, m := range vs.LabelMatchers {
			if name == "" && m.Name == model.MetricNameLabel && m.Type == labels.MatchEqual {
				name = m.Value
			}
		}
		if name == "" {
			errs = append(errs, fmt.Errorf("%s selects no fixed metric name", vs))
			return nil
		}
		names = append(names, name)
		return nil
	})
	return names, errors.Join(errs...)
}

// templateDefs are the variables Prometheus defines before it expands an annotation.
const templateDefs = "{{$labels := .Labels}}{{$externalLabels := .ExternalLabels}}{{$externalURL := .ExternalURL}}{{$value := .Value}}"

// checkAlert returns what is wrong with one alert: its expression does not parse, selects a metric kmsguard does
// not register or none at all; its "for:" is missing or no duration; it has no severity, summary or
// description; an annotation is no valid template (Prometheus's functions are not known here, so annotations use
// only $labels and $value); its runbook_url is not its own runbook, docs/runbooks/alerts/<alert>.md of this
// repository, or that page does not exist in root.
func checkAlert(r rule, registered sets.Set[string], root fs.FS) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if r.Alert == "" || r.Record != "" {
		fail("not an alert (alert %q, record %q)", r.Alert, r.Record)
	}
	if expr, err := parser.ParseExpr(r.Expr); err != nil {
		fail("expr %q: %v", r.Expr, err)
	} else {
		names, err := selectedMetrics(expr)
		if err != nil {
			fail("expr %q: %v", r.Expr, err)
		}
		if len(names) == 0 && err == nil {
			fail("expr %q selects no metric", r.Expr)
		}
		for _, name := range names {
			if !registered.Has(name) {
				fail("expr %q selects %s, which kmsguard does not register (it registers %v)", r.Expr, name, sets.List(registered))
			}
		}
	}
	if r.For == "" {
		fail("no for: (write 0m to fire at once)")
	} else if _, err := model.ParseDuration(r.For); err != nil {
		fail("for: %v", err)
	}
	if !severities.Has(r.Labels["severity"]) {
		fail("severity %q, want one of %v", r.Labels["severity"], sets.List(severities))
	}
	for _, key := range []string{"summary", "description", "runbook_url"} {
		if strings.TrimSpace(r.Annotations[key]) == "" {
			fail("no %s annotation", key)
		}
	}
	for key, text := range r.Annotations {
		if _, err := template.New(key).Option("missingkey=zero").Parse(templateDefs + text); err != nil {
			fail("annotation %s: %v", key, err)
		}
	}
	if url := r.Annotations["runbook_url"]; url != "" {
		page := runbookDir + r.Alert + ".md"
		if url != runbookBase+page {
			fail("runbook_url %q is not the alert's own runbook %s%s", url, runbookBase, page)
		} else if _, err := fs.Stat(root, page); err != nil {
			fail("runbook_url %q: %v", url, err)
		}
	}
	return errs
}

// checkPrometheusRule returns what is wrong with a PrometheusRule: the object itself, unnamed or repeated group
// names, repeated alert names, and every alert's own faults, each prefixed with the alert's name.
func checkPrometheusRule(pr *prometheusRule, registered sets.Set[string], root fs.FS) []error {
	var errs []error
	if pr.Kind != "PrometheusRule" || pr.APIVersion != "monitoring.coreos.com/v1" || pr.Name == "" || pr.Namespace != "openshift-kube-apiserver-operator" {
		errs = append(errs, fmt.Errorf("not a named monitoring.coreos.com/v1 PrometheusRule in openshift-kube-apiserver-operator: %s %s/%s", pr.GroupVersionKind(), pr.Namespace, pr.Name))
	}
	groups, alerts := sets.New[string](), sets.New[string]()
	for _, g := range pr.Spec.Groups {
		if g.Name == "" || groups.Has(g.Name) {
			errs = append(errs, fmt.Errorf("group name %q is empty or not unique", g.Name))
		}
		groups.Insert(g.Name)
		if len(g.Rules) == 0 {
			errs = append(errs, fmt.Errorf("group %q has no rules", g.Name))
		}
		for _, r := range g.Rules {
			if alerts.Has(r.Alert) {
				errs = append(errs, fmt.Errorf("alert %s: the name is not unique", r.Alert))
			}
			alerts.Insert(r.Alert)
			for _, err := range checkAlert(r, registered, root) {
				errs = append(errs, fmt.Errorf("alert %s: %w", r.Alert, err))
			}
		}
	}
	if alerts.Len() == 0 {
		errs = append(errs, errors.New("no alerts"))
	}
	return errs
}

// TestPrometheusRule checks the embedded rules against what kmsguard registers and the alerts' runbooks in the
// repository (../../docs/runbooks/alerts).
func TestPrometheusRule(t *testing.T) {
	pr, err := ReadPrometheusRule()
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range checkPrometheusRule(pr, registeredMetrics(t), os.DirFS(filepath.Join("..", ".."))) {
		t.Error(err)
	}
}

// TestCheckPrometheusRule: each fault the checks are for is found, and named, in a rule file that is otherwise
// valid.
func TestCheckPrometheusRule(t *testing.T) {
	registered := registeredMetrics(t)
	root := fstest.MapFS{
		"docs/runbooks/alerts/KMSPluginUnreachable.md": {Data: []byte("# KMSPluginUnreachable\n")},
		"docs/runbooks/alerts/KMSPluginUnhealthy.md":   {Data: []byte("# KMSPluginUnhealthy\n")},
		"docs/runbooks/PluginUnreachable.md":           {Data: []byte("# PluginUnreachable\n")},
	}
	valid := func() rule {
		return rule{
			Alert:  "KMSPluginUnreachable",
			Expr:   `max by (node) (kmsguard_kms_plugin_state{state="Unreachable"}) == 1 unless on (node) time() - kmsguard_kms_plugin_last_report_timestamp_seconds > 120`,
			For:    "2m",
			Labels: map[string]string{"severity": "critical"},
			Annotations: map[string]string{
				"summary":     "The plugin on {{ $labels.node }} does not answer.",
				"description": "It has not answered for {{ $value }} reports.",
				"runbook_url": runbookBase + runbookDir + "KMSPluginUnreachable.md",
			},
		}
	}
	scenarios := []struct {
		name    string
		change  func(pr *prometheusRule)
		wantErr []string
	}{
		{name: "valid", change: func(*prometheusRule) {}},
		{
			name: "misspelled metric",
			change: func(pr *prometheusRule) {
				pr.Spec.Groups[0].Rules[0].Expr = `kmsguard_kms_plugin_sate{state="Unreachable"} == 1`
			},
			wantErr: []string{"alert KMSPluginUnreachable: expr", "selects kmsguard_kms_plugin_sate, which kmsguard does not register"},
		},
		{
			name: "a metric of another component",
			change: func(pr *prometheusRule) {
				pr.Spec.Groups[0].Rules[0].Expr = `rate(apiserver_storage_transformation_operations_total[5m]) > 0`
			},
			wantErr: []string{"selects apiserver_storage_transformation_operations_total, which kmsguard does not register"},
		},
		{
			name: "expression that does not parse",
			change: func(pr *prometheusRule) {
				pr.Spec.Groups[0].Rules[0].Expr = `sum by (node (kmsguard_kms_plugin_healthy) == 0`
			},
			wantErr: []string{`alert KMSPluginUnreachable: expr "sum by (node (kmsguard_kms_plugin_healthy) == 0": 1:`},
		},
		{
			name:    "a selector without a fixed name",
			change:  func(pr *prometheusRule) { pr.Spec.Groups[0].Rules[0].Expr = `{__name__=~"kmsguard_kms_.*"} == 0` },
			wantErr: []string{"selects no fixed metric name"},
		},
		{
			name:    "no metric at all",
			change:  func(pr *prometheusRule) { pr.Spec.Groups[0].Rules[0].Expr = `vector(1) > 0` },
			wantErr: []string{"selects no metric"},
		},
		{
			name: "an alert without its page",
			change: func(pr *prometheusRule) {
				r := &pr.Spec.Groups[0].Rules[0]
				r.Alert = "KMSPluginGone"
				r.Annotations["runbook_url"] = runbookBase + runbookDir + "KMSPluginGone.md"
			},
			wantErr: []string{"alert KMSPluginGone: runbook_url", "KMSPluginGone.md", "file does not exist"},
		},
		{
			name: "the page of another alert",
			change: func(pr *prometheusRule) {
				pr.Spec.Groups[0].Rules[0].Annotations["runbook_url"] = runbookBase + runbookDir + "KMSPluginUnhealthy.md"
			},
			wantErr: []string{"is not the alert's own runbook " + runbookBase + runbookDir + "KMSPluginUnreachable.md"},
		},
		{
			name: "a condition reason's runbook",
			change: func(pr *prometheusRule) {
				pr.Spec.Groups[0].Rules[0].Annotations["runbook_url"] = runbookBase + "docs/runbooks/PluginUnreachable.md"
			},
			wantErr: []string{"is not the alert's own runbook " + runbookBase + runbookDir + "KMSPluginUnreachable.md"},
		},
		{
			name: "runbook elsewhere",
			change: func(pr *prometheusRule) {
				pr.Spec.Groups[0].Rules[0].Annotations["runbook_url"] = "https://example.com/runbooks/KMSPluginUnreachable.md"
			},
			wantErr: []string{"is not the alert's own runbook " + runbookBase + runbookDir + "KMSPluginUnreachable.md"},
		},
		{
			name: "no severity, summary nor description",
			change: func(pr *prometheusRule) {
				r := &pr.Spec.Groups[0].Rules[0]
				r.Labels = nil
				r.Annotations["summary"] = ""
				delete(r.Annotations, "description")
			},
			wantErr: []string{`severity ""`, "no summary annotation", "no description annotation"},
		},
		{
			name: "broken template",
			change: func(pr *prometheusRule) {
				pr.Spec.Groups[0].Rules[0].Annotations["summary"] = "plugin on {{ $labels.node }"
			},
			wantErr: []string{"annotation summary:"},
		},
		{
			name:    "no for",
			change:  func(pr *prometheusRule) { pr.Spec.Groups[0].Rules[0].For = "" },
			wantErr: []string{"no for:"},
		},
		{
			name:    "for that is no duration",
			change:  func(pr *prometheusRule) { pr.Spec.Groups[0].Rules[0].For = "2 minutes" },
			wantErr: []string{`for: unknown unit " minutes"`},
		},
		{
			name: "duplicate alert",
			change: func(pr *prometheusRule) {
				pr.Spec.Groups = append(pr.Spec.Groups, ruleGroup{Name: "more", Rules: []rule{valid()}})
			},
			wantErr: []string{"alert KMSPluginUnreachable: the name is not unique"},
		},
		{
			name:    "wrong namespace",
			change:  func(pr *prometheusRule) { pr.Namespace = "openshift-monitoring" },
			wantErr: []string{"openshift-monitoring/kmsguard"},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			pr := &prometheusRule{
				TypeMeta:   metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: "PrometheusRule"},
				ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-kube-apiserver-operator", Name: "kmsguard"},
			}
			pr.Spec.Groups = []ruleGroup{{Name: "kms", Rules: []rule{valid()}}}
			s.change(pr)
			errs := errors.Join(checkPrometheusRule(pr, registered, root)...)
			if len(s.wantErr) == 0 {
				if errs != nil {
					t.Fatalf("errors for a valid rule:\n%v", errs)
				}
				return
			}
			if errs == nil {
				t.Fatalf("no error, want one containing %q", s.wantErr)
			}
			for _, want := range s.wantErr {
				if !strings.Contains(errs.Error(), want) {
					t.Errorf("errors do not contain %q:\n%v", want, errs)
				}
			}
		})
	}
}

// criticalAlerts are the only alerts that page, each with what the cluster as a whole loses (OpenShift's alerting
// conventions keep critical for loss of service or data of the cluster, not of one node or component).
var criticalAlerts = map[string]string{
	"KMSFailingOnEveryNode":   "no kube-apiserver can write encrypted resources",
	"KMSUndecryptableObjects": "stored objects cannot be read: data lost to every reader",
}

// TestOnlyClusterWideLossPages: an alert is critical exactly when criticalAlerts names it, and a critical alert
// does not keep a node label: one node's fault leaves the others serving.
func TestOnlyClusterWideLossPages(t *testing.T) {
	pr, err := ReadPrometheusRule()
	if err != nil {
		t.Fatal(err)
	}
	seen := sets.New[string]()
	for _, g := range pr.Spec.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" {
				continue
			}
			seen.Insert(r.Alert)
			why, critical := criticalAlerts[r.Alert]
			switch {
			case critical && r.Labels["severity"] != "critical":
				t.Errorf("%s is %q, want critical: %s", r.Alert, r.Labels["severity"], why)
			case !critical && r.Labels["severity"] == "critical":
				t.Errorf("%s is critical, but the cluster as a whole loses no service or data by it: make it a warning, or say in criticalAlerts what is lost", r.Alert)
			case critical && strings.Contains(r.Annotations["summary"]+r.Annotations["description"], "$labels.node"):
				t.Errorf("%s is critical but speaks of one node", r.Alert)
			}
		}
	}
	for name := range criticalAlerts {
		if !seen.Has(name) {
			t.Errorf("criticalAlerts names %s, which is no alert", name)
		}
	}
}
