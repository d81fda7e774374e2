package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	"google.golang.org/grpc/codes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsguard"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/kmsstate/apiserverprobe"
)

// probeInterval is the reporters' interval in this test; the detection latency goal is one interval plus 2 s.
const probeInterval = 5 * time.Second

// roundTripInterval is the reporters' round-trip interval in this test, slower than probeInterval as in a
// cluster (5m against 30s), so that a revoked key is caught by a round trip made on its own interval.
const roundTripInterval = 3 * probeInterval

// kmsStateFixture is a two-node control plane as kube-apiserver-operator sees it: one KMS, a plugin per node,
// a health reporter per node writing to the real KubeAPIServer resource, and kmsguard wired as the operator
// wires it, with each apiserver's own view. Revision 1 (the apiserver's config, KMS key keyID) runs on both nodes.
type kmsStateFixture struct {
	kms     *fake.KMS
	plugins map[string]*fake.Plugin
	guard   *guard
	// keyID is the key id of the one KMS key: its provider name, since its endpoint is not library-go's.
	keyID string
}

func startKMSStateFixture(t *testing.T) *kmsStateFixture {
	t.Helper()
	f := &kmsStateFixture{kms: fake.NewKMS(), plugins: map[string]*fake.Plugin{}}
	nodes := []string{"master-0", "master-1"}
	for _, node := range nodes {
		f.plugins[node] = fake.StartForTest(t, f.kms)
	}
	// The apiserver runs "on" master-0 and encrypts through that node's plugin.
	cp := startKMSControlPlane(t, f.plugins["master-0"])
	a := cp.APIServer(0)
	// Registered after the control plane, so it runs before the control plane stops: clients and watches end
	// first, and kube-apiserver shuts down without waiting for them.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)

	// kube-apiserver-operator would target every apiserver pod; here the one apiserver runs on master-0.
	// /metrics is read at most once per report interval, the controller's resync period.
	apiservers, err := apiserverprobe.NewForConfig(a.RESTConfig(), []apiserverprobe.Target{{NodeName: "master-0", URL: a.RESTConfig().Host}},
		apiserverprobe.Options{MetricsInterval: probeInterval})
	if err != nil {
		t.Fatal(err)
	}
	f.guard = newGuard(ctx, t, a, nodes, guardOptions{APIServers: apiservers, Intervals: kmsguard.Intervals{ReportInterval: probeInterval}})
	config := kmsControlPlaneConfig(f.plugins["master-0"])
	f.keyID = encryptionconfig.KMSKeysOf(config).IDs[0]
	f.guard.deployed(ctx, t, 1, config)
	startReporters(ctx, t, f.guard.Provider, f.keyID, f.plugins)
	f.guard.start(ctx)
	return f
}

