package pluginprobe_test

import (
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"k8s.io/utils/clock"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
)

// callTimeout is long enough that a healthy call never reaches it, even
// under -race on a busy machine, and short enough that the scenarios that
// must time out do not slow the suite down much.
const callTimeout = 2 * time.Second

// TestProbeFakePlugin probes a real KMS v2 plugin over a unix socket, through
// the probe's KMS v2 gRPC client, in each state the reporter must tell apart.
func TestProbeFakePlugin(t *testing.T) {
	scenarios := []struct {
		name string
		// setup breaks the KMS or the running plugin before the probe.
		setup      func(t *testing.T, kms *fake.KMS, plugin *fake.Plugin)
		wantStatus operatorv1.KMSPluginHealthStatus
		// wantKEKID is the remoteKeyID the report must carry: pluginprobe.UnknownKEKID before Status ever returned one.
		wantKEKID string
		// wantDetail is a regular expression the report's detail must
		// match; "" means no detail.
		wantDetail string
		// wantCalls is what the probe alone made the plugin handle, as
		// Status, Encrypt, Decrypt.
		wantCalls [3]int64
		// statusSaysOK marks the failures a Status-only check misses.
		statusSaysOK bool
	}{
		{
			name:       "healthy",
			wantStatus: operatorv1.KMSPluginHealthStatusHealthy,
			wantKEKID:  "key-1",
			wantCalls:  [3]int64{1, 1, 1},
		},
		{
			name: "current key disabled",
			setup: func(t *testing.T, kms *fake.KMS, _ *fake.Plugin) {
				mustSucceed(t, kms.Disable(kms.CurrentKEKID()))
			},
			wantStatus:   operatorv1.KMSPluginHealthStatusUnhealthy,
			wantKEKID:    "key-1",
			wantDetail:   "encrypt round trip failed: rpc error: code = FailedPrecondition",
			wantCalls:    [3]int64{1, 1, 0},
			statusSaysOK: true,
		},
		{
			name: "current key destroyed",
			setup: func(t *testing.T, kms *fake.KMS, _ *fake.Plugin) {
				mustSucceed(t, kms.Destroy(kms.CurrentKEKID()))
			},
			wantStatus:   operatorv1.KMSPluginHealthStatusUnhealthy,
			wantKEKID:    "key-1",
			wantDetail:   "encrypt round trip failed: rpc error: code = NotFound",
			wantCalls:    [3]int64{1, 1, 0},
			statusSaysOK: true,
		},
		{
			name:       "plugin reports unhealthy",
			setup:      func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) { plugin.SetUnhealthy(true) },
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantKEKID:  "key-1",
			wantDetail: "kms unreachable",
			wantCalls:  [3]int64{1, 0, 0},
		},
		{
			name:      "plugin stopped",
			wantKEKID: pluginprobe.UnknownKEKID,
			setup:     func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) { plugin.Stop() },
			// The client fails fast: the dial's error, not the deadline.
			wantStatus: operatorv1.KMSPluginHealthStatusError,
			wantDetail: "code = Unavailable desc = .*no such file or directory",
			wantCalls:  [3]int64{0, 0, 0},
		},
		{
			name:       "plugin fails every call",
			wantKEKID:  pluginprobe.UnknownKEKID,
			setup:      func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) { plugin.FailWith(codes.Unavailable) },
			wantStatus: operatorv1.KMSPluginHealthStatusError,
			wantDetail: "code = Unavailable",
			wantCalls:  [3]int64{1, 0, 0},
		},
		{
			name: "status answers key disabled",
			setup: func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) {
				plugin.FailMethodWith(fake.MethodStatus, codes.FailedPrecondition, "key disabled")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantKEKID:  pluginprobe.UnknownKEKID,
			wantDetail: "^status answered with an error: rpc error: code = FailedPrecondition desc = key disabled$",
			wantCalls:  [3]int64{1, 0, 0},
		},
		{
			name: "status answers permission denied",
			setup: func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) {
				plugin.FailMethodWith(fake.MethodStatus, codes.PermissionDenied, "plugin may not use the key")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantKEKID:  pluginprobe.UnknownKEKID,
			wantDetail: "^status answered with an error: rpc error: code = PermissionDenied desc = plugin may not use the key$",
			wantCalls:  [3]int64{1, 0, 0},
		},
		{
			name: "status answers unauthenticated",
			setup: func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) {
				plugin.FailMethodWith(fake.MethodStatus, codes.Unauthenticated, "token expired")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantKEKID:  pluginprobe.UnknownKEKID,
			wantDetail: "^status answered with an error: rpc error: code = Unauthenticated desc = token expired$",
			wantCalls:  [3]int64{1, 0, 0},
		},
		{
			name: "status answers internal",
			setup: func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) {
				plugin.FailMethodWith(fake.MethodStatus, codes.Internal, "")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantKEKID:  pluginprobe.UnknownKEKID,
			wantDetail: "^status answered with an error: rpc error: code = Internal desc = fake kms plugin: injected failure",
			wantCalls:  [3]int64{1, 0, 0},
		},
		{
			name: "status answers unknown",
			setup: func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) {
				plugin.FailMethodWith(fake.MethodStatus, codes.Unknown, "failed to reach the kms")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantKEKID:  pluginprobe.UnknownKEKID,
			wantDetail: "^status answered with an error: rpc error: code = Unknown desc = failed to reach the kms$",
			wantCalls:  [3]int64{1, 0, 0},
		},
		{
			// grpc-go makes these for transport failures too, so a plugin
			// answering them cannot be told from one: they stay Error.
			name: "status answers deadline exceeded",
			setup: func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) {
				plugin.FailMethodWith(fake.MethodStatus, codes.DeadlineExceeded, "kms timed out")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusError,
			wantKEKID:  pluginprobe.UnknownKEKID,
			wantDetail: "^rpc error: code = DeadlineExceeded desc = kms timed out$",
			wantCalls:  [3]int64{1, 0, 0},
		},
		{
			name: "status answers unimplemented",
			setup: func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) {
				plugin.FailMethodWith(fake.MethodStatus, codes.Unimplemented, "")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusError,
			wantKEKID:  pluginprobe.UnknownKEKID,
			wantDetail: "^rpc error: code = Unimplemented",
			wantCalls:  [3]int64{1, 0, 0},
		},
		{
			name: "encrypt answers permission denied",
			setup: func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) {
				plugin.FailMethodWith(fake.MethodEncrypt, codes.PermissionDenied, "encrypt permission revoked")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantKEKID:  "key-1",
			wantDetail: "^encrypt round trip failed: rpc error: code = PermissionDenied desc = encrypt permission revoked$",
			wantCalls:  [3]int64{1, 1, 0},
		},
		{
			// A round trip runs after a successful Status only, so even a
			// code grpc-go makes for transport failures is Unhealthy there.
			name: "decrypt answers unavailable",
			setup: func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) {
				plugin.FailMethodWith(fake.MethodDecrypt, codes.Unavailable, "kms down")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantKEKID:  "key-1",
			wantDetail: "^decrypt round trip failed: rpc error: code = Unavailable desc = kms down$",
			wantCalls:  [3]int64{1, 1, 1},
		},
		{
			name:       "plugin slower than the call timeout",
			wantKEKID:  pluginprobe.UnknownKEKID,
			setup:      func(_ *testing.T, _ *fake.KMS, plugin *fake.Plugin) { plugin.SetLatency(3 * callTimeout) },
			wantStatus: operatorv1.KMSPluginHealthStatusError,
			wantDetail: "code = DeadlineExceeded",
			wantCalls:  [3]int64{1, 0, 0},
		},
		{
			name:       "key rotated",
			setup:      func(_ *testing.T, kms *fake.KMS, _ *fake.Plugin) { kms.Rotate() },
			wantStatus: operatorv1.KMSPluginHealthStatusHealthy,
			wantKEKID:  "key-2",
			wantCalls:  [3]int64{1, 1, 1},
		},
		{
			// The probe exercises the write key only. Data still under an
			// older key is the business of migration, not of this probe.
			name: "previous key disabled after rotation",
			setup: func(t *testing.T, kms *fake.KMS, _ *fake.Plugin) {
				previous := kms.CurrentKEKID()
				kms.Rotate()
				mustSucceed(t, kms.Disable(previous))
			},
			wantStatus: operatorv1.KMSPluginHealthStatusHealthy,
			wantKEKID:  "key-2",
			wantCalls:  [3]int64{1, 1, 1},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kms := fake.NewKMS()
			plugin := fake.StartForTest(t, kms)
			target, err := pluginprobe.NewGRPCPlugin(t.Context(), "1", plugin.Endpoint(), callTimeout)
			if err != nil {
				t.Fatal(err)
			}
			if s.setup != nil {
				s.setup(t, kms, plugin)
			}
			prober := pluginprobe.NewProber("master-0", []pluginprobe.Plugin{target}, callTimeout, clock.RealClock{})

			before := plugin.Calls()
			report := prober.Probe(t.Context(), target)
			after := plugin.Calls()

			if *report.NodeName != "master-0" || *report.KeyID != "1" || report.LastCheckedTime == nil {
				t.Errorf("report identifies the wrong plugin: nodeName %q keyID %q lastCheckedTime %v", *report.NodeName, *report.KeyID, report.LastCheckedTime)
			}
			if got := *report.Status; got != s.wantStatus {
				t.Errorf("status %q, want %q (detail %q)", got, s.wantStatus, deref(report.Detail))
			}
			if got := deref(report.RemoteKeyID); got != s.wantKEKID {
				t.Errorf("remoteKeyID %q, want %q", got, s.wantKEKID)
			}
			switch got := deref(report.Detail); {
			case s.wantDetail == "" && got != "":
				t.Errorf("detail %q, want none", got)
			case !regexp.MustCompile(s.wantDetail).MatchString(got):
				t.Errorf("detail %q, want it to match %q", got, s.wantDetail)
			}
			gotCalls := [3]int64{
				after[fake.MethodStatus] - before[fake.MethodStatus],
				after[fake.MethodEncrypt] - before[fake.MethodEncrypt],
				after[fake.MethodDecrypt] - before[fake.MethodDecrypt],
			}
			if diff := cmp.Diff(s.wantCalls, gotCalls); diff != "" {
				t.Errorf("calls (Status, Encrypt, Decrypt) differ (-want +got):\n%s", diff)
			}

			if s.statusSaysOK {
				status, err := target.Service.Status(t.Context())
				if err != nil {
					t.Fatalf("Status: %v", err)
				}
				if status.Healthz != "ok" || status.KeyID != kms.CurrentKEKID() {
					t.Errorf("Status says healthz %q key %q: the scenario no longer shows what Status alone misses", status.Healthz, status.KeyID)
				}
			}
		})
	}
}

