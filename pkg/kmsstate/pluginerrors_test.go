package kmsstate_test

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// probeCallTimeout bounds each call of the probe. Only the scenarios whose
// plugin is gone wait for it; the others answer at once.
const probeCallTimeout = 2 * time.Second

// TestPluginErrorReason follows each class of plugin error from a real KMS v2
// plugin on a socket through the probe's report to the KMSPluginsDegraded
// reason and message: a plugin that answered is PluginUnhealthy, one that did
// not is PluginUnreachable, and the message names the node and the code.
func TestPluginErrorReason(t *testing.T) {
	scenarios := []struct {
		name string
		// breakPlugin breaks master-1's plugin before the probe.
		breakPlugin func(kms *fake.KMS, plugin *fake.Plugin)
		wantStatus  operatorv1.KMSPluginHealthStatus
		wantReason  kmsstate.Reason
		wantInMsg   string
	}{
		{
			name: "status answers key disabled",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) {
				p.FailMethodWith(fake.MethodStatus, codes.FailedPrecondition, "key disabled")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason: kmsstate.ReasonPluginUnhealthy,
			wantInMsg:  "node master-1 key 1: status answered with an error: rpc error: code = FailedPrecondition desc = key disabled",
		},
		{
			name: "status answers permission denied",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) {
				p.FailMethodWith(fake.MethodStatus, codes.PermissionDenied, "denied")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason: kmsstate.ReasonPluginUnhealthy,
			wantInMsg:  "node master-1 key 1: status answered with an error: rpc error: code = PermissionDenied desc = denied",
		},
		{
			name: "status answers unauthenticated",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) {
				p.FailMethodWith(fake.MethodStatus, codes.Unauthenticated, "token expired")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason: kmsstate.ReasonPluginUnhealthy,
			wantInMsg:  "node master-1 key 1: status answered with an error: rpc error: code = Unauthenticated desc = token expired",
		},
		{
			name:        "status answers internal",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) { p.FailMethodWith(fake.MethodStatus, codes.Internal, "plugin bug") },
			wantStatus:  operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason:  kmsstate.ReasonPluginUnhealthy,
			wantInMsg:   "node master-1 key 1: status answered with an error: rpc error: code = Internal desc = plugin bug",
		},
		{
			name:        "healthz not ok",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) { p.SetUnhealthy(true) },
			wantStatus:  operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason:  kmsstate.ReasonPluginUnhealthy,
			wantInMsg:   "node master-1 key 1: kms unreachable",
		},
		{
			name:        "encrypt answers key disabled",
			breakPlugin: func(kms *fake.KMS, _ *fake.Plugin) { _ = kms.Disable(kms.CurrentKEKID()) },
			wantStatus:  operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason:  kmsstate.ReasonPluginUnhealthy,
			wantInMsg:   "node master-1 key 1: encrypt round trip failed: rpc error: code = FailedPrecondition",
		},
		{
			name: "decrypt answers permission denied",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) {
				p.FailMethodWith(fake.MethodDecrypt, codes.PermissionDenied, "decrypt revoked")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason: kmsstate.ReasonPluginUnhealthy,
			wantInMsg:  "node master-1 key 1: decrypt round trip failed: rpc error: code = PermissionDenied desc = decrypt revoked",
		},
		{
			name:        "status unavailable",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) { p.FailMethodWith(fake.MethodStatus, codes.Unavailable, "kms down") },
			wantStatus:  operatorv1.KMSPluginHealthStatusError,
			wantReason:  kmsstate.ReasonPluginUnreachable,
			wantInMsg:   "node master-1 key 1: rpc error: code = Unavailable desc = kms down",
		},
		{
			name:        "status deadline exceeded",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) { p.SetLatency(time.Hour) },
			wantStatus:  operatorv1.KMSPluginHealthStatusError,
			wantReason:  kmsstate.ReasonPluginUnreachable,
			wantInMsg:   "node master-1 key 1: rpc error: code = DeadlineExceeded",
		},
		{
			name:        "status unimplemented",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) { p.FailMethodWith(fake.MethodStatus, codes.Unimplemented, "") },
			wantStatus:  operatorv1.KMSPluginHealthStatusError,
			wantReason:  kmsstate.ReasonPluginUnreachable,
			wantInMsg:   "node master-1 key 1: rpc error: code = Unimplemented",
		},
		{
			name:        "plugin stopped",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) { p.Stop() },
			wantStatus:  operatorv1.KMSPluginHealthStatusError,
			wantReason:  kmsstate.ReasonPluginUnreachable,
			wantInMsg:   "node master-1 key 1: rpc error: code = ",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kms := fake.NewKMS()
			plugin := fake.StartForTest(t, kms)
			s.breakPlugin(kms, plugin)

			// master-0's report is healthy, so that the condition is about
			// master-1 only.
			now := time.Now()
			reports := []operatorv1.KMSPluginHealthReport{{
				NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusHealthy,
				RemoteKeyID: kms.CurrentKEKID(), LastCheckedTime: metav1.NewTime(now),
			}}
			report := probe(t, "master-1", plugin)
			if report.Status != s.wantStatus {
				t.Errorf("report status %q, want %q (detail %q)", report.Status, s.wantStatus, report.Detail)
			}
			reports = append(reports, report)

			state, _ := kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{
				Now: now, Nodes: []string{"master-0", "master-1"}, KeyIDs: []string{"1"}, Reports: reports,
			})
			degraded, reason, message := state.Degraded()
			if !degraded || reason != s.wantReason {
				t.Errorf("KMSPluginsDegraded %t reason %q, want true reason %q (message %q)", degraded, reason, s.wantReason, message)
			}
			if want := string(s.wantReason) + ": " + s.wantInMsg; !strings.HasPrefix(message, want) {
				t.Errorf("message %q, want it to start with %q", message, want)
			}
			if strings.Contains(message, "master-0") {
				t.Errorf("message %q names master-0, whose plugin is healthy", message)
			}
		})
	}
}

// probe probes plugin once as node's reporter does and returns the report as
// the operator resource would hold it.
func probe(t *testing.T, node string, plugin *fake.Plugin) operatorv1.KMSPluginHealthReport {
	t.Helper()
	target, err := pluginprobe.NewGRPCPlugin(t.Context(), "1", plugin.Endpoint(), probeCallTimeout)
	if err != nil {
		t.Fatal(err)
	}
	r := pluginprobe.NewProber(node, []pluginprobe.Plugin{target}, probeCallTimeout, clock.RealClock{}).Probe(t.Context(), target)
	return operatorv1.KMSPluginHealthReport{
		NodeName:        *r.NodeName,
		KeyID:           *r.KeyID,
		Status:          *r.Status,
		LastCheckedTime: *r.LastCheckedTime,
		RemoteKeyID:     deref(r.RemoteKeyID),
		Detail:          deref(r.Detail),
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
