package kmsmigration

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/component-base/metrics/testutil"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

var target = Target{WriteKey: "2"}

func TestMigrateOutcomes(t *testing.T) {
	scenarios := []struct {
		name string
		// prepare changes the cluster after the fakes are built; hook runs
		// before every update.
		prepare    func(c *fakeCluster)
		hook       func(c *fakeCluster) func(key string) error
		wantCounts Counts
		wantErr    func(error) bool
		wantStale  int
	}{
		{
			name:       "every stale object is rewritten once",
			wantCounts: Counts{Listed: 60, Rewritten: 60},
		},
		{
			name: "objects under the current key are not written",
			prepare: func(c *fakeCluster) {
				for key := range c.Stale {
					if key < "ns01" {
						c.Stale[key] = false
					}
				}
			},
			wantCounts: Counts{Listed: 60, Rewritten: 30, Unchanged: 30},
		},
		{
			name: "a concurrent write wins: conflict counted, never overwritten",
			hook: func(c *fakeCluster) func(string) error {
				return func(key string) error {
					if key == "ns00/s0003" || key == "ns01/s0010" {
						c.Write(key, "written-by-the-user")
					}
					return nil
				}
			},
			wantCounts: Counts{Listed: 60, Rewritten: 58, Conflicts: 2},
		},
		{
			name: "a deleted object is gone, not failed",
			hook: func(c *fakeCluster) func(string) error {
				return func(key string) error {
					if key == "ns00/s0005" {
						c.Lock.Lock()
						delete(c.Objects, key)
						delete(c.Stale, key)
						c.Lock.Unlock()
					}
					return nil
				}
			},
			wantCounts: Counts{Listed: 60, Rewritten: 59, Gone: 1},
		},
		{
			name:       "410 mid-list resumes after the last key listed",
			prepare:    func(c *fakeCluster) { c.ExpireOnce = true },
			wantCounts: Counts{Listed: 60, Rewritten: 60},
		},
		{
			name: "a failing LIST is retried, not the end of the migration",
			prepare: func(c *fakeCluster) {
				c.BeforeList = func(n int) error {
					if n == 2 || n == 3 {
						return apierrors.NewServiceUnavailable("etcd leader changed")
					}
					return nil
				}
			},
			wantCounts: Counts{Listed: 60, Rewritten: 60},
		},
		{
			name: "a forbidden LIST ends the migration with its error",
			prepare: func(c *fakeCluster) {
				c.BeforeList = func(int) error { return apierrors.NewForbidden(secretsGR, "", errors.New("no list")) }
			},
			wantErr:   apierrors.IsForbidden,
			wantStale: 60,
		},
		{
			name: "429 with Retry-After waits and retries without failing",
			hook: func(c *fakeCluster) func(string) error {
				var throttled atomic.Int32
				return func(string) error {
					if throttled.Add(1) <= 10 {
						return apierrors.NewTooManyRequests("slow down", 2)
					}
					return nil
				}
			},
			wantCounts: Counts{Listed: 60, Rewritten: 60},
		},
		{
			name: "undecryptable objects are reported and the rest migrated",
			prepare: func(c *fakeCluster) {
				c.Unreadable["ns00/s0004"] = true
				c.Unreadable["ns01/s0000"] = true
				c.Unreadable["ns01/s0001"] = true
			},
			wantCounts: Counts{Listed: 57, Rewritten: 57, Undecryptable: 3},
			wantErr: func(err error) bool {
				var u *UndecryptableError
				return errors.As(err, &u) && u.Count == 3 && len(u.Keys) == 3 && u.Keys[0] == "/kubernetes.io/secrets/ns00/s0004"
			},
			wantStale: 3,
		},
		{
			name: "a forbidden update fails that object only",
			hook: func(c *fakeCluster) func(string) error {
				return func(key string) error {
					if key == "ns01/s0020" {
						return apierrors.NewForbidden(secretsGR, "s0020", errors.New("denied"))
					}
					return nil
				}
			},
			wantCounts: Counts{Listed: 60, Rewritten: 59, Failed: 1},
			wantErr: func(err error) bool {
				var f *FailedError
				return errors.As(err, &f) && f.Count == 1 && f.Keys[0] == "ns01/s0020"
			},
			wantStale: 1,
		},
	}
	for _, scenario := range scenarios {
		t.Run(scenario.name, func(t *testing.T) {
			c := apiservertest.NewStaleSecrets(2, 30)
			if scenario.prepare != nil {
				scenario.prepare(c)
			}
			if scenario.hook != nil {
				hook := scenario.hook(c)
				c.BeforeUpdate = func(key string, _ int) error { return hook(key) }
			}
			m := newTestMigrator(t, testOptions(t, c))
			progress, err := m.Migrate(context.Background(), secretsGR, target)
			switch {
			case scenario.wantErr == nil && err != nil:
				t.Fatalf("Migrate: %v", err)
			case scenario.wantErr != nil && !scenario.wantErr(err):
				t.Fatalf("Migrate returned %v, not the expected error", err)
			}
			if progress.Counts != scenario.wantCounts {
				t.Errorf("counts %+v, want %+v", progress.Counts, scenario.wantCounts)
			}
			if got := c.StaleCount(); got != scenario.wantStale {
				t.Errorf("%d objects left under the old key, want %d", got, scenario.wantStale)
			}
			for key, n := range c.Writes {
				if n > 1 {
					t.Errorf("%s was written %d times", key, n)
				}
			}
			if v := c.Value("ns00/s0003"); scenario.hook != nil && v != "v0" && v != "written-by-the-user" {
				t.Errorf("value of ns00/s0003 is %q", v)
			}
		})
	}
}

