package kmsstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// MemoryStore keeps what the Controller learned about KEK ids across operator restarts and leader
// changes. Without it a new process settles on whatever key_id the plugins report when it starts: a rotation
// that completed while no operator ran is never reported, so kmsmigration never re-encrypts the data still
// under the old key_id, and a rotation in progress loses where it came from.
type MemoryStore interface {
	// Load returns the stored Memory; a zero Memory when nothing is stored.
	Load(ctx context.Context) (Memory, error)
	Save(ctx context.Context, memory Memory) error
}

// AnnotationMemory stores the Memory on the operator resource (annotation kmsguard.openshift.io/kek-memory,
// operatorstate), out of the KMS's reach: the memory is what tells a rotation that completed while the KMS was
// down, or while no operator ran, and a ConfigMap would be encrypted by that KMS. It holds key ids, KEK ids and
// times, never key material, and Evaluate bounds it (maxCompletedRotations). Once openshift/api has a typed field
// for it, this type is what changes.
type AnnotationMemory struct {
	store *operatorstate.Store[Memory]
}

// MemoryStoreName names the store: annotation operatorstate.AnnotationPrefix+MemoryStoreName.
const MemoryStoreName = "kek-memory"

// NewAnnotationMemory stores the Memory on resource.
func NewAnnotationMemory(resource operatorstate.Resource) AnnotationMemory {
	return AnnotationMemory{store: operatorstate.NewStore[Memory](resource, MemoryStoreName)}
}

// Load implements MemoryStore. A value that cannot be decoded is a *CorruptMemoryError, not an empty Memory:
// the Controller decides what to do about it, and says so.
func (s AnnotationMemory) Load(ctx context.Context) (Memory, error) {
	m, _, err := s.store.Load(ctx)
	var corrupt *operatorstate.CorruptValueError
	if errors.As(err, &corrupt) {
		return Memory{}, &CorruptMemoryError{Where: corrupt.Store, Err: corrupt.Err}
	}
	return m, err
}

// Save implements MemoryStore.
func (s AnnotationMemory) Save(ctx context.Context, memory Memory) error {
	return s.store.Save(ctx, memory)
}

// CorruptMemoryError is a stored Memory that cannot be decoded.
type CorruptMemoryError struct {
	Where string
	Err   error
}

func (e *CorruptMemoryError) Error() string {
	return fmt.Sprintf("the stored KMS KEK id memory in %s cannot be decoded: %v", e.Where, e.Err)
}

func (e *CorruptMemoryError) Unwrap() error { return e.Err }

// storedMemory is the part of Memory that outlives a process, as JSON. Metrics samples are left out: they
// only tell whether an apiserver's error counters grew since the previous sync, and a fresh start never
// invents growth.
type storedMemory struct {
	// SettledKEK is, per key id, the KEK id every node last agreed on.
	SettledKEK    map[string]string    `json:"settledKEK,omitempty"`
	Rotations     map[string]Rotation  `json:"rotations,omitempty"`
	DisagreeSince map[string]time.Time `json:"disagreeSince,omitempty"`
	LastCompleted map[string]Rotation  `json:"lastCompleted,omitempty"`
}

// MarshalJSON writes the part of m that a MemoryStore keeps.
func (m Memory) MarshalJSON() ([]byte, error) {
	return json.Marshal(storedMemory{SettledKEK: m.settledKEK, Rotations: m.rotations, DisagreeSince: m.disagreeSince, LastCompleted: m.lastCompleted})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (m *Memory) UnmarshalJSON(data []byte) error {
	var s storedMemory
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	*m = Memory{settledKEK: s.SettledKEK, rotations: s.Rotations, disagreeSince: s.DisagreeSince, lastCompleted: s.LastCompleted}
	return nil
}

// sameStored reports whether a and b store the same, so that the Controller writes only on a change.
func sameStored(a, b Memory) bool {
	return maps.Equal(a.settledKEK, b.settledKEK) &&
		maps.EqualFunc(a.rotations, b.rotations, sameRotation) &&
		maps.EqualFunc(a.disagreeSince, b.disagreeSince, time.Time.Equal) &&
		maps.EqualFunc(a.lastCompleted, b.lastCompleted, sameRotation)
}

func sameRotation(a, b Rotation) bool {
	return a.KeyID == b.KeyID && a.From == b.From && a.To == b.To && a.Started.Equal(b.Started) &&
		a.Completed.Equal(b.Completed) && slices.Equal(a.Pending, b.Pending)
}
