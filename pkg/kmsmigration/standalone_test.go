package kmsmigration

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/internal/conditions"
)

var configMapsGR = schema.GroupResource{Resource: "configmaps"}

// errStopped is the cause a test stops a standalone run with, as `kmsguard migrate` does on a signal.
var errStopped = errors.New("stopped by the test")

// standaloneEnv is kube-apiserver serving Secrets (40 stale, ns00/s0000 to ns01/s0019) and ConfigMaps (10 stale)
// to a standalone run, with checkpoints in memory.
type standaloneEnv struct {
	secrets, configMaps *fakeCluster
	checkpoints         *unreadableCheckpoints
	// cancel stops the run's context with a cause.
	cancel context.CancelCauseFunc
}

func newStandaloneEnv(cancel context.CancelCauseFunc) *standaloneEnv {
	return &standaloneEnv{
		secrets:     apiservertest.NewStaleSecrets(2, 20),
		configMaps:  apiservertest.NewStaleSecrets(1, 10),
		checkpoints: &unreadableCheckpoints{CheckpointStore: &memoryCheckpoints{}, unreadable: map[schema.GroupResource]error{}},
		cancel:      cancel,
	}
}

// cluster is the fake of gr.
func (e *standaloneEnv) cluster(gr schema.GroupResource) *fakeCluster {
	if gr == configMapsGR {
		return e.configMaps
	}
	return e.secrets
}

func (e *standaloneEnv) migrator(t *testing.T) *Migrator {
	t.Helper()
	opts := testOptions(t, e.secrets)
	opts.Dynamic = routedDynamic{secrets: e.secrets.Dynamic(), configMaps: e.configMaps.Dynamic()}
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(apiservertest.GVR.GroupVersion().WithKind("Secret"), meta.RESTScopeNamespace)
	mapper.Add(apiservertest.GVR.GroupVersion().WithKind("ConfigMap"), meta.RESTScopeNamespace)
	opts.Mapper = mapper
	opts.Checkpoints = e.checkpoints
	return newTestMigrator(t, opts)
}

// routedDynamic serves Secrets and ConfigMaps from a fake each. apiservertest serves Secrets only, so the
// ConfigMaps of these tests are the Secrets of a second fake: what the migrator reads and writes is the same.
type routedDynamic struct {
	secrets, configMaps *apiservertest.Client
}

var _ dynamic.Interface = routedDynamic{}

func (r routedDynamic) Resource(gvr schema.GroupVersionResource) dynamic.NamespaceableResourceInterface {
	if gvr.GroupResource() == configMapsGR {
		return r.configMaps.Resource(apiservertest.GVR)
	}
	return r.secrets.Resource(gvr)
}

// unreadableCheckpoints is a checkpoint store whose checkpoints of some resources cannot be read.
type unreadableCheckpoints struct {
	CheckpointStore
	unreadable map[schema.GroupResource]error
}

func (s *unreadableCheckpoints) Load(ctx context.Context, gr schema.GroupResource) (*Checkpoint, error) {
	if err := s.unreadable[gr]; err != nil {
		return nil, err
	}
	return s.CheckpointStore.Load(ctx, gr)
}

// hookLog records the RunHooks calls of a run, in order.
type hookLog struct {
	calls []string
	// resumed are the counts Started was given, by resource.
	resumed map[schema.GroupResource]Counts
}

func (l *hookLog) hooks() RunHooks {
	l.resumed = map[schema.GroupResource]Counts{}
	return RunHooks{
		Started: func(gr schema.GroupResource, resumed Counts, _ time.Time) func() {
			l.calls = append(l.calls, "started "+gr.String())
			l.resumed[gr] = resumed
			return func() { l.calls = append(l.calls, "stopped "+gr.String()) }
		},
		Finished: func(r ResourceRun) { l.calls = append(l.calls, fmt.Sprintf("finished %s %s", r.Resource, r.Outcome)) },
	}
}

// wantRun is what a test expects of one ResourceRun.
type wantRun struct {
	resource schema.GroupResource
	outcome  RunOutcome
	// started says the migration began (its checkpoint was read).
	started bool
	counts  Counts
	// countsVary: how far the run got depends on scheduling (a panic, a stop); counts are not compared.
	countsVary bool
	// err matches the run's Err; nil wants none.
	err func(error) bool
}

func isUndecryptable(n int64) func(error) bool {
	return func(err error) bool {
		var u *UndecryptableError
		return errors.As(err, &u) && u.Count == n
	}
}