func TestConcurrentWriteIsNeverOverwritten(t *testing.T) {
	c := apiservertest.NewStaleSecrets(1, 40)
	c.BeforeUpdate = func(key string, _ int) error {
		c.Write(key, "new-"+key)
		return nil
	}
	m := newTestMigrator(t, testOptions(t, c))
	progress, err := m.Migrate(context.Background(), secretsGR, target)
	if err != nil {
		t.Fatal(err)
	}
	if progress.Counts.Conflicts != 40 {
		t.Errorf("counts %+v, want 40 conflicts", progress.Counts)
	}
	for key := range c.Objects {
		if v := c.Value(key); v != "new-"+key {
			t.Errorf("%s holds %q after the migration, the writer's value was lost", key, v)
		}
	}
}

// The migrator holds the page its workers are on and at most one more: the
// next LIST runs while they write, and no LIST runs beyond it while they are
// busy. Here every PUT blocks, so the workers hold 4 objects, the queue 4 and
// the lister a 9th: the lister is on page 2 of 7-object pages, and page 3,
// listed ahead, is the last LIST until the workers move on. A pager buffering
// one more page would hold page 4 as well.
func TestListsOnePageAheadOfTheWorkers(t *testing.T) {
	c := apiservertest.NewStaleSecrets(2, 20)
	release := make(chan struct{})
	c.BeforeUpdate = func(string, int) error {
		<-release
		return nil
	}
	lists := make(chan int, 10)
	c.BeforeList = func(n int) error {
		lists <- n
		return nil
	}
	opts := testOptions(t, c) // pages of 7, 4 workers
	m := newTestMigrator(t, opts)
	done := make(chan error, 1)
	go func() {
		_, err := m.Migrate(context.Background(), secretsGR, target)
		done <- err
	}()
	for want := 1; want <= 3; want++ {
		select {
		case n := <-lists:
			if n != want {
				t.Fatalf("LIST number %d, want %d", n, want)
			}
		case <-time.After(wait.ForeverTestTimeout):
			t.Fatalf("%d LISTs while the workers were busy, want 3", want-1)
		}
	}
	// A fourth LIST, had there been one, follows the third at once; the
	// workers are blocked, so nothing else can start it.
	select {
	case n := <-lists:
		t.Errorf("LIST number %d while the workers still hold page 1: the migrator holds more than one page ahead", n)
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if c.StaleCount() != 0 {
		t.Errorf("%d objects stale after the migration", c.StaleCount())
	}
}

// Every controller that follows the migrations is woken when one finishes:
// library-go's migration controller, the Controller and the census each add
// a handler to the same Migrator.
func TestEveryHandlerIsToldOfAFinishedMigration(t *testing.T) {
	c := apiservertest.NewStaleSecrets(1, 10)
	m := newTestMigrator(t, testOptions(t, c))
	const followers = 3
	woken := make(chan int, 2*followers)
	for i := range followers {
		if _, err := m.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(any) { woken <- i }}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, _, err := m.EnsureMigration(secretsGR, "2"); err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for len(seen) < followers {
		select {
		case i := <-woken:
			if seen[i] {
				t.Fatalf("handler %d woken twice for one migration", i)
			}
			seen[i] = true
		case <-time.After(wait.ForeverTestTimeout):
			t.Fatalf("handlers woken: %v, want all %d", seen, followers)
		}
	}
	if finished, result, _, err := m.EnsureMigration(secretsGR, "2"); err != nil || !finished || result != nil {
		t.Errorf("EnsureMigration after the handlers were woken: finished %v, result %v, err %v; want finished without error", finished, result, err)
	}
}

// A repeat migration with the write key unchanged writes nothing: the
// apiserver skips a no-op update of an object that is not stale.
func TestRepeatMigrationWritesNothing(t *testing.T) {
	c := apiservertest.NewStaleSecrets(2, 30)
	m := newTestMigrator(t, testOptions(t, c))
	if _, err := m.Migrate(context.Background(), secretsGR, target); err != nil {
		t.Fatal(err)
	}
	before := len(c.Writes)
	progress, err := m.Migrate(context.Background(), secretsGR, Target{WriteKey: "2", KEKID: "kek-2"})
	if err != nil {
		t.Fatal(err)
	}
	if progress.Counts != (Counts{Listed: 60, Unchanged: 60}) {
		t.Errorf("repeat migration counts %+v, want 60 unchanged", progress.Counts)
	}
	total := 0
	for _, n := range c.Writes {
		total += n
	}
	if total != before || total != 60 {
		t.Errorf("%d writes after the repeat migration, want the 60 of the first", total)
	}
}

func TestPauseWhileKMSUnhealthy(t *testing.T) {
	c := apiservertest.NewStaleSecrets(2, 30)
	var unhealthy atomic.Bool
	c.BeforeUpdate = func(string, int) error {
		if unhealthy.Load() {
			// What kube-apiserver answers once its DEK has expired.
			return apierrors.NewInternalError(errors.New("failed to encrypt: KMS unavailable"))
		}
		return nil
	}
	opts := testOptions(t, c)
	opts.Concurrency = 1
	opts.MaxRetries = 1
	var healthChecks atomic.Int64
	opts.KMS = kmsReaderFunc(func() (kmsstate.State, error) {
		healthChecks.Add(1)
		if unhealthy.Load() {
			return kmsVerdict(operatorv1.KMSPluginHealthStatusHealthy, "2", "1", "2"), nil
		}
		return kmsVerdict(operatorv1.KMSPluginHealthStatusHealthy, "", "1", "2"), nil
	})
	var sawPause atomic.Bool
	hook := c.BeforeUpdate
	c.BeforeUpdate = func(key string, n int) error {
		if n == 20 {
			unhealthy.Store(true)
		}
		return hook(key, n)
	}
	m := newTestMigrator(t, opts)
	if _, _, _, err := m.EnsureMigration(secretsGR, "2"); err != nil {
		t.Fatal(err)
	}
	err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		for _, p := range m.Progress() {
			if p.Paused == PausedKMSUnhealthy {
				sawPause.Store(true)
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("the migration never paused for the unhealthy KMS: %v", m.Progress())
	}
	pausedAt := c.UpdateCount()
	// While paused, nothing is written: let the paused migration ask the KMS's health several more times.
	checksAtPause := healthChecks.Load()
	if err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return healthChecks.Load() >= checksAtPause+5, nil
	}); err != nil {
		t.Fatalf("the paused migration asked the KMS's health %d times in 30s, want 5 more", healthChecks.Load()-checksAtPause)
	}
	if n := c.UpdateCount(); n > pausedAt+1 {
		t.Errorf("%d updates were sent while paused", n-pausedAt)
	}
	unhealthy.Store(false)
	finished, _, result := waitFinished(t, m, "2")
	if !finished || result != nil {
		t.Fatalf("finished=%v result=%v", finished, result)
	}
	if got := c.StaleCount(); got != 0 {
		t.Errorf("%d objects left stale after resuming", got)
	}
}

