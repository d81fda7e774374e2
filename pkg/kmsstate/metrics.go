package kmsstate

import (
	"sync"
	"time"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

// metricsSet are kmsguard's own KMS metrics, registered once in component-base's legacy registry, which
// operators built on library-go serve on their /metrics.
type metricsSet struct {
	pluginHealthy *metrics.GaugeVec
	reportAge     *metrics.GaugeVec
	rotations     *metrics.CounterVec
}

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
			}, []string{"node", "key_id", "health"}),
			reportAge: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "kms_plugin_report_age_seconds",
				Help:           "Seconds since the KMS plugin for a key on a node was last checked by its reporter.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"node", "key_id"}),
			rotations: metrics.NewCounterVec(&metrics.CounterOpts{
				Namespace:      "kmsguard",
				Name:           "kms_key_rotations_total",
				Help:           "Completed rotations of the remote KMS key_id behind a key, seen on every node.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"key_id"}),
		}
		legacyregistry.MustRegister(sharedSet.pluginHealthy, sharedSet.reportAge, sharedSet.rotations)
	})
	return sharedSet
}

func (m *metricsSet) update(state *State, now time.Time) {
	// Reset drops the series of nodes and keys that are gone.
	m.pluginHealthy.Reset()
	m.reportAge.Reset()
	for _, p := range state.Plugins {
		healthy := 0.0
		if p.Health == PluginHealthy {
			healthy = 1
		}
		m.pluginHealthy.WithLabelValues(p.Node, p.KeyID, string(p.Health)).Set(healthy)
		if !p.LastChecked.IsZero() {
			m.reportAge.WithLabelValues(p.Node, p.KeyID).Set(now.Sub(p.LastChecked).Seconds())
		}
	}
	for _, r := range state.Completed {
		m.rotations.WithLabelValues(r.KeyID).Inc()
	}
}
