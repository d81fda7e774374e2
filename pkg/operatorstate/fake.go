package operatorstate

import (
	"context"
	"maps"
	"sync"
)

// FakeResource is a Resource in memory, for tests of the controllers that keep their state in a Store. Each
// field manager's annotations replace what it applied before, and an annotation another manager owns becomes the
// applier's, as a forced server-side apply does (resource.go applies with Force).
type FakeResource struct {
	mu                sync.Mutex
	owned             map[string]map[string]string
	readErr, writeErr error
	writes            int
}

var _ Resource = (*FakeResource)(nil)

// NewFakeResource returns an empty FakeResource.
func NewFakeResource() *FakeResource {
	return &FakeResource{owned: map[string]map[string]string{}}
}

// FailReads makes every read return err (nil: reads work again).
func (f *FakeResource) FailReads(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.readErr = err
}

// FailWrites makes every write return err (nil: writes work again).
func (f *FakeResource) FailWrites(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writeErr = err
}

// Writes counts the successful writes.
func (f *FakeResource) Writes() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.writes
}

func (f *FakeResource) Annotations(context.Context) (map[string]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.readErr != nil {
		return nil, f.readErr
	}
	all := map[string]string{}
	for _, a := range f.owned {
		maps.Copy(all, a)
	}
	return all, nil
}

func (f *FakeResource) ApplyAnnotations(_ context.Context, fieldManager string, annotations map[string]string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.writeErr != nil {
		return f.writeErr
	}
	for manager, owned := range f.owned {
		if manager == fieldManager {
			continue
		}
		for key := range annotations {
			delete(owned, key)
		}
	}
	f.owned[fieldManager] = maps.Clone(annotations)
	f.writes++
	return nil
}

func (f *FakeResource) String() string { return "the fake operator resource" }
