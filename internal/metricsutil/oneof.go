// Package metricsutil holds what kmsguard's metrics share beyond component-base.
package metricsutil

import "k8s.io/component-base/metrics"

// SetOneOf sets the gauge series of every value in values, each under labels plus the value as the last label:
// 1 for current, 0 for the others. Every series exists once set, so that a change moves a 1 between series an
// alert's for: already tracks, rather than creating one.
func SetOneOf(g *metrics.GaugeVec, current string, values []string, labels ...string) {
	for _, v := range values {
		x := 0.0
		if v == current {
			x = 1
		}
		g.WithLabelValues(append(append([]string(nil), labels...), v)...).Set(x)
	}
}
