package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/kmsstate/apiserverprobe"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// The KMS gRPC methods as kube-apiserver names them in method_name.
const (
	kmsStatusMethod  = "/v2.KeyManagementService/Status"
	kmsDecryptMethod = "/v2.KeyManagementService/Decrypt"
)

// TestAPIServerProbe follows one real kube-apiserver through a key rotation, a plugin outage, a restart with a
// failing plugin and a restart with the key of stored data disabled, and checks at each step that the prober
// sees what the apiserver saw. A second target that nothing listens on stands for an apiserver that is down: its
// view says so, and does not disturb the other.
func TestAPIServerProbe(t *testing.T) {
	kms := fake.NewKMS()
	plugin := fake.StartForTest(t, kms)
	cp := startKMSControlPlane(t, plugin)
	a := cp.APIServer(0)
	createSecret(t, a.Client(), "probed", "kept-through-the-outage")
	oldKeyID := kms.CurrentKEKID()
	waitForKMSHealth(t, a, http.StatusOK)

	config := a.RESTConfig()
	prober, err := apiserverprobe.NewForConfig(config, []apiserverprobe.Target{
		{NodeName: "master-0", URL: config.Host},
		{NodeName: "master-down", URL: "https://" + closedAddress(t)},
		// Every Probe reads /metrics: this test looks at the sample of each step. kmsstate reads it at most once
		// per report interval (TestKMSState*).
	}, apiserverprobe.Options{MetricsInterval: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	statusCall := kmsstate.KMSCall{Provider: providerName, Method: kmsStatusMethod}
	decryptCall := kmsstate.KMSCall{Provider: providerName, Method: kmsDecryptMethod}

	// Healthy: the apiserver's current key id is the plugin's.
	views := prober.Probe(context.Background())
	healthy := answeredView(t, views[0])
	if healthy.KMSHealthz == nil || !healthy.KMSHealthz.OK {
		t.Errorf("healthy apiserver: view %s, want KMS health OK", describeView(healthy))
	}
	if got, want := healthy.Metrics.KeyIDHashes[providerName], kmsstate.KEKIDHash(kms.CurrentKEKID()); got != want {
		t.Errorf("healthy apiserver: key id hash %q, want %q (of %q)", got, want, kms.CurrentKEKID())
	}
	if healthy.Metrics.DecryptErrors != 0 {
		t.Errorf("healthy apiserver: %v decrypt errors, want 0", healthy.Metrics.DecryptErrors)
	}
	if down := views[1]; down.NodeName != "master-down" || !strings.HasPrefix(down.Err, "transport:") || down.KMSHealthz != nil || down.Metrics != nil {
		t.Errorf("apiserver that is down: view %s, want only a transport Err", describeView(down))
	}
	t.Logf("healthy: %s", describeView(healthy))

	// The same apiserver found as an operator finds each node's: at the InternalIP of a Node named in the
	// operator's node statuses, verified by a name its certificate holds rather than by the address.
	checkNodeProber(t, a.Client(), config)

	// Key rotation: the apiserver learns the new key id from Status, which the probe's own health check makes it
	// call once its 20 s cache of the last answer has expired.
	newKeyID := kms.Rotate()
	rotated := probeUntil(t, prober, "the apiserver reports the rotated key id", func(v kmsstate.APIServerView) bool {
		return v.Metrics != nil && v.Metrics.KeyIDHashes[providerName] == kmsstate.KEKIDHash(newKeyID)
	})

	// Plugin stopped: the health check fails, naming the provider by its index in the config, and the failed
	// Status calls are counted.
	plugin.Stop()
	stopped := probeUntil(t, prober, "the KMS health check fails", func(v kmsstate.APIServerView) bool {
		return v.KMSHealthz != nil && !v.KMSHealthz.OK
	})
	if !strings.Contains(stopped.KMSHealthz.Detail, "kms-provider-0") {
		t.Errorf("plugin stopped: Detail %q does not name kms-provider-0", stopped.KMSHealthz.Detail)
	}
	if before, after := rotated.Metrics.KMSCallErrors[statusCall], stopped.Metrics.KMSCallErrors[statusCall]; after <= before {
		t.Errorf("plugin stopped: failed Status calls went from %v to %v, want growth", before, after)
	}
	t.Logf("plugin stopped: %s", describeView(stopped))

	// Restart with a plugin that fails every call: the apiserver never gets a good Status, so it cannot read the
	// Secret (no DEK is cached after a restart); that read fails before any Decrypt call, and still counts as a
	// decrypt error. The counters restart from zero with the process.
	if err := plugin.Start(); err != nil {
		t.Fatal(err)
	}
	plugin.FailWith(codes.Unavailable)
	restart(t, a, plugin, kmsenv.WaitLive)
	client := a.Client()
	readSecretFails(t, client, "probed")
	failing := answeredView(t, prober.Probe(context.Background())[0])
	t.Logf("failing plugin after a restart: %s", describeView(failing))
	if failing.KMSHealthz.OK {
		t.Error("failing plugin: the KMS health check passed")
	}
	if failing.Metrics.DecryptErrors < 1 {
		t.Errorf("failing plugin: %v decrypt errors after a failed read, want at least 1", failing.Metrics.DecryptErrors)
	}
	if failing.Metrics.KMSCallErrors[statusCall] < 1 {
		t.Errorf("failing plugin: %v failed Status calls, want at least 1", failing.Metrics.KMSCallErrors[statusCall])
	}
	plugin.FailWith(codes.OK)
	probeUntil(t, prober, "the KMS health check passes again", func(v kmsstate.APIServerView) bool {
		return v.KMSHealthz != nil && v.KMSHealthz.OK
	})
	readSecret(t, client, "probed")

	// Restart with the Secret's key disabled, the current one fine: the health check passes, since Status only
	// looks at the current key, while the Secret cannot be read. Only the metrics tell: failed Decrypt calls and
	// decrypt errors.
	if err := kms.Disable(oldKeyID); err != nil {
		t.Fatal(err)
	}
	restart(t, a, plugin, kmsenv.WaitHealthy)
	readSecretFails(t, client, "probed")
	keyDisabled := answeredView(t, prober.Probe(context.Background())[0])
	t.Logf("old key disabled after a restart: %s", describeView(keyDisabled))
	if !keyDisabled.KMSHealthz.OK {
		t.Errorf("old key disabled: KMSHealthz = %+v, want OK", *keyDisabled.KMSHealthz)
	}
	if keyDisabled.Metrics.DecryptErrors < 1 {
		t.Errorf("old key disabled: %v decrypt errors after a failed read, want at least 1", keyDisabled.Metrics.DecryptErrors)
	}
	if keyDisabled.Metrics.KMSCallErrors[decryptCall] < 1 {
		t.Errorf("old key disabled: %v failed Decrypt calls after a failed read, want at least 1", keyDisabled.Metrics.KMSCallErrors[decryptCall])
	}
	if got, want := keyDisabled.Metrics.KeyIDHashes[providerName], kmsstate.KEKIDHash(newKeyID); got != want {
		t.Errorf("old key disabled: key id hash %q, want the current key's %q", got, want)
	}

	// Key restored: the Secret reads again, and reading it no longer adds decrypt errors.
	if err := kms.Restore(oldKeyID); err != nil {
		t.Fatal(err)
	}
	readSecret(t, client, "probed")
	before := answeredView(t, prober.Probe(context.Background())[0])
	readSecret(t, client, "probed")
	after := answeredView(t, prober.Probe(context.Background())[0])
	if after.Metrics.DecryptErrors != before.Metrics.DecryptErrors {
		t.Errorf("key restored: a good read moved decrypt errors from %v to %v", before.Metrics.DecryptErrors, after.Metrics.DecryptErrors)
	}
}

// restart restarts the apiserver with the test's usual encryption config, waiting for wait.
func restart(t *testing.T, a *kmsenv.APIServer, plugin *fake.Plugin, wait kmsenv.WaitFor) {
	t.Helper()
	start := time.Now()
	if err := a.Restart(kmsenv.APIServerOptions{
		EncryptionConfig: ectest.Secrets(kmsenv.KMSv2Provider(providerName, plugin.Endpoint()), ectest.Identity()),
		Wait:             wait,
	}); err != nil {
		t.Fatal(err)
	}
	t.Logf("kube-apiserver restarted (waiting for %s) in %s", wait, time.Since(start).Round(time.Second))
}

func readSecret(t *testing.T, client kubernetes.Interface, name string) {
	t.Helper()
	if _, err := client.CoreV1().Secrets("default").Get(context.Background(), name, metav1.GetOptions{}); err != nil {
		t.Fatalf("reading Secret %s: %v", name, err)
	}
}

func readSecretFails(t *testing.T, client kubernetes.Interface, name string) {
	t.Helper()
	if _, err := client.CoreV1().Secrets("default").Get(context.Background(), name, metav1.GetOptions{}); !apierrors.IsInternalError(err) {
		t.Fatalf("reading Secret %s: want a 500, got %v", name, err)
	}
}

// checkNodeProber asks the apiserver of config through apiserverprobe.ForNodes: a Node master-0 at its address, the
// certificate verified as "localhost", and a node without an address.
func checkNodeProber(t *testing.T, kube kubernetes.Interface, config *rest.Config) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	u, err := url.Parse(config.Host)
	if err != nil {
		t.Fatal(err)
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	for name, address := range map[string]string{"master-0": u.Hostname(), "master-new": ""} {
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
		if _, err := kube.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if address != "" {
			node.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: address}}
			if _, err := kube.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	informers := kubeinformers.NewSharedInformerFactory(kube, 0)
	nodes := informers.Core().V1().Nodes().Lister()
	informers.Start(ctx.Done())
	informers.WaitForCacheSync(ctx.Done())
	byName := rest.CopyConfig(config)
	byName.TLSClientConfig.ServerName = "localhost"
	client, err := rest.HTTPClientFor(byName)
	if err != nil {
		t.Fatal(err)
	}
	prober := apiserverprobe.ForNodes(client, kmsstate.NodeListerFunc(func(context.Context) ([]string, error) {
		return []string{"master-0", "master-new"}, nil
	}), nodes, apiserverprobe.NodeOptions{Port: port})
	views := prober.Probe(ctx)
	if len(views) != 2 {
		t.Fatalf("node prober: %d views, want 2", len(views))
	}
	if v := views[0]; v.NodeName != "master-0" || v.Err != "" || v.KMSHealthz == nil || !v.KMSHealthz.OK || v.Metrics == nil {
		t.Errorf("node prober: master-0 at %s:%d: view %s, want KMS health OK and a sample", u.Hostname(), port, describeView(v))
	}
	if v := views[1]; v.Err != `target: node "master-new" has no InternalIP address` {
		t.Errorf("node prober: master-new without an address: view %s, want only a target Err", describeView(v))
	}
}

// answeredView fails the test unless view is of an apiserver that answered both questions.
func answeredView(t *testing.T, view kmsstate.APIServerView) kmsstate.APIServerView {
	t.Helper()
	if view.Err != "" || view.KMSHealthz == nil || view.Metrics == nil {
		t.Fatalf("view %s, want both answers and no error", describeView(view))
	}
	return view
}

// probeUntil probes until the first target's view satisfies cond and returns that view. kube-apiserver caches
// its KMS health for 20 s, so this allows a few minutes, as waitForKMSHealth does.
func probeUntil(t *testing.T, prober *apiserverprobe.Prober, what string, cond func(kmsstate.APIServerView) bool) kmsstate.APIServerView {
	t.Helper()
	start := time.Now()
	var last kmsstate.APIServerView
	err := wait.PollUntilContextTimeout(context.Background(), 2*time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		last = prober.Probe(ctx)[0]
		return last.Err == "" && cond(last), nil
	})
	if err != nil {
		t.Fatalf("waiting until %s: %v; last view %s", what, err, describeView(last))
	}
	t.Logf("%s after %s", what, time.Since(start).Round(time.Second))
	return last
}

// describeView prints a view with what its pointers point to.
func describeView(v kmsstate.APIServerView) string {
	s := fmt.Sprintf("%s at %s: Err=%q", v.NodeName, v.CheckedAt.Format(time.RFC3339), v.Err)
	if v.KMSHealthz != nil {
		s += fmt.Sprintf(" KMSHealthz=%+v", *v.KMSHealthz)
	}
	if v.Metrics != nil {
		s += fmt.Sprintf(" Metrics=%+v", *v.Metrics)
	}
	return s
}

// closedAddress returns a loopback address that nothing listens on.
func closedAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}
