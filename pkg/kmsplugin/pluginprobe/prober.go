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

// DefaultRoundTripInterval is the least time between two Encrypt/Decrypt
// round trips to one plugin while they pass, unless WithRoundTripInterval
// says otherwise. Every round trip is a real Encrypt and Decrypt in the
// remote KMS, audited there; at library-go's 30 s report interval, probing
// each one would write about 5,800 audit records a day per node and key.
// Every 5 minutes is 10 times fewer, and still far sooner than kube-apiserver
// notices a revoked key by itself (on its next DEK, or after a restart).
const DefaultRoundTripInterval = 5 * time.Minute

// ProberOption configures a Prober.
type ProberOption func(*Prober)

// WithRoundTripInterval sets the least time between two passing round trips
// to one plugin; zero or less makes every probe do one, as before
// DefaultRoundTripInterval existed. See the package documentation for what
// it bounds.
func WithRoundTripInterval(d time.Duration) ProberOption {
	return func(p *Prober) { p.roundTripInterval = max(d, 0) }
}

// Prober probes the KMS plugins of one node.
//
// The state a Prober keeps between probes is, per plugin, the last key id its
// Status returned and the outcome of its last round trip (see Probe). Calling
// ProbeAll once per report interval is what keeps the load on the KMS at one
// Status per plugin per interval and one round trip per round-trip interval,
// so callers must not call it concurrently with itself.
// wait.JitterUntil, which runs its function to completion before the next
// period, never does.
type Prober struct {
	nodeName          string
	plugins           []Plugin
	callTimeout       time.Duration
	roundTripInterval time.Duration
	clock             clock.PassiveClock

	mu sync.Mutex
	// lastKEKID is, per key id, the last valid key id Status returned.
	lastKEKID map[string]string
	// roundTrips is, per key id, the last round trip, while it stands for the
	// plugin (see roundTripDue).
	roundTrips map[string]roundTripResult
}

// roundTripResult is the outcome of one round trip to a plugin.
type roundTripResult struct {
	// at is when the probe that made it started.
	at time.Time
	// kekID is the key id Status returned in that probe.
	kekID string
	// err is the round trip's verdict; nil when it passed.
	err error
}

// NewProber returns a Prober that reports plugins as running on nodeName.
// callTimeout, which must be positive, bounds every single call to a plugin,
// so a probe takes at most three times callTimeout. clock stamps
// lastCheckedTime and times the round trips. Round trips run at most every
// DefaultRoundTripInterval while they pass, unless an option says otherwise.
func NewProber(nodeName string, plugins []Plugin, callTimeout time.Duration, clock clock.PassiveClock, opts ...ProberOption) *Prober {
	p := &Prober{
		nodeName:          nodeName,
		plugins:           plugins,
		callTimeout:       callTimeout,
		roundTripInterval: DefaultRoundTripInterval,
		clock:             clock,
		lastKEKID:         map[string]string{},
		roundTrips:        map[string]roundTripResult{},
	}
	for _, opt := range opts {
		opt(p)
	}
	return p
}