func isFailed(n int64) func(error) bool {
	return func(err error) bool {
		var f *FailedError
		return errors.As(err, &f) && f.Count == n
	}
}

// TestMigrateAll is MigrateAll as `kmsguard migrate` runs it: each RunOutcome of a resource and of the run, the
// hooks in order, the resources it refuses before migrating anything, and a stopped context.
func TestMigrateAll(t *testing.T) {
	both := []schema.GroupResource{secretsGR, configMapsGR}
	migrated := func(gr schema.GroupResource, n int64) wantRun {
		return wantRun{resource: gr, outcome: RunMigrated, started: true, counts: Counts{Listed: n, Rewritten: n}}
	}
	scenarios := []struct {
		name      string
		resources []schema.GroupResource
		setup     func(e *standaloneEnv)

		// wantErr is MigrateAll's own error: it migrated nothing and returned no report.
		wantErr        string
		wantOutcome    RunOutcome
		wantRuns       []wantRun
		wantNotStarted []schema.GroupResource
		// wantReportErr are in the report's Err; none wants it nil.
		wantReportErr []string
		// wantCause: the report's Err wraps errStopped.
		wantCause bool
		wantHooks []string
		// wantStale are the objects left under the old key, and wantLists the LISTs sent, by resource.
		wantStale map[schema.GroupResource]int
		wantLists map[schema.GroupResource]int
	}{
		{
			name:        "every object of each resource is migrated, one resource after the other",
			resources:   both,
			wantOutcome: RunMigrated,
			wantRuns:    []wantRun{migrated(secretsGR, 40), migrated(configMapsGR, 10)},
			wantHooks: []string{"started secrets", "stopped secrets", "finished secrets Migrated",
				"started configmaps", "stopped configmaps", "finished configmaps Migrated"},
			wantStale: map[schema.GroupResource]int{secretsGR: 0, configMapsGR: 0},
		},
		{
			name:      "a resource named twice is migrated once",
			resources: []schema.GroupResource{secretsGR, configMapsGR, secretsGR},
			// Counts{Listed: 40, Rewritten: 40} and not 40 unchanged on top: no second migration of secrets.
			wantOutcome: RunMigrated,
			wantRuns:    []wantRun{migrated(secretsGR, 40), migrated(configMapsGR, 10)},
			wantHooks: []string{"started secrets", "stopped secrets", "finished secrets Migrated",
				"started configmaps", "stopped configmaps", "finished configmaps Migrated"},
			wantStale: map[schema.GroupResource]int{secretsGR: 0, configMapsGR: 0},
			wantLists: map[schema.GroupResource]int{secretsGR: 6},
		},
		{
			name:      "undecryptable objects: Incomplete, the readable ones migrated",
			resources: both,
			setup: func(e *standaloneEnv) {
				for _, key := range []string{"ns00/s0002", "ns00/s0010", "ns01/s0019"} {
					e.secrets.Unreadable[key] = true
				}
			},
			wantOutcome: RunIncomplete,
			wantRuns: []wantRun{
				{resource: secretsGR, outcome: RunIncomplete, started: true, counts: Counts{Listed: 37, Rewritten: 37, Undecryptable: 3}, err: isUndecryptable(3)},
				migrated(configMapsGR, 10),
			},
			wantHooks: []string{"started secrets", "stopped secrets", "finished secrets Incomplete",
				"started configmaps", "stopped configmaps", "finished configmaps Migrated"},
			wantStale: map[schema.GroupResource]int{secretsGR: 3, configMapsGR: 0},
		},
		{
			name:      "objects that cannot be rewritten: Incomplete",
			resources: both,
			setup: func(e *standaloneEnv) {
				e.configMaps.BeforeUpdate = func(key string, _ int) error {
					if key == "ns00/s0004" {
						return apierrors.NewForbidden(configMapsGR, key, errors.New("denied by a webhook"))
					}
					return nil
				}
			},
			wantOutcome: RunIncomplete,
			wantRuns: []wantRun{
				migrated(secretsGR, 40),
				{resource: configMapsGR, outcome: RunIncomplete, started: true, counts: Counts{Listed: 10, Rewritten: 9, Failed: 1}, err: isFailed(1)},
			},
			wantStale: map[schema.GroupResource]int{secretsGR: 0, configMapsGR: 1},
		},
		{
			name:      "undecryptable objects and objects that cannot be rewritten: Incomplete",
			resources: []schema.GroupResource{secretsGR},
			setup: func(e *standaloneEnv) {
				e.secrets.Unreadable["ns01/s0000"] = true
				e.secrets.BeforeUpdate = func(key string, _ int) error {
					if key == "ns00/s0001" {
						return apierrors.NewForbidden(secretsGR, key, errors.New("denied by a webhook"))
					}
					return nil
				}
			},
			wantOutcome: RunIncomplete,
			wantRuns: []wantRun{{resource: secretsGR, outcome: RunIncomplete, started: true, counts: Counts{Listed: 39, Rewritten: 38, Failed: 1, Undecryptable: 1},
				err: func(err error) bool { return isUndecryptable(1)(err) && isFailed(1)(err) }}},
			wantStale: map[schema.GroupResource]int{secretsGR: 2},
		},
		{
			name:      "a forbidden LIST fails the resource; the next one is still migrated, and the run failed",
			resources: both,
			setup: func(e *standaloneEnv) {
				e.secrets.BeforeList = func(int) error { return apierrors.NewForbidden(secretsGR, "", errors.New("no list")) }
				e.configMaps.Unreadable["ns00/s0003"] = true
			},
			// Failed is worse than Incomplete.
			wantOutcome: RunFailed,
			wantRuns: []wantRun{
				{resource: secretsGR, outcome: RunFailed, started: true, err: apierrors.IsForbidden},
				{resource: configMapsGR, outcome: RunIncomplete, started: true, counts: Counts{Listed: 9, Rewritten: 9, Undecryptable: 1}, err: isUndecryptable(1)},
			},
			wantReportErr: []string{"secrets: ", "no list"},
			wantHooks: []string{"started secrets", "stopped secrets", "finished secrets Failed",
				"started configmaps", "stopped configmaps", "finished configmaps Incomplete"},
			wantStale: map[schema.GroupResource]int{secretsGR: 40, configMapsGR: 1},
		},
		{
			name:      "an unreadable checkpoint fails the resource before it starts",
			resources: both,
			setup: func(e *standaloneEnv) {
				e.checkpoints.unreadable[secretsGR] = errors.New(`configmaps "kmsguard-migration" is forbidden`)
			},
			wantOutcome: RunFailed,
			wantRuns: []wantRun{
				{resource: secretsGR, outcome: RunFailed, err: func(err error) bool { return err != nil && strings.Contains(err.Error(), "is forbidden") }},
				migrated(configMapsGR, 10),
			},
			wantReportErr: []string{`secrets: configmaps "kmsguard-migration" is forbidden`},
			// Not started: no Started, no stop, no LIST.
			wantHooks: []string{"finished secrets Failed", "started configmaps", "stopped configmaps", "finished configmaps Migrated"},
			wantStale: map[schema.GroupResource]int{secretsGR: 40, configMapsGR: 0},
			wantLists: map[schema.GroupResource]int{secretsGR: 0},
		},
		{
			name:      "a panic fails the resource, and the run goes on",
			resources: both,
			setup: func(e *standaloneEnv) {
				e.secrets.BeforeUpdate = func(key string, _ int) error {
					if key == "ns01/s0003" {
						panic("update bug")
					}
					return nil
				}
			},
			wantOutcome: RunFailed,
			wantRuns: []wantRun{
				{resource: secretsGR, outcome: RunFailed, started: true, countsVary: true, err: func(err error) bool {
					var p *conditions.PanicError
					return errors.As(err, &p)
				}},
				migrated(configMapsGR, 10),
			},
			wantReportErr: []string{"secrets: panic: update bug"},
			wantStale:     map[schema.GroupResource]int{configMapsGR: 0},
		},
		{
			name:      "a resource the server does not serve: nothing is migrated",
			resources: []schema.GroupResource{secretsGR, {Group: "example.com", Resource: "widgets"}},
			wantErr:   "resolving widgets.example.com",
			wantStale: map[schema.GroupResource]int{secretsGR: 40},
			wantLists: map[schema.GroupResource]int{secretsGR: 0},
		},
		{
			name:      "a group without a resource: nothing is migrated",
			resources: []schema.GroupResource{secretsGR, {Group: "apps"}},
			wantErr:   `".apps" is not a resource`,
			wantLists: map[schema.GroupResource]int{secretsGR: 0},
		},
		{
			name:    "no resources",
			wantErr: "no resources to migrate",
		},
		{
			name:           "stopped before the first resource: nothing is started",
			resources:      both,
			setup:          func(e *standaloneEnv) { e.cancel(errStopped) },
			wantOutcome:    RunFailed,
			wantNotStarted: both,
			wantReportErr:  []string{"stopped before migrating 2 of 2 resources: " + errStopped.Error()},
			wantCause:      true,
			wantStale:      map[schema.GroupResource]int{secretsGR: 40, configMapsGR: 10},
			wantLists:      map[schema.GroupResource]int{secretsGR: 0, configMapsGR: 0},
		},
		{
			name:      "stopped during a resource: it ends there, the next is not started",
			resources: both,
			setup: func(e *standaloneEnv) {
				var once sync.Once
				e.secrets.BeforeUpdate = func(_ string, n int) error {
					if n == 20 {
						once.Do(func() { e.cancel(errStopped) })
					}
					return nil
				}
			},
			wantOutcome:    RunFailed,
			wantRuns:       []wantRun{{resource: secretsGR, outcome: RunFailed, started: true, countsVary: true, err: func(err error) bool { return errors.Is(err, context.Canceled) }}},
			wantNotStarted: []schema.GroupResource{configMapsGR},
			wantReportErr:  []string{"secrets: context canceled", "stopped before migrating 1 of 2 resources: " + errStopped.Error()},
			wantCause:      true,
			wantHooks:      []string{"started secrets", "stopped secrets", "finished secrets Failed"},
			wantStale:      map[schema.GroupResource]int{configMapsGR: 10},
			wantLists:      map[schema.GroupResource]int{configMapsGR: 0},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			env := newStandaloneEnv(cancel)
			if s.setup != nil {
				s.setup(env)
			}
			m := env.migrator(t)
			var log hookLog

			report, err := m.MigrateAll(ctx, s.resources, target, log.hooks())
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) || report != nil {
					t.Fatalf("MigrateAll returned %+v, %v; want no report and an error containing %q", report, err, s.wantErr)
				}
				if len(log.calls) != 0 {
					t.Errorf("hooks called for a run that migrated nothing: %v", log.calls)
				}
			} else {
				if err != nil {
					t.Fatalf("MigrateAll: %v", err)
				}
				checkRunReport(t, report, s.wantOutcome, s.wantRuns, s.wantNotStarted)
				switch {
				case len(s.wantReportErr) == 0 && report.Err != nil:
					t.Errorf("report error %v, want none", report.Err)
				case len(s.wantReportErr) > 0 && report.Err == nil:
					t.Errorf("no report error, want one containing %q", s.wantReportErr)
				}
				for _, want := range s.wantReportErr {
					if report.Err != nil && !strings.Contains(report.Err.Error(), want) {
						t.Errorf("report error %q does not contain %q", report.Err, want)
					}
				}
				if s.wantCause && !errors.Is(report.Err, errStopped) {
					t.Errorf("report error %v does not carry the cause the run was stopped with", report.Err)
				}
				if s.wantHooks != nil {
					if diff := cmp.Diff(s.wantHooks, log.calls); diff != "" {
						t.Errorf("hooks (-want +got):\n%s", diff)
					}
				}
			}
			for gr, want := range s.wantStale {
				if got := env.cluster(gr).StaleCount(); got != want {
					t.Errorf("%s: %d objects left under the old key, want %d", gr, got, want)
				}
			}
			for gr, want := range s.wantLists {
				if got := env.cluster(gr).Lists; got != want {
					t.Errorf("%s: %d LISTs, want %d", gr, got, want)
				}
			}
			for _, c := range []*fakeCluster{env.secrets, env.configMaps} {
				for key, n := range c.Writes {
					if n > 1 {
						t.Errorf("%s was written %d times", key, n)
					}
				}
			}
		})
	}
}

