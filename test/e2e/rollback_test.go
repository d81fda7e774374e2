package e2e

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	operatorv1client "github.com/openshift/client-go/operator/clientset/versioned/typed/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/utils/clock"
	"sigs.k8s.io/yaml"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsguard"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// TestKMSRollbackRevertsDeadSocket rolls out, on a real kube-apiserver, a revision whose new KMS read provider
// points at a socket nothing listens on, and checks that kmsrollback brings the apiserver back:
//  1. revision 4 (KMS provider fake-kms) runs healthy;
//  2. revision 5 adds provider dead-kms; the apiserver restarts with it and /healthz/kms-providers fails; the
//     installer's verdict (nodeStatuses lastFailedRevision 5) is posted as library-go would post it;
//  3. kmsguard, wired as the operator wires it and fed by a health reporter per key, writes revision 4's config
//     back to openshift-config-managed/encryption-config-openshift-kube-apiserver and sets KMSRollbackDegraded True
//     (RevertedFailingKMSConfig), holding revision 5's config;
//  4. the apiserver restarted with what the controller wants is healthy again.
//
// Etcd holds no Secret written under the failing config, so the restart into revision 5 is not slowed by
// kube-apiserver's wait for the plugin to decrypt existing data.
func TestKMSRollbackRevertsDeadSocket(t *testing.T) {
	const (
		node         = "master-0"
		deadProvider = "dead-kms"
	)
	remote := fake.NewKMS()
	good := fake.StartForTest(t, remote)
	dir, err := os.MkdirTemp("", "kms") // short: unix socket paths are limited to 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	// The new key's plugin never serves: its socket does not exist. The node's reporter reports it as Error
	// with the remoteKeyID placeholder pluginprobe.UnknownKEKID, since the KubeAPIServer CRD requires one.
	dead := fake.NewPlugin(remote, filepath.Join(dir, "dead.sock"))

	cp := startKMSControlPlane(t, good)
	a := cp.APIServer(0)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)

	g := newGuard(ctx, t, a, []string{node}, guardOptions{Intervals: kmsguard.Intervals{ReportInterval: probeInterval}})
	operator, kubeClient := g.Operator, a.Client()
	goodConfig := ectest.Secrets(kmsenv.KMSv2Provider(providerName, good.Endpoint()), ectest.Identity())
	failingConfig := ectest.Secrets(kmsenv.KMSv2Provider(providerName, good.Endpoint()), kmsenv.KMSv2Provider(deadProvider, dead.Endpoint()), ectest.Identity())
	goodData := createRevisionConfig(t, kubeClient.CoreV1().Secrets(operandNamespace), 4, goodConfig)
	createRevisionConfig(t, kubeClient.CoreV1().Secrets(operandNamespace), 5, failingConfig)

	// The node's health reporter sees the good plugin healthy and the new key's unreachable.
	provider := g.Provider
	startNodeReporter(ctx, t, provider, node, map[string]*fake.Plugin{providerName: good, deadProvider: dead})
	waitForHealthReport(t, provider, node, deadProvider, operatorv1.KMSPluginHealthStatusError)

	// 2. Revision 5 rolls out to the node and fails there.
	start := time.Now()
	if err := a.Restart(kmsenv.APIServerOptions{EncryptionConfig: failingConfig, Wait: kmsenv.WaitLive}); err != nil {
		t.Fatal(err)
	}
	t.Logf("kube-apiserver with the dead KMS socket live after %s", time.Since(start).Round(10*time.Millisecond))
	waitForKMSHealth(t, a, 500)
	if err := operator.ApplyStaticPodOperatorStatus(ctx, "e2e-installer", applyoperatorv1.StaticPodOperatorStatus().
		WithLatestAvailableRevision(5).
		WithNodeStatuses(applyoperatorv1.NodeStatus().WithNodeName(node).WithCurrentRevision(4).WithTargetRevision(0).
			WithLastFailedRevision(5).WithLastFailedReason(string(kmsrollback.SourceOperandFailed)).WithLastFailedCount(1).WithLastFailedTime(metav1.Now()).
			WithLastFailedRevisionErrors("kube-apiserver: readyz check kms-providers failed"))); err != nil {
		t.Fatal(err)
	}

	// 3. kmsguard, as the operator runs it: kmsstate and the rollback controller.
	kubeAPIServers := operatorclient.NewForConfigOrDie(a.RESTConfig()).OperatorV1().KubeAPIServers()
	controllersCtx, stopControllers := context.WithCancel(ctx)
	g.start(controllersCtx)

	start = time.Now()
	waitForCondition(t, operator, kmsrollback.ConditionDegraded, operatorv1.ConditionTrue, string(kmsrollback.ReasonRevertedFailingKMSConfig))
	t.Logf("reverted %s after the controllers started", time.Since(start).Round(10*time.Millisecond))
	// The revert kmsrollback holds: revision 5 failed on master-0 with the new key, and revision 4's config is back.
	holds, err := kmsrollback.NewHoldStore(operatorstate.KubeAPIServer(kubeAPIServers)).Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if h := holds.Active(); h == nil || h.FailedRevision != 5 || h.RevertedTo != 4 || !slices.Equal(h.Nodes, []string{node}) || !slices.Equal(h.KeyIDs, []string{deadProvider}) {
		t.Errorf("kmsrollback holds %+v, want revision 5 of nodes [%s] and keys [%s] reverted to revision 4", holds, node, deadProvider)
	}
	// Its KMS evidence: kmsstate finds the new key's plugin unreachable on the node (pending there, now that the
	// node runs revision 4 again).
	var unhealthy *kmsstate.UnhealthyError
	want := kmsstate.Failure{Reason: kmsstate.ReasonPluginUnreachable, Node: node, KeyID: deadProvider}
	if state, err := g.KMSState.Current(); err != nil {
		t.Fatal(err)
	} else if err := state.Healthy([]string{node}, []string{deadProvider}); !errors.As(err, &unhealthy) || !slices.Contains(withoutDetail(unhealthy.Failures), want) {
		t.Errorf("kmsstate says of key %s on %s: %v; want %+v", deadProvider, node, err, want)
	}
	assertRevertedTo4(ctx, t, a, kubeAPIServers, goodData)
	desired, err := kubeClient.CoreV1().Secrets("openshift-config-managed").Get(ctx, "encryption-config-"+operandNamespace, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}

	// 4. The next revision carries the desired config; the node restarts with it and is healthy. The
	// controllers stop first: kube-apiserver does not finish its shutdown while their watches are open.
	stopControllers()
	var wanted apiserverv1.EncryptionConfiguration
	if err := yaml.Unmarshal(desired.Data["encryption-config"], &wanted); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if err := a.Restart(kmsenv.APIServerOptions{EncryptionConfig: &wanted}); err != nil {
		t.Fatal(err)
	}
	t.Logf("kube-apiserver with the reverted config healthy after %s", time.Since(start).Round(10*time.Millisecond))
	waitForKMSHealth(t, a, 200)
	if code, _, err := a.Get(ctx, "/readyz"); err != nil || code != 200 {
		t.Errorf("/readyz = %d (%v) under the reverted config", code, err)
	}
	// The revert stays reported while the failed config is held.
	if c := rollbackCondition(t, kubeAPIServers); c.Status != operatorv1.ConditionTrue || c.Reason != string(kmsrollback.ReasonRevertedFailingKMSConfig) {
		t.Errorf("KMSRollbackDegraded %+v after the revert rolled out, want True while revision 5's config is held", c)
	}
	if reverts := len(g.eventReasons(kmsrollback.EventReverted)); reverts != 1 {
		t.Errorf("%d %s events, want 1", reverts, kmsrollback.EventReverted)
	}
}

