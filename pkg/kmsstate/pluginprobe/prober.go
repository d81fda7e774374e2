package pluginprobe

import (
	"context"
	"fmt"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2"
	kmsservice "k8s.io/kms/pkg/service"
	"k8s.io/utils/clock"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
)

// healthzOK is the only healthz a KMS v2 plugin may answer when healthy
// (k8s.io/kms/apis/v2/api.proto, StatusResponse.healthz).
const healthzOK = "ok"

// Prober probes the KMS plugins of one node.
//
// The only state a Prober keeps between probes is the last key id each
// plugin's Status returned (see Probe). Calling ProbeAll once per interval is
// what keeps the load on the KMS at one round trip per plugin per interval,
// so callers must not call it concurrently with itself.
// wait.JitterUntil, which runs its function to completion before the next
// period, never does.
type Prober struct {
	nodeName    string
	plugins     []Plugin
	callTimeout time.Duration
	clock       clock.PassiveClock

	mu sync.Mutex
	// lastKEKID is, per key id, the last valid key id Status returned.
	lastKEKID map[string]string
}

// NewProber returns a Prober that reports plugins as running on nodeName.
// callTimeout, which must be positive, bounds every single call to a plugin,
// so a probe takes at most three times callTimeout. clock stamps
// lastCheckedTime.
func NewProber(nodeName string, plugins []Plugin, callTimeout time.Duration, clock clock.PassiveClock) *Prober {
	return &Prober{
		nodeName:    nodeName,
		plugins:     plugins,
		callTimeout: callTimeout,
		clock:       clock,
		lastKEKID:   map[string]string{},
	}
}

// ProbeAll probes every plugin and returns one report per plugin, in the
// order the plugins were given. Plugins are probed concurrently, one probe
// each, so a hung plugin delays the result by the timeouts of its own calls
// only. A failed probe is a report, never an error.
func (p *Prober) ProbeAll(ctx context.Context) *applyoperatorv1.KMSEncryptionStatusApplyConfiguration {
	reports := make([]*applyoperatorv1.KMSPluginHealthReportApplyConfiguration, len(p.plugins))
	var wg sync.WaitGroup
	for i, plugin := range p.plugins {
		wg.Go(func() {
			reports[i] = p.Probe(ctx, plugin)
		})
	}
	wg.Wait()
	return applyoperatorv1.KMSEncryptionStatus().WithHealthReports(reports...)
}

// Probe checks one plugin: Status, then, if Status is healthy, an
// Encrypt/Decrypt round trip. The package documentation lists the reports it
// returns. Every string it writes fits the field's API validation.
func (p *Prober) Probe(ctx context.Context, plugin Plugin) *applyoperatorv1.KMSPluginHealthReportApplyConfiguration {
	report := applyoperatorv1.KMSPluginHealthReport().
		WithNodeName(p.nodeName).
		WithKeyId(plugin.KeyID).
		WithLastCheckedTime(metav1.NewTime(p.clock.Now()))

	status, err := p.status(ctx, plugin.Service)
	if err != nil {
		// The operator CRDs require kekId in every report and reject the
		// node's whole apply without it, which would leave the plugin's last
		// Healthy report in place until it went stale. The last key id Status
		// returned is the best statement of which KEK the plugin serves; with
		// none known the report cannot be written, as library-go's cannot.
		report.WithKEKId(p.knownKEKID(plugin.KeyID))
		if pluginAnswered(err) {
			// The plugin is up and refused: the admin must look at its key
			// or its KMS credentials, not at the socket or the sidecar.
			return report.WithStatus(operatorv1.KMSPluginHealthStatusUnhealthy).WithDetail(detail(statusAnswerDetail(err)))
		}
		return report.WithStatus(operatorv1.KMSPluginHealthStatusError).WithDetail(detail(err.Error()))
	}
	keyIDErr := validateKeyID(status.KeyID)
	if keyIDErr == nil {
		p.lastKnownKEKID(plugin.KeyID, status.KeyID)
		// Set whenever Status gave a usable one, unhealthy or not: the
		// operator CRDs require kekId in every report and reject the
		// node's whole apply without it. library-go leaves it out when
		// healthz is not "ok".
		report.WithKEKId(status.KeyID)
	} else {
		report.WithKEKId(p.knownKEKID(plugin.KeyID))
	}
	if status.Healthz != healthzOK {
		return report.WithStatus(operatorv1.KMSPluginHealthStatusUnhealthy).WithDetail(detail(healthzDetail(status.Healthz)))
	}
	if keyIDErr != nil {
		// kube-apiserver refuses such a Status too, and kekId could not
		// hold it: report the plugin broken and leave kekId out.
		err := fmt.Errorf("status returned %w", keyIDErr)
		return report.WithStatus(operatorv1.KMSPluginHealthStatusUnhealthy).WithDetail(detail(err.Error()))
	}

	if err := p.roundTrip(ctx, plugin.Service); err != nil {
		return report.WithStatus(operatorv1.KMSPluginHealthStatusUnhealthy).WithDetail(detail(err.Error()))
	}
	return report.WithStatus(operatorv1.KMSPluginHealthStatusHealthy)
}

// status calls Status within the call timeout.
func (p *Prober) status(ctx context.Context, service kmsservice.Service) (*kmsservice.StatusResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, p.callTimeout)
	defer cancel()
	resp, err := service.Status(ctx)
	if err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, ErrNoStatus
	}
	return resp, nil
}

// statusAnswerPrefix starts the detail of a Status the plugin answered with
// a gRPC status of its own, so that it reads apart from a transport failure,
// whose detail is the bare error.
const statusAnswerPrefix = "status answered with an error: "

// statusAnswerDetail is the detail of a Status the plugin answered with err:
// the step, then the error, which holds the plugin's code and message.
func statusAnswerDetail(err error) string {
	return statusAnswerPrefix + err.Error()
}

// healthzDetail is the detail of an unhealthy Status: the healthz itself, as
// library-go writes it, unless there is nothing to show.
func healthzDetail(healthz string) string {
	if healthz == "" {
		return fmt.Sprintf("status healthz is empty, want %q", healthzOK)
	}
	return healthz
}

// validateKeyID applies kube-apiserver's rule for KMS v2 key ids. Its size
// limit, kmsv2.KeyIDMaxSize bytes, is also within the 1024 characters kekId
// allows, so a key id that passes can always be written.
func validateKeyID(keyID string) error {
	if _, err := kmsv2.ValidateKeyID(keyID); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidKeyID, err)
	}
	return nil
}

// UnknownKEKID is the kekId of a report about a plugin whose Status never
// returned a usable key id to this Prober. The operator CRDs require kekId in
// every report and reject the node's whole apply without one, so without it a
// plugin that never answered (a dead or wrong socket) could not be reported
// at all. Readers take kekId from Healthy reports only (kmsstate does), so
// the placeholder never reads as a key rotation.
const UnknownKEKID = "unknown"

// knownKEKID is the last key id the plugin of keyID returned, or UnknownKEKID.
func (p *Prober) knownKEKID(keyID string) string {
	if kek := p.lastKnownKEKID(keyID, ""); kek != "" {
		return kek
	}
	return UnknownKEKID
}

// lastKnownKEKID records kekID for the plugin of keyID when it is not empty,
// and returns the last one recorded.
func (p *Prober) lastKnownKEKID(keyID, kekID string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if kekID != "" {
		p.lastKEKID[keyID] = kekID
	}
	return p.lastKEKID[keyID]
}
