package e2e

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/revisioncontroller"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/clock"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsguard"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// TestKMSPreconditionGatesRevision runs library-go's real revision controller against a real apiserver and the
// real KubeAPIServer resource, gated by kmsguard as the operator wires it and fed by a health reporter per node
// whose plugin runs ahead of its revision:
//  1. with master-1's plugin dead, a revision without KMS is still created (nothing KMS changes);
//  2. an encryption-config that adds KMS key 1 as a read key creates no revision, since a node reports its plugin
//     failing, and sets KMSRolloutGateProgressing True (KMSPluginsNotHealthy, naming master-1) but not Degraded;
//  3. once the plugin is back, revision 2 is created with no other action, admitted on the plugins' health, and
//     the gate reports AsExpected.
//
// No preflight result is bound to key 1 (envtest runs no preflight pod and library-go made no key), so the plugins'
// reports are the only evidence.
func TestKMSPreconditionGatesRevision(t *testing.T) {
	const keyID = "1"
	ctx, g, plugins := startGateFixture(t, keyID)
	operator, kubeClient := g.Operator, g.kube

	// library-go's revision controller, gated as staticpod.NewBuilder wires it.
	revisionController := newRevisionController(t, g)
	g.start(ctx)
	go revisionController.Run(ctx, 1)

	// 1. A revision that changes no KMS is created although master-1's plugin is dead.
	waitForLatestRevision(t, operator, 1)

	// 2. encryption-config adds KMS key 1 as a read key, as library-go's state controller does: no revision.
	data := ectest.Marshal(t, ectest.Secrets(ectest.Identity(), ectest.KMS(keyID)))
	if _, err := kubeClient.CoreV1().Secrets(operandNamespace).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "encryption-config"}, Data: map[string][]byte{"encryption-config": data},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Wait until the gate blocks on the plugins' health and kmsstate has seen master-1's reporter's Error.
	start := time.Now()
	waitForCondition(t, operator, kmsprecondition.ConditionProgressing, operatorv1.ConditionTrue, string(kmsprecondition.ReasonKMSPluginsNotHealthy))
	waitForKeyFailingOn(t, g, keyID, "master-1")
	t.Logf("blocked after %s", time.Since(start).Round(10*time.Millisecond))
	// The gate answered false in the sync that set the condition, and keeps answering false while the plugin
	// is dead: revision 2 is not available. revision-status-2 may exist, not ready: when the revision
	// controller's informer saw encryption-config before the gate's live read did, Precondition passed and
	// ReadinessCheck refused the copy, which is what it is for.
	if _, status, _, err := operator.GetOperatorState(); err != nil || status.LatestAvailableRevision != 1 {
		t.Errorf("latestAvailableRevision = %d (%v), want 1 while blocked", status.LatestAvailableRevision, err)
	}
	switch status2, err := kubeClient.CoreV1().ConfigMaps(operandNamespace).Get(ctx, "revision-status-2", metav1.GetOptions{}); {
	case apierrors.IsNotFound(err):
		t.Logf("revision 2 was refused by Precondition")
	case err != nil:
		t.Fatal(err)
	case status2.Annotations["operator.openshift.io/revision-ready"] == "true":
		t.Errorf("revision 2 is ready while the gate blocks it")
	default:
		t.Logf("revision 2 was assembled and refused by ReadinessCheck")
	}
	if degraded := gateCondition(t, operator, kmsprecondition.ConditionDegraded); degraded.Status != operatorv1.ConditionFalse {
		t.Errorf("KMSRolloutGateDegraded = %+v, want False before DegradedAfter", degraded)
	}
	// The plugin that runs ahead of its revision is pending on both nodes: kmsstate's verdict is not Degraded.
	if degraded := gateCondition(t, operator, kmsstate.ConditionKMSPluginsDegraded); degraded.Status != operatorv1.ConditionFalse {
		t.Errorf("KMSPluginsDegraded = %+v, want False: no node runs key 1 yet", degraded)
	}

	// 3. The plugin comes back; the revision follows without any other action.
	if err := plugins["master-1"].Start(); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	waitForLatestRevision(t, operator, 2)
	t.Logf("revision 2 created %s after the plugin came back (report interval %s)", time.Since(start).Round(10*time.Millisecond), probeInterval)
	copied, err := kubeClient.CoreV1().Secrets(operandNamespace).Get(ctx, "encryption-config-2", metav1.GetOptions{})
	if err != nil || string(copied.Data["encryption-config"]) != string(data) {
		t.Fatalf("encryption-config-2 is not the candidate: %v", err)
	}
	waitForCondition(t, operator, kmsprecondition.ConditionProgressing, operatorv1.ConditionFalse, string(kmsprecondition.ReasonAsExpected))
	// What admitted key 1: its plugin healthy on every node, ahead of its revision.
	if state, err := g.KMSState.Current(); err != nil {
		t.Fatal(err)
	} else if err := state.Healthy(g.nodes, []string{keyID}); err != nil {
		t.Errorf("the gate admitted key %s while kmsstate says: %v", keyID, err)
	}
	reasons := g.eventReasons(kmsprecondition.EventBlocked, kmsprecondition.EventUnblocked, kmsprecondition.EventDegraded, kmsprecondition.EventForced)
	if got := strings.Join(reasons, ","); got != kmsprecondition.EventBlocked+","+kmsprecondition.EventUnblocked {
		t.Errorf("gate events %s, want %s,%s", got, kmsprecondition.EventBlocked, kmsprecondition.EventUnblocked)
	}
}