// startReporters runs, until ctx ends, a health reporter per node for that node's plugin of keyID, writing to
// provider as library-go's sidecar would, every probeInterval.
func startReporters(ctx context.Context, t *testing.T, provider kms.EncryptionStatusProvider, keyID string, plugins map[string]*fake.Plugin) {
	t.Helper()
	for node, p := range plugins {
		plugin, err := pluginprobe.NewGRPCPlugin(ctx, keyID, p.Endpoint(), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		reporter := &pluginprobe.Reporter{
			Prober: pluginprobe.NewProber(node, []pluginprobe.Plugin{plugin}, time.Second, clock.RealClock{},
				pluginprobe.WithRoundTripInterval(roundTripInterval)),
			Provider:     provider,
			FieldManager: encryptionstatus.ReporterFieldManager(node),
			Interval:     probeInterval,
			WriteTimeout: 5 * time.Second,
		}
		go reporter.Run(ctx)
	}
}

// eventReasons are the reasons of kmsstate's events, in order.
func (f *kmsStateFixture) eventReasons() []string {
	return f.guard.eventReasons(kmsstate.EventPluginUnhealthy, kmsstate.EventPluginRecovered, kmsstate.EventKeyRotated,
		kmsstate.EventHealthReportRemoved, kmsstate.EventMemoryDiscarded)
}

// TestKMSStateReportsPluginOutage: a plugin that dies on one node turns KMSPluginsDegraded True with reason
// PluginUnreachable naming that node, within about one probe interval; back, it turns False again.
func TestKMSStateReportsPluginOutage(t *testing.T) {
	f := startKMSStateFixture(t)
	waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)

	f.plugins["master-1"].Stop()
	_, latency := waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionTrue, string(kmsstate.ReasonPluginUnreachable))
	t.Logf("detection latency, plugin stopped -> KMSPluginsDegraded=True/PluginUnreachable: %s (probe interval %s)", latency.Round(10*time.Millisecond), probeInterval)
	// The verdict behind the condition: master-1's plugin, and nothing on master-0.
	f.wantFailures(t, kmsstate.Failure{Reason: kmsstate.ReasonPluginUnreachable, Node: "master-1", KeyID: f.keyID})

	if err := f.plugins["master-1"].Start(); err != nil {
		t.Fatal(err)
	}
	_, latency = waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	t.Logf("recovery latency, plugin started -> KMSPluginsDegraded=False: %s", latency.Round(10*time.Millisecond))

	if got := strings.Join(f.eventReasons(), ","); got != kmsstate.EventPluginUnhealthy+","+kmsstate.EventPluginRecovered {
		t.Errorf("events %s, want one KMSPluginUnhealthy and one KMSPluginRecovered", got)
	}
}

// TestKMSStateTellsPluginAnswerFromOutage: a plugin whose Status answers with a gRPC error of its own
// (FailedPrecondition "key disabled", as upstream's test plugin does) is reachable, so KMSPluginsDegraded says
// PluginUnhealthy naming the node and the code, not PluginUnreachable; a stopped plugin still says
// PluginUnreachable; each clears when fixed.
func TestKMSStateTellsPluginAnswerFromOutage(t *testing.T) {
	f := startKMSStateFixture(t)
	waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	plugin := f.plugins["master-1"]

	plugin.FailMethodWith(fake.MethodStatus, codes.FailedPrecondition, "key disabled")
	_, latency := waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionTrue, string(kmsstate.ReasonPluginUnhealthy))
	t.Logf("detection latency, Status answers FailedPrecondition -> PluginUnhealthy: %s", latency.Round(10*time.Millisecond))
	// master-1's plugin only, as answering unhealthy only: not unreachable.
	f.wantFailures(t, kmsstate.Failure{Reason: kmsstate.ReasonPluginUnhealthy, Node: "master-1", KeyID: f.keyID})

	plugin.FailMethodWith(fake.MethodStatus, codes.OK, "")
	_, latency = waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	t.Logf("recovery latency, Status answers again -> KMSPluginsDegraded=False: %s", latency.Round(10*time.Millisecond))

	plugin.Stop()
	_, latency = waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionTrue, string(kmsstate.ReasonPluginUnreachable))
	t.Logf("detection latency, plugin stopped -> PluginUnreachable: %s", latency.Round(10*time.Millisecond))
	f.wantFailures(t, kmsstate.Failure{Reason: kmsstate.ReasonPluginUnreachable, Node: "master-1", KeyID: f.keyID})

	if err := plugin.Start(); err != nil {
		t.Fatal(err)
	}
	_, latency = waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	t.Logf("recovery latency, plugin started -> KMSPluginsDegraded=False: %s", latency.Round(10*time.Millisecond))
}

