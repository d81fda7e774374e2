// Package metricstest reads back the series one controller exported, for tests: kmsguard's metrics are
// registered once in component-base's legacy registry and carry a component label, so tests of several
// controllers in one binary each read their own component's series.
package metricstest

import (
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/component-base/metrics/testutil"
)

// Gatherer gathers the legacy registry's series whose component label is component; families left without a
// series are dropped, as a registry drops them.
func Gatherer(component string) metrics.Gatherer {
	return testutil.GathererFunc(func() ([]*testutil.MetricFamily, error) {
		families, err := legacyregistry.DefaultGatherer.Gather()
		if err != nil {
			return nil, err
		}
		var kept []*testutil.MetricFamily
		for _, f := range families {
			series := f.Metric[:0]
			for _, m := range f.Metric {
				for _, l := range m.Label {
					if l.GetName() == "component" && l.GetValue() == component {
						series = append(series, m)
						break
					}
				}
			}
			if len(series) > 0 {
				f.Metric = series
				kept = append(kept, f)
			}
		}
		return kept, nil
	})
}
