package evidence

import (
	"sync"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"

	"github.com/kmsguard/kmsguard/internal/metricsutil"
)

// censusMetrics are the CensusController's metrics, registered once in component-base's legacy registry, which
// library-go operators serve on /metrics. KMSEncryptionVerified carries the same facts for clusters without a
// monitoring stack. Every series carries component (the controller's instance name), so that two controllers in
// one process keep theirs apart.
type censusMetrics struct {
	verification     *metrics.GaugeVec
	resourceVerified *metrics.GaugeVec
}

var (
	metricsOnce sync.Once
	sharedSet   *censusMetrics
)

func registeredMetrics() *censusMetrics {
	metricsOnce.Do(func() {
		sharedSet = &censusMetrics{
			verification: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "encryption_verification_state",
				Help:           "1 for the reason of the KMSEncryptionVerified condition after the latest census of etcd, 0 for the other reasons.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "reason"}),
			resourceVerified: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "encryption_resource_verified",
				Help:           "1 when the last successful census of etcd found every value of an encrypted resource under its write key, 0 otherwise.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "resource"}),
		}
		legacyregistry.MustRegister(sharedSet.all()...)
	})
	return sharedSet
}

func (m *censusMetrics) all() []metrics.Registerable {
	return []metrics.Registerable{m.verification, m.resourceVerified}
}

// RegisterMetrics registers the census's metrics in component-base's legacy registry, once, and returns them.
// NewCensusController registers them too; a binary calls it to serve them before, and the alerting rules' test
// (bindata) to check each metric a rule names against what is registered.
func RegisterMetrics() []metrics.Registerable {
	return registeredMetrics().all()
}

// componentMetrics are one CensusController's series: it deletes those of its component only.
type componentMetrics struct {
	*censusMetrics
	component      string
	mu             sync.Mutex
	verifiedSeries map[string]bool
}

func newComponentMetrics(component string) *componentMetrics {
	return &componentMetrics{censusMetrics: registeredMetrics(), component: component, verifiedSeries: map[string]bool{}}
}

// verified publishes one sync of the CensusController: the condition's reason, and, after a census that succeeded
// (reports non-nil or nothing to verify), each resource's verdict. A failed census leaves the resources as the
// last successful one found them, as Reports does; the series of resources no longer counted are deleted.
func (m *componentMetrics) verified(reason string, counted bool, reports []*Report) {
	metricsutil.SetOneOf(m.verification, reason, verificationReasons, m.component)
	if !counted {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	resources := map[string]bool{}
	for _, report := range reports {
		for i := range report.Resources {
			r := &report.Resources[i]
			resources[r.Resource] = true
			v := 0.0
			if r.Verified() {
				v = 1
			}
			m.resourceVerified.WithLabelValues(m.component, r.Resource).Set(v)
		}
	}
	for resource := range m.verifiedSeries {
		if !resources[resource] {
			m.resourceVerified.DeleteLabelValues(m.component, resource)
		}
	}
	m.verifiedSeries = resources
}
