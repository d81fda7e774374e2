package metricsutil

import (
	"testing"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/testutil"
)

// TestSetOneOf: the current value's series is 1, every other value's 0, under the given labels.
func TestSetOneOf(t *testing.T) {
	g := metrics.NewGaugeVec(&metrics.GaugeOpts{Name: "test_state", Help: "test"}, []string{"resource", "reason"})
	registry := metrics.NewKubeRegistry()
	registry.MustRegister(g)
	SetOneOf(g, "B", []string{"A", "B", "C"}, "secrets")
	SetOneOf(g, "C", []string{"A", "B", "C"}, "configmaps")
	for _, s := range []struct {
		resource, reason string
		want             float64
	}{
		{"secrets", "A", 0}, {"secrets", "B", 1}, {"secrets", "C", 0},
		{"configmaps", "A", 0}, {"configmaps", "B", 0}, {"configmaps", "C", 1},
	} {
		got, err := testutil.GetGaugeMetricValue(g.WithLabelValues(s.resource, s.reason))
		if err != nil {
			t.Fatal(err)
		}
		if got != s.want {
			t.Errorf("%s/%s = %v, want %v", s.resource, s.reason, got, s.want)
		}
	}
}
