package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/kmsguard/kmsguard/internal/conflictretry"
	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

const (
	// migrationSecrets is the acceptance test's data set.
	migrationSecrets = 5000
)

var secretsGR = schema.GroupResource{Resource: "secrets"}

// TestMigrationFromAESCBCToKMS migrates on a real etcd and kube-apiserver:
//  1. 5,000 Secrets under aescbc; KMS v2 becomes the write provider; the migrator rewrites them while
//     writers update Secrets concurrently: the verifier then counts every Secret under the KMS key_id, and
//     every writer's last value reads back;
//  2. the KMS key is rotated: asked for the new KEK id, the migrator migrates again, and every Secret ends under
//     the new key_id;
//  3. the plugin stops mid-migration: the migration pauses (PausedKMSUnhealthy), and finishes once the plugin is
//     back.
//
// It tests the Migrator alone, with the KMS verdict injected (probedKMS); the test makes the calls library-go's
// migration controller (EnsureMigration) and kmsguard's rotation controller (Ensure) make. The migration wired by
// kmsguard.NewStaticPodControllers runs in the lab's tour (enable-kms, key-rotated).
func TestMigrationFromAESCBCToKMS(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	kms := fake.NewKMS()
	plugin := fake.StartForTest(t, kms)
	cp := kmsenv.StartForTest(t, kmsenv.Options{APIServerOptions: kmsenv.APIServerOptions{
		EncryptionConfig: ectest.Secrets(ectest.AESCBC("key1", ectest.AESKeyA), kmsenv.KMSv2Provider(providerName, plugin.Endpoint())),
	}})
	a := cp.APIServer(0)
	etcd, err := cp.EtcdClient()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	createSecrets(t, a.Client(), "mig", migrationSecrets)
	t.Logf("created %d Secrets under aescbc in %s", migrationSecrets, time.Since(start).Round(time.Millisecond))
	if err := a.Restart(kmsenv.APIServerOptions{
		EncryptionConfig: ectest.Secrets(kmsenv.KMSv2Provider(providerName, plugin.Endpoint()), ectest.AESCBC("key1", ectest.AESKeyA)),
	}); err != nil {
		t.Fatal(err)
	}
	before := verify(t, a, etcd, nil, evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: providerName, KEKID: kms.CurrentKEKID()}).Resources[0]
	if before.NotUnderWriteKey < migrationSecrets {
		t.Fatalf("before the migration only %d Secrets are off the KMS key", before.NotUnderWriteKey)
	}

	// The health of the write key as kmsstate would judge it; the last phase switches to a second KMS.
	kmsView := &probedKMS{}
	puts := &putCounter{}
	m := newE2EMigrator(t, a, puts, kmsmigration.Options{HealthInterval: time.Second, KMS: kmsView})

	t.Run("migrate with concurrent writers", func(t *testing.T) {
		writers := startWriters(ctx, t, a.Client(), "mig", 200, 4)
		start := time.Now()
		if _, _, _, err := m.EnsureMigration(secretsGR, "1"); err != nil {
			t.Fatal(err)
		}
		p := waitMigration(t, m, kmsmigration.Target{WriteKey: "1"})
		elapsed := time.Since(start)
		last := writers.stop()
		t.Logf("migrated in %s (%.0f objects/s): %s; concurrent writes: %d", elapsed.Round(time.Millisecond), float64(p.Counts.Listed)/elapsed.Seconds(), p, writers.writes.Load())
		// A Secret a writer updated before the migrator reached it is already under KMS: "already current".
		if p.Result != nil || p.Counts.Listed < migrationSecrets || p.Counts.Done() != p.Counts.Listed {
			t.Fatalf("migration: %s: %v", p, p.Result)
		}
		for name, want := range last {
			s, err := a.Client().CoreV1().Secrets("default").Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if string(s.Data["value"]) != want {
				var writers []string
				for _, f := range s.ManagedFields {
					writers = append(writers, fmt.Sprintf("%s %s at %s", f.Manager, f.Operation, f.Time))
				}
				stored, err := etcd.Get(ctx, secretKey(name))
				if err != nil || len(stored.Kvs) != 1 {
					t.Fatalf("reading %s from etcd: %v", name, err)
				}
				t.Errorf("%s: read back %q at resourceVersion %s (etcd holds mod revision %d), the writer's last value was %q; written by %v",
					name, s.Data["value"], s.ResourceVersion, stored.Kvs[0].ModRevision, want, writers)
			}
		}
		report := verify(t, a, etcd, nil, evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: providerName, KEKID: kms.CurrentKEKID()})
		r := report.Resources[0]
		if !report.Verified() || r.UnderWriteKey < migrationSecrets || r.NotUnderWriteKey != 0 {
			t.Fatalf("after the migration: %d under the KMS key, %d elsewhere (%v)", r.UnderWriteKey, r.NotUnderWriteKey, r.NotUnderWriteKeyListed)
		}
	})

	t.Run("migrate again after a key rotation", func(t *testing.T) {
		newKeyID := kms.Rotate()
		// The apiserver picks up the new key_id on its next Status call (every minute while healthy);
		// kmsstate reports the rotation complete only once the apiserver is on it, so wait the same way:
		// a new write must land under the new key_id.
		waitForNewWritesUnder(t, cp, a.Client(), newKeyID)
		// What kmsguard's rotation controller asks once kmsstate saw the rotation complete.
		target := kmsmigration.Target{WriteKey: "1", KEKID: newKeyID}
		if _, _, _, err := m.Ensure(secretsGR, target); err != nil {
			t.Fatal(err)
		}
		p := waitMigration(t, m, target)
		if p.Result != nil {
			t.Fatal(p.Result)
		}
		t.Logf("rotation migration: %s", p)
		report := verify(t, a, etcd, nil, evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: providerName, KEKID: newKeyID})
		if r := report.Resources[0]; !report.Verified() || r.NotUnderWriteKey != 0 {
			t.Fatalf("after the rotation migration: %d under %s, %d elsewhere (%v)", r.UnderWriteKey, newKeyID, r.NotUnderWriteKey, r.NotUnderWriteKeyListed)
		}
	})

	t.Run("pause while the write key's plugin is stopped", func(t *testing.T) {
		// A second KMS becomes the write key: every Secret is stale again.
		kms2 := fake.NewKMS()
		plugin2 := fake.StartForTest(t, kms2)
		const provider2 = "fake-kms-2"
		if err := a.Restart(kmsenv.APIServerOptions{EncryptionConfig: ectest.Secrets(
			kmsenv.KMSv2Provider(provider2, plugin2.Endpoint()), kmsenv.KMSv2Provider(providerName, plugin.Endpoint()), ectest.AESCBC("key1", ectest.AESKeyA)),
		}); err != nil {
			t.Fatal(err)
		}
		// From now on kmsstate watches key 2: its plugin's Status, evaluated by kmsstate's code.
		probe, err := pluginprobe.NewGRPCPlugin(ctx, "2", plugin2.Endpoint(), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		kmsView.watch("2", probe)
		if _, _, _, err := m.EnsureMigration(secretsGR, "2"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "a quarter of the Secrets rewritten", func() bool {
			p := m.Progress()[0]
			return p.Counts.Rewritten > migrationSecrets/4
		})
		plugin2.Stop()
		stopped := time.Now()
		waitFor(t, "the migration paused on the write key's health", func() bool {
			return m.Progress()[0].Paused == kmsmigration.PausedKMSUnhealthy
		})
		atPause := m.Progress()[0]
		t.Logf("paused %s after the plugin stopped: %s", time.Since(stopped).Round(time.Millisecond), atPause.PauseDetail)
		// A pause stops new writes; those already sent finish (KMS v2 encrypts with its cached DEK while the plugin
		// is down), at most one per in-flight slot. The migrator's PUTs are counted as they leave and return.
		waitFor(t, "the migrator's writes in flight at the pause to finish", func() bool { return puts.inFlight.Load() == 0 })
		// A write that passed the pause latch just before the pause is sent well within the migrator's next health
		// read, which finds the plugin still down.
		waitForHealthReads(t, kmsView, 1)
		paused, sent := m.Progress()[0].Counts, puts.started.Load()
		drained := paused.Done() - atPause.Counts.Done()
		if drained > int64(atPause.InFlightLimit) {
			t.Errorf("%d objects were migrated after the pause, more than the %d writes that can be in flight", drained, atPause.InFlightLimit)
		}
		t.Logf("%d writes in flight at the pause finished (in-flight limit %d)", drained, atPause.InFlightLimit)
		// To write again the migrator must first read the KMS health and find it healthy: after two more reads
		// that find the plugin down, not one PUT was sent and nothing was migrated.
		waitForHealthReads(t, kmsView, 2)
		if p := m.Progress()[0]; p.Counts.Done() != paused.Done() || puts.started.Load() != sent || p.Paused != kmsmigration.PausedKMSUnhealthy {
			t.Errorf("while paused: %d objects migrated, %d PUTs sent, pause %q", p.Counts.Done()-paused.Done(), puts.started.Load()-sent, p.Paused)
		}
		if err := plugin2.Start(); err != nil {
			t.Fatal(err)
		}
		p := waitMigration(t, m, kmsmigration.Target{WriteKey: "2"})
		if p.Result != nil || p.Counts.Failed != 0 {
			t.Fatalf("after resuming: %s: %v", p, p.Result)
		}
		t.Logf("resumed and finished: %s", p)
		report := verify(t, a, etcd, nil, evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: provider2, KEKID: kms2.CurrentKEKID()})
		if r := report.Resources[0]; !report.Verified() || r.NotUnderWriteKey != 0 {
			t.Fatalf("after the paused migration: %d Secrets not under %s (%v)", r.NotUnderWriteKey, provider2, r.NotUnderWriteKeyListed)
		}
	})
}

