package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	operatorv1client "github.com/openshift/client-go/operator/clientset/versioned/typed/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/kmsguard"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
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
		lost         = 150
		survivors    = 22 // names interleaved with the lost ones: every 8th of 172
		lostProvider = "lost-kms"
		liveProvider = "live-kms"
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

	// kmsguard, as an operator wires it, with etcd access for lost-key recovery; it scans every few seconds
	// (kmsrecovery.DefaultInterval in a cluster) so that each step below is seen without waiting. It starts in
	// step 3. The operator records revision 1 (both keys, the lost one writing) before that config runs, as
	// library-go's revision controller does: under the live key. (Written under the lost key, it would be lost with
	// it, and kmsstate could not tell which keys to expect.)
	etcd, err := cp.EtcdClient()
	if err != nil {
		t.Fatal(err)
	}
	resources, skipped, err := kmsrecovery.Resolve(discovery.NewDiscoveryClientForConfigOrDie(a.RESTConfig()), kmsrecovery.DefaultResources)
	if err != nil {
		t.Fatal(err)
	}
	if len(resources) != 2 || len(skipped) != 3 {
		t.Fatalf("resolved %v, skipped %v; want secrets and configmaps, and the three OpenShift resources skipped", resources, skipped)
	}
	g := newGuard(ctx, t, a, []string{"master-0"}, guardOptions{
		Etcd: &kmsguard.EtcdOptions{KV: etcd, Prefix: "/registry",
			Dynamic: dynamic.NewForConfigOrDie(a.RESTConfig()), Discovery: discovery.NewDiscoveryClientForConfigOrDie(a.RESTConfig())},
		EncryptedResources: kmsrecovery.DefaultResources,
		Intervals:          kmsguard.Intervals{ReportInterval: probeInterval, Recovery: 3 * time.Second},
	})
	operator := g.Operator
	kubeAPIServers := operatorclient.NewForConfigOrDie(a.RESTConfig()).OperatorV1().KubeAPIServers()
	g.deployed(ctx, t, 1, bothKeys)

	// Then the lost ones.
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
	_, err = client.CoreV1().Secrets("").List(ctx, metav1.ListOptions{Limit: 500})
	if !apierrors.IsStoreReadError(err) {
		t.Fatalf("LIST of secrets after the key was destroyed: got %v, want a StorageReadError", err)
	}

	// 3. kmsguard starts. Health reports of both plugins on master-0, written by the node's reporter as the
	// sidecar does, are the recovery's KMS view through kmsstate. The endpoints are not library-go's: the key ids
	// are the provider names.
	startNodeReporter(ctx, t, g.Provider, "master-0", map[string]*fake.Plugin{lostProvider: lostPlugin, liveProvider: livePlugin})
	g.start(ctx)
	kmsState := g.KMSState
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
	// decided sets the consent and waits until the recovery's condition says ok.
	decided := func(consent string, ok func(*operatorv1.OperatorCondition) bool) *operatorv1.OperatorCondition {
		t.Helper()
		setRecoveryConsent(ctx, t, operator, consent)
		start := time.Now()
		var cond *operatorv1.OperatorCondition
		err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
			var err error
			cond, err = recoveryCondition(ctx, kubeAPIServers)
			return err == nil && cond != nil && ok(cond), nil
		})
		if err != nil {
			t.Fatalf("with consent %q: %v; %s is %+v", consent, err, kmsrecovery.ConditionDegraded, cond)
		}
		t.Logf("with consent %q, decided after %s", consent, time.Since(start).Round(time.Millisecond))
		return cond
	}
	// waitForRecord waits until the recovery's lasting record on the KubeAPIServer resource satisfies ok.
	records := kmsrecovery.NewRecordStore(operatorstate.KubeAPIServer(kubeAPIServers))
	waitForRecord := func(what string, ok func(kmsrecovery.Record) bool) {
		t.Helper()
		var record kmsrecovery.Record
		err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
			r, found, err := records.Load(ctx)
			record = r
			return err == nil && found && ok(r), nil
		})
		if err != nil {
			t.Fatalf("the recovery record never showed %s: %+v", what, record)
		}
	}
	hasReason := func(status operatorv1.ConditionStatus, reason kmsrecovery.Reason) func(*operatorv1.OperatorCondition) bool {
		return func(c *operatorv1.OperatorCondition) bool { return c.Status == status && c.Reason == string(reason) }
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
	lostConsent := lostProvider + ":" + lostKeyID
	decided("", hasReason(operatorv1.ConditionTrue, kmsrecovery.ReasonUndecryptableObjects))
	// The lasting record: the lost Secrets, all under the lost key.
	waitForRecord("the lost Secrets under the lost key", func(r kmsrecovery.Record) bool {
		return r.Undecryptable == lost && slices.Equal(r.ConsentIDs, []kmsrecovery.ConsentCount{{ConsentID: lostConsent, Count: lost}})
	})
	cm, err := client.CoreV1().ConfigMaps(operatorNamespace).Get(ctx, kmsrecovery.ConfigMapName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var listed []kmsrecovery.Object
	if err := json.Unmarshal([]byte(cm.Data[kmsrecovery.ConfigMapKeyObjects]), &listed); err != nil {
		t.Fatalf("%s of %s: %v", kmsrecovery.ConfigMapKeyObjects, kmsrecovery.ConfigMapName, err)
	}
	listedNames := map[string]bool{}
	for _, o := range listed {
		listedNames[o.Name] = true
		if o.Resource != secretsGR || o.ConsentID != lostConsent {
			t.Errorf("listed %s under %s, want Secrets under %s", o.ObjectRef, o.ConsentID, lostConsent)
		}
	}
	for i := 0; i < lost+survivors; i++ {
		if listedNames[name(i)] == isSurvivor(i) {
			t.Errorf("secret %s listed as undecryptable: %v", name(i), listedNames[name(i)])
		}
	}
	if n := lostKeys(); n != lost {
		t.Fatalf("%d of the %d lost secrets are left in etcd without consent", n, lost)
	}

	// 5. A consent naming another key deletes nothing.
	decided(liveKMS.CurrentKEKID(), hasReason(operatorv1.ConditionTrue, kmsrecovery.ReasonConsentMismatch))
	if n := lostKeys(); n != lost {
		t.Fatalf("%d of the %d lost secrets are left in etcd after a consent for another key", n, lost)
	}

	// 5b. "unknown" is no key etcd shows: refused, from the controller and from `kmsguard recover`, with etcd
	// access or without.
	decided(kmsrecovery.UnknownConsentID, hasReason(operatorv1.ConditionTrue, kmsrecovery.ReasonConsentUnprovable))
	kmsguard := buildKMSGuard(t)
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if data, err := a.KubeConfig(); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(kubeconfig, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, etcdFlags := range [][]string{nil, {"--etcd-endpoints=" + cp.EtcdEndpoint()}} {
		args := append([]string{"recover", "--kubeconfig=" + kubeconfig, "--resources=secrets", "--confirm-data-loss=unknown", "--dry-run=false", "-o", "json"}, etcdFlags...)
		code, out, stderr := runKMSGuard(t, kmsguard, args...)
		if refusal := recoverRefusal(t, out); code != 4 || refusal != kmsrecovery.ReasonConsentUnprovable {
			t.Errorf("kmsguard %s: exit %d, refused %q; want 4, %s\n%s\n%s", strings.Join(args, " "), code, refusal, kmsrecovery.ReasonConsentUnprovable, out, stderr)
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
			if p.KeyID == lostProvider && p.Health == kmsstate.PluginUnhealthy {
				return true
			}
		}
		return false
	})
	decided(lostConsent, hasReason(operatorv1.ConditionTrue, kmsrecovery.ReasonKMSUnhealthy))
	args := []string{"recover", "--kubeconfig=" + kubeconfig, "--resources=secrets", "--etcd-endpoints=" + cp.EtcdEndpoint(), "--confirm-data-loss=" + lostKeyID, "--dry-run=false", "-o", "json"}
	if code, out, stderr := runKMSGuard(t, kmsguard, args...); code != 5 || recoverRefusal(t, out) != kmsrecovery.ReasonConsentNamesCurrentKey {
		t.Errorf("kmsguard %s: exit %d, want 5, refused %s\n%s\n%s", strings.Join(args, " "), code, kmsrecovery.ReasonConsentNamesCurrentKey, out, stderr)
	}
	if n := lostKeys(); n != lost {
		t.Fatalf("%d of the %d lost secrets are left in etcd after a consent while the plugin is unhealthy", n, lost)
	}

	// 6. The KMS serves a new key on the lost provider's plugin; once every plugin is healthy and kmsstate
	// settled on the new KEK id, a consent for the lost key deletes exactly those 150.
	newKeyID := lostKMS.Rotate()
	waitForKMSState("every plugin healthy, the lost key's on the new KEK id", func(s kmsstate.State) bool {
		kek, ok := s.SettledKEKID(lostProvider)
		return s.Healthy(s.Nodes, s.KeyIDs) == nil && ok && kek == newKeyID
	})
	// The consent is the one given in 5c: the next scan deletes.
	decided(lostConsent, hasReason(operatorv1.ConditionFalse, kmsrecovery.ReasonAsExpected))
	waitForRecord("the deletion of the lost Secrets", func(r kmsrecovery.Record) bool {
		d := r.LastDeletion
		return r.Undecryptable == 0 && d != nil && d.ConsentID == lostConsent && !d.DryRun && d.Deleted == lost && d.Failed == 0
	})
	if n := lostKeys(); n != 0 {
		t.Errorf("%d lost secrets are still in etcd", n)
	}
	if deletedEvents := len(g.eventReasons(kmsrecovery.EventObjectDeleted)); deletedEvents != lost {
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

// recoverRefusal is the reason `kmsguard recover -o json` printed for refusing the consent, empty when it printed
// none.
func recoverRefusal(t *testing.T, out string) kmsrecovery.Reason {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var record struct {
			Refusal *struct {
				Reason kmsrecovery.Reason `json:"reason"`
			} `json:"refusal"`
		}
		if err := json.Unmarshal([]byte(line), &record); err != nil {
			t.Fatalf("kmsguard recover -o json printed %q: %v", line, err)
		}
		if record.Refusal != nil {
			return record.Refusal.Reason
		}
	}
	return ""
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
// that may lag the controller's write; nil while the controller has set none.
func recoveryCondition(ctx context.Context, kubeAPIServers operatorv1client.KubeAPIServerInterface) (*operatorv1.OperatorCondition, error) {
	kas, err := kubeAPIServers.Get(ctx, "cluster", metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	return v1helpers.FindOperatorCondition(kas.Status.Conditions, kmsrecovery.ConditionDegraded), nil
}
