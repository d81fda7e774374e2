package tour

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/value"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/rules"
	"github.com/prometheus/prometheus/tsdb"

	"github.com/kmsguard/kmsguard/bindata"
	"github.com/kmsguard/kmsguard/test/monitoring"
)

// Alerts evaluates kmsguard's alerting rules (bindata/monitoring) with Prometheus's own rule engine over what the
// operator's metrics said while the tour ran: every Interval it gathers them, stores the samples in an in-memory
// TSDB as a scrape would (a series that is gone gets a staleness marker) and evaluates each rule at that time. It
// records when each alert went pending and when it fired, so that a story can say which alerts its fault raised,
// and a calm story that none did.
type Alerts struct {
	gatherer prometheus.Gatherer
	interval time.Duration
	db       *tsdb.DB
	query    rules.QueryFunc
	rules    []*rules.AlertingRule

	mu     sync.Mutex
	seen   map[string]labels.Labels // series written at the last gather, by their labels' string
	events []AlertEvent
	// state is each alert active at the last evaluation, by rule and labels, with its state: to record each change
	// once.
	state map[string]rules.AlertState
}

// evaluationFailed names the events of a gather or evaluation that failed: the alerts were not evaluated then.
const evaluationFailed = "evaluation failed"

// AlertEvent is an alert that went pending, or fired, at At.
type AlertEvent struct {
	Alert  string
	Labels string
	State  string
	At     time.Time
}

// AlertRules reads the alerting rules of kmsguard's PrometheusRule.
func AlertRules() ([]*rules.AlertingRule, error) {
	pr, err := monitoring.ReadPrometheusRule()
	if err != nil {
		return nil, err
	}
	var out []*rules.AlertingRule
	for _, g := range pr.Spec.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" {
				continue
			}
			alert, err := r.AlertingRule()
			if err != nil {
				return nil, err
			}
			out = append(out, alert)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no alerting rule", bindata.PrometheusRule)
	}
	return out, nil
}

// NewAlerts evaluates alertRules over what gatherer gathers every interval once Run runs; dir holds the TSDB.
func NewAlerts(gatherer prometheus.Gatherer, alertRules []*rules.AlertingRule, interval time.Duration, dir string) (*Alerts, error) {
	opts := tsdb.DefaultOptions()
	opts.RetentionDuration = int64(24 * time.Hour / time.Millisecond)
	db, err := tsdb.Open(dir, slog.New(slog.DiscardHandler), nil, opts, nil)
	if err != nil {
		return nil, err
	}
	engine := promql.NewEngine(promql.EngineOpts{MaxSamples: 1_000_000, Timeout: time.Minute, LookbackDelta: 5 * time.Minute})
	return &Alerts{gatherer: gatherer, interval: interval, db: db, query: rules.EngineQueryFunc(engine, db), rules: alertRules,
		seen: map[string]labels.Labels{}, state: map[string]rules.AlertState{}}, nil
}

// StartAlerts evaluates kmsguard's alerting rules (AlertRules) over what gatherer gathers every interval, with the
// TSDB in dir, until the returned stop is called, which returns once the evaluation has ended.
func StartAlerts(ctx context.Context, gatherer prometheus.Gatherer, interval time.Duration, dir string) (*Alerts, func(), error) {
	alertRules, err := AlertRules()
	if err != nil {
		return nil, nil, err
	}
	alerts, err := NewAlerts(gatherer, alertRules, interval, dir)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		alerts.Run(ctx)
	}()
	return alerts, func() {
		cancel()
		<-done
	}, nil
}

