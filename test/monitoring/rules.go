// Package monitoring reads kmsguard's PrometheusRule (bindata/monitoring): its tests check the rules against the
// metrics kmsguard registers and evaluate each alert over series, and the tour (test/lab/tour) evaluates the
// alerts over what the lab's operator exported.
package monitoring

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
	"github.com/prometheus/prometheus/rules"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/kmsguard/kmsguard/bindata"
)

// PrometheusRule is the part of a monitoring.coreos.com/v1 PrometheusRule that holds alerts. It is read strictly,
// so a misspelled field ("annotation", "labels" under the group) fails instead of being dropped.
type PrometheusRule struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		Groups []RuleGroup `json:"groups"`
	} `json:"spec"`
}

// RuleGroup is one group of rules.
type RuleGroup struct {
	Name  string `json:"name"`
	Rules []Rule `json:"rules"`
}

// Rule is one alerting (Alert) or recording (Record) rule.
type Rule struct {
	Alert       string            `json:"alert,omitempty"`
	Record      string            `json:"record,omitempty"`
	Expr        string            `json:"expr"`
	For         string            `json:"for,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// ReadPrometheusRule reads the embedded PrometheusRule strictly.
func ReadPrometheusRule() (*PrometheusRule, error) {
	pr := &PrometheusRule{}
	if err := yaml.UnmarshalStrict(bindata.MustAsset(bindata.PrometheusRule), pr); err != nil {
		return nil, fmt.Errorf("reading %s: %w", bindata.PrometheusRule, err)
	}
	return pr, nil
}

// AlertingRule is r as Prometheus's rule engine evaluates it: a new rule, with no alert active, at every call.
func (r Rule) AlertingRule() (*rules.AlertingRule, error) {
	expr, err := parser.ParseExpr(r.Expr)
	if err != nil {
		return nil, fmt.Errorf("alert %s: %w", r.Alert, err)
	}
	var hold model.Duration
	if r.For != "" {
		if hold, err = model.ParseDuration(r.For); err != nil {
			return nil, fmt.Errorf("alert %s: for: %w", r.Alert, err)
		}
	}
	return rules.NewAlertingRule(r.Alert, expr, time.Duration(hold), 0, labels.FromMap(r.Labels), labels.FromMap(r.Annotations),
		labels.EmptyLabels(), "", true, slog.New(slog.DiscardHandler)), nil
}
