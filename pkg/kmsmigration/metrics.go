package kmsmigration

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"

	"github.com/kmsguard/kmsguard/internal/metricsutil"
)

// metricsSet are the migration metrics, registered once in component-base's
// legacy registry, which library-go operators serve on /metrics. The rate is
// rate(kmsguard_migration_objects_total[1m]); the Progressing condition
// carries the same facts for clusters without a monitoring stack. Every
// series carries component (the Migrator's Options.Component), so that two
// migrators in one process keep theirs apart. The census's metrics are
// package evidence's.
type metricsSet struct {
	objects   *metrics.CounterVec
	remaining *metrics.GaugeVec
	paused    *metrics.GaugeVec
}

// componentMetrics are one Migrator's series: it deletes those of its
// component only.
type componentMetrics struct {
	*metricsSet
	component string
}

func newComponentMetrics(component string) *componentMetrics {
	return &componentMetrics{metricsSet: registeredMetrics(), component: component}
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
			}, []string{"component", "resource", "outcome"}),
			remaining: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "migration_remaining_objects",
				Help:           "Objects of a resource the running KMS migration has not handled yet (apiserver estimate).",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "resource"}),
			paused: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "migration_paused",
				Help:           "1 while the KMS migration of a resource is paused, by reason.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "resource", "reason"}),
		}
		legacyregistry.MustRegister(sharedSet.all()...)
	})
	return sharedSet
}

func (m *metricsSet) all() []metrics.Registerable {
	return []metrics.Registerable{m.objects, m.remaining, m.paused}
}

// RegisterMetrics registers kmsmigration's metrics in component-base's legacy
// registry, once, and returns them. New registers them too; a binary calls it to serve them before, and the
// alerting rules' test (bindata) to check each metric a rule names against
// what is registered.
func RegisterMetrics() []metrics.Registerable {
	return registeredMetrics().all()
}

var outcomeNames = map[outcome]string{
	outcomeRewritten:     "rewritten",
	outcomeUnchanged:     "unchanged",
	outcomeConflict:      "conflict",
	outcomeGone:          "gone",
	outcomeFailed:        "failed",
	outcomeUndecryptable: "undecryptable",
}

func (m *componentMetrics) observe(gr schema.GroupResource, o outcome) {
	m.objects.WithLabelValues(m.component, gr.String(), outcomeNames[o]).Inc()
}

// update publishes the gauges of a running migration.
func (m *componentMetrics) update(p Progress) {
	resource := p.Resource.String()
	if p.Total > 0 {
		m.remaining.WithLabelValues(m.component, resource).Set(float64(max(p.Total-p.Counts.Done()-p.Counts.Failed-p.Counts.Undecryptable, 0)))
	}
	m.setPaused(resource, p.Paused)
}

// finished zeroes the gauges of a migration that ended or was stopped: no
// migration of the resource runs, so nothing remains and nothing is paused.
func (m *componentMetrics) finished(gr schema.GroupResource) {
	m.remaining.WithLabelValues(m.component, gr.String()).Set(0)
	m.setPaused(gr.String(), NotPaused)
}

// setPaused sets the paused gauge of every reason (pauseReasons): 1 for the current one, 0 for the others.
func (m *componentMetrics) setPaused(resource string, paused PauseReason) {
	metricsutil.SetOneOf(m.paused, string(paused), pauseReasons, m.component, resource)
}