// TestProbeAllFakePlugins checks that one ProbeAll gives every plugin
// exactly one probe, and that one plugin's failure stays its own.
func TestProbeAllFakePlugins(t *testing.T) {
	kms := fake.NewKMS()
	good, bad := fake.StartForTest(t, kms), fake.StartForTest(t, kms)
	bad.SetUnhealthy(true)
	var targets []pluginprobe.Plugin
	for keyID, plugin := range map[string]*fake.Plugin{"1": good, "2": bad} {
		target, err := pluginprobe.NewGRPCPlugin(t.Context(), keyID, plugin.Endpoint(), callTimeout)
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, target)
	}
	prober := pluginprobe.NewProber("master-0", targets, callTimeout, clock.RealClock{})

	got := map[string]operatorv1.KMSPluginHealthStatus{}
	for _, report := range prober.ProbeAll(t.Context()).HealthReports {
		got[*report.KeyID] = *report.Status
	}

	want := map[string]operatorv1.KMSPluginHealthStatus{
		"1": operatorv1.KMSPluginHealthStatusHealthy,
		"2": operatorv1.KMSPluginHealthStatusUnhealthy,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reports differ (-want +got):\n%s", diff)
	}
	wantCalls := map[*fake.Plugin]map[fake.Method]int64{
		good: {fake.MethodStatus: 1, fake.MethodEncrypt: 1, fake.MethodDecrypt: 1},
		bad:  {fake.MethodStatus: 1, fake.MethodEncrypt: 0, fake.MethodDecrypt: 0},
	}
	for plugin, want := range wantCalls {
		if diff := cmp.Diff(want, plugin.Calls()); diff != "" {
			t.Errorf("calls to %s differ (-want +got):\n%s", plugin.Endpoint(), diff)
		}
	}
}