func waitForLatestRevision(t *testing.T, operator v1helpers.OperatorClient, want int32) {
	t.Helper()
	var last int32
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 2*time.Minute, true, func(context.Context) (bool, error) {
		_, status, _, err := operator.GetOperatorState()
		if err != nil {
			return false, nil
		}
		last = status.LatestAvailableRevision
		return last == want, nil
	})
	if err != nil {
		t.Fatalf("latestAvailableRevision never became %d (last %d)", want, last)
	}
}

func gateCondition(t *testing.T, operator v1helpers.OperatorClient, conditionType string) operatorv1.OperatorCondition {
	t.Helper()
	_, status, _, err := operator.GetOperatorState()
	if err != nil {
		t.Fatal(err)
	}
	c := v1helpers.FindOperatorCondition(status.Conditions, conditionType)
	if c == nil {
		t.Fatalf("no %s condition", conditionType)
	}
	return *c
}

// TestKMSPreconditionRefusesDroppingAESCBCReadKey runs the gate on raw etcd evidence against a real apiserver and
// library-go's revision controller: Secrets were written under aescbc, KMS v2 was added as a read key (revision 1)
// and became their write key (revision 2), and encryption-config then drops the aescbc read key:
//  1. before any migration the census counts the Secrets under aescbc:1, KMSEncryptionVerified is False and
//     no revision is created (KMSRolloutGateProgressing True ReadKeyStillInUse, naming the count and the
//     evidence);
//  2. the Migrator rewrites them; the census verifies every Secret under the KMS KEK id, and revision 3 is
//     created once the rollback window (a short one here) has passed since the migration finished, not before.
func TestKMSPreconditionRefusesDroppingAESCBCReadKey(t *testing.T) {
	const (
		node     = "master-0"
		secrets  = 20
		window   = 15 * time.Second
		aescbcID = "1"
	)
	kms := fake.NewKMS()
	plugin := fake.StartForTest(t, kms)
	cp := kmsenv.StartForTest(t, kmsenv.Options{APIServerOptions: kmsenv.APIServerOptions{
		EncryptionConfig: ectest.Secrets(ectest.AESCBC(aescbcID, ectest.AESKeyA), ectest.Identity()),
	}})
	a := cp.APIServer(0)
	createSecrets(t, a.Client(), "gate", secrets)
	// KMS v2 writes, aescbc reads: what revision 1 will say.
	withAESCBC := ectest.Secrets(kmsenv.KMSv2Provider(providerName, plugin.Endpoint()), ectest.AESCBC(aescbcID, ectest.AESKeyA), ectest.Identity())
	if err := a.Restart(kmsenv.APIServerOptions{EncryptionConfig: withAESCBC}); err != nil {
		t.Fatal(err)
	}
	etcd, err := cp.EtcdClient()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)

	// kmsguard with its migrator and the census of etcd; the API's object count confirms that the scan looked where
	// the Secrets are.
	counter := metadataCounter(t, a)
	g := newGuard(ctx, t, a, []string{node}, guardOptions{
		Migration: true,
		Etcd:      &kmsguard.EtcdOptions{KV: etcd, Prefix: "/registry", Metadata: counter.Client, Mapper: counter.Mapper},
		Intervals: kmsguard.Intervals{ReportInterval: probeInterval, Census: time.Second, RollbackWindow: window},
	})
	operator, kubeClient, migrator := g.Operator, a.Client(), g.KMSMigrator
	if _, err := kubeClient.CoreV1().ConfigMaps(operandNamespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "kube-apiserver-pod"}, Data: map[string]string{"pod.yaml": "the static pod"},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// A reporter for the plugin: the health of the KMS key and the KEK id it settles on. The provider's endpoint
	// is not library-go's, so the key is named after the provider (encryptionconfig.KMSKeyID).
	keyID := encryptionconfig.KMSKeyID(providerName, plugin.Endpoint())
	startReporters(ctx, t, g.Provider, keyID, map[string]*fake.Plugin{node: plugin})
	revisionController := newRevisionController(t, g)

	// Revisions 1 and 2 are library-go's two steps to the config the apiserver runs: KMS v2 added as a read key
	// (admitted on its plugin's health), then made the write key (its plugin healthy on one settled KEK id).
	readOnly := ectest.Secrets(ectest.AESCBC(aescbcID, ectest.AESKeyA), kmsenv.KMSv2Provider(providerName, plugin.Endpoint()), ectest.Identity())
	if _, err := kubeClient.CoreV1().Secrets(operandNamespace).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "encryption-config"}, Data: map[string][]byte{"encryption-config": ectest.Marshal(t, readOnly)},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	g.start(ctx)
	go revisionController.Run(ctx, 1)
	start := time.Now()
	waitForLatestRevision(t, operator, 1)
	t.Logf("revision 1 (aescbc writes, KMS v2 reads) after %s", time.Since(start).Round(10*time.Millisecond))
	updateEncryptionConfig(ctx, t, kubeClient, ectest.Marshal(t, withAESCBC))
	waitForLatestRevision(t, operator, 2)
	t.Logf("revision 2 (KMS v2 writes, aescbc reads) after %s", time.Since(start).Round(10*time.Millisecond))

	// 1. encryption-config drops the aescbc read key while every Secret is still under it.
	withoutAESCBC := ectest.Marshal(t, ectest.Secrets(kmsenv.KMSv2Provider(providerName, plugin.Endpoint()), ectest.Identity()))
	updateEncryptionConfig(ctx, t, kubeClient, withoutAESCBC)
	start = time.Now()
	// The gate's evidence, the census of etcd, judged by the rule the gate applies: every Secret still under aescbc.
	aescbcKey := evidence.ReadKey{Kind: etcdvalue.KindAESCBC, Name: aescbcID}
	var pruneErr *evidence.PruneError
	waitFor(t, "the census to find every Secret under aescbc", func() bool {
		err := canDropReadKey(ctx, t, g, aescbcKey, window)
		return errors.As(err, &pruneErr) && pruneErr.Reason == evidence.PruneObjectsUnderKey
	})
	if pruneErr.Objects != secrets || !slices.Equal(pruneErr.Resources, []string{"secrets"}) {
		t.Errorf("the census finds %d objects of %v under %s, want %d Secrets", pruneErr.Objects, pruneErr.Resources, aescbcKey, secrets)
	}
	waitForCondition(t, operator, kmsprecondition.ConditionProgressing, operatorv1.ConditionTrue, string(kmsprecondition.ReasonReadKeyStillInUse))
	t.Logf("refused after %s", time.Since(start).Round(10*time.Millisecond))
	if verified := gateCondition(t, operator, evidence.ConditionVerified); verified.Status != operatorv1.ConditionFalse {
		t.Errorf("KMSEncryptionVerified = %+v before the migration, want False", verified)
	}
	if _, status, _, err := operator.GetOperatorState(); err != nil || status.LatestAvailableRevision != 2 {
		t.Errorf("latestAvailableRevision = %d (%v), want 2 while the aescbc read key holds data", status.LatestAvailableRevision, err)
	}

	// 2. Migrate; the census verifies; the window passes; the revision follows by itself. Meanwhile the gate's
	// Progressing is watched: a change held by the rollback window alone waits on time, with nothing in progress,
	// so it must never be Progressing=True for it.
	gateStates := watchGateProgressing(t, operator)
	if _, _, _, err := migrator.EnsureMigration(secretsGR, keyID); err != nil {
		t.Fatal(err)
	}
	p := waitMigration(t, migrator, kmsmigration.Target{WriteKey: keyID})
	if p.Result != nil || p.Counts.Done() < secrets {
		t.Fatalf("migration: %s: %v", p, p.Result)
	}
	finished, err := migrator.LastFinished(ctx, secretsGR)
	if err != nil || finished.IsZero() {
		t.Fatalf("the migrator knows no finished migration of secrets: %v", err)
	}
	// The revision controller may copy the candidate into encryption-config-2 and revision-status-2 before the
	// window ends (its informer sees the new source while the gate's Precondition still read the old one); the
	// ReadinessCheck then keeps that revision from becoming available. So the property is on
	// latestAvailableRevision: it stays 2 for as long as the window lasts, then becomes 3 by itself. The wait
	// polls every 100 ms, so a revision 3 made before the window ended is seen before it ends.
	windowEnd := finished.Add(window)
	waitFor(t, "the census after the migration to find no Secret under aescbc, within the rollback window", func() bool {
		err := canDropReadKey(ctx, t, g, aescbcKey, window)
		if err == nil && time.Now().Before(windowEnd) {
			t.Fatalf("the census lets %s be dropped before the rollback window ends at %s", aescbcKey, windowEnd)
		}
		return errors.As(err, &pruneErr) && pruneErr.Reason == evidence.PruneRollbackWindow
	})
	waitForLatestRevision(t, operator, 3)
	if seen := time.Now(); seen.Before(windowEnd) {
		t.Fatalf("latestAvailableRevision 3 at %s, before the rollback window ends at %s", seen.Format(time.RFC3339Nano), windowEnd.Format(time.RFC3339Nano))
	}
	t.Logf("revision 3 available %s after the migration finished (window %s)", time.Since(finished).Round(10*time.Millisecond), window)
	// The gate's own record: allowed now, and while the window held the change it said so with Progressing False.
	if allowed := gateCondition(t, operator, kmsprecondition.ConditionProgressing); allowed.Status != operatorv1.ConditionFalse ||
		allowed.Reason != string(kmsprecondition.ReasonAsExpected) {
		t.Errorf("KMSRolloutGateProgressing %s %s after revision 3, want False AsExpected", allowed.Status, allowed.Reason)
	}
	seen := gateStates()
	t.Logf("KMSRolloutGateProgressing during the migration and the window: %v", seen)
	if slices.Contains(seen, "True/"+string(kmsprecondition.ReasonRollbackWindowNotPassed)) {
		t.Errorf("the gate was Progressing=True for the rollback window, which waits on time alone: %v", seen)
	}
	copied, err := kubeClient.CoreV1().Secrets(operandNamespace).Get(ctx, "encryption-config-3", metav1.GetOptions{})
	if err != nil || string(copied.Data["encryption-config"]) != string(withoutAESCBC) {
		t.Fatalf("encryption-config-3 is not the candidate without aescbc: %v", err)
	}
	if verified := gateCondition(t, operator, evidence.ConditionVerified); verified.Status != operatorv1.ConditionTrue {
		t.Errorf("KMSEncryptionVerified = %+v after the migration, want True", verified)
	}
	// What let revision 3 through: the census finds no value under aescbc, and the window has passed.
	if err := canDropReadKey(ctx, t, g, aescbcKey, window); err != nil {
		t.Errorf("revision 3 dropped %s while the census says: %v", aescbcKey, err)
	}
}

