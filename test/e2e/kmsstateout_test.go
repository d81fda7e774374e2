package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	operatorv1client "github.com/openshift/client-go/operator/clientset/versioned/typed/operator/v1"
	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"

	"github.com/kmsguard/kmsguard/internal/configmapdata"
	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/kmsguard"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// TestRevertWhileKMSGuardConfigMapsCannotBeDecrypted: kmsguard's own state must not fail with what it guards.
// The operator restarts while every KMS plugin is down, and a misconfigured KMS revision is still reverted. The
// cluster is on its way to KMS: ConfigMaps are encrypted by a KMS already, Secrets (and with them the revision
// configs a revert reads and writes) still by aescbc, which needs no plugin:
//  1. revision 4 runs; a first operator process publishes its KMS verdict, a ConfigMap under the configmaps' KMS;
//  2. that KMS's plugin goes down, and revision 5, which adds for Secrets a KMS read provider nothing serves, rolls
//     out: the apiserver restarts with it, no KMS plugin answers, and it can decrypt no ConfigMap;
//  3. the operator restarts: kmsstate reports KMSPluginsDegraded, and kmsrollback reverts revision 5, its Hold on
//     the operator resource, while no kmsguard ConfigMap can be read or written.
func TestRevertWhileKMSGuardConfigMapsCannotBeDecrypted(t *testing.T) {
	const (
		node               = "master-0"
		deadProvider       = "dead-kms"
		configMapsProvider = "configmaps-kms"
	)
	configMapsKMS := fake.NewKMS()
	configMapsPlugin := fake.StartForTest(t, configMapsKMS)
	dir, err := os.MkdirTemp("", "kms") // short: unix socket paths are limited to 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	dead := fake.NewPlugin(fake.NewKMS(), filepath.Join(dir, "dead.sock"))
	withConfigMaps := func(secrets ...apiserverv1.ProviderConfiguration) *apiserverv1.EncryptionConfiguration {
		return ectest.WithConfigMaps(ectest.Secrets(secrets...), kmsenv.KMSv2Provider(configMapsProvider, configMapsPlugin.Endpoint()), ectest.Identity())
	}
	aescbc := ectest.AESCBC("1", ectest.AESKeyA)
	goodConfig := withConfigMaps(aescbc, ectest.Identity())
	failingConfig := withConfigMaps(aescbc, kmsenv.KMSv2Provider(deadProvider, dead.Endpoint()), ectest.Identity())

	// 1. Revision 4, and a first operator process.
	cp := kmsenv.StartForTest(t, kmsenv.Options{APIServerOptions: kmsenv.APIServerOptions{EncryptionConfig: goodConfig}})
	a := cp.APIServer(0)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	options := guardOptions{Intervals: kmsguard.Intervals{ReportInterval: probeInterval},
		EncryptedResources: []schema.GroupResource{{Resource: "secrets"}, {Resource: "configmaps"}}}
	first := newGuard(ctx, t, a, []string{node}, options)
	first.deployed(ctx, t, 4, goodConfig)
	goodData := ectest.Marshal(t, goodConfig)
	createRevisionConfig(t, a.Client().CoreV1().Secrets(operandNamespace), 5, failingConfig)
	runUntilPublished(ctx, t, a, first, node, map[string]*fake.Plugin{configMapsProvider: configMapsPlugin, deadProvider: dead})

	// 2. The configmaps' KMS goes down, and revision 5 rolls out and fails.
	configMapsPlugin.Stop()
	start := time.Now()
	if err := a.Restart(kmsenv.APIServerOptions{EncryptionConfig: failingConfig, Wait: kmsenv.WaitLive}); err != nil {
		t.Fatal(err)
	}
	t.Logf("kube-apiserver on revision 5 with the configmaps' KMS down live after %s", time.Since(start).Round(10*time.Millisecond))
	if _, err := a.Client().CoreV1().ConfigMaps(operatorNamespace).Get(ctx, kmsstate.DefaultConfigMapName, metav1.GetOptions{}); !apierrors.IsInternalError(err) {
		t.Fatalf("reading kmsguard's published verdict with the configmaps' KMS down: %v, want the apiserver's decrypt error", err)
	}
	operator, _, err := a.KubeAPIServerOperatorClient()
	if err != nil {
		t.Fatal(err)
	}
	if err := operator.ApplyStaticPodOperatorStatus(ctx, "e2e-installer", applyoperatorv1.StaticPodOperatorStatus().
		WithLatestAvailableRevision(5).
		WithNodeStatuses(applyoperatorv1.NodeStatus().WithNodeName(node).WithCurrentRevision(4).WithTargetRevision(0).
			WithLastFailedRevision(5).WithLastFailedReason(string(kmsrollback.SourceOperandFailed)).WithLastFailedCount(1).WithLastFailedTime(metav1.Now()).
			WithLastFailedRevisionErrors("kube-apiserver: readyz check kms-providers failed"))); err != nil {
		t.Fatal(err)
	}

	// 3. The operator restarts.
	second := restartedGuard(t, a, []string{node}, options)
	startNodeReporter(ctx, t, second.Provider, node, map[string]*fake.Plugin{configMapsProvider: configMapsPlugin, deadProvider: dead})
	second.start(ctx)
	kubeAPIServers := operatorclient.NewForConfigOrDie(a.RESTConfig()).OperatorV1().KubeAPIServers()
	start = time.Now()
	cond, _ := waitForCondition(t, second.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionTrue, "")
	t.Logf("%s after the restart: %s after %s", cond.Type, cond.Reason, time.Since(start).Round(10*time.Millisecond))
	// The new read key's plugin fails too, but a key of a revision the node does not run (the installer recorded
	// revision 5 failed, the node is on 4) is never a failure of that node (KMSPluginsProgressing); kmsrollback
	// attributes the failed revision to it below.
	if state, ok := second.KMSState.State(); !ok || !slices.ContainsFunc(state.Failures, func(f kmsstate.Failure) bool { return f.KeyID == configMapsProvider }) {
		t.Errorf("kmsstate's failures %+v do not name the configmaps' key %s", state.Failures, configMapsProvider)
	}
	cond, _ = waitForCondition(t, second.Operator, kmsrollback.ConditionDegraded, operatorv1.ConditionTrue, string(kmsrollback.ReasonRevertedFailingKMSConfig))
	t.Logf("reverted %s after the restart: %s", time.Since(start).Round(10*time.Millisecond), cond.Message)
	assertRevertedTo4(ctx, t, a, kubeAPIServers, goodData)
}