func mustSucceed(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestProbeErrorKeepsTheLastKEKID: the operator CRDs reject a report without remoteKeyID, so a report about a failed
// Status must carry the key id the plugin served before it failed, or the outage would never be written.
func TestProbeErrorKeepsTheLastKEKID(t *testing.T) {
	scenarios := []struct {
		name       string
		code       codes.Code
		wantStatus operatorv1.KMSPluginHealthStatus
	}{
		{name: "transport failure", code: codes.Unavailable, wantStatus: operatorv1.KMSPluginHealthStatusError},
		{name: "the plugin's own answer", code: codes.FailedPrecondition, wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kms := fake.NewKMS()
			plugin := fake.StartForTest(t, kms)
			target, err := pluginprobe.NewGRPCPlugin(t.Context(), "1", plugin.Endpoint(), callTimeout)
			if err != nil {
				t.Fatal(err)
			}
			prober := pluginprobe.NewProber("master-0", []pluginprobe.Plugin{target}, callTimeout, clock.RealClock{})
			if report := prober.Probe(t.Context(), target); *report.Status != operatorv1.KMSPluginHealthStatusHealthy {
				t.Fatalf("first probe: %s %s", *report.Status, deref(report.Detail))
			}
			plugin.FailMethodWith(fake.MethodStatus, s.code, "")
			report := prober.Probe(t.Context(), target)
			if *report.Status != s.wantStatus || report.RemoteKeyID == nil || *report.RemoteKeyID != kms.CurrentKEKID() {
				t.Errorf("after the plugin failed: status %s remoteKeyID %v, want %s with the last key id %s", *report.Status, report.RemoteKeyID, s.wantStatus, kms.CurrentKEKID())
			}
		})
	}
}
