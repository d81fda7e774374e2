package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/utils/clock"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// TestLostKeyRecovery: a KMS key destroyed for good makes every LIST of Secrets fail after an apiserver
// restart. kmsguard's recovery controller finds each of the 150 Secrets written under it (past the 100 keys
// one StorageReadError names), tells their key id from etcd, deletes nothing without consent, with a consent
// naming another key or "unknown" (nor does `kmsguard recover`), nor while the lost key's plugin is
// unhealthy (its health reports, evaluated by a running kmsstate controller); once the KMS serves a new key
// on that plugin, a consent deletes exactly those 150; then LIST works and every Secret written under the
// surviving key reads back unchanged.
func TestLostKeyRecovery(t *testing.T) {
	const (
		lost              = 150
		survivors         = 22 // names interleaved with the lost ones: every 8th of 172
		operatorNamespace = "openshift-kube-apiserver-operator"
		lostProvider      = "lost-kms"
		liveProvider      = "live-kms"
	)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lostKMS, liveKMS := fake.NewKMS(), fake.NewKMS()
	// Every fake KMS starts at the same key id; a real KMS's key ids differ, and so must these for step 5.
	liveKMS.Rotate()
	lostPlugin, livePlugin := fake.StartForTest(t, lostKMS), fake.StartForTest(t, liveKMS)
	gate := []string{"AllowUnsafeMalformedObjectDeletion=true"}

	// 1. Survivors are written under the live key, then the lost ones under the key that will be destroyed.
	cp := kmsenv.StartForTest(t, kmsenv.Options{APIServerOptions: kmsenv.APIServerOptions{
		EncryptionConfig: ectest.Secrets(kmsenv.KMSv2Provider(liveProvider, livePlugin.Endpoint()), ectest.Identity()),
		FeatureGates:     gate,
	}})
	a := cp.APIServer(0)
	name := func(i int) string { return fmt.Sprintf("secret-%03d", i) }
	isSurvivor := func(i int) bool { return i%8 == 0 }
	want := map[string]string{}
	for i := 0; i < lost+survivors; i++ {
		if isSurvivor(i) {
			want[name(i)] = "survives-" + name(i)
			createSecret(t, a.Client(), name(i), want[name(i)])
		}
	}
	bothKeys := ectest.Secrets(kmsenv.KMSv2Provider(lostProvider, lostPlugin.Endpoint()), kmsenv.KMSv2Provider(liveProvider, livePlugin.Endpoint()), ectest.Identity())
	if err := a.Restart(kmsenv.APIServerOptions{EncryptionConfig: bothKeys, FeatureGates: gate}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < lost+survivors; i++ {
		if !isSurvivor(i) {
			createSecret(t, a.Client(), name(i), "lost")
		}
	}
	lostKeyID := lostKMS.CurrentKEKID()
	if v, _ := storedValue(t, cp, name(1)); v.KEKID != lostKeyID || v.Name != lostProvider {
		t.Fatalf("secret %s is stored under %+v, want provider %s key %s", name(1), v, lostProvider, lostKeyID)
	}

	// 2. The key is destroyed; a restarted apiserver has no DEK cached: LIST fails.
	if err := lostKMS.Destroy(lostKeyID); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := a.Restart(kmsenv.APIServerOptions{EncryptionConfig: bothKeys, FeatureGates: gate, Wait: kmsenv.WaitLive}); err != nil {
		t.Fatal(err)
	}
	t.Logf("apiserver restarted without the lost key: /livez after %s", time.Since(start).Round(time.Second))
	client := a.Client()
	// A paginated LIST reaches etcd (the watch cache is not ready, it fails on the same objects) and names the
	// unreadable keys. An unpaginated one waits for that watch cache and is retried on 429 by client-go, for
	// minutes: kmsguard only pages.
	_, err := client.CoreV1().Secrets("").List(ctx, metav1.ListOptions{Limit: 500})
	if !apierrors.IsStoreReadError(err) {
		t.Fatalf("LIST of secrets after the key was destroyed: got %v, want a StorageReadError", err)
	}

	// 3. The controller, as an operator runs it.
	operator, operatorInformers, err := a.InstallKubeAPIServerOperator(ctx, "master-0")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: operatorNamespace}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Health reports of both plugins on master-0, written by the node's reporter as the sidecar does, and the
	// kmsstate controller that evaluates them: the recovery controller's KMS view.
	statusProvider := encryptionstatus.NewKubeAPIServer(operatorclient.NewForConfigOrDie(a.RESTConfig()).OperatorV1().KubeAPIServers())
	startNodeReporter(ctx, t, statusProvider, "master-0", map[string]*fake.Plugin{"1": lostPlugin, "2": livePlugin})
	kmsRecorder := events.NewInMemoryRecorder("kmsstate-e2e", clock.RealClock{})
	kmsState, err := kmsstate.NewController("kube-apiserver", kmsstate.Options{
		Config:         kmsstate.Config{ReportInterval: probeInterval},
		OperatorClient: operator,
		StatusProvider: statusProvider,
		Nodes:          kmsstate.StaticPodNodes(operator),
		Keys: kmsstate.KeyListerFunc(func(context.Context) (kmsstate.Keys, error) {
			return kmsstate.Keys{IDs: []string{"1", "2"}, Providers: map[string]string{lostProvider: "1", liveProvider: "2"}}, nil
		}),
		Recorder: kmsRecorder,
		// Published where `kmsguard recover` reads the KMS view from, as an operator wires it.
		Publisher: kmsstate.ConfigMapMemory{Client: client.CoreV1(), Namespace: operatorNamespace, Name: kmsstate.DefaultConfigMapName},
	})
	if err != nil {
		t.Fatal(err)
	}
	operatorInformers.Start(ctx.Done())
	operatorInformers.WaitForCacheSync(ctx.Done())
	go kmsState.Run(ctx, 1)
	// waitForKMSState waits until kmsstate's evaluation satisfies ok.
	waitForKMSState := func(what string, ok func(kmsstate.State) bool) {
		t.Helper()
		start := time.Now()
		err := wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, 2*time.Minute, true, func(context.Context) (bool, error) {
			state, evaluated := kmsState.State()
			return evaluated && ok(state), nil
		})
		if err != nil {
			state, _ := kmsState.State()
			t.Fatalf("waiting for kmsstate to see %s: %v; state %+v", what, err, state)
		}
		t.Logf("kmsstate saw %s after %s", what, time.Since(start).Round(time.Second))
	}
	resources, skipped, err := kmsrecovery.Resolve(discovery.NewDiscoveryClientForConfigOrDie(a.RESTConfig()), kmsrecovery.DefaultResources)
	if err != nil {
		t.Fatal(err)
	}
	if len(resources) != 2 || len(skipped) != 3 {
		t.Fatalf("resolved %v, skipped %v; want secrets and configmaps, and the three OpenShift resources skipped", resources, skipped)
	}
	etcd, err := cp.EtcdClient()
	if err != nil {
		t.Fatal(err)
	}
	recorder := events.NewInMemoryRecorder("kms-recovery-e2e", clock.RealClock{})
	fakeClock := &steppingClock{now: time.Now()}
	controller, err := kmsrecovery.NewController("kube-apiserver", kmsrecovery.Options{
		OperatorClient: operator,
		Dynamic:        dynamic.NewForConfigOrDie(a.RESTConfig()),
		Resources:      resources,
		Raw:            kmsrecovery.EtcdValues(etcd),
		KMS:            kmsrecovery.KMSStateView(kmsState),
		ConfigMaps:     client.CoreV1(),
		Namespace:      operatorNamespace,
		Recorder:       recorder,
		Clock:          fakeClock,
	})
	if err != nil {
		t.Fatal(err)
	}
	sync := func(consent string) *operatorv1.OperatorCondition {
		t.Helper()
		setRecoveryConsent(ctx, t, operator, consent)
		fakeClock.step(kmsrecovery.DefaultInterval)
		start := time.Now()
		if err := controller.Sync(ctx, factory.NewSyncContext("e2e", recorder)); err != nil {
			t.Fatalf("sync with consent %q: %v", consent, err)
		}
		t.Logf("sync with consent %q took %s", consent, time.Since(start).Round(time.Millisecond))
		return recoveryCondition(ctx, t, a)
	}
	lostKeys := func() int {
		t.Helper()
		n := 0
		for i := 0; i < lost+survivors; i++ {
			if resp, err := etcd.Get(ctx, secretKey(name(i))); err != nil {
				t.Fatal(err)
			} else if len(resp.Kvs) > 0 && !isSurvivor(i) {
				n++
			}
		}
		return n
	}

	// 4. No consent: every lost Secret is found and listed, none deleted.
	cond := sync("")
	if cond.Status != operatorv1.ConditionTrue || cond.Reason != string(kmsrecovery.ReasonUndecryptableObjects) {
		t.Fatalf("without consent: %s %s: %s", cond.Status, cond.Reason, cond.Message)
	}
	if wantMsg := fmt.Sprintf("secrets: %d of %d (key %s:%s: %d)", lost, lost+survivors, lostProvider, lostKeyID, lost); !strings.Contains(cond.Message, wantMsg) {
		t.Errorf("message does not contain %q: %s", wantMsg, cond.Message)
	}
	cm, err := client.CoreV1().ConfigMaps(operatorNamespace).Get(ctx, kmsrecovery.ConfigMapName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < lost+survivors; i++ {
		if listed := strings.Contains(cm.Data[kmsrecovery.ConfigMapKeyObjects], `"name":"`+name(i)+`"`); listed == isSurvivor(i) {
			t.Errorf("secret %s listed as undecryptable: %v", name(i), listed)
		}
	}
	if n := lostKeys(); n != lost {
		t.Fatalf("%d of the %d lost secrets are left in etcd without consent", n, lost)
	}

	// 5. A consent naming another key deletes nothing.
	cond = sync(liveKMS.CurrentKEKID())
	if cond.Status != operatorv1.ConditionTrue || cond.Reason != string(kmsrecovery.ReasonConsentMismatch) {
		t.Fatalf("with the wrong key id: %s %s: %s", cond.Status, cond.Reason, cond.Message)
	}
	if n := lostKeys(); n != lost {
		t.Fatalf("%d of the %d lost secrets are left in etcd after a consent for another key", n, lost)
	}

	// 5b. "unknown" is no key etcd shows: refused, from the controller and from `kmsguard recover`, with etcd
	// access or without.
	cond = sync(kmsrecovery.UnknownConsentID)
	if cond.Status != operatorv1.ConditionTrue || cond.Reason != string(kmsrecovery.ReasonConsentUnprovable) {
		t.Fatalf("with consent unknown: %s %s: %s", cond.Status, cond.Reason, cond.Message)
	}
	kmsguard := buildKMSGuard(t)
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if data, err := a.KubeConfig(); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(kubeconfig, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, etcdFlags := range [][]string{nil, {"--etcd-endpoints=" + cp.EtcdEndpoint()}} {
		args := append([]string{"recover", "--kubeconfig=" + kubeconfig, "--resources=secrets", "--confirm-data-loss=unknown", "--dry-run=false"}, etcdFlags...)
		code, out, stderr := runKMSGuard(t, kmsguard, args...)
		if code != 4 || !strings.Contains(out, "--confirm-data-loss refused (ConsentUnprovable)") {
			t.Errorf("kmsguard %s: exit %d, want 4 (ConsentUnprovable)\n%s\n%s", strings.Join(args, " "), code, out, stderr)
		}
		if n := lostKeys(); n != lost {
			t.Fatalf("%d of the %d lost secrets are left in etcd after kmsguard recover --confirm-data-loss=unknown", n, lost)
		}
	}

	// 5c. The lost key's plugin is unhealthy (the KMS still names the destroyed key current, and a round trip
	// fails): a consent for it waits. `kmsguard recover` reads the same reports; the plugin names the lost key
	// as its KMS's current one, so the CLI refuses it as a key in use.
	waitForKMSState("the lost key's plugin unhealthy", func(s kmsstate.State) bool {
		for _, p := range s.Plugins {
			if p.KeyID == "1" && p.Health == kmsstate.PluginUnhealthy {
				return true
			}
		}
		return false
	})
	cond = sync(lostProvider + ":" + lostKeyID)
	if cond.Status != operatorv1.ConditionTrue || cond.Reason != string(kmsrecovery.ReasonKMSUnhealthy) || !strings.Contains(cond.Message, "PluginUnhealthy: node master-0 key 1") {
		t.Fatalf("with consent while the plugin is unhealthy: %s %s: %s", cond.Status, cond.Reason, cond.Message)
	}
	args := []string{"recover", "--kubeconfig=" + kubeconfig, "--resources=secrets", "--etcd-endpoints=" + cp.EtcdEndpoint(), "--confirm-data-loss=" + lostKeyID, "--dry-run=false"}
	if code, out, stderr := runKMSGuard(t, kmsguard, args...); code != 5 || !strings.Contains(out, "(ConsentNamesCurrentKey)") {
		t.Errorf("kmsguard %s: exit %d, want 5 (ConsentNamesCurrentKey)\n%s\n%s", strings.Join(args, " "), code, out, stderr)
	}
	if n := lostKeys(); n != lost {
		t.Fatalf("%d of the %d lost secrets are left in etcd after a consent while the plugin is unhealthy", n, lost)
	}

	// 6. The KMS serves a new key on the lost provider's plugin; once every plugin is healthy and kmsstate
	// settled on the new KEK id, a consent for the lost key deletes exactly those 150.
	newKeyID := lostKMS.Rotate()
	waitForKMSState("every plugin healthy, key 1 on the new KEK id", func(s kmsstate.State) bool {
		kek, ok := s.SettledKEKID("1")
		return s.Healthy(s.Nodes, s.KeyIDs) == nil && ok && kek == newKeyID
	})
	cond = sync(lostProvider + ":" + lostKeyID)
	if cond.Status != operatorv1.ConditionFalse || !strings.Contains(cond.Message, fmt.Sprintf("deleted %d undecryptable objects stored under key %s:%s", lost, lostProvider, lostKeyID)) {
		t.Fatalf("with consent: %s %s: %s", cond.Status, cond.Reason, cond.Message)
	}
	if n := lostKeys(); n != 0 {
		t.Errorf("%d lost secrets are still in etcd", n)
	}
	deletedEvents := 0
	for _, e := range recorder.Events() {
		if e.Reason == kmsrecovery.EventObjectDeleted {
			deletedEvents++
		}
	}
	if deletedEvents != lost {
		t.Errorf("%d %s events, want %d", deletedEvents, kmsrecovery.EventObjectDeleted, lost)
	}

	// 7. LIST works, and every survivor reads back unchanged. The unpaginated LIST is served by the watch
	// cache, which recovers by itself once its own LIST passes (it retries with a backoff).
	start = time.Now()
	listCtx, cancelList := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelList()
	list, err := client.CoreV1().Secrets("default").List(listCtx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("LIST after the recovery: %v", err)
	}
	t.Logf("unpaginated LIST after the recovery answered after %s", time.Since(start).Round(time.Second))
	got := map[string]string{}
	for _, s := range list.Items {
		got[s.Name] = string(s.Data["value"])
	}
	if len(got) != survivors {
		t.Errorf("LIST returned %d secrets, want the %d survivors", len(got), survivors)
	}
	for n, v := range want {
		if got[n] != v {
			t.Errorf("secret %s reads %q, want %q", n, got[n], v)
		}
		if stored, _ := storedValue(t, cp, n); stored.Name != liveProvider || stored.KEKID != liveKMS.CurrentKEKID() {
			t.Errorf("secret %s is stored under %+v, want the live key", n, stored)
		}
	}
}

// runKMSGuard runs the kmsguard binary and returns its exit code and output.
func runKMSGuard(t *testing.T, bin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		return exitErr.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatalf("running kmsguard: %v", err)
	}
	return 0, stdout.String(), stderr.String()
}