// RoundTripInterval is the least time between two passing round trips to one
// plugin; zero when every probe makes one.
func (p *Prober) RoundTripInterval() time.Duration { return p.roundTripInterval }

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
// Encrypt/Decrypt round trip when one is due (roundTripDue), else the verdict
// of the last one. The package documentation lists the reports it returns.
// Every string it writes fits the field's API validation.
func (p *Prober) Probe(ctx context.Context, plugin Plugin) *applyoperatorv1.KMSPluginHealthReportApplyConfiguration {
	now := p.clock.Now()
	report := applyoperatorv1.KMSPluginHealthReport().
		WithNodeName(p.nodeName).
		WithKeyID(plugin.KeyID).
		WithLastCheckedTime(metav1.NewTime(now))

	status, err := p.status(ctx, plugin.Service)
	if err != nil {
		p.forgetRoundTrip(plugin.KeyID)
		// The operator CRDs require remoteKeyID in every report and reject the
		// node's whole apply without it, which would leave the plugin's last
		// Healthy report in place until it went stale. The last key id Status
		// returned is the best statement of which KEK the plugin serves; with
		// none known the report cannot be written, as library-go's cannot.
		report.WithRemoteKeyID(p.knownKEKID(plugin.KeyID))
		if pluginAnswered(err) {
			// The plugin is up and refused: the admin must look at its key
			// or its KMS credentials, not at the socket or the sidecar.
			return report.WithStatus(operatorv1.KMSPluginHealthStatusUnhealthy).WithDetail(detail(statusAnswerDetail(err)))
		}
		return report.WithStatus(operatorv1.KMSPluginHealthStatusError).WithDetail(detail(err.Error()))
	}
	kekIDErr := validateKEKID(status.KeyID)
	if kekIDErr == nil {
		p.lastKnownKEKID(plugin.KeyID, status.KeyID)
		// Set whenever Status gave a usable one, unhealthy or not: the
		// operator CRDs require remoteKeyID in every report and reject the
		// node's whole apply without it. library-go leaves it out when
		// healthz is not "ok".
		report.WithRemoteKeyID(status.KeyID)
	} else {
		report.WithRemoteKeyID(p.knownKEKID(plugin.KeyID))
	}
	if status.Healthz != healthzOK {
		p.forgetRoundTrip(plugin.KeyID)
		return report.WithStatus(operatorv1.KMSPluginHealthStatusUnhealthy).WithDetail(detail(healthzDetail(status.Healthz)))
	}
	if kekIDErr != nil {
		// kube-apiserver refuses such a Status too, and remoteKeyID could not
		// hold it: report the plugin broken and leave remoteKeyID out.
		p.forgetRoundTrip(plugin.KeyID)
		err := fmt.Errorf("status returned %w", kekIDErr)
		return report.WithStatus(operatorv1.KMSPluginHealthStatusUnhealthy).WithDetail(detail(err.Error()))
	}

	if err := p.roundTripVerdict(ctx, plugin, status.KeyID, now); err != nil {
		return report.WithStatus(operatorv1.KMSPluginHealthStatusUnhealthy).WithDetail(detail(err.Error()))
	}
	return report.WithStatus(operatorv1.KMSPluginHealthStatusHealthy)
}

// roundTripVerdict makes a round trip to plugin when one is due and records
// it, or else returns the verdict of the last one, which passed.
func (p *Prober) roundTripVerdict(ctx context.Context, plugin Plugin, kekID string, now time.Time) error {
	p.mu.Lock()
	last, ok := p.roundTrips[plugin.KeyID]
	p.mu.Unlock()
	if ok && !p.roundTripDue(last, kekID, now) {
		return last.err
	}
	err := p.roundTrip(ctx, plugin.Service)
	if ctx.Err() != nil {
		// The probe was stopped, which says nothing about the key: the next
		// probe tries again.
		p.forgetRoundTrip(plugin.KeyID)
		return err
	}
	p.mu.Lock()
	p.roundTrips[plugin.KeyID] = roundTripResult{at: now, kekID: kekID, err: err}
	p.mu.Unlock()
	return err
}

// roundTripDue reports whether a probe at now, whose Status returned kekID,
// must make a round trip after last. One is due when the last one failed, so
// a failure is probed again every report interval and a recovery is seen at
// the next one; when Status names another key than it did then (a rotation:
// the new key has not been tried); when roundTripInterval has passed; and
// when the clock went back. A probe whose Status was not healthy forgets the
// last round trip, so the first healthy Status after it makes one too.
func (p *Prober) roundTripDue(last roundTripResult, kekID string, now time.Time) bool {
	return last.err != nil ||
		last.kekID != kekID ||
		now.Before(last.at) ||
		now.Sub(last.at) >= p.roundTripInterval
}

// forgetRoundTrip drops the last round trip of the plugin of keyID, so that
// the next healthy Status is followed by a new one.
func (p *Prober) forgetRoundTrip(keyID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.roundTrips, keyID)
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

// validateKEKID applies kube-apiserver's rule for KMS v2 KEK ids. Its size
// limit, kmsv2.KeyIDMaxSize bytes, is also within the 1024 characters remoteKeyID
// allows, so a KEK id that passes can always be written.
func validateKEKID(kekID string) error {
	if _, err := kmsv2.ValidateKeyID(kekID); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidKEKID, err)
	}
	return nil
}

// UnknownKEKID is the remoteKeyID of a report about a plugin whose Status never
// returned a usable key id to this Prober. The operator CRDs require remoteKeyID in
// every report and reject the node's whole apply without one, so without it a
// plugin that never answered (a dead or wrong socket) could not be reported
// at all. Readers take remoteKeyID from Healthy reports only (kmsstate does), so
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
