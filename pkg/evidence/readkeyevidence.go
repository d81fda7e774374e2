package evidence

import (
	"context"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1listers "k8s.io/client-go/listers/core/v1"
)

// MigrationFinishedFunc returns when the latest migration of gr finished, zero when none is known. The rollout
// gate measures the rollback window from it, and CanDropReadKey only accepts a census started after it.
type MigrationFinishedFunc func(ctx context.Context, gr schema.GroupResource) (time.Time, error)

// MigrationSource is the migrator a CensusController follows (*kmsmigration.Migrator): its events are finished
// migrations, each of which triggers a census, and LastFinished says when its latest migration of a resource
// finished with every object rewritten.
type MigrationSource interface {
	factory.Informer
	LastFinished(ctx context.Context, gr schema.GroupResource) (time.Time, error)
}

// ReadKeyEvidence is the rollout gate's raw etcd evidence (it implements kmsprecondition.ReadKeyEvidence, which
// this package cannot name: the gate imports it): the report of gr from the last successful census,
// narrowed to gr (nil when no census covered it), and when the latest migration of gr finished (zero without
// MigrationFinished or Migrator, or when none finished). A wildcard resource ("*.apps") has no report: the
// census counts resources.
func (c *CensusController) ReadKeyEvidence(ctx context.Context, gr schema.GroupResource) (*Report, time.Time, error) {
	var finished time.Time
	if c.options.MigrationFinished != nil {
		var err error
		if finished, err = c.options.MigrationFinished(ctx, gr); err != nil {
			return nil, time.Time{}, err
		}
	}
	for _, report := range c.Reports() {
		for _, rr := range report.Resources {
			if rr.Resource == gr.String() {
				return &Report{WriteKey: report.WriteKey, Started: report.Started, Resources: []ResourceReport{rr}}, finished, nil
			}
		}
	}
	return nil, finished, nil
}

// MigratedTimestamps is a MigrationFinishedFunc reading library-go's record: the migrated-timestamp of the newest
// encryption key secret of component that lists gr as migrated (KeySecretMigrations, asked for
// keys newer than 0, which every library-go key id is).
func MigratedTimestamps(lister corev1listers.SecretLister, component string) MigrationFinishedFunc {
	records := KeySecretMigrations(lister, component)
	return func(ctx context.Context, gr schema.GroupResource) (time.Time, error) {
		record, err := records.Rewritten(ctx, gr, "0")
		if err != nil || !record.Rewritten {
			return time.Time{}, err
		}
		return record.Finished, nil
	}
}

// LatestFinished combines MigrationFinishedFuncs, for an operator that runs kmsguard's Migrator next to library-go's
// migration records: the latest finish wins, so the rollback window is measured from the last migration.
func LatestFinished(funcs ...MigrationFinishedFunc) MigrationFinishedFunc {
	return func(ctx context.Context, gr schema.GroupResource) (time.Time, error) {
		var latest time.Time
		for _, f := range funcs {
			t, err := f(ctx, gr)
			if err != nil {
				return time.Time{}, err
			}
			if t.After(latest) {
				latest = t
			}
		}
		return latest, nil
	}
}
