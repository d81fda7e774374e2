package kmsmigration

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"

	"github.com/kmsguard/kmsguard/internal/metricsutil"

	"github.com/kmsguard/kmsguard/pkg/kmsmigration/evidence"
)

// metricsSet are the migration and verification metrics, registered once in
// component-base's legacy registry, which library-go operators serve on
// /metrics. The rate is rate(kmsguard_migration_objects_total[1m]); the
// Progressing and KMSEncryptionVerified conditions carry the same facts for
// clusters without a monitoring stack. Every series carries component (the
// controller's instance name, the Migrator's Options.Component), so that two
// migrators or controllers in one process keep theirs apart.
type metricsSet struct {
	objects   *metrics.CounterVec
	remaining *metrics.GaugeVec
	paused    *metrics.GaugeVec

	verification     *metrics.GaugeVec
	resourceVerified *metrics.GaugeVec
}

// componentMetrics are one Migrator's or VerificationController's series: it
// deletes those of its component only.
type componentMetrics struct {
	*metricsSet
	component      string
	mu             sync.Mutex
	verifiedSeries map[string]bool
}

func newComponentMetrics(component string) *componentMetrics {
	return &componentMetrics{metricsSet: registeredMetrics(), component: component, verifiedSeries: map[string]bool{}}
}

// verificationReasons are the values of the reason label of
// kmsguard_encryption_verification_state: every reason of
// KMSEncryptionVerified. All series are present once the controller synced,
// so that a change moves a 1 between series that already exist.
var verificationReasons = []string{ReasonVerified, ReasonNotVerified, ReasonVerificationFailed, ReasonScanDeadlineExceeded, ReasonNothingToVerify}

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
			verification: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "encryption_verification_state",
				Help:           "1 for the reason of the KMSEncryptionVerified condition after the latest scan of etcd, 0 for the other reasons.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "reason"}),
			resourceVerified: metrics.NewGaugeVec(&metrics.GaugeOpts{
				Namespace:      "kmsguard",
				Name:           "encryption_resource_verified",
				Help:           "1 when the last successful scan of etcd found every value of an encrypted resource under its write key, 0 otherwise.",
				StabilityLevel: metrics.ALPHA,
			}, []string{"component", "resource"}),
		}
		legacyregistry.MustRegister(sharedSet.all()...)
	})
	return sharedSet
}

func (m *metricsSet) all() []metrics.Registerable {
	return []metrics.Registerable{m.objects, m.remaining, m.paused, m.verification, m.resourceVerified}
}

// RegisterMetrics registers kmsmigration's metrics in component-base's legacy
// registry, once, and returns them. New and NewVerificationController
// register them too; a binary calls it to serve them before, and the
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

// setPaused sets the paused gauge of every reason: 1 for the current one, 0 for the others.
func (m *componentMetrics) setPaused(resource string, paused PauseReason) {
	metricsutil.SetOneOf(m.paused, string(paused), []string{string(PausedKMSUnhealthy), string(PausedErrorThreshold), string(PausedRetryAfter)}, m.component, resource)
}

// verified publishes one sync of the VerificationController: the condition's
// reason, and, after a scan that succeeded (reports non-nil or nothing to
// verify), each resource's verdict. A failed scan leaves the resources as the
// last successful one found them, as Reports does; the series of resources no
// longer scanned are deleted.
func (m *componentMetrics) verified(reason string, scanned bool, reports []*evidence.Report) {
	metricsutil.SetOneOf(m.verification, reason, verificationReasons, m.component)
	if !scanned {
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