// watchGateProgressing polls KMSRolloutGateProgressing every 100 ms until the returned function is called (or the
// test ends), which returns each status/reason seen, in order, once.
func watchGateProgressing(t *testing.T, operator v1helpers.OperatorClient) func() []string {
	t.Helper()
	done, stopped := make(chan struct{}), make(chan struct{})
	var seen []string
	go func() {
		defer close(stopped)
		ticker := time.NewTicker(100 * time.Millisecond)
		defer ticker.Stop()
		for {
			if _, status, _, err := operator.GetOperatorState(); err == nil {
				if c := v1helpers.FindOperatorCondition(status.Conditions, kmsprecondition.ConditionProgressing); c != nil {
					if state := string(c.Status) + "/" + c.Reason; len(seen) == 0 || seen[len(seen)-1] != state {
						seen = append(seen, state)
					}
				}
			}
			select {
			case <-done:
				return
			case <-ticker.C:
			}
		}
	}()
	var once sync.Once
	stop := func() { once.Do(func() { close(done); <-stopped }) }
	t.Cleanup(stop)
	return func() []string {
		stop()
		return seen
	}
}

// canDropReadKey judges dropping key from Secrets as the gate does: evidence.CanDropReadKey of kmsguard's census
// of etcd (the gate's Options.Census), with the rollback window.
func canDropReadKey(ctx context.Context, t *testing.T, g *guard, key evidence.ReadKey, window time.Duration) error {
	t.Helper()
	report, finished, err := g.Census.ReadKeyEvidence(ctx, secretsGR)
	if err != nil {
		t.Fatal(err)
	}
	return evidence.CanDropReadKey(report, key, finished, window, time.Now())
}

