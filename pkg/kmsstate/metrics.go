package kmsstate

import (
	"sync"
	"time"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

// pluginStates are the values of the state label of kmsguard_kms_plugin_state: every PluginHealth, in a fixed
// order. Each plugin has one series per state, all present, so that a state change moves a 1 between series
// that already exist rather than creating one.
var pluginStates = []PluginHealth{PluginHealthy, PluginUnhealthy, PluginUnreachable, PluginStale, PluginMissing}

// metricsSet are kmsguard's own KMS metrics, registered once in component-base's legacy registry, which
// operators built on library-go serve on their /metrics. Per plugin (node and key):
//
//   - kmsguard_kms_plugin_healthy{node,key_id}: 1 when healthy with a fresh report, 0 otherwise. It has no label
//     that changes with the state, so the series keeps its identity when the plugin turns unhealthy and back, and
//     an alert's "for:" timer on "== 0" runs from the first failure.
//   - kmsguard_kms_plugin_state{node,key_id,state}: 1 for the plugin's state (Healthy, Unhealthy, Unreachable,
//     Stale, Missing), 0 for the others; all five series are always present.
//   - kmsguard_kms_plugin_last_report_timestamp_seconds{node,key_id}: the lastCheckedTime of the plugin's last
//     report, as Unix seconds; absent while it never reported. Unlike an age, it stays right when kmsstate
//     stops: alert on time() - it.
//
// and kmsguard_kms_key_rotations_total{key_id}, the completed rotations of a key's KEK id. The series of
// plugins that are no longer evaluated (a node or key that went away) are deleted.
type metricsSet struct {
	pluginHealthy    *metrics.GaugeVec
	pluginState      *metrics.GaugeVec
	lastReport       *metrics.GaugeVec
	rotations        *metrics.CounterVec
	mu               sync.Mutex
	pluginSeries     map[pluginSeries]bool
	lastReportSeries map[pluginSeries]bool
}

// pluginSeries are the labels of one plugin's series.
type pluginSeries struct{ node, keyID string }

var (
	metricsOnce sync.Once
	sharedSet   *metricsSet
)

func registeredMetrics() *metricsSet {
	metricsOnce.Do(func() {
		sharedSet = &metricsSet{
			pluginHealthy: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "kms_plugin_healthy",
				Help:           "1 when the KMS plugin for a key on a node is healthy with a fresh report, 0 otherwise.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"node", "key_id"}),
			pluginState: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "kms_plugin_state",
				Help:           "1 for the state of the KMS plugin for a key on a node (Healthy, Unhealthy, Unreachable, Stale, Missing), 0 for the other states.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"node", "key_id", "state"}),
			lastReport: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "kms_plugin_last_report_timestamp_seconds",
				Help:           "Unix time at which the reporter last checked the KMS plugin for a key on a node.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"node", "key_id"}),
			rotations: metrics.NewCounterVec(&metrics.CounterOpts{
				Namespace:      "kmsguard",
				Name:           "kms_key_rotations_total",
				Help:           "Completed rotations of the remote KMS key_id behind a key, seen on every node.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"key_id"}),
			pluginSeries:     map[pluginSeries]bool{},
			lastReportSeries: map[pluginSeries]bool{},
		}
		legacyregistry.MustRegister(sharedSet.pluginHealthy, sharedSet.pluginState, sharedSet.lastReport, sharedSet.rotations)
	})
	return sharedSet
}

// update sets the series of every plugin of state and deletes those of plugins it no longer has. Series that
// stay are set in place, never deleted and created again, so that a scrape never misses them.
func (m *metricsSet) update(state *State, _ time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	plugins := map[pluginSeries]bool{}
	reported := map[pluginSeries]bool{}
	for _, p := range state.Plugins {
		series := pluginSeries{p.Node, p.KeyID}
		plugins[series] = true
		m.pluginHealthy.WithLabelValues(p.Node, p.KeyID).Set(oneIf(p.Health == PluginHealthy))
		for _, s := range pluginStates {
			m.pluginState.WithLabelValues(p.Node, p.KeyID, string(s)).Set(oneIf(p.Health == s))
		}
		if !p.LastChecked.IsZero() {
			reported[series] = true
			m.lastReport.WithLabelValues(p.Node, p.KeyID).Set(float64(p.LastChecked.UnixNano()) / float64(time.Second))
		}
	}
	for series := range m.pluginSeries {
		if !plugins[series] {
			m.pluginHealthy.DeleteLabelValues(series.node, series.keyID)
			for _, s := range pluginStates {
				m.pluginState.DeleteLabelValues(series.node, series.keyID, string(s))
			}
		}
	}
	for series := range m.lastReportSeries {
		if !reported[series] {
			m.lastReport.DeleteLabelValues(series.node, series.keyID)
		}
	}
	m.pluginSeries, m.lastReportSeries = plugins, reported
	for _, r := range state.Completed {
		m.rotations.WithLabelValues(r.KeyID).Inc()
	}
}

func oneIf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
