package kmsmigration

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// RunOutcome is how a standalone migration of a resource, or of all of them, ended.
type RunOutcome string

const (
	// RunMigrated: every object is rewritten, already current, or gone.
	RunMigrated RunOutcome = "Migrated"
	// RunIncomplete: the resource was walked to its end, but some objects are undecryptable or could not be
	// rewritten.
	RunIncomplete RunOutcome = "Incomplete"
	// RunFailed: the resource could not be migrated: its checkpoint could not be read, a LIST failed, or the run
	// was stopped.
	RunFailed RunOutcome = "Failed"
)

// ResourceRun is the outcome of one resource of MigrateAll.
type ResourceRun struct {
	Resource schema.GroupResource
	Target   Target
	// Progress is the migration's last snapshot; its counts include those of earlier runs it resumed from.
	Progress Progress
	// Resumed are the counts of the unfinished checkpoint the migration resumed from; nil when it started anew.
	Resumed *Counts
	// Duration and ObjectsPerSecond are of this run only.
	Duration         time.Duration
	ObjectsPerSecond float64
	Outcome          RunOutcome
	// Err is why the outcome is not RunMigrated.
	Err error
}

// Started says whether the migration of the resource began (a checkpoint that cannot be read stops it first).
func (r ResourceRun) Started() bool { return !r.Progress.Resource.Empty() }

// RunHooks let a caller show a standalone run as it goes. Both are optional.
type RunHooks struct {
	// Started is called when the migration of gr starts, with the counts it resumes from; the returned
	// function is called when it ends (a progress display stops there).
	Started func(gr schema.GroupResource, resumed Counts, started time.Time) (stop func())
	// Finished is called with each resource's outcome as soon as it is known.
	Finished func(ResourceRun)
}

// RunReport is the outcome of MigrateAll.
type RunReport struct {
	Resources []ResourceRun
	// NotStarted are the resources a stopped run did not reach.
	NotStarted []schema.GroupResource
	// Outcome is the worst of the resources' (RunFailed when any was not started).
	Outcome RunOutcome
	// Err joins the errors of the failed resources and of the ones not started; nil unless Outcome is
	// RunFailed.
	Err error
}

// MigrateAll is one standalone migration, as `kmsguard migrate` runs it outside any operator: it checks that
// the server serves every resource before anything is migrated (an error then, and nothing is done), then
// migrates them one after the other to target. Each migration resumes from an unfinished checkpoint of the
// same target in Options.Checkpoints (a finished one starts over); the counts it resumed from are reported
// apart, so that the rate is of this run's work. A stopped ctx ends the run after the resource in flight, whose
// checkpoint is saved.
func (m *Migrator) MigrateAll(ctx context.Context, resources []schema.GroupResource, target Target, hooks RunHooks) (*RunReport, error) {
	grs, err := m.resolveAll(resources)
	if err != nil {
		return nil, err
	}
	report := &RunReport{Outcome: RunMigrated}
	var errs []error
	for i, gr := range grs {
		if ctx.Err() != nil {
			report.NotStarted = grs[i:]
			break
		}
		r := m.migrateOne(ctx, gr, target, hooks)
		report.Resources = append(report.Resources, r)
		if hooks.Finished != nil {
			hooks.Finished(r)
		}
		switch r.Outcome {
		case RunFailed:
			report.Outcome = RunFailed
			errs = append(errs, fmt.Errorf("%s: %w", gr, r.Err))
		case RunIncomplete:
			if report.Outcome == RunMigrated {
				report.Outcome = RunIncomplete
			}
		}
	}
	if n := len(report.NotStarted); n > 0 {
		report.Outcome = RunFailed
		errs = append(errs, fmt.Errorf("stopped before migrating %d of %d resources: %w", n, len(grs), context.Cause(ctx)))
	}
	if report.Outcome == RunFailed {
		report.Err = errors.Join(errs...)
	}
	return report, nil
}

// resolveAll drops duplicates and checks that the server serves each resource.
func (m *Migrator) resolveAll(resources []schema.GroupResource) ([]schema.GroupResource, error) {
	if len(resources) == 0 {
		return nil, errors.New("no resources to migrate")
	}
	var grs []schema.GroupResource
	seen := map[schema.GroupResource]bool{}
	for _, gr := range resources {
		if gr.Resource == "" {
			return nil, fmt.Errorf("%q is not a resource", gr.String())
		}
		if seen[gr] {
			continue
		}
		seen[gr] = true
		if _, err := m.opts.Mapper.ResourceFor(gr.WithVersion("")); err != nil {
			return nil, fmt.Errorf("resolving %s: %w", gr, err)
		}
		grs = append(grs, gr)
	}
	return grs, nil
}

// ParseResources reads resource names as `kmsguard migrate --resources` takes them: resource or
// resource.group.
func ParseResources(names []string) ([]schema.GroupResource, error) {
	var grs []schema.GroupResource
	for _, name := range names {
		gr := schema.ParseGroupResource(strings.TrimSpace(name))
		if gr.Resource == "" {
			return nil, fmt.Errorf("%q is not a resource", name)
		}
		grs = append(grs, gr)
	}
	return grs, nil
}

// migrateOne migrates gr, resuming from its checkpoint, and summarizes it.
func (m *Migrator) migrateOne(ctx context.Context, gr schema.GroupResource, target Target, hooks RunHooks) ResourceRun {
	r := ResourceRun{Resource: gr, Target: target}
	// Migrate resumes from an unfinished checkpoint of the same target; its counts are not this run's work.
	var base Counts
	cp, err := m.opts.Checkpoints.Load(ctx, gr)
	if err != nil {
		r.Outcome, r.Err = RunFailed, err
		return r
	}
	if cp != nil && cp.Target == target && cp.Finished.IsZero() {
		base = cp.Counts
		r.Resumed = &base
	}

	started := time.Now()
	stop := func() {}
	if hooks.Started != nil {
		stop = hooks.Started(gr, base, started)
	}
	p, err := m.Migrate(ctx, gr, target)
	stop()
	r.Duration = time.Since(started)
	r.Progress = p
	r.ObjectsPerSecond = Rate(p.Counts.Handled()-base.Handled(), r.Duration)
	switch {
	case err == nil:
		r.Outcome = RunMigrated
	case onlyUnmigratedObjects(err):
		r.Outcome, r.Err = RunIncomplete, err
	default:
		r.Outcome, r.Err = RunFailed, err
	}
	return r
}

// onlyUnmigratedObjects says whether err only reports objects the migration walked past: undecryptable ones
// or ones it could not rewrite.
func onlyUnmigratedObjects(err error) bool {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			if !onlyUnmigratedObjects(e) {
				return false
			}
		}
		return true
	}
	var undecryptable *UndecryptableError
	var failed *FailedError
	return errors.As(err, &undecryptable) || errors.As(err, &failed)
}

// Handled are the objects a migration is done with, rewritten or not.
func (c Counts) Handled() int64 { return c.Done() + c.Failed + c.Undecryptable }

// Rate is objects per second over elapsed; 0 for no time.
func Rate(objects int64, elapsed time.Duration) float64 {
	if elapsed <= 0 {
		return 0
	}
	return float64(objects) / elapsed.Seconds()
}
