package kmsrecovery

import (
	"fmt"
	"strings"

	"github.com/openshift/library-go/pkg/operator/events"
)

// EventObjectsDeletedBatch is the event `kmsguard recover` records per batch of objects it tried to delete.
const EventObjectsDeletedBatch = "UndecryptableObjectsDeletedBatch"

// DefaultEventBatch is how many objects one batch event names: a deletion of thousands of objects stays a few
// hundred events, each small enough to read, and at most one batch is unrecorded when the process dies.
const DefaultEventBatch = 20

// BatchRecorder records what a deletion run did as one event per batch of results, in the cluster, as the run
// goes: the record outlives the terminal that ran `kmsguard recover`. Give Add to Deleter.OnResult and call
// Flush when the run ends, however it ends. Dry-run results are not recorded: nothing was done.
type BatchRecorder struct {
	Recorder events.Recorder
	// Size is the number of results per event; DefaultEventBatch when zero.
	Size int

	pending []Result
}

// Add adds a result and records the batch once it is full.
func (b *BatchRecorder) Add(r Result) {
	if r.Outcome == OutcomeWouldDelete {
		return
	}
	b.pending = append(b.pending, r)
	size := b.Size
	if size <= 0 {
		size = DefaultEventBatch
	}
	if len(b.pending) >= size {
		b.Flush()
	}
}

// Flush records the results added since the last event, if any.
func (b *BatchRecorder) Flush() {
	if len(b.pending) == 0 {
		return
	}
	msg := batchMessage(b.pending)
	warn := false
	for _, r := range b.pending {
		warn = warn || r.Outcome == OutcomeDeleted || r.Outcome == OutcomeFailed
	}
	b.pending = nil
	if warn {
		b.Recorder.Warningf(EventObjectsDeletedBatch, "%s", msg)
		return
	}
	b.Recorder.Eventf(EventObjectsDeletedBatch, "%s", msg)
}

// batchMessage is the message of the event for one batch of results, all under the consent id of the first.
func batchMessage(results []Result) string {
	byOutcome := map[Outcome][]string{}
	for _, r := range results {
		entry := r.ObjectRef.String()
		if r.Error != "" {
			entry += " (" + r.Error + ")"
		}
		byOutcome[r.Outcome] = append(byOutcome[r.Outcome], entry)
	}
	var parts []string
	for _, o := range []Outcome{OutcomeDeleted, OutcomeFailed, OutcomeReadable, OutcomeGone, OutcomeOtherKey} {
		if names := byOutcome[o]; len(names) > 0 {
			parts = append(parts, fmt.Sprintf("%s %d: %s", o, len(names), strings.Join(names, ", ")))
		}
	}
	return fmt.Sprintf("kmsguard recover, undecryptable objects stored under key %s, unsafe delete (ignoreStoreReadErrorWithClusterBreakingPotential; the data of deleted objects was lost with the key): %s",
		results[0].ConsentID, strings.Join(parts, "; "))
}