// startNodeReporter runs, until ctx ends, one health reporter for node that probes a plugin per key, as
// library-go's sidecar does on a node with several KMS keys. (startReporters runs one per node for a single key;
// two of them on one node would share the node's field manager and overwrite each other's reports.)
func startNodeReporter(ctx context.Context, t *testing.T, provider kms.EncryptionStatusProvider, node string, plugins map[string]*fake.Plugin) {
	t.Helper()
	var probes []pluginprobe.Plugin
	for keyID, p := range plugins {
		plugin, err := pluginprobe.NewGRPCPlugin(ctx, keyID, p.Endpoint(), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		probes = append(probes, plugin)
	}
	reporter := &pluginprobe.Reporter{
		Prober:       pluginprobe.NewProber(node, probes, time.Second, clock.RealClock{}),
		Provider:     provider,
		FieldManager: encryptionstatus.ReporterFieldManager(node),
		Interval:     probeInterval,
		WriteTimeout: 5 * time.Second,
	}
	go reporter.Run(ctx)
}

func waitForHealthReport(t *testing.T, provider kms.EncryptionStatusProvider, node, keyID string, want operatorv1.KMSPluginHealthStatus) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		status, err := provider.GetKMSEncryptionStatus(ctx)
		if err != nil || status == nil {
			return false, nil
		}
		for _, r := range status.HealthReports {
			if r.NodeName == node && r.KeyID == keyID && r.Status == want {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("no %s health report for node %s key %s", want, node, keyID)
	}
}

// createRevisionConfig creates encryption-config-<revision> as library-go's revision controller would, and returns
// its encryption-config bytes.
func createRevisionConfig(t *testing.T, secrets corev1client.SecretInterface, revision int, config *apiserverv1.EncryptionConfiguration) []byte {
	t.Helper()
	data := ectest.Marshal(t, config)
	name := "encryption-config-" + strconv.Itoa(revision)
	if _, err := secrets.Create(context.Background(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string][]byte{"encryption-config": data}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return data
}

// rollbackCondition reads the condition from the apiserver, not from an informer.
func rollbackCondition(t *testing.T, kubeAPIServers operatorv1client.KubeAPIServerInterface) operatorv1.OperatorCondition {
	t.Helper()
	kas, err := kubeAPIServers.Get(context.Background(), "cluster", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := v1helpers.FindOperatorCondition(kas.Status.Conditions, kmsrollback.ConditionDegraded)
	if c == nil {
		t.Fatalf("no %s condition", kmsrollback.ConditionDegraded)
	}
	return *c
}
