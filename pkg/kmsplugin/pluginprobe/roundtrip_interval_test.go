package pluginprobe

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	kmsservice "k8s.io/kms/pkg/service"
	clocktesting "k8s.io/utils/clock/testing"

	operatorv1 "github.com/openshift/api/operator/v1"
)

// step is one probe of a sequence: what the plugin does at that moment, and what the probe must make of it.
type step struct {
	// at is the time of the probe after testNow.
	at time.Duration
	// kekID is the key id Status returns; testKEKID when empty.
	kekID string
	// statusErr makes Status fail.
	statusErr error
	// revoked makes Decrypt fail, as a KMS does for a disabled key while the plugin's Status still says "ok".
	revoked bool

	want          operatorv1.KMSPluginHealthStatus
	wantRoundTrip bool
}

// runSteps probes one plugin at each step's time, on a fake clock, with a Prober built with opts, and checks
// each report and whether the step made a round trip.
func runSteps(t *testing.T, steps []step, opts ...ProberOption) {
	t.Helper()
	clock := clocktesting.NewFakePassiveClock(testNow)
	revoked := false
	service := &stubService{}
	service.decrypt = func(_ context.Context, _ string, req *kmsservice.DecryptRequest) ([]byte, error) {
		if revoked {
			return nil, status.Error(codes.PermissionDenied, "key disabled")
		}
		return []byte(strings.TrimPrefix(string(req.Ciphertext), sealedPrefix)), nil
	}
	p := NewProber(testNodeName, nil, testCallTimeout, clock, opts...)
	plugin := Plugin{KeyID: testKeyID, Service: service}

	for i, s := range steps {
		clock.SetTime(testNow.Add(s.at))
		kekID := s.kekID
		if kekID == "" {
			kekID = testKEKID
		}
		service.status, service.statusErr = okStatus(kekID), s.statusErr
		revoked = s.revoked
		encryptsBefore := service.encryptCalls.Load()

		report := p.Probe(t.Context(), plugin)

		roundTrip := service.encryptCalls.Load() > encryptsBefore
		if *report.Status != s.want || roundTrip != s.wantRoundTrip {
			t.Errorf("step %d at +%s: status %s, round trip %v; want %s, round trip %v (detail %q)",
				i, s.at, *report.Status, roundTrip, s.want, s.wantRoundTrip, deref(report.Detail))
		}
		if !report.LastCheckedTime.Time.Equal(clock.Now()) {
			t.Errorf("step %d: lastCheckedTime %s, want the probe's time %s", i, report.LastCheckedTime, clock.Now())
		}
		if s.want == operatorv1.KMSPluginHealthStatusUnhealthy && s.statusErr == nil &&
			!strings.Contains(deref(report.Detail), "decrypt round trip failed") {
			t.Errorf("step %d: detail %q does not name the failed round trip", i, deref(report.Detail))
		}
	}
}

const (
	healthyStatus   = operatorv1.KMSPluginHealthStatusHealthy
	unhealthyStatus = operatorv1.KMSPluginHealthStatusUnhealthy
	errorStatus     = operatorv1.KMSPluginHealthStatusError
)

func TestRoundTripRunsOnItsOwnInterval(t *testing.T) {
	runSteps(t, []step{
		{at: 0, want: healthyStatus, wantRoundTrip: true},
		// Status every report interval, the verdict of the last round trip in between.
		{at: 30 * time.Second, want: healthyStatus},
		{at: time.Minute, want: healthyStatus},
		{at: 4*time.Minute + 59*time.Second, want: healthyStatus},
		{at: DefaultRoundTripInterval, want: healthyStatus, wantRoundTrip: true},
		{at: DefaultRoundTripInterval + 30*time.Second, want: healthyStatus},
		// The interval counts from the last round trip, not from a fixed grid.
		{at: 2*DefaultRoundTripInterval + 20*time.Second, want: healthyStatus, wantRoundTrip: true},
	})
}

// TestRevokedKeyIsNotForgotten follows a key revoked right after a passing round trip: it is reported within
// the round-trip interval plus one report interval (the package's detection bound), then every report interval
// until the round trip passes again, and the recovery is seen at the next probe.
func TestRevokedKeyIsNotForgotten(t *testing.T) {
	runSteps(t, []step{
		{at: 0, want: healthyStatus, wantRoundTrip: true},
		// Revoked at +1s; Status still says "ok", and no round trip is due: this is the blind window the
		// detection bound accounts for.
		{at: 30 * time.Second, revoked: true, want: healthyStatus},
		{at: 4*time.Minute + 30*time.Second, revoked: true, want: healthyStatus},
		// The first probe a round-trip interval after the last round trip catches it...
		{at: 5*time.Minute + 2*time.Second, revoked: true, want: unhealthyStatus, wantRoundTrip: true},
		// ... and every probe after it tries again and reports it again, at the report interval.
		{at: 5*time.Minute + 32*time.Second, revoked: true, want: unhealthyStatus, wantRoundTrip: true},
		{at: 6*time.Minute + 2*time.Second, revoked: true, want: unhealthyStatus, wantRoundTrip: true},
		// Restored: the next probe sees it, then the slow interval resumes.
		{at: 6*time.Minute + 32*time.Second, want: healthyStatus, wantRoundTrip: true},
		{at: 7*time.Minute + 2*time.Second, want: healthyStatus},
		{at: 11*time.Minute + 31*time.Second, want: healthyStatus},
		{at: 11*time.Minute + 32*time.Second, want: healthyStatus, wantRoundTrip: true},
	})
}

