package kmsstate

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/kmsguard/kmsguard/internal/configmapdata"
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

// ConfigMapMemory stores the Memory as JSON in a ConfigMap (data key memory.json), e.g.
// openshift-kube-apiserver-operator/kmsguard-kms-state. It holds key ids, KEK ids and times, never key
// material.
type ConfigMapMemory struct {
	Client          corev1client.ConfigMapsGetter
	Namespace, Name string
}

// MemoryDataKey is the ConfigMap data key the Memory is stored under.
const MemoryDataKey = "memory.json"

// Load implements MemoryStore. A ConfigMap that cannot be decoded is an error, not an empty Memory: the
// Controller decides what to do about it, and says so.
func (s ConfigMapMemory) Load(ctx context.Context) (Memory, error) {
	cm, err := s.Client.ConfigMaps(s.Namespace).Get(ctx, s.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return Memory{}, nil
	}
	if err != nil {
		return Memory{}, fmt.Errorf("reading configmap %s/%s: %w", s.Namespace, s.Name, err)
	}
	raw, ok := cm.Data[MemoryDataKey]
	if !ok {
		return Memory{}, nil
	}
	var m Memory
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return Memory{}, &CorruptMemoryError{Where: fmt.Sprintf("configmap %s/%s key %s", s.Namespace, s.Name, MemoryDataKey), Err: err}
	}
	return m, nil
}

// Save implements MemoryStore.
func (s ConfigMapMemory) Save(ctx context.Context, memory Memory) error {
	raw, err := json.Marshal(memory)
	if err != nil {
		return err
	}
	err = configmapdata.Update(ctx, s.Client, s.Namespace, s.Name, func(data map[string]string) {
		data[MemoryDataKey] = string(raw)
	})
	if err != nil {
		return fmt.Errorf("writing configmap %s/%s: %w", s.Namespace, s.Name, err)
	}
	return nil
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