// probedKMS is the migrator's kmsstate verdict in this test, with no kmsstate controller and no health reporter
// to run: each Current makes the health report of the one watched key on master-0 from a Status call to its
// plugin, as the reporter does, and evaluates it with kmsstate's own code. Before watch, kmsstate watches no KMS
// key, so the migrator has no plugin to wait for.
type probedKMS struct {
	watched atomic.Pointer[watchedPlugin]
	// reads counts the Current calls that have returned: the migrator's reads of the KMS health.
	reads atomic.Int64
}

// waitForHealthReads waits until the migrator has read k n more times.
func waitForHealthReads(t *testing.T, k *probedKMS, n int64) {
	t.Helper()
	want := k.reads.Load() + n
	waitFor(t, fmt.Sprintf("%d more reads of the KMS health by the migrator", n), func() bool { return k.reads.Load() >= want })
}

type watchedPlugin struct {
	keyID string
	probe pluginprobe.Plugin
}

func (k *probedKMS) watch(keyID string, probe pluginprobe.Plugin) {
	k.watched.Store(&watchedPlugin{keyID: keyID, probe: probe})
}

func (k *probedKMS) Current() (kmsstate.State, error) {
	defer k.reads.Add(1)
	now := time.Now()
	observation := kmsstate.Observation{Now: now, Nodes: []string{"master-0"}}
	if w := k.watched.Load(); w != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		report := operatorv1.KMSPluginHealthReport{NodeName: "master-0", KeyID: w.keyID, LastCheckedTime: metav1.NewTime(now)}
		status, err := w.probe.Service.Status(ctx)
		switch {
		case err != nil:
			report.Status, report.RemoteKeyID, report.Detail = operatorv1.KMSPluginHealthStatusError, "unknown", err.Error()
		case status.Healthz != "ok":
			report.Status, report.RemoteKeyID, report.Detail = operatorv1.KMSPluginHealthStatusUnhealthy, status.KeyID, "healthz "+status.Healthz
		default:
			report.Status, report.RemoteKeyID = operatorv1.KMSPluginHealthStatusHealthy, status.KeyID
		}
		observation.KeyIDs, observation.Reports = []string{w.keyID}, []operatorv1.KMSPluginHealthReport{report}
	}
	state, _ := kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, observation)
	return state, nil
}