func TestRoundTripAfterRotation(t *testing.T) {
	runSteps(t, []step{
		{at: 0, want: healthyStatus, wantRoundTrip: true},
		{at: 30 * time.Second, want: healthyStatus},
		// Status names a new key: it has not been tried, so it is, at once, and it is revoked.
		{at: time.Minute, kekID: "kek-2", revoked: true, want: unhealthyStatus, wantRoundTrip: true},
		{at: 90 * time.Second, kekID: "kek-2", want: healthyStatus, wantRoundTrip: true},
		{at: 2 * time.Minute, kekID: "kek-2", want: healthyStatus},
		// Back to the old one: tried again too.
		{at: 150 * time.Second, want: healthyStatus, wantRoundTrip: true},
	})
}

func TestRoundTripAfterStatusFailure(t *testing.T) {
	unavailable := status.Error(codes.Unavailable, "connection refused")
	disabled := status.Error(codes.FailedPrecondition, "key disabled")
	runSteps(t, []step{
		{at: 0, want: healthyStatus, wantRoundTrip: true},
		{at: 30 * time.Second, statusErr: unavailable, want: errorStatus},
		// Back from an outage: tried at once, not at +5m.
		{at: time.Minute, want: healthyStatus, wantRoundTrip: true},
		{at: 90 * time.Second, want: healthyStatus},
		{at: 2 * time.Minute, statusErr: disabled, want: unhealthyStatus},
		{at: 150 * time.Second, want: healthyStatus, wantRoundTrip: true},
	})
}

func TestRoundTripEveryProbe(t *testing.T) {
	runSteps(t, []step{
		{at: 0, want: healthyStatus, wantRoundTrip: true},
		{at: 30 * time.Second, want: healthyStatus, wantRoundTrip: true},
		{at: 30 * time.Second, want: healthyStatus, wantRoundTrip: true},
		{at: time.Minute, revoked: true, want: unhealthyStatus, wantRoundTrip: true},
	}, WithRoundTripInterval(0))
}

func TestRoundTripCustomInterval(t *testing.T) {
	runSteps(t, []step{
		{at: 0, want: healthyStatus, wantRoundTrip: true},
		{at: 59 * time.Second, want: healthyStatus},
		{at: time.Minute, want: healthyStatus, wantRoundTrip: true},
	}, WithRoundTripInterval(time.Minute))
}

func TestRoundTripAfterClockWentBack(t *testing.T) {
	runSteps(t, []step{
		{at: time.Hour, want: healthyStatus, wantRoundTrip: true},
		{at: time.Hour + 30*time.Second, want: healthyStatus},
		{at: 0, want: healthyStatus, wantRoundTrip: true},
		{at: 30 * time.Second, want: healthyStatus},
	})
}

// TestCanceledRoundTripIsNotAVerdict: a round trip cut short by the probe's own context says nothing about the
// key, so it is not kept as the verdict: the next probe makes a new one.
func TestCanceledRoundTripIsNotAVerdict(t *testing.T) {
	clock := clocktesting.NewFakePassiveClock(testNow)
	ctx, cancel := context.WithCancel(t.Context())
	service := &stubService{status: okStatus(testKEKID)}
	service.encrypt = func(ctx context.Context, _ string, _ []byte) (*kmsservice.EncryptResponse, error) {
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	}
	p := NewProber(testNodeName, nil, time.Minute, clock)
	plugin := Plugin{KeyID: testKeyID, Service: service}

	report := p.Probe(ctx, plugin)
	if *report.Status != unhealthyStatus || !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("canceled probe: status %s, want Unhealthy", *report.Status)
	}

	service.encrypt = nil
	clock.SetTime(testNow.Add(30 * time.Second))
	report = p.Probe(t.Context(), plugin)
	if *report.Status != healthyStatus || service.encryptCalls.Load() != 2 {
		t.Errorf("probe after a canceled one: status %s after %d Encrypt calls, want Healthy after a new round trip (2)",
			*report.Status, service.encryptCalls.Load())
	}
}

func TestRoundTripIntervalOption(t *testing.T) {
	clock := clocktesting.NewFakePassiveClock(testNow)
	for _, s := range []struct {
		opts []ProberOption
		want time.Duration
	}{
		{want: DefaultRoundTripInterval},
		{opts: []ProberOption{WithRoundTripInterval(time.Minute)}, want: time.Minute},
		{opts: []ProberOption{WithRoundTripInterval(0)}, want: 0},
		{opts: []ProberOption{WithRoundTripInterval(-time.Second)}, want: 0},
	} {
		if got := NewProber(testNodeName, nil, testCallTimeout, clock, s.opts...).RoundTripInterval(); got != s.want {
			t.Errorf("RoundTripInterval() = %s, want %s", got, s.want)
		}
	}
}
