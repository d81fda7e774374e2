package kmsstate

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/component-base/metrics/testutil"
)

const (
	healthyMetric    = "kmsguard_kms_plugin_healthy"
	stateMetric      = "kmsguard_kms_plugin_state"
	lastReportMetric = "kmsguard_kms_plugin_last_report_timestamp_seconds"
)

var metricsHeader = map[string]string{
	healthyMetric: `# HELP kmsguard_kms_plugin_healthy [ALPHA] 1 when the KMS plugin for a key on a node is healthy with a fresh report, 0 otherwise.
# TYPE kmsguard_kms_plugin_healthy gauge
`,
	stateMetric: `# HELP kmsguard_kms_plugin_state [ALPHA] 1 for the state of the KMS plugin for a key on a node (Healthy, Unhealthy, Unreachable, Stale, Missing), 0 for the other states.
# TYPE kmsguard_kms_plugin_state gauge
`,
	lastReportMetric: `# HELP kmsguard_kms_plugin_last_report_timestamp_seconds [ALPHA] Unix time at which the reporter last checked the KMS plugin for a key on a node.
# TYPE kmsguard_kms_plugin_last_report_timestamp_seconds gauge
`,
}

// wantPluginMetrics is the exposition of the plugin metrics for plugins, in the registry's order (by node, then
// key; states sorted by name).
func wantPluginMetrics(plugins ...Plugin) string {
	var healthy, state, last strings.Builder
	for _, p := range plugins {
		labels := fmt.Sprintf(`key_id=%q,node=%q`, p.KeyID, p.Node)
		fmt.Fprintf(&healthy, "%s{%s} %v\n", healthyMetric, labels, oneIf(p.Health == PluginHealthy))
		for _, s := range []PluginHealth{PluginHealthy, PluginMissing, PluginStale, PluginUnhealthy, PluginUnreachable} {
			fmt.Fprintf(&state, "%s{%s,state=%q} %v\n", stateMetric, labels, s, oneIf(p.Health == s))
		}
		if !p.LastChecked.IsZero() {
			fmt.Fprintf(&last, "%s{%s} %v\n", lastReportMetric, labels, float64(p.LastChecked.Unix()))
		}
	}
	out := metricsHeader[healthyMetric] + healthy.String() + metricsHeader[stateMetric] + state.String()
	if last.Len() > 0 {
		out += metricsHeader[lastReportMetric] + last.String()
	}
	return out
}

// TestPluginMetricsFollowEachState sets the metrics from a sequence of states of two plugins and reads them back
// from the registry after each: one healthy series per plugin whose value flips without the series changing,
// all five state series with the 1 on the current state, and the time of the last report.
func TestPluginMetricsFollowEachState(t *testing.T) {
	m := registeredMetrics()
	t0 := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	plugin := func(node string, health PluginHealth, lastChecked time.Duration) Plugin {
		p := Plugin{Node: node, KeyID: "1", Health: health}
		if lastChecked >= 0 {
			p.LastChecked = t0.Add(lastChecked)
		}
		return p
	}
	healthySeries := m.pluginHealthy.WithLabelValues("master-0", "1")

	for i, plugins := range [][]Plugin{
		{plugin("master-0", PluginMissing, -1), plugin("master-1", PluginHealthy, 0)},
		{plugin("master-0", PluginHealthy, 30*time.Second), plugin("master-1", PluginHealthy, 30*time.Second)},
		{plugin("master-0", PluginUnhealthy, time.Minute), plugin("master-1", PluginHealthy, time.Minute)},
		{plugin("master-0", PluginUnreachable, 90*time.Second), plugin("master-1", PluginHealthy, 90*time.Second)},
		{plugin("master-0", PluginStale, 90*time.Second), plugin("master-1", PluginHealthy, 5*time.Minute)},
		{plugin("master-0", PluginHealthy, 6*time.Minute), plugin("master-1", PluginHealthy, 6*time.Minute)},
		// master-1 left the control plane: its series go.
		{plugin("master-0", PluginHealthy, 7*time.Minute)},
	} {
		m.update(&State{Plugins: plugins}, t0)
		if err := testutil.GatherAndCompare(legacyregistry.DefaultGatherer, strings.NewReader(wantPluginMetrics(plugins...)),
			healthyMetric, stateMetric, lastReportMetric); err != nil {
			t.Errorf("step %d (%s):\n%v", i, plugins[0].Health, err)
		}
		// The series is the same object throughout: never deleted and made again, which would restart the
		// "for:" timer of an alert on it and could be missed by a scrape in between.
		if got := m.pluginHealthy.WithLabelValues("master-0", "1"); got != healthySeries && i > 0 {
			t.Errorf("step %d: the healthy series of master-0 was replaced", i)
		}
	}

	// A plugin that stops having reports loses its timestamp, not its state series.
	missing := []Plugin{plugin("master-0", PluginMissing, -1)}
	m.update(&State{Plugins: missing}, t0)
	if err := testutil.GatherAndCompare(legacyregistry.DefaultGatherer, strings.NewReader(wantPluginMetrics(missing...)),
		healthyMetric, stateMetric, lastReportMetric); err != nil {
		t.Error(err)
	}

	// Nothing evaluated: nothing exported.
	m.update(&State{}, t0)
	if err := testutil.GatherAndCompare(legacyregistry.DefaultGatherer, strings.NewReader(""),
		healthyMetric, stateMetric, lastReportMetric); err != nil {
		t.Error(err)
	}
}

// TestPluginStatesCoverEveryHealth: the fixed set of state series has every PluginHealth the evaluation gives.
func TestPluginStatesCoverEveryHealth(t *testing.T) {
	known := map[PluginHealth]bool{}
	for _, s := range pluginStates {
		known[s] = true
	}
	for _, h := range []PluginHealth{PluginHealthy, PluginUnhealthy, PluginUnreachable, PluginStale, PluginMissing} {
		if !known[h] {
			t.Errorf("no state series for %s", h)
		}
	}
}