// Run gathers and evaluates every interval until ctx ends, then closes the TSDB. A failed gather or evaluation
// is recorded as an event of the pseudo-alert evaluationFailed, which the story's ALERTS cell then shows.
func (a *Alerts) Run(ctx context.Context) {
	defer a.db.Close()
	ticker := time.NewTicker(a.interval)
	defer ticker.Stop()
	for {
		if err := a.Step(ctx, time.Now()); err != nil {
			a.mu.Lock()
			a.events = append(a.events, AlertEvent{Alert: evaluationFailed, State: "error: " + err.Error(), At: time.Now()})
			a.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// Step gathers once, stores the samples at now and evaluates every rule at now.
func (a *Alerts) Step(ctx context.Context, now time.Time) error {
	families, err := a.gatherer.Gather()
	if err != nil && len(families) == 0 {
		return fmt.Errorf("gathering metrics: %w", err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	ts := now.UnixMilli()
	app := a.db.Appender(ctx)
	current := map[string]labels.Labels{}
	for _, s := range samplesOf(families) {
		current[s.labels.String()] = s.labels
		if _, err := app.Append(0, s.labels, ts, s.value); err != nil {
			_ = app.Rollback()
			return fmt.Errorf("storing %s: %w", s.labels, err)
		}
	}
	// A series that is gone ends as a scrape ends it: a staleness marker, so that the rules stop seeing it at once.
	for key, lbls := range a.seen {
		if _, ok := current[key]; !ok {
			if _, err := app.Append(0, lbls, ts, math.Float64frombits(value.StaleNaN)); err != nil {
				_ = app.Rollback()
				return err
			}
		}
	}
	if err := app.Commit(); err != nil {
		return err
	}
	a.seen = current
	active := map[string]rules.AlertState{}
	for _, r := range a.rules {
		if _, err := r.Eval(ctx, 0, now, a.query, nil, 0); err != nil {
			return fmt.Errorf("alert %s: %w", r.Name(), err)
		}
		for _, alert := range r.ActiveAlerts() {
			key := r.Name() + alert.Labels.String()
			active[key] = alert.State
			if a.state[key] != alert.State {
				a.events = append(a.events, AlertEvent{Alert: r.Name(), Labels: describeAlertLabels(alert.Labels), State: alert.State.String(), At: now})
			}
		}
	}
	// Alerts that resolved are forgotten, so that their next pending is recorded again.
	a.state = active
	return nil
}

// Between returns the events from since to until, in order.
func (a *Alerts) Between(since, until time.Time) []AlertEvent {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []AlertEvent
	for _, e := range a.events {
		if !e.At.Before(since) && !e.At.After(until) {
			out = append(out, e)
		}
	}
	return out
}

// describeAlertLabels keeps the labels that say where: node, key id, resource, reason.
func describeAlertLabels(l labels.Labels) string {
	var parts []string
	for _, name := range []string{"node", "key_id", "resource", "reason"} {
		if v := l.Get(name); v != "" {
			parts = append(parts, name+"="+v)
		}
	}
	return strings.Join(parts, ",")
}

type sample struct {
	labels labels.Labels
	value  float64
}

// samplesOf flattens gathered families into samples as a scrape stores them: gauges, counters and untyped values
// under the family's name. Summaries and histograms are left out: no rule reads them.
func samplesOf(families []*dto.MetricFamily) []sample {
	var out []sample
	for _, f := range families {
		for _, m := range f.GetMetric() {
			var v float64
			switch f.GetType() {
			case dto.MetricType_GAUGE:
				v = m.GetGauge().GetValue()
			case dto.MetricType_COUNTER:
				v = m.GetCounter().GetValue()
			case dto.MetricType_UNTYPED:
				v = m.GetUntyped().GetValue()
			default:
				continue
			}
			b := labels.NewScratchBuilder(len(m.GetLabel()) + 1)
			b.Add(model.MetricNameLabel, f.GetName())
			for _, lp := range m.GetLabel() {
				b.Add(lp.GetName(), lp.GetValue())
			}
			b.Sort()
			out = append(out, sample{labels: b.Labels(), value: v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return labels.Compare(out[i].labels, out[j].labels) < 0 })
	return out
}

// alertsNote says each alert that went pending or fired during a story, with where and when, measured from the
// story's start.
func alertsNote(events []AlertEvent, started time.Time) string {
	var parts []string
	for _, e := range events {
		where := ""
		if e.Labels != "" {
			where = "{" + e.Labels + "}"
		}
		parts = append(parts, fmt.Sprintf("%s%s %s after %s", e.Alert, where, e.State, e.At.Sub(started).Round(time.Second)))
	}
	return strings.Join(parts, "; ")
}

// alertsColumn is the ALERTS cell of a story: the alerts that fired during it, then those that only went pending,
// by name; "none" when none did, "-" when the tour evaluated no alerts.
func alertsColumn(r Result) string {
	if !r.AlertsEvaluated {
		return "-"
	}
	var firing, pending []string
	failed := false
	for _, e := range r.Alerts {
		switch {
		case e.Alert == evaluationFailed:
			failed = true
		case e.State == rules.StateFiring.String():
			firing = append(firing, e.Alert)
		}
	}
	for _, e := range r.Alerts {
		if e.Alert != evaluationFailed && e.State != rules.StateFiring.String() && !slices.Contains(firing, e.Alert) {
			pending = append(pending, e.Alert)
		}
	}
	slices.Sort(firing)
	slices.Sort(pending)
	var parts []string
	for _, name := range slices.Compact(firing) {
		parts = append(parts, name+" firing")
	}
	for _, name := range slices.Compact(pending) {
		parts = append(parts, name+" pending")
	}
	if failed {
		parts = append(parts, evaluationFailed+" (notes)")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