// waitForKeyFailingOn waits until kmsstate finds keyID failing on node, and on no other node, as the gate asks it
// about every node (State.Healthy).
func waitForKeyFailingOn(t *testing.T, g *guard, keyID, node string) {
	t.Helper()
	waitForKMSState(t, g.KMSState, "key "+keyID+" failing on "+node+" only", func(s kmsstate.State) bool {
		var unhealthy *kmsstate.UnhealthyError
		if !errors.As(s.Healthy(g.nodes, []string{keyID}), &unhealthy) {
			return false
		}
		return !slices.ContainsFunc(unhealthy.Failures, func(f kmsstate.Failure) bool { return f.Node != node || f.KeyID != keyID })
	})
}

// newRevisionController is library-go's revision controller as staticpod.NewBuilder builds it for
// kube-apiserver-operator (less the revisioned resources these tests have no use for), gated by kmsguard.
func newRevisionController(t *testing.T, g *guard) factory.Controller {
	t.Helper()
	return revisioncontroller.NewRevisionController("kube-apiserver", operandNamespace,
		[]revisioncontroller.RevisionResource{{Name: "kube-apiserver-pod"}},
		[]revisioncontroller.RevisionResource{{Name: "encryption-config", Optional: true}},
		g.Informers.InformersFor(operandNamespace), g.Operator,
		v1helpers.CachedConfigMapGetter(g.kube.CoreV1(), g.Informers), v1helpers.CachedSecretGetter(g.kube.CoreV1(), g.Informers),
		events.NewInMemoryRecorder("revision-controller-e2e", clock.RealClock{}), g.Precondition, g.ReadinessCheck)
}