// setRecoveryConsent sets spec.unsupportedConfigOverrides.kmsguard.confirmDataLoss and waits until the
// operator client's informer sees it.
func setRecoveryConsent(ctx context.Context, t *testing.T, operator v1helpers.OperatorClient, keyID string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		spec, _, rv, err := operator.GetOperatorState()
		if err != nil {
			return false, err
		}
		if got, _ := kmsrecovery.ConsentFromSpec(spec); got == keyID {
			return true, nil
		}
		spec = spec.DeepCopy()
		spec.UnsupportedConfigOverrides = runtime.RawExtension{Raw: fmt.Appendf(nil, `{"kmsguard":{"confirmDataLoss":%q}}`, keyID)}
		if _, _, err := operator.UpdateOperatorSpec(ctx, rv, spec); err != nil && !apierrors.IsConflict(err) {
			return false, err
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("setting the consent to %q: %v", keyID, err)
	}
}

// recoveryCondition reads KMSRecoveryDegraded from the KubeAPIServer resource itself, not from an informer
// that may lag the controller's write.
func recoveryCondition(ctx context.Context, t *testing.T, a *kmsenv.APIServer) *operatorv1.OperatorCondition {
	t.Helper()
	kas, err := operatorclient.NewForConfigOrDie(a.RESTConfig()).OperatorV1().KubeAPIServers().Get(ctx, "cluster", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := v1helpers.FindOperatorCondition(kas.Status.Conditions, kmsrecovery.ConditionDegraded)
	if c == nil {
		t.Fatalf("no %s condition", kmsrecovery.ConditionDegraded)
	}
	return c
}

// steppingClock lets every sync of the test be due: a scan runs every DefaultInterval.
type steppingClock struct{ now time.Time }

func (c *steppingClock) Now() time.Time                  { return c.now }
func (c *steppingClock) Since(t time.Time) time.Duration { return c.now.Sub(t) }
func (c *steppingClock) step(d time.Duration)            { c.now = c.now.Add(d) }
