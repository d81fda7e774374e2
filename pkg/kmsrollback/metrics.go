package kmsrollback

import (
	"sync"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"

	"github.com/kmsguard/kmsguard/internal/metricsutil"
)

// metricsSet are the rollback metrics, registered once in component-base's legacy registry, which library-go
// operators serve on /metrics:
//
//   - kmsguard_kms_rollback_state{reason}: 1 for the reason of KMSRollbackDegraded after the latest sync, 0 for
//     the others. RevertedFailingKMSConfig stays 1 from the revert until the next config rolls out healthy,
//     across operator restarts (the HoldStore keeps the revert).
//   - kmsguard_kms_config_reverts_total: the reverts this process wrote.
//
// Every series carries component, the controller's instance name, so that two controllers in one process keep
// theirs apart.
type metricsSet struct {
	state   *metrics.GaugeVec
	reverts *metrics.CounterVec
}

// componentMetrics are one controller's series.
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
			state: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "kms_rollback_state",
				Help:           "1 for the reason of the KMSRollbackDegraded condition after the latest sync, 0 for the other reasons.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "reason"}),
			reverts: metrics.NewCounterVec(&metrics.CounterOpts{
				Namespace:      "kmsguard",
				Name:           "kms_config_reverts_total",
				Help:           "Reverts of an encryption config whose KMS change made kube-apiservers fail, written by this process.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component"}),
		}
		legacyregistry.MustRegister(sharedSet.all()...)
	})
	return sharedSet
}

func (m *metricsSet) all() []metrics.Registerable {
	return []metrics.Registerable{m.state, m.reverts}
}

// RegisterMetrics registers kmsrollback's metrics in component-base's legacy registry, once, and returns them.
// NewController registers them too; a binary calls it to serve them before, and the alerting rules' test
// (bindata) to check each metric a rule names against what is registered.
func RegisterMetrics() []metrics.Registerable {
	return registeredMetrics().all()
}

// setState sets the series of every reason (reasons): 1 for reason, 0 for the others.
func (m *componentMetrics) setState(reason string) {
	metricsutil.SetOneOf(m.state, reason, ConditionReasons(), m.component)
}

// reverted counts a revert written.
func (m *componentMetrics) reverted() { m.reverts.WithLabelValues(m.component).Inc() }
