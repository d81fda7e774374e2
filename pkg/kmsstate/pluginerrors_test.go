package kmsstate_test

import (
	"reflect"
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
// plugin on a socket through the probe's report to the failure
// KMSPluginsDegraded is rendered from: a plugin that answered is
// PluginUnhealthy, one that did not is PluginUnreachable, and the failure is
// the node's, with the report's detail, which names the gRPC code.
func TestPluginErrorReason(t *testing.T) {
	scenarios := []struct {
		name string
		// breakPlugin breaks master-1's plugin before the probe.
		breakPlugin func(kms *fake.KMS, plugin *fake.Plugin)
		wantStatus  operatorv1.KMSPluginHealthStatus
		wantReason  kmsstate.Reason
		// wantDetail begins the report's detail: the probe's words for the
		// error, then the gRPC error's own, whose description may depend on the
		// socket and the platform.
		wantDetail string
	}{
		{
			name: "status answers key disabled",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) {
				p.FailMethodWith(fake.MethodStatus, codes.FailedPrecondition, "key disabled")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason: kmsstate.ReasonPluginUnhealthy,
			wantDetail: "status answered with an error: rpc error: code = FailedPrecondition desc = key disabled",
		},
		{
			name: "status answers permission denied",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) {
				p.FailMethodWith(fake.MethodStatus, codes.PermissionDenied, "denied")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason: kmsstate.ReasonPluginUnhealthy,
			wantDetail: "status answered with an error: rpc error: code = PermissionDenied desc = denied",
		},
		{
			name: "status answers unauthenticated",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) {
				p.FailMethodWith(fake.MethodStatus, codes.Unauthenticated, "token expired")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason: kmsstate.ReasonPluginUnhealthy,
			wantDetail: "status answered with an error: rpc error: code = Unauthenticated desc = token expired",
		},
		{
			name:        "status answers internal",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) { p.FailMethodWith(fake.MethodStatus, codes.Internal, "plugin bug") },
			wantStatus:  operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason:  kmsstate.ReasonPluginUnhealthy,
			wantDetail:  "status answered with an error: rpc error: code = Internal desc = plugin bug",
		},
		{
			name:        "healthz not ok",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) { p.SetUnhealthy(true) },
			wantStatus:  operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason:  kmsstate.ReasonPluginUnhealthy,
			wantDetail:  "kms unreachable",
		},
		{
			name:        "encrypt answers key disabled",
			breakPlugin: func(kms *fake.KMS, _ *fake.Plugin) { _ = kms.Disable(kms.CurrentKEKID()) },
			wantStatus:  operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason:  kmsstate.ReasonPluginUnhealthy,
			wantDetail:  "encrypt round trip failed: rpc error: code = FailedPrecondition",
		},
		{
			name: "decrypt answers permission denied",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) {
				p.FailMethodWith(fake.MethodDecrypt, codes.PermissionDenied, "decrypt revoked")
			},
			wantStatus: operatorv1.KMSPluginHealthStatusUnhealthy,
			wantReason: kmsstate.ReasonPluginUnhealthy,
			wantDetail: "decrypt round trip failed: rpc error: code = PermissionDenied desc = decrypt revoked",
		},
		{
			name:        "status unavailable",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) { p.FailMethodWith(fake.MethodStatus, codes.Unavailable, "kms down") },
			wantStatus:  operatorv1.KMSPluginHealthStatusError,
			wantReason:  kmsstate.ReasonPluginUnreachable,
			wantDetail:  "rpc error: code = Unavailable desc = kms down",
		},
		{
			name:        "status deadline exceeded",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) { p.SetLatency(time.Hour) },
			wantStatus:  operatorv1.KMSPluginHealthStatusError,
			wantReason:  kmsstate.ReasonPluginUnreachable,
			wantDetail:  "rpc error: code = DeadlineExceeded",
		},
		{
			name:        "status unimplemented",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) { p.FailMethodWith(fake.MethodStatus, codes.Unimplemented, "") },
			wantStatus:  operatorv1.KMSPluginHealthStatusError,
			wantReason:  kmsstate.ReasonPluginUnreachable,
			wantDetail:  "rpc error: code = Unimplemented",
		},
		{
			name:        "plugin stopped",
			breakPlugin: func(_ *fake.KMS, p *fake.Plugin) { p.Stop() },
			wantStatus:  operatorv1.KMSPluginHealthStatusError,
			wantReason:  kmsstate.ReasonPluginUnreachable,
			wantDetail:  "rpc error: code = ",
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
			if report.Status != s.wantStatus || !strings.HasPrefix(report.Detail, s.wantDetail) {
				t.Errorf("report %s %q, want %s beginning %q", report.Status, report.Detail, s.wantStatus, s.wantDetail)
			}
			reports = append(reports, report)

			state, _ := kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{
				Now: now, Nodes: []string{"master-0", "master-1"}, KeyIDs: []string{"1"}, Reports: reports,
			})
			degraded, reason, message := state.Degraded()
			if !degraded || reason != s.wantReason {
				t.Errorf("KMSPluginsDegraded %t reason %q, want true reason %q (message %q)", degraded, reason, s.wantReason, message)
			}
			// The condition is about master-1 alone, with its report's detail (TestDegradedMessage words it).
			want := []kmsstate.Failure{{Reason: s.wantReason, Node: "master-1", KeyID: "1", Detail: report.Detail}}
			if !reflect.DeepEqual(state.Failures, want) {
				t.Errorf("failures %+v, want %+v", state.Failures, want)
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