// TestKMSStateFollowsKeyRotation: a new remote key_id sets KMSKeyRotationProgressing True (old -> new) until
// every node's plugin reports it and the kube-apiserver uses it, then False, with a KMSKeyRotated event.
func TestKMSStateFollowsKeyRotation(t *testing.T) {
	f := startKMSStateFixture(t)
	waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	// Every node settles on the first KEK before the rotation, so that kmsstate knows what it rotates from.
	oldKey := f.kms.CurrentKEKID()
	waitForKMSState(t, f.guard.KMSState, "every node on KEK "+oldKey, func(s kmsstate.State) bool {
		kek, ok := s.SettledKEKID(f.keyID)
		return ok && kek == oldKey
	})

	newKey := f.kms.Rotate()
	want := kmsstate.Rotation{KeyID: f.keyID, From: oldKey, To: newKey}
	_, latency := waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSKeyRotationProgressing, operatorv1.ConditionTrue, kmsstate.ReasonKeyRotationInProgress)
	t.Logf("rotation noticed after %s", latency.Round(10*time.Millisecond))
	// The rotation the condition reports, in progress or (should it have completed since) completed.
	state, err := f.guard.KMSState.Current()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(append(state.Rotations, state.LastCompleted[f.keyID]), func(r kmsstate.Rotation) bool { return sameRotation(r, want) }) {
		t.Errorf("kmsstate's rotations %+v (last completed %+v), want %s", state.Rotations, state.LastCompleted[f.keyID], want)
	}

	_, latency = waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	t.Logf("rotation complete after %s more", latency.Round(10*time.Millisecond))
	if latest, ok := f.guard.KMSState.LatestRotation(f.keyID); !ok || !sameRotation(latest, want) || latest.Completed.IsZero() {
		t.Errorf("kmsstate's latest rotation of key %s is %+v (%v), want %s completed", f.keyID, latest, ok, want)
	}
	if !strings.Contains(strings.Join(f.eventReasons(), ","), kmsstate.EventKeyRotated) {
		t.Errorf("no %s event: %v", kmsstate.EventKeyRotated, f.eventReasons())
	}
}

