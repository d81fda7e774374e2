package kmsmigration

import (
	"context"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Progress is a snapshot of one migration.
type Progress struct {
	Resource schema.GroupResource
	Target   Target
	// Counts include objects still in flight.
	Counts Counts
	// Total is the apiserver's estimate of the resource's size; 0 if unknown.
	Total int64
	// Paused is NotPaused while writing.
	Paused      PauseReason
	PauseDetail string
	// InFlightLimit is the PUT concurrency the latency limiter allows now.
	InFlightLimit int
	Started       time.Time
	// Finished is zero while running; Result is then nil.
	Finished time.Time
	Result   error
	// UndecryptableKeys and FailedKeys are the first keys of each kind.
	UndecryptableKeys, FailedKeys []string
}

// Running says whether the migration has neither finished nor been stopped.
func (p Progress) Running() bool { return p.Finished.IsZero() && p.Result == nil }

// String reads like "secrets 41200/50000 migrated (41000 rewritten, 150
// already current, 50 written concurrently), 3 undecryptable".
func (p Progress) String() string {
	total := "?"
	if p.Total > 0 {
		total = fmt.Sprint(p.Total)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d/%s migrated (%d rewritten, %d already current, %d written concurrently, %d deleted)",
		p.Resource, p.Counts.Done(), total, p.Counts.Rewritten, p.Counts.Unchanged, p.Counts.Conflicts, p.Counts.Gone)
	if p.Counts.Undecryptable > 0 {
		fmt.Fprintf(&b, ", %d undecryptable", p.Counts.Undecryptable)
	}
	if p.Counts.Failed > 0 {
		fmt.Fprintf(&b, ", %d failed", p.Counts.Failed)
	}
	if p.Paused != NotPaused {
		fmt.Fprintf(&b, ", paused (%s: %s)", p.Paused, p.PauseDetail)
	}
	return b.String()
}

func (c Counts) String() string {
	return fmt.Sprintf("%d listed, %d rewritten, %d already current, %d written concurrently, %d deleted, %d failed, %d undecryptable",
		c.Listed, c.Rewritten, c.Unchanged, c.Conflicts, c.Gone, c.Failed, c.Undecryptable)
}

// LastFinished says when this Migrator's latest migration of gr finished with every object rewritten (an
// evidence.MigrationFinishedFunc, and with the Migrator's events the census's evidence.MigrationSource). A
// migration that left undecryptable or failed objects has not moved the resource off its old keys.
func (m *Migrator) LastFinished(_ context.Context, gr schema.GroupResource) (time.Time, error) {
	var latest time.Time
	for _, p := range m.Progress() {
		if p.Resource == gr && !p.Finished.IsZero() && p.Result == nil && p.Finished.After(latest) {
			latest = p.Finished
		}
	}
	return latest, nil
}
