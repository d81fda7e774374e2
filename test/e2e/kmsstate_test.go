package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
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
	cond, latency := waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionTrue, string(kmsstate.ReasonPluginUnreachable))
	t.Logf("detection latency, plugin stopped -> KMSPluginsDegraded=True/PluginUnreachable: %s (probe interval %s)", latency.Round(10*time.Millisecond), probeInterval)
	if !strings.Contains(cond.Message, "node master-1 key "+f.keyID) || strings.Contains(cond.Message, "master-0") {
		t.Errorf("message %q should name master-1 and only master-1", cond.Message)
	}

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
	cond, latency := waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionTrue, string(kmsstate.ReasonPluginUnhealthy))
	t.Logf("detection latency, Status answers FailedPrecondition -> PluginUnhealthy: %s: %s", latency.Round(10*time.Millisecond), cond.Message)
	for _, want := range []string{"node master-1 key " + f.keyID, "code = FailedPrecondition", "key disabled"} {
		if !strings.Contains(cond.Message, want) {
			t.Errorf("message %q does not say %q", cond.Message, want)
		}
	}
	if strings.Contains(cond.Message, "master-0") || strings.Contains(cond.Message, string(kmsstate.ReasonPluginUnreachable)) {
		t.Errorf("message %q should name master-1 only, as unhealthy only", cond.Message)
	}

	plugin.FailMethodWith(fake.MethodStatus, codes.OK, "")
	_, latency = waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	t.Logf("recovery latency, Status answers again -> KMSPluginsDegraded=False: %s", latency.Round(10*time.Millisecond))

	plugin.Stop()
	cond, latency = waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionTrue, string(kmsstate.ReasonPluginUnreachable))
	t.Logf("detection latency, plugin stopped -> PluginUnreachable: %s: %s", latency.Round(10*time.Millisecond), cond.Message)
	if !strings.Contains(cond.Message, "node master-1 key "+f.keyID) || strings.Contains(cond.Message, "master-0") {
		t.Errorf("message %q should name master-1 and only master-1", cond.Message)
	}

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
	// Let every node settle on key-1 before rotating.
	waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	time.Sleep(probeInterval + time.Second)

	oldKey := f.kms.CurrentKEKID()
	newKey := f.kms.Rotate()
	cond, latency := waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSKeyRotationProgressing, operatorv1.ConditionTrue, kmsstate.ReasonKeyRotationInProgress)
	if want := oldKey + " -> " + newKey; !strings.Contains(cond.Message, want) {
		t.Errorf("message %q does not say %q", cond.Message, want)
	}
	t.Logf("rotation noticed after %s: %s", latency.Round(10*time.Millisecond), cond.Message)

	cond, latency = waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	t.Logf("rotation complete after %s more: %s", latency.Round(10*time.Millisecond), cond.Message)
	if !strings.Contains(cond.Message, newKey) {
		t.Errorf("message %q does not name the completed rotation to %s", cond.Message, newKey)
	}
	if !strings.Contains(strings.Join(f.eventReasons(), ","), kmsstate.EventKeyRotated) {
		t.Errorf("no %s event: %v", kmsstate.EventKeyRotated, f.eventReasons())
	}
}

// TestKMSStateActiveProbeCatchesRevokedDecrypt: the key is disabled while the plugins' Status still says "ok";
// the active round trip, on its own slower interval, reports it within the detection bound (round-trip interval
// plus one report interval), KMSPluginsDegraded says PluginUnhealthy with the failed step and stays so while the
// key is disabled, across round-trip intervals, and the recovery is seen within about one report interval.
func TestKMSStateActiveProbeCatchesRevokedDecrypt(t *testing.T) {
	f := startKMSStateFixture(t)
	waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)

	if err := f.kms.Disable(f.kms.CurrentKEKID()); err != nil {
		t.Fatal(err)
	}
	cond, latency := waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionTrue, string(kmsstate.ReasonPluginUnhealthy))
	t.Logf("detection latency, key disabled (Status still ok) -> PluginUnhealthy: %s (round-trip interval %s, report interval %s)",
		latency.Round(10*time.Millisecond), roundTripInterval, probeInterval)
	if !strings.Contains(cond.Message, "round trip failed") {
		t.Errorf("message %q does not name the failed round trip", cond.Message)
	}
	// The bound of pluginprobe's package documentation, with the reporters' jitter and a margin for the
	// controller's sync.
	if bound := roundTripInterval + probeInterval*11/10 + 3*time.Second; latency > bound {
		t.Errorf("detection took %s, more than the bound %s", latency.Round(10*time.Millisecond), bound)
	}

	// The failure is not forgotten between round trips: it holds through more than a round-trip interval.
	deadline := time.Now().Add(roundTripInterval + probeInterval)
	for time.Now().Before(deadline) {
		_, status, _, err := f.guard.Operator.GetOperatorState()
		if err != nil {
			t.Fatal(err)
		}
		if c := v1helpers.FindOperatorCondition(status.Conditions, kmsstate.ConditionKMSPluginsDegraded); c == nil || c.Status != operatorv1.ConditionTrue || !strings.Contains(c.Message, "round trip failed") {
			t.Fatalf("while the key is disabled, KMSPluginsDegraded turned to %+v", c)
		}
		time.Sleep(500 * time.Millisecond)
	}

	if err := f.kms.Restore(f.kms.CurrentKEKID()); err != nil {
		t.Fatal(err)
	}
	_, latency = waitForCondition(t, f.guard.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, kmsstate.ReasonAsExpected)
	t.Logf("recovery latency, key restored -> KMSPluginsDegraded=False: %s", latency.Round(10*time.Millisecond))
	if bound := probeInterval*11/10 + 3*time.Second; latency > bound {
		t.Errorf("recovery took %s, more than one report interval (%s): a failed round trip must be repeated every interval", latency.Round(10*time.Millisecond), bound)
	}
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
