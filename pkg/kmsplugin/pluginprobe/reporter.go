package pluginprobe

import (
	"context"
	"time"

	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
)

// reportJitter spreads each cycle over an extra 10% of the interval, as library-go's reporter does, so the
// reporters of all nodes, started together by a rollout, drift apart instead of hitting the KMS and the API
// server at the same instant.
const reportJitter = 0.1

// Reporter probes one node's plugins every interval and publishes the reports as that node's reporter: the
// loop of `kmsguard health-reporter`.
type Reporter struct {
	Prober   *Prober
	Provider kms.EncryptionStatusProvider
	// FieldManager is the node's reporter field manager (encryptionstatus.ReporterFieldManager).
	FieldManager string
	Interval     time.Duration
	// WriteTimeout bounds each status apply.
	WriteTimeout time.Duration
}

// Run reports every interval until ctx is done. The interval counts from the start of one cycle to the start
// of the next; a cycle that overruns it delays the next one rather than overlapping it, so a plugin never
// sees two probes at once.
func (r *Reporter) Run(ctx context.Context) {
	wait.JitterUntilWithContext(ctx, r.ReportOnce, r.Interval, reportJitter, false)
}

// ReportOnce probes every plugin once and applies the reports. A failed apply is logged and not retried: the
// next cycle applies fresher reports anyway, and the operator reading them notices reports that stop coming.
func (r *Reporter) ReportOnce(ctx context.Context) {
	status := r.Prober.ProbeAll(ctx)
	for _, report := range status.HealthReports {
		klog.V(2).InfoS("Probed KMS plugin", "keyID", deref(report.KeyID), "status", deref(report.Status),
			"kekID", deref(report.RemoteKeyID), "detail", deref(report.Detail))
	}

	ctx, cancel := context.WithTimeout(ctx, r.WriteTimeout)
	defer cancel()
	if err := r.Provider.ApplyKMSEncryptionStatus(ctx, r.FieldManager, status); err != nil {
		klog.ErrorS(err, "Failed to publish KMS plugin health")
	}
}

// deref returns *p, or the zero value for nil.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
