package main

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	"github.com/openshift/library-go/pkg/operator/encryption/kms"

	"github.com/kmsguard/kmsguard/pkg/kmsstate/pluginprobe"
)

// reportJitter spreads each cycle over an extra 10% of the interval, as
// library-go's reporter does, so the reporters of all nodes, started together
// by a rollout, drift apart instead of hitting the KMS and the API server at
// the same instant.
const reportJitter = 0.1

// healthReporter probes one node's plugins and publishes the reports.
type healthReporter struct {
	prober       *pluginprobe.Prober
	provider     kms.EncryptionStatusProvider
	fieldManager string
	interval     time.Duration
	writeTimeout time.Duration
}

// run reports every interval until ctx is done. The interval counts from the
// start of one cycle to the start of the next; a cycle that overruns it delays
// the next one rather than overlapping it, so a plugin never sees two probes
// at once.
func (r *healthReporter) run(ctx context.Context) {
	wait.JitterUntilWithContext(ctx, r.reportOnce, r.interval, reportJitter, false)
}

// reportOnce probes every plugin once and applies the reports. A failed apply
// is logged and not retried: the next cycle applies fresher reports anyway,
// and the operator reading them notices reports that stop coming.
func (r *healthReporter) reportOnce(ctx context.Context) {
	status := r.prober.ProbeAll(ctx)
	for _, report := range status.HealthReports {
		klog.V(2).InfoS("Probed KMS plugin", "keyID", deref(report.KeyId), "status", deref(report.Status),
			"kekID", deref(report.KEKId), "detail", deref(report.Detail))
	}

	ctx, cancel := context.WithTimeout(ctx, r.writeTimeout)
	defer cancel()
	if err := r.provider.ApplyKMSEncryptionStatus(ctx, r.fieldManager, status); err != nil {
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
