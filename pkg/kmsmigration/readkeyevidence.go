package kmsmigration

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1listers "k8s.io/client-go/listers/core/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsmigration/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
)

// The VerificationController is the rollout gate's raw etcd evidence.
var _ kmsprecondition.ReadKeyEvidence = (*VerificationController)(nil)

// MigrationFinishedFunc returns when the latest migration of gr finished, zero when none is known. The rollout
// gate measures the rollback window from it, and evidence.CanDropReadKey only accepts a census started after it.
type MigrationFinishedFunc func(ctx context.Context, gr schema.GroupResource) (time.Time, error)

// ReadKeyEvidence implements kmsprecondition.ReadKeyEvidence: the report of gr from the last successful scan,
// narrowed to gr (nil when no scan covered it), and when the latest migration of gr finished (zero without
// MigrationFinished or Migrator, or when none finished). A wildcard resource ("*.apps") has no report: the
// census scans resources.
func (c *VerificationController) ReadKeyEvidence(ctx context.Context, gr schema.GroupResource) (*evidence.Report, time.Time, error) {
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
				return &evidence.Report{WriteKey: report.WriteKey, Started: report.Started, Resources: []evidence.ResourceReport{rr}}, finished, nil
			}
		}
	}
	return nil, finished, nil
}

// LastFinished is a MigrationFinishedFunc: when this Migrator's latest migration of gr finished with every object
// rewritten. A migration that left undecryptable or failed objects has not moved the resource off its old keys.
func (m *Migrator) LastFinished(_ context.Context, gr schema.GroupResource) (time.Time, error) {
	var latest time.Time
	for _, p := range m.Progress() {
		if p.Resource == gr && !p.Finished.IsZero() && p.Result == nil && p.Finished.After(latest) {
			latest = p.Finished
		}
	}
	return latest, nil
}

// MigratedTimestamps is a MigrationFinishedFunc reading library-go's record: the migrated-timestamp of the newest
// encryption key secret of component that lists gr as migrated (kmsprecondition.KeySecretMigrations, asked for
// keys newer than 0, which every library-go key id is).
func MigratedTimestamps(lister corev1listers.SecretLister, component string) MigrationFinishedFunc {
	records := kmsprecondition.KeySecretMigrations(lister, component)
	return func(ctx context.Context, gr schema.GroupResource) (time.Time, error) {
		record, err := records.Rewritten(ctx, gr, "0")
		if err != nil || !record.Rewritten {
			return time.Time{}, err
		}
		return record.Finished, nil
	}
}

// LatestFinished combines MigrationFinishedFuncs, for an operator that runs this Migrator next to library-go's
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
