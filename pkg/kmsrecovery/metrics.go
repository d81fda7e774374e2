package kmsrecovery

import (
	"sync"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

// metricsSet are the recovery metrics, registered once in component-base's legacy registry, which library-go
// operators serve on /metrics: kmsguard_undecryptable_objects{resource}, the objects of each encrypted
// resource the latest scan could not read. Its resource label is bounded by the encrypted resources; the
// objects and the keys they were written under are in the condition and the ConfigMap, never in labels. Every
// series carries component, the controller's instance name, so that two controllers in one process keep theirs
// apart.
type metricsSet struct {
	undecryptable *metrics.GaugeVec
}

// componentMetrics are one controller's series: it deletes those of its component only.
type componentMetrics struct {
	*metricsSet
	component string
	mu        sync.Mutex
	series    map[string]bool
}

func newComponentMetrics(component string) *componentMetrics {
	return &componentMetrics{metricsSet: registeredMetrics(), component: component, series: map[string]bool{}}
}

var (
	metricsOnce sync.Once
	sharedSet   *metricsSet
)

func registeredMetrics() *metricsSet {
	metricsOnce.Do(func() {
		sharedSet = &metricsSet{
			undecryptable: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "undecryptable_objects",
				Help:           "Objects of an encrypted resource that kube-apiserver could not read in the latest scan.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "resource"}),
		}
		legacyregistry.MustRegister(sharedSet.all()...)
	})
	return sharedSet
}

func (m *metricsSet) all() []metrics.Registerable {
	return []metrics.Registerable{m.undecryptable}
}

// RegisterMetrics registers kmsrecovery's metrics in component-base's legacy registry, once, and returns them.
// NewController registers them too; a binary calls it to serve them before, and the alerting rules' test
// (bindata) to check each metric a rule names against what is registered.
func RegisterMetrics() []metrics.Registerable {
	return registeredMetrics().all()
}

// scanned sets the count of every resource of a scan, 0 included, and deletes the series of resources it no
// longer has.
func (m *componentMetrics) scanned(findings *Findings) {
	m.mu.Lock()
	defer m.mu.Unlock()
	resources := map[string]bool{}
	for _, r := range findings.Resources {
		resources[r.Resource.String()] = true
		m.undecryptable.WithLabelValues(m.component, r.Resource.String()).Set(float64(len(r.Unreadable)))
	}
	for resource := range m.series {
		if !resources[resource] {
			m.undecryptable.DeleteLabelValues(m.component, resource)
		}
	}
	m.series = resources
}
