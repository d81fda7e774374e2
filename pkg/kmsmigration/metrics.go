package kmsmigration

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

// metricsSet are the migration metrics, registered once in component-base's
// legacy registry, which library-go operators serve on /metrics. The rate is
// rate(kmsguard_migration_objects_total[1m]); the Progressing condition
// carries the same numbers for clusters without a monitoring stack.
type metricsSet struct {
	objects   *metrics.CounterVec
	remaining *metrics.GaugeVec
	paused    *metrics.GaugeVec
}

var (
	metricsOnce sync.Once
	sharedSet   *metricsSet
)

func registeredMetrics() *metricsSet {
	metricsOnce.Do(func() {
		sharedSet = &metricsSet{
			objects: metrics.NewCounterVec(&metrics.CounterOpts{
				Namespace:      "kmsguard",
				Name:           "migration_objects_total",
				Help:           "Objects the KMS migration handled, by outcome: rewritten, unchanged, conflict, gone, failed, undecryptable.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"resource", "outcome"}),
			remaining: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "migration_remaining_objects",
				Help:           "Objects of a resource the running KMS migration has not handled yet (apiserver estimate).",
				StabilityLevel: metrics.ALPHA,
			}, []string{"resource"}),
			paused: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "migration_paused",
				Help:           "1 while the KMS migration of a resource is paused, by reason.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"resource", "reason"}),
		}
		legacyregistry.MustRegister(sharedSet.objects, sharedSet.remaining, sharedSet.paused)
	})
	return sharedSet
}

var outcomeNames = map[outcome]string{
	outcomeRewritten:     "rewritten",
	outcomeUnchanged:     "unchanged",
	outcomeConflict:      "conflict",
	outcomeGone:          "gone",
	outcomeFailed:        "failed",
	outcomeUndecryptable: "undecryptable",
}

func (m *metricsSet) observe(gr schema.GroupResource, o outcome) {
	m.objects.WithLabelValues(gr.String(), outcomeNames[o]).Inc()
}

// update publishes the gauges of a running migration.
func (m *metricsSet) update(p Progress) {
	resource := p.Resource.String()
	if p.Total > 0 {
		m.remaining.WithLabelValues(resource).Set(float64(max(p.Total-p.Counts.Done()-p.Counts.Failed-p.Counts.Undecryptable, 0)))
	}
	m.setPaused(resource, p.Paused)
}

// finished zeroes the gauges of a migration that ended.
func (m *metricsSet) finished(gr schema.GroupResource) {
	m.remaining.WithLabelValues(gr.String()).Set(0)
	m.setPaused(gr.String(), NotPaused)
}

// setPaused sets the paused gauge of every reason: 1 for the current one, 0 for the others.
func (m *metricsSet) setPaused(resource string, paused PauseReason) {
	for _, reason := range []PauseReason{PausedKMSUnhealthy, PausedErrorThreshold, PausedRetryAfter} {
		v := 0.0
		if paused == reason {
			v = 1
		}
		m.paused.WithLabelValues(resource, string(reason)).Set(v)
	}
}