// runUntilPublished runs an operator process and a health reporter for node until the process has published its
// KMS verdict, and stops both.
func runUntilPublished(ctx context.Context, t *testing.T, a *kmsenv.APIServer, g *guard, node string, plugins map[string]*fake.Plugin) {
	t.Helper()
	processCtx, stop := context.WithCancel(ctx)
	defer stop()
	startNodeReporter(processCtx, t, g.Provider, node, plugins)
	g.start(processCtx)
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := a.Client().CoreV1().ConfigMaps(operatorNamespace).Get(ctx, kmsstate.DefaultConfigMapName, metav1.GetOptions{})
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("the operator process published no KMS verdict: %v", err)
	}
}

// assertRevertedTo4 checks that kmsrollback wrote revision 4's config (goodData) back as the desired encryption
// config and holds revision 5's out.
func assertRevertedTo4(ctx context.Context, t *testing.T, a *kmsenv.APIServer, kubeAPIServers operatorv1client.KubeAPIServerInterface, goodData []byte) {
	t.Helper()
	// library-go's encryption component is the operand namespace: its state controller reads this secret.
	desired, err := a.Client().CoreV1().Secrets("openshift-config-managed").Get(ctx, "encryption-config-"+operandNamespace, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(desired.Data["encryption-config"]); got != string(goodData) {
		t.Fatalf("desired encryption config is\n%s\nwant revision 4's\n%s", got, goodData)
	}
	holds, err := kmsrollback.NewHoldStore(operatorstate.KubeAPIServer(kubeAPIServers)).Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if h := holds.Active(); h == nil || h.FailedRevision != 5 || h.RevertedTo != 4 {
		t.Fatalf("holds %+v, want revision 5 held", holds)
	}
}

// TestLostKeyTakesKMSGuardCaches: a KEK destroyed after it encrypted every kmsguard ConfigMap and some of the
// user's objects. After an operator and apiserver restart:
//   - KMSRecoveryDegraded lists the user's lost objects under their consent id, and the Record on the operator
//     resource counts them;
//   - kmsguard's own caches are cleared without any consent (they hold no user data) and written afresh;
//   - the admin's consent deletes exactly the user's objects;
//   - every controller is back to normal: recovery False, the plugins healthy, the published verdict readable.
func TestLostKeyTakesKMSGuardCaches(t *testing.T) {
	const (
		node         = "master-0"
		lostProvider = "lost-kms"
		liveProvider = "live-kms"
		userObjects  = 5 // of each resource
	)
	// Cancelled before the control plane stops: kube-apiserver does not finish its shutdown while watches are open.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lostKMS, liveKMS := fake.NewKMS(), fake.NewKMS()
	liveKMS.Rotate() // every fake KMS starts at the same key id; a real KMS's differ
	lostPlugin, livePlugin := fake.StartForTest(t, lostKMS), fake.StartForTest(t, liveKMS)
	gate := []string{"AllowUnsafeMalformedObjectDeletion=true"}
	lost, live := kmsenv.KMSv2Provider(lostProvider, lostPlugin.Endpoint()), kmsenv.KMSv2Provider(liveProvider, livePlugin.Endpoint())
	// One entry for both resources: kube-apiserver wants each KMS provider name once.
	both := func(providers ...apiserverv1.ProviderConfiguration) *apiserverv1.EncryptionConfiguration {
		return &apiserverv1.EncryptionConfiguration{Resources: []apiserverv1.ResourceConfiguration{{Resources: []string{"secrets", "configmaps"}, Providers: providers}}}
	}
	liveFirst, lostFirst := both(live, lost, ectest.Identity()), both(lost, live, ectest.Identity())

	// 1. The operator's resources and revision 1 are written under the live key, as in TestLostKeyRecovery: the
	// revision config is not the subject here.
	cp := kmsenv.StartForTest(t, kmsenv.Options{APIServerOptions: kmsenv.APIServerOptions{EncryptionConfig: liveFirst, FeatureGates: gate}})
	a := cp.APIServer(0)
	etcd, err := cp.EtcdClient()
	if err != nil {
		t.Fatal(err)
	}
	options := func() guardOptions {
		return guardOptions{
			Etcd: &kmsguard.EtcdOptions{KV: etcd, Prefix: "/registry",
				Dynamic: dynamic.NewForConfigOrDie(a.RESTConfig()), Discovery: discovery.NewDiscoveryClientForConfigOrDie(a.RESTConfig())},
			EncryptedResources: []schema.GroupResource{{Resource: "secrets"}, {Resource: "configmaps"}},
			Intervals:          kmsguard.Intervals{ReportInterval: probeInterval, Recovery: 3 * time.Second},
		}
	}
	first := newGuard(ctx, t, a, []string{node}, options())
	first.deployed(ctx, t, 1, lostFirst)
	if _, err := a.Client().CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "app"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	// 2. The lost key writes: the user's objects, and kmsguard's caches. The first operator process publishes its
	// verdict; the other two caches are left as earlier runs would have left them.
	if err := a.Restart(kmsenv.APIServerOptions{EncryptionConfig: lostFirst, FeatureGates: gate}); err != nil {
		t.Fatal(err)
	}
	lostKEKID := lostKMS.CurrentKEKID()
	for i := range userObjects {
		name := fmt.Sprintf("user-%d", i)
		if _, err := a.Client().CoreV1().Secrets("app").Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name}, StringData: map[string]string{"v": name}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Client().CoreV1().ConfigMaps("app").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"v": name}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{kmsguard.MigrationConfigMapName, kmsrecovery.ConfigMapName} {
		if _, err := a.Client().CoreV1().ConfigMaps(operatorNamespace).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"left": "by an earlier run"}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	first = restartedGuard(t, a, []string{node}, options())
	runUntilPublished(ctx, t, a, first, node, map[string]*fake.Plugin{lostProvider: lostPlugin, liveProvider: livePlugin})
	for _, name := range kmsguard.CacheConfigMapNames {
		if v, err := cp.RawValue(ctx, "/registry/configmaps/"+operatorNamespace+"/"+name); err != nil || !strings.Contains(string(v), lostProvider) {
			t.Fatalf("cache %s is not stored under %s: %v", name, lostProvider, err)
		}
	}

	// 3. The KEK is destroyed, and the KMS makes a new one for the provider; the apiserver and the operator
	// restart.
	if err := lostKMS.Destroy(lostKEKID); err != nil {
		t.Fatal(err)
	}
	lostKMS.Rotate()
	if err := a.Restart(kmsenv.APIServerOptions{EncryptionConfig: lostFirst, FeatureGates: gate, Wait: kmsenv.WaitLive}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	second := restartedGuard(t, a, []string{node}, options())
	startNodeReporter(ctx, t, second.Provider, node, map[string]*fake.Plugin{lostProvider: lostPlugin, liveProvider: livePlugin})
	second.start(ctx)
	kubeAPIServers := operatorclient.NewForConfigOrDie(a.RESTConfig()).OperatorV1().KubeAPIServers()
	consentID := lostProvider + ":" + lostKEKID
	record := kmsrecovery.NewRecordStore(operatorstate.KubeAPIServer(kubeAPIServers))

	// The caches are cleared without a consent, and only the user's objects wait for one.
	err = wait.PollUntilContextTimeout(ctx, time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		r, found, err := record.Load(ctx)
		return err == nil && found && r.Undecryptable == 2*userObjects, nil
	})
	r, _, _ := record.Load(ctx)
	if err != nil || len(r.ConsentIDs) != 1 || r.ConsentIDs[0] != (kmsrecovery.ConsentCount{ConsentID: consentID, Count: 2 * userObjects}) {
		t.Fatalf("the recovery record %+v (%v), want the %d user objects under %s and nothing else", r, err, 2*userObjects, consentID)
	}
	t.Logf("the user's objects found, kmsguard's caches not counted, %s after the restart", time.Since(start).Round(time.Second))
	cond, _ := waitForCondition(t, second.Operator, kmsrecovery.ConditionDegraded, operatorv1.ConditionTrue, string(kmsrecovery.ReasonUndecryptableObjects))
	t.Logf("%s %s: %s", cond.Type, cond.Reason, cond.Message)
	for _, name := range kmsguard.CacheConfigMapNames {
		err := wait.PollUntilContextTimeout(ctx, time.Second, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
			_, err := a.Client().CoreV1().ConfigMaps(operatorNamespace).Get(ctx, name, metav1.GetOptions{})
			return err == nil || apierrors.IsNotFound(err), nil
		})
		if err != nil {
			t.Errorf("kmsguard's cache %s is still unreadable: %v", name, err)
		}
	}
	if cleared := len(second.eventReasons(configmapdata.EventCacheDeleted)); cleared != len(kmsguard.CacheConfigMapNames) {
		t.Errorf("%d %s events, want one per cache (%d)", cleared, configmapdata.EventCacheDeleted, len(kmsguard.CacheConfigMapNames))
	}
	if deleted := len(second.eventReasons(kmsrecovery.EventObjectDeleted)); deleted != 0 {
		t.Fatalf("%d objects deleted without a consent", deleted)
	}

	// 4. The admin's consent deletes exactly the user's objects.
	setRecoveryConsent(ctx, t, second.Operator, consentID)
	cond, _ = waitForCondition(t, second.Operator, kmsrecovery.ConditionDegraded, operatorv1.ConditionFalse, "")
	t.Logf("after the consent: %s %s: %s", cond.Type, cond.Reason, cond.Message)
	if deleted := len(second.eventReasons(kmsrecovery.EventObjectDeleted)); deleted != 2*userObjects {
		t.Errorf("%d objects deleted with the consent, want the %d user objects", deleted, 2*userObjects)
	}
	for _, resource := range []string{"secrets", "configmaps"} {
		resp, err := etcd.Get(ctx, "/registry/"+resource+"/app/", clientv3.WithPrefix(), clientv3.WithCountOnly())
		if err != nil || resp.Count != 0 {
			t.Errorf("%d %s of the user left in etcd (%v)", resp.Count, resource, err)
		}
	}

	// 5. Every controller is back to normal.
	waitForCondition(t, second.Operator, kmsstate.ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, "")
	err = wait.PollUntilContextTimeout(ctx, time.Second, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		_, published, err := kmsstate.ConfigMapPublisher{Client: a.Client().CoreV1(), Namespace: operatorNamespace, Name: kmsstate.DefaultConfigMapName}.ReadPublished(ctx)
		return err == nil && published, nil
	})
	if err != nil {
		t.Errorf("the KMS verdict is not published again: %v", err)
	}
	if r, _, err := record.Load(ctx); err != nil || r.Undecryptable != 0 || r.LastDeletion == nil || r.LastDeletion.Deleted != 2*userObjects {
		t.Errorf("the recovery record %+v (%v), want nothing left and the %d deleted", r, err, 2*userObjects)
	}
	t.Logf("back to normal %s after the restart", time.Since(start).Round(time.Second))
}
