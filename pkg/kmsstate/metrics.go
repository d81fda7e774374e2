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
//     Stale, Missing), 0 for the others; all five series are present for every plugin that has series.
//   - kmsguard_kms_plugin_last_report_timestamp_seconds{node,key_id}: the lastCheckedTime of the plugin's last
//     report, as Unix seconds; absent while it never reported. Unlike an age, it stays right when kmsstate
//     stops: alert on time() - it.
//   - kmsguard_kms_key_rotation_pending{node,key_id}: 1 while a rotation of the key's KEK id is in progress and
//     waits for the node (its plugin does not report the new KEK id healthy, or its kube-apiserver still uses
//     another), 0 otherwise. The condition says the same (KMSKeyRotationProgressing, "waiting for ...").
//
// Per node, kmsguard_kms_failures{node,reason}: the failures of the latest evaluation on the node, by reason (one
// per key, or one for an apiserver failure that names no key), for every reason KMSPluginsDegraded can carry, 0
// when there is none. It is the only metric of the apiservers' own view (DecryptFailing,
// APIServerKMSCheckFailing) and of KEKIDMismatch.
//
// And kmsguard_kms_key_rotations_total{key_id}, the completed rotations of a key's KEK id. The series of
// plugins and nodes that are no longer evaluated (a node or key that went away, KMS no longer in use) are
// deleted. A plugin whose key is pending on its node, or whose node is down on purpose (Plugin.NodeUnavailable),
// has no plugin series meanwhile: an alert on it would page for a rollout or an upgrade.
//
// Every series carries component, the controller's instance name ("kube-apiserver"), so that two controllers in
// one process (two operators' wirings, or two components) share the registration without mixing their series.
type metricsSet struct {
	pluginHealthy   *metrics.GaugeVec
	pluginState     *metrics.GaugeVec
	lastReport      *metrics.GaugeVec
	rotationPending *metrics.GaugeVec
	failures        *metrics.GaugeVec
	rotations       *metrics.CounterVec
}

// componentMetrics are one controller's series: it sets and deletes those of its component only.
type componentMetrics struct {
	*metricsSet
	component        string
	mu               sync.Mutex
	pluginSeries     map[pluginSeries]bool
	lastReportSeries map[pluginSeries]bool
	nodeSeries       map[string]bool
}

func newComponentMetrics(component string) *componentMetrics {
	return &componentMetrics{
		metricsSet:       registeredMetrics(),
		component:        component,
		pluginSeries:     map[pluginSeries]bool{},
		lastReportSeries: map[pluginSeries]bool{},
		nodeSeries:       map[string]bool{},
	}
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
			}, []string{"component", "node", "key_id"}),
			pluginState: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "kms_plugin_state",
				Help:           "1 for the state of the KMS plugin for a key on a node (Healthy, Unhealthy, Unreachable, Stale, Missing), 0 for the other states.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "node", "key_id", "state"}),
			lastReport: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "kms_plugin_last_report_timestamp_seconds",
				Help:           "Unix time at which the reporter last checked the KMS plugin for a key on a node.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "node", "key_id"}),
			rotationPending: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "kms_key_rotation_pending",
				Help:           "1 while a rotation of the KEK id behind a key waits for a node, 0 otherwise.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "node", "key_id"}),
			failures: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "kms_failures",
				Help:           "KMS failures on a node in kmsstate's latest evaluation, by KMSPluginsDegraded reason: one per key, or one for an apiserver failure that names no key.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "node", "reason"}),
			rotations: metrics.NewCounterVec(&metrics.CounterOpts{
				Namespace:      "kmsguard",
				Name:           "kms_key_rotations_total",
				Help:           "Completed rotations of the remote KMS key_id behind a key, seen on every node.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "key_id"}),
		}
		legacyregistry.MustRegister(sharedSet.all()...)
	})
	return sharedSet
}

func (m *metricsSet) all() []metrics.Registerable {
	return []metrics.Registerable{m.pluginHealthy, m.pluginState, m.lastReport, m.rotationPending, m.failures, m.rotations}
}

// RegisterMetrics registers kmsstate's metrics in component-base's legacy registry, once, and returns them.
// NewController registers them too; a binary calls it to serve them before the first sync, and the alerting
// rules' test (bindata) to check each metric a rule names against what is registered.
func RegisterMetrics() []metrics.Registerable {
	return registeredMetrics().all()
}

// update sets the series of every plugin of state and deletes those of plugins it no longer has. Series that
// stay are set in place, never deleted and created again, so that a scrape never misses them.
func (m *componentMetrics) update(state *State, _ time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	plugins := map[pluginSeries]bool{}
	reported := map[pluginSeries]bool{}
	pending := map[pluginSeries]bool{}
	for _, r := range state.Rotations {
		for _, node := range r.Pending {
			pending[pluginSeries{node, r.KeyID}] = true
		}
	}
	for _, p := range state.Plugins {
		if p.Pending || p.NodeUnavailable != "" {
			// Its revision has not reached the node, or the node is down on purpose (a drain, a reboot): an alert
			// on it would page for a rollout or an upgrade.
			continue
		}
		series := pluginSeries{p.Node, p.KeyID}
		plugins[series] = true
		m.pluginHealthy.WithLabelValues(m.component, p.Node, p.KeyID).Set(oneIf(p.Health == PluginHealthy))
		m.rotationPending.WithLabelValues(m.component, p.Node, p.KeyID).Set(oneIf(pending[series]))
		for _, s := range pluginStates {
			m.pluginState.WithLabelValues(m.component, p.Node, p.KeyID, string(s)).Set(oneIf(p.Health == s))
		}
		if !p.LastChecked.IsZero() {
			reported[series] = true
			m.lastReport.WithLabelValues(m.component, p.Node, p.KeyID).Set(float64(p.LastChecked.UnixNano()) / float64(time.Second))
		}
	}
	for series := range m.pluginSeries {
		if !plugins[series] {
			m.pluginHealthy.DeleteLabelValues(m.component, series.node, series.keyID)
			m.rotationPending.DeleteLabelValues(m.component, series.node, series.keyID)
			for _, s := range pluginStates {
				m.pluginState.DeleteLabelValues(m.component, series.node, series.keyID, string(s))
			}
		}
	}
	for series := range m.lastReportSeries {
		if !reported[series] {
			m.lastReport.DeleteLabelValues(m.component, series.node, series.keyID)
		}
	}
	m.pluginSeries, m.lastReportSeries = plugins, reported
	m.updateFailures(state)
	for _, r := range state.Completed {
		m.rotations.WithLabelValues(m.component, r.KeyID).Inc()
	}
}

// updateFailures sets the failure counts of every node of state, every reason present, and deletes the series
// of nodes it no longer has; with no KMS key in use, there is nothing to fail and no series.
func (m *componentMetrics) updateFailures(state *State) {
	counts := map[string]map[Reason]int{}
	nodes := map[string]bool{}
	for _, node := range state.Nodes {
		if len(state.KeyIDs) == 0 {
			break
		}
		nodes[node] = true
		counts[node] = map[Reason]int{}
	}
	for _, f := range state.Failures {
		if counts[f.Node] != nil {
			counts[f.Node][f.Reason]++
		}
	}
	for node := range nodes {
		for _, reason := range failureReasons {
			m.failures.WithLabelValues(m.component, node, string(reason)).Set(float64(counts[node][reason]))
		}
	}
	for node := range m.nodeSeries {
		if !nodes[node] {
			for _, reason := range failureReasons {
				m.failures.DeleteLabelValues(m.component, node, string(reason))
			}
		}
	}
	m.nodeSeries = nodes
}

func oneIf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
