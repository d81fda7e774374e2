package evidence

import (
	"fmt"
	"strings"
	"time"
)

// PruneReason says why a read key may not be dropped yet.
type PruneReason string

const (
	// PruneNoReport: there is no evidence at all.
	PruneNoReport PruneReason = "NoReport"
	// PruneIsWriteKey: the read key covers the write key the report was made for; dropping it would make
	// the newest objects unreadable.
	PruneIsWriteKey PruneReason = "IsWriteKey"
	// PruneMigrationNotFinished: no migration to the write key has finished.
	PruneMigrationNotFinished PruneReason = "MigrationNotFinished"
	// PruneReportPredatesMigration: the scan began before the migration finished, so it does not describe
	// the migrated state.
	PruneReportPredatesMigration PruneReason = "ReportPredatesMigration"
	// PruneObjectsUnderKey: objects are still stored under the read key.
	PruneObjectsUnderKey PruneReason = "ObjectsUnderKey"
	// PruneUnparsableValues: some values could not be classified, and may be under the read key.
	PruneUnparsableValues PruneReason = "UnparsableValues"
	// PruneCountNotConfirmed: the API's object count does not confirm the scan (missing, no keys under the
	// prefix while the API lists objects, or counts that differ): values may be stored where the scan did not
	// look, so finding none under the key proves nothing.
	PruneCountNotConfirmed PruneReason = "CountNotConfirmed"
	// PruneRollbackWindow: the migration finished too recently. Until the rollback window has passed the
	// apiservers may be rolled back to a config that writes with the read key.
	PruneRollbackWindow PruneReason = "RollbackWindowNotPassed"
)

// PruneError is why CanDropReadKey refuses. Its fields say what would have to change.
type PruneError struct {
	Reason PruneReason
	Key    ReadKey
	// Objects counts the values under the key (PruneObjectsUnderKey) or unparsable (PruneUnparsableValues).
	Objects int64
	// Resources are the resources holding those values.
	Resources []string
	// Until is when the rollback window ends (PruneRollbackWindow).
	Until time.Time
	// Detail says, per resource, why the count is not confirmed (PruneCountNotConfirmed).
	Detail string
}

func (e *PruneError) Error() string {
	prefix := fmt.Sprintf("read key %s cannot be dropped: ", e.Key)
	switch e.Reason {
	case PruneNoReport:
		return prefix + "no census report"
	case PruneIsWriteKey:
		return prefix + "it is the write key"
	case PruneMigrationNotFinished:
		return prefix + "no migration to the write key has finished"
	case PruneReportPredatesMigration:
		return prefix + "the census report was started before the migration finished"
	case PruneObjectsUnderKey:
		return prefix + fmt.Sprintf("%d objects are still stored under it (%s)", e.Objects, strings.Join(e.Resources, ", "))
	case PruneUnparsableValues:
		return prefix + fmt.Sprintf("%d stored values could not be classified and may be under it (%s)", e.Objects, strings.Join(e.Resources, ", "))
	case PruneCountNotConfirmed:
		return prefix + "the API's object count does not confirm the scan: " + e.Detail
	case PruneRollbackWindow:
		return prefix + fmt.Sprintf("the rollback window lasts until %s", e.Until.UTC().Format(time.RFC3339))
	default:
		return prefix + string(e.Reason)
	}
}

// CanDropReadKey is the pruning rule that kmsprecondition and library-go's state machine share: an old read
// key may leave the encryption config only when a census report, started after the migration to the
// write key finished and confirmed by the API's object count (ResourceReport.Verdict: a scan that found no
// keys, or fewer than the API lists, looked in the wrong place), shows no object under it, and rollbackWindow
// has passed since migrationFinished. It
// returns nil when the key may be dropped and a *PruneError otherwise.
//
// The report must cover every resource the read key is configured for; the rule cannot know which resources
// the caller left out. Unparsable values of the read key's kind, or of no recognisable kind, block the drop:
// they may have been written under it, and the way out is to delete them deliberately (KEP-3926), not to make
// them unreadable by accident.
func CanDropReadKey(report *Report, key ReadKey, migrationFinished time.Time, rollbackWindow time.Duration, now time.Time) error {
	refuse := func(reason PruneReason) *PruneError { return &PruneError{Reason: reason, Key: key} }
	switch {
	case report == nil:
		return refuse(PruneNoReport)
	case key.Covers(Key{Kind: report.WriteKey.Kind, Name: report.WriteKey.Name, KEKID: report.WriteKey.KEKID}):
		return refuse(PruneIsWriteKey)
	case !migrationFinished.IsZero() && report.Started.Before(migrationFinished):
		// Its counts describe etcd before the migration: they prove nothing either way.
		return refuse(PruneReportPredatesMigration)
	}

	under, corrupt, unconfirmed := refuse(PruneObjectsUnderKey), refuse(PruneUnparsableValues), refuse(PruneCountNotConfirmed)
	var details []string
	for _, r := range report.Resources {
		switch v := r.Verdict(); v.Reason {
		case ReasonNoAPICount, ReasonNoKeys, ReasonCountMismatch:
			unconfirmed.Resources = append(unconfirmed.Resources, r.Resource)
			details = append(details, r.Resource+": "+v.Message)
		}
		var n int64
		for _, k := range r.Keys {
			if key.Covers(k.Key) {
				n += k.Count
			}
		}
		if n > 0 {
			under.Objects += n
			under.Resources = append(under.Resources, r.Resource)
		}
		if c := r.CorruptByKind[string(key.Kind)] + r.CorruptByKind[unknownKind]; c > 0 {
			corrupt.Objects += c
			corrupt.Resources = append(corrupt.Resources, r.Resource)
		}
	}
	// Values still under the key are the most useful answer while no migration has finished: they say what is
	// left to migrate.
	if under.Objects > 0 {
		return under
	}
	if corrupt.Objects > 0 {
		return corrupt
	}
	if len(unconfirmed.Resources) > 0 {
		unconfirmed.Detail = strings.Join(details, "; ")
		return unconfirmed
	}
	if migrationFinished.IsZero() {
		// A clean report without a finished migration proves nothing about objects written while it ran.
		return refuse(PruneMigrationNotFinished)
	}

	if until := migrationFinished.Add(rollbackWindow); now.Before(until) {
		e := refuse(PruneRollbackWindow)
		e.Until = until
		return e
	}
	return nil
}