// checkRunReport compares a report with the outcome, runs and resources not started a test wants.
func checkRunReport(t *testing.T, report *RunReport, outcome RunOutcome, runs []wantRun, notStarted []schema.GroupResource) {
	t.Helper()
	if report.Outcome != outcome {
		t.Errorf("outcome %s, want %s", report.Outcome, outcome)
	}
	if (report.Err != nil) != (outcome == RunFailed) {
		t.Errorf("report error %v with outcome %s: an error goes with Failed, and only with it", report.Err, report.Outcome)
	}
	if diff := cmp.Diff(notStarted, report.NotStarted); diff != "" {
		t.Errorf("not started (-want +got):\n%s", diff)
	}
	if len(report.Resources) != len(runs) {
		t.Fatalf("%d resources in the report, want %d: %+v", len(report.Resources), len(runs), report.Resources)
	}
	for i, want := range runs {
		got := report.Resources[i]
		if got.Resource != want.resource || got.Outcome != want.outcome || got.Started() != want.started || got.Target != target {
			t.Errorf("resource %d: %s %s, started %v, target %s; want %s %s, started %v, target %s",
				i, got.Resource, got.Outcome, got.Started(), got.Target, want.resource, want.outcome, want.started, target)
		}
		if !want.countsVary && got.Progress.Counts != want.counts {
			t.Errorf("%s: counts %+v, want %+v", got.Resource, got.Progress.Counts, want.counts)
		}
		switch {
		case want.err == nil && got.Err != nil:
			t.Errorf("%s: error %v, want none", got.Resource, got.Err)
		case want.err != nil && !want.err(got.Err):
			t.Errorf("%s: error %v, not the one expected", got.Resource, got.Err)
		}
		if got.Resumed != nil {
			t.Errorf("%s: resumed from %+v, but there was no checkpoint", got.Resource, *got.Resumed)
		}
		if got.Started() && got.ObjectsPerSecond != Rate(got.Progress.Counts.Handled(), got.Duration) {
			t.Errorf("%s: %v objects/s, want the %d objects handled over %s", got.Resource, got.ObjectsPerSecond, got.Progress.Counts.Handled(), got.Duration)
		}
	}
}

