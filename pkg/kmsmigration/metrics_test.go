package kmsmigration

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	clientv3 "go.etcd.io/etcd/client/v3"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/component-base/metrics/testutil"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/internal/metricstest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// verificationExposition is what the verification metrics read after a sync that set reason, with the given
// resource verdicts (resource -> 0 or 1).
func verificationExposition(component, reason string, resources map[string]int) string {
	var b strings.Builder
	if len(resources) > 0 {
		b.WriteString("# HELP kmsguard_encryption_resource_verified [ALPHA] 1 when the last successful scan of etcd found every value of an encrypted resource under its write key, 0 otherwise.\n# TYPE kmsguard_encryption_resource_verified gauge\n")
		for resource, v := range resources {
			b.WriteString("kmsguard_encryption_resource_verified{component=\"" + component + "\",resource=\"" + resource + "\"} " + map[int]string{0: "0", 1: "1"}[v] + "\n")
		}
	}
	b.WriteString("# HELP kmsguard_encryption_verification_state [ALPHA] 1 for the reason of the KMSEncryptionVerified condition after the latest scan of etcd, 0 for the other reasons.\n# TYPE kmsguard_encryption_verification_state gauge\n")
	for _, r := range []string{ReasonVerified, ReasonNothingToVerify, ReasonNotVerified, ReasonScanDeadlineExceeded, ReasonVerificationFailed} {
		v := "0"
		if r == reason {
			v = "1"
		}
		b.WriteString("kmsguard_encryption_verification_state{component=\"" + component + "\",reason=\"" + r + "\"} " + v + "\n")
	}
	return b.String()
}

// TestVerificationMetrics syncs one VerificationController through the states of KMSEncryptionVerified and reads
// the metrics back after each sync: the condition's reason, and each resource's verdict from the last scan that
// succeeded; a failed scan keeps the verdicts it could not renew, and nothing to verify leaves none.
func TestVerificationMetrics(t *testing.T) {
	writeKey := evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "1_secrets", KEKID: "kek-b"}
	secrets := VerifyTarget{Resources: []evidence.Resource{evidence.BuiltInResource(evidence.DefaultEtcdPrefix, secretsGR)}, WriteKey: writeKey}
	kv := etcdtest.NewKV()
	var getErr error
	kv.BeforeGet = func(int, clientv3.Op) error { return getErr }
	targets := []VerifyTarget{secrets}
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	// An instance name of its own: the package's tests share the legacy registry.
	c := newTestVerificationController(t, t.Name(), VerificationOptions{
		Verifier:       evidence.NewVerifier(kv, evidence.Options{Counter: storeCounter{kv}}),
		Targets:        func(context.Context) ([]VerifyTarget, error) { return targets, nil },
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		Recorder:       recorder,
	})

	scenarios := []struct {
		name          string
		change        func()
		wantReason    string
		wantResources map[string]int
	}{
		{
			name:          "every secret under the write key",
			change:        func() { kv.Store("/registry/secrets/a/one", etcdtest.KMSv2Value("1_secrets", "kek-b")) },
			wantReason:    ReasonVerified,
			wantResources: map[string]int{"secrets": 1},
		},
		{
			name:          "a secret under the old KEK id",
			change:        func() { kv.Store("/registry/secrets/a/old", etcdtest.KMSv2Value("1_secrets", "kek-a")) },
			wantReason:    ReasonNotVerified,
			wantResources: map[string]int{"secrets": 0},
		},
		{
			name:          "etcd unreadable: the last verdict stays",
			change:        func() { getErr = errors.New("connection refused") },
			wantReason:    ReasonVerificationFailed,
			wantResources: map[string]int{"secrets": 0},
		},
		{
			name:       "nothing encrypted any more",
			change:     func() { getErr, targets = nil, nil },
			wantReason: ReasonNothingToVerify,
		},
	}
	for _, s := range scenarios {
		s.change()
		_ = c.sync(context.Background(), factory.NewSyncContext("test", recorder))
		if err := testutil.GatherAndCompare(metricstest.Gatherer(t.Name()), strings.NewReader(verificationExposition(t.Name(), s.wantReason, s.wantResources)),
			"kmsguard_encryption_verification_state", "kmsguard_encryption_resource_verified"); err != nil {
			t.Errorf("%s:\n%v", s.name, err)
		}
	}
}

// TestStoppedMigrationMetrics: a paused migration shows as paused after the controller's sync, and once it is
// stopped (library-go prunes it, or the write key changes) nothing shows as remaining or paused: gauges left as
// they were would read as a migration stalled forever.
func TestStoppedMigrationMetrics(t *testing.T) {
	c := apiservertest.NewStaleSecrets(1, 20)
	// The plugin goes down with the first write, after the first LIST gave the resource's size.
	var down atomic.Bool
	c.BeforeUpdate = func(string, int) error {
		down.Store(true)
		return apierrors.NewServiceUnavailable("KMS plugin unreachable")
	}
	opts := testOptions(t, c)
	opts.KMS = kmsReaderFunc(func() (kmsstate.State, error) {
		if down.Load() {
			return kmsstate.State{}, errors.New("plugin for key 2 unreachable")
		}
		return kmsstate.State{}, nil
	})
	m := newTestMigrator(t, opts)
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
	controller := newTestController(t, ControllerOptions{Migrator: m,
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil), Recorder: recorder})
	if _, _, _, err := m.EnsureMigration(secretsGR, "2"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.PruneMigration(secretsGR) })
	if err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		p := m.Progress()[0]
		return p.Paused == PausedKMSUnhealthy && p.Total > 0, nil
	}); err != nil {
		t.Fatalf("the migration did not pause after its first LIST within 30s: %v", m.Progress()[0])
	}
	read := func(name string, labels ...string) float64 {
		t.Helper()
		var v float64
		var err error
		switch name {
		case "remaining":
			v, err = testutil.GetGaugeMetricValue(m.metrics.remaining.WithLabelValues(append([]string{m.metrics.component}, labels...)...))
		case "paused":
			v, err = testutil.GetGaugeMetricValue(m.metrics.paused.WithLabelValues(append([]string{m.metrics.component}, labels...)...))
		}
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	scenarios := []struct {
		name          string
		action        func()
		wantRemaining float64
		wantPaused    float64
	}{
		{
			name:          "paused while the write key's plugin is down",
			action:        func() {},
			wantRemaining: 20, wantPaused: 1,
		},
		{
			name: "pruned by library-go",
			action: func() {
				if err := m.PruneMigration(secretsGR); err != nil {
					t.Fatal(err)
				}
			},
			wantRemaining: 0, wantPaused: 0,
		},
	}
	for _, s := range scenarios {
		s.action()
		if err := controller.sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
			t.Fatal(err)
		}
		if got := read("remaining", "secrets"); got != s.wantRemaining {
			t.Errorf("%s: kmsguard_migration_remaining_objects{resource=\"secrets\"} = %v, want %v", s.name, got, s.wantRemaining)
		}
		if got := read("paused", "secrets", string(PausedKMSUnhealthy)); got != s.wantPaused {
			t.Errorf("%s: kmsguard_migration_paused{reason=%q} = %v, want %v", s.name, PausedKMSUnhealthy, got, s.wantPaused)
		}
	}
}