func newE2EMigrator(t *testing.T, a *kmsenv.APIServer, puts *putCounter, opts kmsmigration.Options) *kmsmigration.Migrator {
	t.Helper()
	config := migratorConfig(a)
	config.Wrap(puts.wrap)
	opts.Dynamic, opts.Mapper = dynamic.NewForConfigOrDie(config), secretsMapper()
	// Secrets are built in: with RESTConfig the migrator lists and rewrites them in protobuf, without decoding
	// (kmsmigration's raw.go), so that path meets concurrent writers, a pause and a KEK rotation here. The
	// dynamic path is the lab's and the rollout gate's tests', whose wiring sets no RESTConfig.
	opts.RESTConfig = config
	if opts.QPS == 0 {
		opts.QPS = -1
	}
	m, err := kmsmigration.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// putCounter counts the PUT requests of a client: the migrator's writes.
type putCounter struct {
	started, inFlight atomic.Int64
}

func (c *putCounter) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		if req.Method != http.MethodPut {
			return rt.RoundTrip(req)
		}
		c.started.Add(1)
		c.inFlight.Add(1)
		defer c.inFlight.Add(-1)
		return rt.RoundTrip(req)
	})
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// createSecrets creates n Secrets <prefix>-<i> in default from 8 goroutines.
func createSecrets(t *testing.T, client kubernetes.Interface, prefix string, n int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 8 {
				s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%05d", prefix, i)}, Data: map[string][]byte{"value": []byte("v0")}}
				if _, err := client.CoreV1().Secrets("default").Create(context.Background(), s, metav1.CreateOptions{}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

type writers struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	writes atomic.Int64
	lock   sync.Mutex
	last   map[string]string
}

// startWriters updates random Secrets among the first n, from workers goroutines, as users would during a
// migration, and remembers the last value each Secret was successfully updated to. Requests run to completion
// even after stop: a request cancelled in flight may or may not have been applied, which would make "the last
// value" unknowable.
func startWriters(ctx context.Context, t *testing.T, client kubernetes.Interface, prefix string, n, workers int) *writers {
	ctx, cancel := context.WithCancel(ctx)
	w := &writers{cancel: cancel, last: map[string]string{}}
	for id := range workers {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			for seq := 0; ctx.Err() == nil; seq++ {
				name := fmt.Sprintf("%s-%05d", prefix, rand.IntN(n))
				value := fmt.Sprintf("writer-%d-%d", id, seq)
				// One writer per Secret at a time, so that "last" is well defined.
				w.lock.Lock()
				err := conflictretry.Do(func() error {
					s, err := client.CoreV1().Secrets("default").Get(context.Background(), name, metav1.GetOptions{})
					if err != nil {
						return err
					}
					s.Data["value"] = []byte(value)
					_, err = client.CoreV1().Secrets("default").Update(context.Background(), s, metav1.UpdateOptions{})
					return err
				})
				if err == nil {
					w.last[name] = value
					w.writes.Add(1)
				} else {
					t.Errorf("writer %d: %v", id, err)
				}
				w.lock.Unlock()
			}
		}()
	}
	return w
}

func (w *writers) stop() map[string]string {
	w.cancel()
	w.wg.Wait()
	return w.last
}

func waitMigration(t *testing.T, m *kmsmigration.Migrator, target kmsmigration.Target) kmsmigration.Progress {
	t.Helper()
	var last kmsmigration.Progress
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, 5*time.Minute, true, func(context.Context) (bool, error) {
		for _, p := range m.Progress() {
			if p.Resource == secretsGR && p.Target == target {
				last = p
				return !p.Running(), nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("migration to %s did not finish: %s", target, last)
	}
	return last
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 3*time.Minute, true, func(context.Context) (bool, error) { return cond(), nil }); err != nil {
		t.Fatalf("timed out waiting for %s", what)
	}
}

// waitForNewWritesUnder waits until a newly written Secret is stored under keyID.
func waitForNewWritesUnder(t *testing.T, cp *kmsenv.ControlPlane, client kubernetes.Interface, keyID string) {
	t.Helper()
	waitFor(t, "new writes under key_id "+keyID, func() bool {
		name := uniqueName("probe")
		createSecret(t, client, name, "v")
		v, _ := storedValue(t, cp, name)
		_ = client.CoreV1().Secrets("default").Delete(context.Background(), name, metav1.DeleteOptions{})
		return v.KEKID == keyID
	})
}