func TestErrorThresholdPausesAndResumes(t *testing.T) {
	c := apiservertest.NewStaleSecrets(2, 30)
	var failures atomic.Int32
	c.BeforeUpdate = func(string, int) error {
		if failures.Add(1) <= 12 {
			return apierrors.NewServiceUnavailable("etcd leader changed")
		}
		return nil
	}
	opts := testOptions(t, c)
	opts.ErrorThreshold = 10
	opts.ErrorPause = time.Minute
	m := newTestMigrator(t, opts)
	if _, _, _, err := m.EnsureMigration(secretsGR, "2"); err != nil {
		t.Fatal(err)
	}
	sawThreshold := false
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Microsecond, 30*time.Second, true, func(context.Context) (bool, error) {
		p := m.Progress()[0]
		sawThreshold = sawThreshold || p.Paused == PausedErrorThreshold
		return !p.Running(), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !sawThreshold {
		t.Errorf("the migration never paused with %s", PausedErrorThreshold)
	}
	p := m.Progress()[0]
	if p.Result != nil || p.Counts.Failed != 0 || p.Counts.Rewritten != 60 {
		t.Errorf("after resuming: result %v, counts %+v", p.Result, p.Counts)
	}
}

func TestCheckpointResumeAfterRestart(t *testing.T) {
	c := apiservertest.NewStaleSecrets(3, 40)
	kube := kubefake.NewSimpleClientset()
	store := ConfigMapCheckpoints{Client: kube.CoreV1(), Namespace: "openshift-kube-apiserver-operator", Name: "kmsguard-migration"}

	// The first operator process dies when it reaches the 50th Secret in
	// list order, after the 49 before it (seven whole pages of seven) were
	// rewritten. Stopping on a count of updates instead made the test
	// depend on scheduling: a worker holding an object of the first page
	// could be descheduled while the others sent 50 updates, and then no
	// page was whole.
	const stopAt = 49
	position := func(key string) int {
		var ns, i int
		if _, err := fmt.Sscanf(key, "ns%02d/s%04d", &ns, &i); err != nil {
			t.Errorf("unexpected key %q", key)
		}
		return ns*40 + i
	}
	earlierStale := func() int {
		c.Lock.Lock()
		defer c.Lock.Unlock()
		n := 0
		for key, stale := range c.Stale {
			if stale && position(key) < stopAt {
				n++
			}
		}
		return n
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.BeforeUpdate = func(key string, _ int) error {
		if position(key) < stopAt {
			return nil
		}
		if earlierStale() > 0 {
			// Not yet: client-go's fake runs one reactor at a time, so
			// this update cannot wait here for the others. Throttling
			// sends it back without spending a retry.
			return apierrors.NewTooManyRequests("the earlier objects first", 1)
		}
		cancel()
		return context.Canceled
	}
	opts := testOptions(t, c)
	opts.Checkpoints = store
	first := newTestMigrator(t, opts)
	if _, err := first.Migrate(ctx, secretsGR, target); !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v", err)
	}
	saved, err := store.Load(context.Background(), secretsGR)
	if err != nil || saved == nil {
		t.Fatalf("no checkpoint after the stop: %v", err)
	}
	if saved.Continue == "" || saved.Counts.Listed != stopAt || saved.Counts.Rewritten != stopAt {
		t.Fatalf("checkpoint %+v: want a continue token and the %d objects of the first seven pages rewritten", saved, stopAt)
	}

	// A new process resumes from the checkpoint.
	c.BeforeUpdate = nil
	listsBefore := c.Lists
	opts = testOptions(t, c)
	opts.Checkpoints = store
	second := newTestMigrator(t, opts)
	if _, _, _, err := second.EnsureMigration(secretsGR, "2"); err != nil {
		t.Fatal(err)
	}
	finished, _, result := waitFinished(t, second, "2")
	if !finished || result != nil {
		t.Fatalf("finished=%v result=%v", finished, result)
	}
	if c.Continues[listsBefore] != saved.Continue {
		t.Errorf("the resumed migration listed from %q, want the checkpoint's token", c.Continues[listsBefore])
	}
	p := second.Progress()[0]
	if p.Counts.Listed != 120 || p.Counts.Rewritten != 120 || p.Counts.Unchanged != 0 {
		t.Errorf("counts after resuming %+v, want every object counted once", p.Counts)
	}
	if got := c.StaleCount(); got != 0 {
		t.Errorf("%d objects left stale", got)
	}

	// A third process sees the finished checkpoint and starts nothing.
	updates := c.UpdateCount()
	third := newTestMigrator(t, opts)
	finished, result, ts, err := third.EnsureMigration(secretsGR, "2")
	if err != nil || !finished || result != nil || ts.IsZero() {
		t.Errorf("after a restart: finished=%v result=%v ts=%v err=%v", finished, result, ts, err)
	}
	if c.UpdateCount() != updates {
		t.Errorf("a finished migration was run again")
	}
	// A new write key starts over.
	if finished, _, _, _ := third.EnsureMigration(secretsGR, "3"); finished {
		t.Errorf("a migration to a new write key was reported finished")
	}
	if _, _, result := waitFinished(t, third, "3"); result != nil {
		t.Errorf("migration to the new write key: %v", result)
	}
}

// TestUnreadableCheckpointStartsOver: the checkpoint ConfigMap can be neither read nor written (the failing KMS
// encrypts it): the migration starts from the beginning instead of refusing, and migrates every object.
func TestUnreadableCheckpointStartsOver(t *testing.T) {
	c := apiservertest.NewStaleSecrets(2, 10)
	kube := kubefake.NewSimpleClientset()
	apiservertest.FailEncrypted(kube, "configmaps")
	opts := testOptions(t, c)
	opts.Checkpoints = ConfigMapCheckpoints{Client: kube.CoreV1(), Namespace: "openshift-kube-apiserver-operator", Name: "kmsguard-migration"}
	m := newTestMigrator(t, opts)
	if finished, _, _, err := m.EnsureMigration(secretsGR, "2"); err != nil || finished {
		t.Fatalf("EnsureMigration: finished=%v err=%v, want a migration started", finished, err)
	}
	if finished, _, result := waitFinished(t, m, "2"); !finished || result != nil {
		t.Fatalf("finished=%v result=%v", finished, result)
	}
	if p := m.Progress()[0]; p.Counts.Rewritten != 20 {
		t.Errorf("counts %+v, want all 20 objects rewritten", p.Counts)
	}
	if got := c.StaleCount(); got != 0 {
		t.Errorf("%d objects left stale", got)
	}
}

func TestPruneMigrationForgetsTheCheckpoint(t *testing.T) {
	c := apiservertest.NewStaleSecrets(1, 10)
	m := newTestMigrator(t, testOptions(t, c))
	if _, _, _, err := m.EnsureMigration(secretsGR, "2"); err != nil {
		t.Fatal(err)
	}
	if _, _, result := waitFinished(t, m, "2"); result != nil {
		t.Errorf("migration: %v", result)
	}
	if err := m.PruneMigration(secretsGR); err != nil {
		t.Fatal(err)
	}
	if len(m.Progress()) != 0 {
		t.Errorf("a pruned migration is still reported")
	}
	if finished, _, _, _ := m.EnsureMigration(secretsGR, "2"); finished {
		t.Errorf("a pruned migration came back finished")
	}
	if _, _, result := waitFinished(t, m, "2"); result != nil {
		t.Errorf("migration: %v", result)
	}
}

func waitFinished(t *testing.T, m *Migrator, writeKey string) (finished bool, at time.Time, result error) {
	t.Helper()
	return waitTarget(t, m, Target{WriteKey: writeKey})
}

// waitTarget polls Ensure, as library-go's controller does, until the
// migration to target finished.
func waitTarget(t *testing.T, m *Migrator, target Target) (finished bool, at time.Time, result error) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		var err error
		finished, result, at, err = m.Ensure(secretsGR, target)
		return finished, err
	})
	if err != nil {
		t.Fatalf("migration to %s did not finish: %v (%v)", target, err, fmt.Sprint(m.Progress()))
	}
	return finished, at, result
}

func TestMigrationMetrics(t *testing.T) {
	c := apiservertest.NewStaleSecrets(1, 30)
	c.Unreadable["ns00/s0007"] = true
	m := newTestMigrator(t, testOptions(t, c))
	counter := func(outcome string) float64 {
		v, err := testutil.GetCounterMetricValue(m.metrics.objects.WithLabelValues(m.metrics.component, "secrets", outcome))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	rewritten, undecryptable := counter("rewritten"), counter("undecryptable")
	if _, err := m.Migrate(context.Background(), secretsGR, target); err == nil {
		t.Fatal("a migration with an unreadable object returned no error")
	}
	if got := counter("rewritten") - rewritten; got != 29 {
		t.Errorf("kmsguard_migration_objects_total{outcome=rewritten} rose by %v, want 29", got)
	}
	if got := counter("undecryptable") - undecryptable; got != 1 {
		t.Errorf("kmsguard_migration_objects_total{outcome=undecryptable} rose by %v, want 1", got)
	}
	if v, _ := testutil.GetGaugeMetricValue(m.metrics.remaining.WithLabelValues(m.metrics.component, "secrets")); v != 0 {
		t.Errorf("kmsguard_migration_remaining_objects is %v after the migration, want 0", v)
	}
}
