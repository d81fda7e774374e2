package kmsmigration

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/component-base/metrics/testutil"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

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