// TestMigrateAllResumes: an unfinished checkpoint of the same target is resumed after its last page, and its
// counts are reported apart so that the rate is of this run's work; a checkpoint of another target, or a
// finished one, starts over.
func TestMigrateAllResumes(t *testing.T) {
	scenarios := []struct {
		name string
		// checkpoint is the target and finish time of the checkpoint an earlier run left after its first page.
		checkpoint  Target
		finished    bool
		wantResumed bool
		wantUpdates int
		wantCounts  Counts
	}{
		{name: "same target, unfinished: resumed", checkpoint: target, wantResumed: true, wantUpdates: 33, wantCounts: Counts{Listed: 40, Rewritten: 40}},
		{name: "another write key: started over", checkpoint: Target{WriteKey: "1"}, wantUpdates: 40, wantCounts: Counts{Listed: 40, Rewritten: 33, Unchanged: 7}},
		{name: "another KEK id: started over", checkpoint: Target{WriteKey: target.WriteKey, KEKID: "kek-1"}, wantUpdates: 40, wantCounts: Counts{Listed: 40, Rewritten: 33, Unchanged: 7}},
		{name: "same target, finished: started over", checkpoint: target, finished: true, wantUpdates: 40, wantCounts: Counts{Listed: 40, Rewritten: 33, Unchanged: 7}},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			ctx := context.Background()
			env := newStandaloneEnv(nil)
			// An earlier run rewrote the first page (7 objects) and checkpointed it.
			first, err := env.secrets.List(ctx, metav1.ListOptions{Limit: 7})
			if err != nil {
				t.Fatal(err)
			}
			for i := range first.Items {
				env.secrets.Stale[apiservertest.Key(&first.Items[i])] = false
			}
			saved := Checkpoint{Target: s.checkpoint, Continue: first.GetContinue(), Counts: Counts{Listed: 7, Rewritten: 7}, Started: t0.Add(-time.Hour)}
			if s.finished {
				saved.Finished, saved.Continue, saved.ListedAll = t0.Add(-time.Minute), "", true
			}
			if err := env.checkpoints.Save(ctx, secretsGR, &saved); err != nil {
				t.Fatal(err)
			}
			m := env.migrator(t)
			var log hookLog

			report, err := m.MigrateAll(ctx, []schema.GroupResource{secretsGR}, target, log.hooks())
			if err != nil {
				t.Fatal(err)
			}
			if report.Outcome != RunMigrated || len(report.Resources) != 1 {
				t.Fatalf("report %+v, want secrets Migrated", report)
			}
			r := report.Resources[0]
			if r.Progress.Counts != s.wantCounts {
				t.Errorf("counts %+v, want %+v", r.Progress.Counts, s.wantCounts)
			}
			var base Counts
			if s.wantResumed {
				base = saved.Counts
				if r.Resumed == nil || *r.Resumed != saved.Counts {
					t.Errorf("resumed from %v, want the checkpoint's %+v", r.Resumed, saved.Counts)
				}
			} else if r.Resumed != nil {
				t.Errorf("resumed from %+v, want a new migration", *r.Resumed)
			}
			if log.resumed[secretsGR] != base {
				t.Errorf("Started was given %+v, want %+v", log.resumed[secretsGR], base)
			}
			if want := Rate(r.Progress.Counts.Handled()-base.Handled(), r.Duration); r.ObjectsPerSecond != want {
				t.Errorf("%v objects/s, want %v: the objects of this run only", r.ObjectsPerSecond, want)
			}
			if n := env.secrets.UpdateCount(); n != s.wantUpdates {
				t.Errorf("%d updates, want %d", n, s.wantUpdates)
			}
			if n := env.secrets.StaleCount(); n != 0 {
				t.Errorf("%d objects stale", n)
			}
			cp, err := env.checkpoints.Load(ctx, secretsGR)
			if err != nil || cp == nil || cp.Finished.IsZero() || cp.Target != target || cp.Counts != s.wantCounts {
				t.Errorf("checkpoint after the run: %+v, %v; want a finished one of %s with the run's counts", cp, err, target)
			}
		})
	}
}

