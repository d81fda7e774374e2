package tour

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// TestAlertsEvaluatesTheRules: the shipped rules, evaluated over gathered samples at the times given: an alert with a
// `for:` is pending when its expression first holds and fires once `for:` passed, one without fires at once; a
// series that disappears ends its alert at the next evaluation (a staleness marker, as a scrape writes), and an
// alert that comes back is recorded again. A story's cell names what fired and what only went pending.
func TestAlertsEvaluatesTheRules(t *testing.T) {
	rules, err := AlertRules()
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) < 19 {
		t.Fatalf("%d alerting rules, want the PrometheusRule's 19", len(rules))
	}
	reg := prometheus.NewRegistry()
	state := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kmsguard_kms_plugin_state"}, []string{"component", "node", "key_id", "state"})
	rollback := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kmsguard_kms_rollback_state"}, []string{"component", "reason"})
	reg.MustRegister(state, rollback)
	alerts, err := NewAlerts(reg, rules, 30*time.Second, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	start := time.Unix(1_800_000_000, 0)
	at := func(d time.Duration) time.Time { return start.Add(d) }
	step := func(d time.Duration) {
		t.Helper()
		if err := alerts.Step(ctx, at(d)); err != nil {
			t.Fatal(err)
		}
	}
	unreachable := state.WithLabelValues("kube-apiserver", "master-1", "1", "Unreachable")
	unreachable.Set(0)
	step(0)
	unreachable.Set(1)
	for d := 30 * time.Second; d <= 3*time.Minute; d += 30 * time.Second {
		step(d)
	}
	rollback.WithLabelValues("kube-apiserver", "RevertedFailingKMSConfig").Set(1)
	step(210 * time.Second)
	// The plugin series goes away (its node left): the alert ends at once, not 5 minutes later.
	state.Reset()
	step(240 * time.Second)
	state.WithLabelValues("kube-apiserver", "master-1", "1", "Unreachable").Set(1)
	step(270 * time.Second)

	var got []string
	for _, e := range alerts.Between(at(0), at(300*time.Second)) {
		got = append(got, e.Alert+" "+e.Labels+" "+e.State+" "+e.At.Sub(start).String())
	}
	want := []string{
		"KMSPluginUnreachable node=master-1,key_id=1 pending 30s",
		"KMSPluginUnreachable node=master-1,key_id=1 firing 2m30s",
		"KMSConfigReverted reason=RevertedFailingKMSConfig firing 3m30s",
		"KMSPluginUnreachable node=master-1,key_id=1 pending 4m30s",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := alerts.Between(at(0), at(20*time.Second)); len(got) != 0 {
		t.Errorf("events before the fault: %v", got)
	}

	r := Result{AlertsEvaluated: true, Alerts: alerts.Between(at(0), at(300*time.Second))}
	if got, want := alertsColumn(r), "KMSConfigReverted firing, KMSPluginUnreachable firing"; got != want {
		t.Errorf("ALERTS %q, want %q", got, want)
	}
	if got := alertsColumn(Result{AlertsEvaluated: true, Alerts: alerts.Between(at(4*time.Minute), at(5*time.Minute))}); got != "KMSPluginUnreachable pending" {
		t.Errorf("ALERTS %q, want KMSPluginUnreachable pending", got)
	}
	if got := alertsColumn(Result{AlertsEvaluated: true}); got != "none" {
		t.Errorf("ALERTS of a calm story %q, want none", got)
	}
	failedOnce := Result{AlertsEvaluated: true, Alerts: []AlertEvent{{Alert: evaluationFailed, State: "error: gathering metrics: boom"}, {Alert: "KMSDecryptFailing", State: "pending"}}}
	if got, want := alertsColumn(failedOnce), "KMSDecryptFailing pending, evaluation failed (notes)"; got != want {
		t.Errorf("ALERTS with a failed evaluation %q, want %q", got, want)
	}
	if got := alertsColumn(Result{}); got != "-" {
		t.Errorf("ALERTS without evaluation %q, want -", got)
	}
}
