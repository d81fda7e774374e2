package kmsmigration

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/internal/conditions"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// TestPanicEndsTheMigration: a panic in any goroutine of a migration (the run itself, the pager's LIST, a worker's
// PUT, the health watch) ends that migration with a *conditions.PanicError as its result and KMSMigrationDegraded
// True, and the test process, as the operator would, goes on: the Migrator migrates the next resource.
func TestPanicEndsTheMigration(t *testing.T) {
	scenarios := []struct {
		name    string
		prepare func(c *fakeCluster, opts *Options)
	}{
		{
			name: "the first health read panics",
			prepare: func(_ *fakeCluster, opts *Options) {
				opts.KMS = kmsReaderFunc(func() (kmsstate.State, error) { panic("health reader bug") })
			},
		},
		{
			// The first LIST waits for the health watch's read, which panics.
			name: "the health watch panics",
			prepare: func(c *fakeCluster, opts *Options) {
				var calls atomic.Int32
				watched := make(chan struct{})
				opts.HealthInterval = time.Millisecond
				opts.KMS = kmsReaderFunc(func() (kmsstate.State, error) {
					if calls.Add(1) == 2 {
						close(watched)
						panic("health reader bug")
					}
					return kmsVerdict(operatorv1.KMSPluginHealthStatusHealthy, "", "3"), nil
				})
				c.BeforeList = func(n int) error {
					if n == 1 {
						<-watched
					}
					return nil
				}
			},
		},
		{
			name: "the pager's LIST panics",
			prepare: func(c *fakeCluster, _ *Options) {
				c.BeforeList = func(n int) error {
					if n == 2 {
						panic("list bug")
					}
					return nil
				}
			},
		},
		{
			name: "a worker's PUT panics",
			prepare: func(c *fakeCluster, _ *Options) {
				c.BeforeUpdate = func(key string, _ int) error {
					if key == "ns01/s0003" {
						panic("update bug")
					}
					return nil
				}
			},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			c := apiservertest.NewStaleSecrets(2, 30)
			opts := testOptions(t, c)
			s.prepare(c, &opts)
			m := newTestMigrator(t, opts)

			progress, err := m.Migrate(context.Background(), secretsGR, target)
			var p *conditions.PanicError
			if !errors.As(err, &p) {
				t.Fatalf("Migrate returned %v, want a recovered panic", err)
			}
			if progress.Finished.IsZero() {
				t.Errorf("the migration is not finished: %+v", progress)
			}
			// The finished migration keeps the recovered panic as its result, which KMSMigrationDegraded reports
			// (TestConditionsFor words a result that is neither undecryptable nor failed objects).
			var recorded *conditions.PanicError
			if got := m.Progress(); len(got) != 1 || !errors.As(got[0].Result, &recorded) {
				t.Errorf("progress %+v, want the migration with the recovered panic as its result", got)
			}
			conds := conditionsFor(m.Progress())
			if conds.degraded.Status != operatorv1.ConditionTrue || conds.degraded.Reason != ReasonFailed {
				t.Errorf("KMSMigrationDegraded %s %s %q, want True %s", conds.degraded.Status, conds.degraded.Reason, conds.degraded.Message, ReasonFailed)
			}

			// The process lives on: without the fault the same Migrator migrates.
			c.BeforeList, c.BeforeUpdate = nil, nil
			m.opts.KMS = nil
			if _, err := m.Migrate(context.Background(), secretsGR, Target{WriteKey: "3"}); err != nil {
				t.Errorf("the next migration failed: %v", err)
			}
		})
	}
}