// TestMigrateAllResumesAfterStop: a run stopped mid-resource saves an unfinished checkpoint; the next run
// resumes it, reports the counts it resumed from, and ends with every object counted and written once. Objects
// the stopped run rewrote after the checkpoint's last page are listed again and found current: counted as
// unchanged, not written twice.
func TestMigrateAllResumesAfterStop(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	env := newStandaloneEnv(cancel)
	var once sync.Once
	env.secrets.BeforeUpdate = func(_ string, n int) error {
		if n == 20 {
			once.Do(func() { cancel(errStopped) })
		}
		return nil
	}
	m := env.migrator(t)
	stopped, err := m.MigrateAll(ctx, []schema.GroupResource{secretsGR}, target, RunHooks{})
	if err != nil {
		t.Fatal(err)
	}
	if stopped.Outcome != RunFailed || !errors.Is(stopped.Resources[0].Err, context.Canceled) {
		t.Fatalf("stopped run: %s, %v; want Failed, canceled", stopped.Outcome, stopped.Err)
	}
	saved, err := env.checkpoints.Load(context.Background(), secretsGR)
	if err != nil || saved == nil || !saved.Finished.IsZero() || saved.Target != target {
		t.Fatalf("checkpoint after the stop: %+v, %v; want an unfinished one of %s", saved, err, target)
	}
	writtenPastCheckpoint := int64(len(env.secrets.Writes)) - saved.Counts.Rewritten
	if saved.Counts.Listed >= 40 || writtenPastCheckpoint < 0 {
		t.Fatalf("checkpoint %+v after %d writes: want one short of the end that counts no more than was written", saved.Counts, len(env.secrets.Writes))
	}

	env.secrets.BeforeUpdate = nil
	var log hookLog
	resumed, err := env.migrator(t).MigrateAll(context.Background(), []schema.GroupResource{secretsGR}, target, log.hooks())
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Outcome != RunMigrated || resumed.Err != nil {
		t.Fatalf("resumed run: %s, %v; want Migrated", resumed.Outcome, resumed.Err)
	}
	r := resumed.Resources[0]
	if r.Resumed == nil || *r.Resumed != saved.Counts || log.resumed[secretsGR] != saved.Counts {
		t.Errorf("resumed from %v (Started given %+v), want the checkpoint's %+v", r.Resumed, log.resumed[secretsGR], saved.Counts)
	}
	if want := (Counts{Listed: 40, Rewritten: 40 - writtenPastCheckpoint, Unchanged: writtenPastCheckpoint}); r.Progress.Counts != want {
		t.Errorf("counts after resuming %+v, want %+v: every object counted once", r.Progress.Counts, want)
	}
	if n := env.secrets.StaleCount(); n != 0 {
		t.Errorf("%d objects stale after resuming", n)
	}
	if len(env.secrets.Writes) != 40 {
		t.Errorf("%d objects written, want 40", len(env.secrets.Writes))
	}
	for key, n := range env.secrets.Writes {
		if n != 1 {
			t.Errorf("%s was written %d times", key, n)
		}
	}
}