// TestKMSStateActiveProbeCatchesRevokedDecrypt: the key is disabled while the plugins' Status still says "ok";
// the active round trip, on its own slower interval, reports every node's plugin Unhealthy (PluginUnhealthy), the
// failure stays while the key is disabled, every probe trying the round trip again, and clears once the key is
// restored. The detection bound is pluginprobe's to test; this test waits with a generous timeout.
func TestKMSStateActiveProbeCatchesRevokedDecrypt(t *testing.T) {
	f := startKMSStateFixture(t)
	waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	// Only its node's reporter calls master-1's plugin; the apiserver uses master-0's.
	plugin := f.plugins["master-1"]

	if err := f.kms.Disable(f.kms.CurrentKEKID()); err != nil {
		t.Fatal(err)
	}
	_, latency := waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionTrue, string(kmsstate.ReasonPluginUnhealthy))
	t.Logf("detection latency, key disabled (Status still ok) -> PluginUnhealthy: %s (round-trip interval %s, report interval %s)",
		latency.Round(10*time.Millisecond), roundTripInterval, probeInterval)
	// Status still answers healthy, so what made the plugins Unhealthy is the round trip.
	probe, err := pluginprobe.NewGRPCPlugin(t.Context(), f.keyID, plugin.Endpoint(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if status, err := probe.Service.Status(t.Context()); err != nil || status.Healthz != "ok" {
		t.Fatalf("with the key disabled, the plugin's Status answers %+v, %v; want healthz ok", status, err)
	}
	waitForKMSState(t, f.guard.KMSState, "every node's plugin Unhealthy", func(s kmsstate.State) bool {
		return len(s.Plugins) == 2 && !slices.ContainsFunc(s.Plugins, func(p kmsstate.Plugin) bool { return p.Health != kmsstate.PluginUnhealthy })
	})

	// The failure is not forgotten between round trips: each of master-1's probes makes the round trip again, for
	// more than a round-trip interval's worth of probes, and the failure never clears meanwhile (kmsstate would
	// record that with a KMSPluginRecovered event).
	before := plugin.Calls()
	probes := int64(roundTripInterval/probeInterval) + 1
	waitFor(t, fmt.Sprintf("%d more probes of master-1's plugin", probes), func() bool {
		return plugin.Calls()[fake.MethodStatus]-before[fake.MethodStatus] >= probes
	})
	after := plugin.Calls()
	statusCalls, roundTrips := after[fake.MethodStatus]-before[fake.MethodStatus], after[fake.MethodEncrypt]-before[fake.MethodEncrypt]
	// One probe may have called Status and not yet Encrypt.
	if roundTrips < statusCalls-1 {
		t.Errorf("%d probes made %d round trips: a failed round trip is to be made again every probe", statusCalls, roundTrips)
	}
	if slices.Contains(f.eventReasons(), kmsstate.EventPluginRecovered) {
		t.Errorf("a failure cleared while the key was disabled: events %v", f.eventReasons())
	}
	state, err := f.guard.KMSState.Current()
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(state.Plugins, func(p kmsstate.Plugin) bool { return p.Node == "master-1" }); i < 0 || state.Plugins[i].Health != kmsstate.PluginUnhealthy {
		t.Errorf("after %d probes with the key disabled, kmsstate's plugins are %+v; want master-1's Unhealthy", statusCalls, state.Plugins)
	}

	if err := f.kms.Restore(f.kms.CurrentKEKID()); err != nil {
		t.Fatal(err)
	}
	_, latency = waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	t.Logf("recovery latency, key restored -> KMSPluginsDegraded=False: %s", latency.Round(10*time.Millisecond))
}

// TestKMSStateRemovesOrphanedReports: the stale report of a node that left the control plane is removed by
// applying, as that node's reporter, its reports without it; the live nodes' reports stay.
func TestKMSStateRemovesOrphanedReports(t *testing.T) {
	f := startKMSStateFixture(t)
	waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)

	// What a reporter on a since-removed node left behind an hour ago.
	gone := applyoperatorv1.KMSEncryptionStatus().WithHealthReports(applyoperatorv1.KMSPluginHealthReport().
		WithNodeName("master-9").WithKeyID(f.keyID).WithStatus(operatorv1.KMSPluginHealthStatusHealthy).
		WithRemoteKeyID(f.kms.CurrentKEKID()).WithLastCheckedTime(metav1.NewTime(time.Now().Add(-time.Hour))))
	if err := f.guard.Provider.ApplyKMSEncryptionStatus(context.Background(), encryptionstatus.ReporterFieldManager("master-9"), gone); err != nil {
		t.Fatal(err)
	}

	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		status, err := f.guard.Provider.GetKMSEncryptionStatus(ctx)
		if err != nil {
			return false, nil
		}
		nodes := map[string]bool{}
		for _, r := range status.HealthReports {
			nodes[r.NodeName] = true
		}
		return !nodes["master-9"] && nodes["master-0"] && nodes["master-1"], nil
	})
	if err != nil {
		t.Fatalf("the orphaned report of master-9 was not removed while master-0's and master-1's stayed: %v", err)
	}
	if !strings.Contains(strings.Join(f.eventReasons(), ","), kmsstate.EventHealthReportRemoved) {
		t.Errorf("no %s event: %v", kmsstate.EventHealthReportRemoved, f.eventReasons())
	}
}

// wantFailures checks kmsstate's latest evaluation: its failures are want, Detail aside (the prose of the
// condition message).
func (f *kmsStateFixture) wantFailures(t *testing.T, want ...kmsstate.Failure) {
	t.Helper()
	state, err := f.guard.KMSState.Current()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, withoutDetail(state.Failures), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("kmsstate's failures (-want +got):\n%s", diff)
	}
}

// sameRotation compares what a rotation is, not when it was seen.
func sameRotation(a, b kmsstate.Rotation) bool {
	return a.KeyID == b.KeyID && a.From == b.From && a.To == b.To
}