// startGateFixture starts an apiserver, kmsguard on the real KubeAPIServer resource for master-0 and master-1, the
// operand's kube-apiserver-pod ConfigMap, and a health reporter per node for keyID whose plugin runs ahead of any
// revision (as in kmsstate_test.go); master-1's plugin is stopped. The guard is not started.
func startGateFixture(t *testing.T, keyID string) (context.Context, *guard, map[string]*fake.Plugin) {
	t.Helper()
	kms := fake.NewKMS()
	nodes := []string{"master-0", "master-1"}
	plugins := map[string]*fake.Plugin{}
	for _, node := range nodes {
		plugins[node] = fake.StartForTest(t, kms)
	}
	plugins["master-1"].Stop()
	cp := startKMSControlPlane(t, plugins["master-0"])
	a := cp.APIServer(0)
	// Registered after the control plane, so that clients and watches end before the apiserver stops.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)

	g := newGuard(ctx, t, a, nodes, guardOptions{Intervals: kmsguard.Intervals{ReportInterval: probeInterval}})
	if _, err := g.kube.CoreV1().ConfigMaps(operandNamespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "kube-apiserver-pod"}, Data: map[string]string{"pod.yaml": "the static pod"},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	startReporters(ctx, t, g.Provider, keyID, plugins)
	return ctx, g, plugins
}

// updateEncryptionConfig writes the candidate encryption config, as library-go's resource sync does.
func updateEncryptionConfig(ctx context.Context, t *testing.T, kubeClient kubernetes.Interface, data []byte) {
	t.Helper()
	current, err := kubeClient.CoreV1().Secrets(operandNamespace).Get(ctx, "encryption-config", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	current.Data["encryption-config"] = data
	if _, err := kubeClient.CoreV1().Secrets(operandNamespace).Update(ctx, current, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}
