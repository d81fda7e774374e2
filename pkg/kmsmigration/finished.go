package kmsmigration

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// FinishedStoreName names the store of finished migrations on the operator resource: annotation
// operatorstate.AnnotationPrefix+FinishedStoreName.
const FinishedStoreName = "migrations"

// maxFinishedKeys and maxFinishedResultBytes bound what a finished record keeps of the keys it lists of each kind and
// of its result, so that the records of every encrypted resource fit their store; the counts stay whole, and the
// events and the controller's condition have the rest.
const (
	maxFinishedKeys        = 5
	maxFinishedResultBytes = 1 << 10
)

// DurableFinish is a CheckpointStore that keeps what a migration must not forget out of the KMS's reach and its
// progress in Progress, a cache.
//
// A finished migration's record (its target, counts, result and when it finished) goes to the operator resource
// (annotation kmsguard.openshift.io/migrations, operatorstate), which the KMS never encrypts. Without it, an
// operator restart while the progress ConfigMap cannot be read (the KMS encrypts it) would run every finished
// migration again: a LIST and a PUT of every object of every encrypted resource, on apiservers already strained.
// Progress (the continue token, the listed keys) is only a cache: when it cannot be read the migration starts
// over, which redoes work and misses nothing (Migrator.Ensure).
//
// Once openshift/api has a typed field for finished migrations, this file is the one that changes.
type DurableFinish struct {
	progress CheckpointStore
	finished *operatorstate.Store[map[string]Checkpoint]
	// mu serializes the read-modify-write of the one annotation that holds every resource's record.
	mu sync.Mutex
}

var _ CheckpointStore = &DurableFinish{}

// NewDurableFinish keeps finished migrations on resource and progress in progress.
func NewDurableFinish(resource operatorstate.Resource, progress CheckpointStore) *DurableFinish {
	return &DurableFinish{progress: progress, finished: operatorstate.NewStore[map[string]Checkpoint](resource, FinishedStoreName)}
}

// Load returns what is newest of gr: its finished record, or the progress of a migration started after it
// (to a new target). A record that cannot be read leaves the progress: at worst a finished migration runs again;
// progress that cannot be read leaves the record.
func (s *DurableFinish) Load(ctx context.Context, gr schema.GroupResource) (*Checkpoint, error) {
	records, _, recordErr := s.finished.Load(ctx)
	if recordErr != nil {
		klog.Warningf("kmsmigration: %s: the finished migrations cannot be read, looking at the progress only: %v", gr, recordErr)
	}
	record, recorded := records[gr.String()]
	progress, progressErr := s.progress.Load(ctx, gr)
	switch {
	case progressErr == nil && progress != nil && (!recorded || progress.Started.After(record.Finished)):
		return progress, nil
	case recorded:
		return &record, nil
	default:
		return progress, progressErr
	}
}

// Save records a finished migration durably, then drops its progress, which nothing needs any more; progress
// goes to Progress only.
func (s *DurableFinish) Save(ctx context.Context, gr schema.GroupResource, cp *Checkpoint) error {
	if cp.Finished.IsZero() {
		return s.progress.Save(ctx, gr, cp)
	}
	record := *cp
	record.Continue = ""
	record.UndecryptableKeys = firstKeys(cp.UndecryptableKeys)
	record.FailedKeys = firstKeys(cp.FailedKeys)
	if len(record.Result) > maxFinishedResultBytes {
		record.Result = strings.ToValidUTF8(record.Result[:maxFinishedResultBytes], "") + " ... (cut)"
	}
	if err := s.update(ctx, func(records map[string]Checkpoint) { records[gr.String()] = record }); err != nil {
		return fmt.Errorf("recording the finished migration of %s: %w", gr, err)
	}
	// The record above is what counts; a progress entry left behind is ignored by Load.
	if err := s.progress.Delete(ctx, gr); err != nil {
		klog.V(2).Infof("kmsmigration: %s: the progress of the finished migration stays cached: %v", gr, err)
	}
	return nil
}

// Delete forgets both.
func (s *DurableFinish) Delete(ctx context.Context, gr schema.GroupResource) error {
	return errors.Join(
		s.update(ctx, func(records map[string]Checkpoint) { delete(records, gr.String()) }),
		s.progress.Delete(ctx, gr))
}

func (s *DurableFinish) update(ctx context.Context, change func(map[string]Checkpoint)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	records, _, err := s.finished.Load(ctx)
	var corrupt *operatorstate.CorruptValueError
	switch {
	case errors.As(err, &corrupt):
		// Only records of finished migrations are lost: those migrations run again.
		klog.Warningf("kmsmigration: %v; starting the records afresh", err)
		records = nil
	case err != nil:
		return err
	}
	if records == nil {
		records = map[string]Checkpoint{}
	}
	before := len(records)
	change(records)
	if len(records) == 0 && before == 0 {
		return nil
	}
	if len(records) == 0 {
		return s.finished.Clear(ctx)
	}
	return s.finished.Save(ctx, records)
}

func firstKeys(keys []string) []string {
	if len(keys) > maxFinishedKeys {
		return keys[:maxFinishedKeys]
	}
	return keys
}
