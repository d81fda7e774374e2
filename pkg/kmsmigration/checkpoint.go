package kmsmigration

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/kmsguard/kmsguard/internal/configmapdata"
)

// Target is what a migration rewrites a resource to: library-go's write key
// (the key secret's id) and, for a migration after a KEK rotation,
// the KEK id the rotation went to.
type Target struct {
	WriteKey string `json:"writeKey"`
	KEKID    string `json:"kekID,omitempty"`
}

func (t Target) String() string {
	if t.KEKID == "" {
		return fmt.Sprintf("write key %s", t.WriteKey)
	}
	return fmt.Sprintf("write key %s at KEK id %s", t.WriteKey, t.KEKID)
}

// Counts are the outcomes of one migration of one resource.
type Counts struct {
	// Listed objects were read from the apiserver and handed to a worker.
	Listed int64 `json:"listed"`
	// Rewritten objects were stored again (their resourceVersion changed).
	Rewritten int64 `json:"rewritten"`
	// Unchanged objects were already under the current write key and KEK id:
	// the apiserver skipped the write.
	Unchanged int64 `json:"unchanged"`
	// Conflicts were written concurrently, so they are under the current
	// write key already; the migrator never overwrites them.
	Conflicts int64 `json:"conflicts"`
	// Gone objects were deleted after they were listed.
	Gone int64 `json:"gone"`
	// Failed objects could not be rewritten after retries.
	Failed int64 `json:"failed"`
	// Undecryptable objects could not be read by the apiserver at all.
	Undecryptable int64 `json:"undecryptable"`
}

// Done are the objects that need nothing more.
func (c Counts) Done() int64 { return c.Rewritten + c.Unchanged + c.Conflicts + c.Gone }

func (c *Counts) add(o Counts) {
	c.Listed += o.Listed
	c.Rewritten += o.Rewritten
	c.Unchanged += o.Unchanged
	c.Conflicts += o.Conflicts
	c.Gone += o.Gone
	c.Failed += o.Failed
	c.Undecryptable += o.Undecryptable
}

// Checkpoint is the durable progress of one migration of one resource.
//
// Counts and Continue always match: Counts are the outcomes of exactly the
// objects listed before Continue, so a resumed migration neither skips nor
// double-counts an object (it may PUT again the few objects in flight at the
// crash, which is harmless: a second no-op update writes nothing).
type Checkpoint struct {
	Target Target `json:"target"`
	// Continue lists the remainder of the resource; empty before the first
	// page and after the last.
	Continue string `json:"continue,omitempty"`
	// ListedAll is set once the last page is committed: a resumed migration
	// then has nothing left to list.
	ListedAll bool   `json:"listedAll,omitempty"`
	Counts    Counts `json:"counts"`
	// Total is the resource's size as the apiserver estimated it on the
	// latest page (0 when unknown).
	Total int64 `json:"total,omitempty"`
	// UndecryptableKeys and FailedKeys are the first MaxListedKeys etcd keys
	// (or namespace/name) of each kind, never values.
	UndecryptableKeys []string `json:"undecryptableKeys,omitempty"`
	FailedKeys        []string `json:"failedKeys,omitempty"`
	// Started and Finished bound the migration; Finished is zero while it runs.
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitempty"`
	// Result is the error the migration finished with, empty on success.
	Result string `json:"result,omitempty"`
}

// CheckpointStore keeps one checkpoint per resource.
type CheckpointStore interface {
	// Load returns nil, nil when there is no checkpoint for gr.
	Load(ctx context.Context, gr schema.GroupResource) (*Checkpoint, error)
	Save(ctx context.Context, gr schema.GroupResource, cp *Checkpoint) error
	Delete(ctx context.Context, gr schema.GroupResource) error
}

// ConfigMapCheckpoints keeps checkpoints in one ConfigMap, one data key per
// resource (the GroupResource's String()), as JSON. A ConfigMap in the
// operator's namespace survives operator restarts and leader changes, and
// admins can read it with oc. A checkpoint is a few hundred bytes plus the
// listed keys, so hundreds of resources fit in the 1 MiB limit.
//
// It is a cache: the KMS encrypts it. When it cannot be read a migration starts over (Migrator.Ensure), and one the
// apiserver cannot read at all (a StorageReadError) is deleted and written afresh (configmapdata), with a
// KMSGuardCacheDeleted event when Recorder is set. Wrap it in DurableFinish so that finished migrations are not
// forgotten with it.
type ConfigMapCheckpoints struct {
	Client    corev1client.ConfigMapsGetter
	Namespace string
	Name      string
	Recorder  events.Recorder
}

var _ CheckpointStore = ConfigMapCheckpoints{}

func (s ConfigMapCheckpoints) Load(ctx context.Context, gr schema.GroupResource) (*Checkpoint, error) {
	cm, err := s.Client.ConfigMaps(s.Namespace).Get(ctx, s.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading migration checkpoints %s/%s: %w", s.Namespace, s.Name, err)
	}
	raw, ok := cm.Data[gr.String()]
	if !ok {
		return nil, nil
	}
	cp := &Checkpoint{}
	if err := json.Unmarshal([]byte(raw), cp); err != nil {
		return nil, fmt.Errorf("migration checkpoint %q in %s/%s is malformed: %w", gr, s.Namespace, s.Name, err)
	}
	return cp, nil
}

func (s ConfigMapCheckpoints) Save(ctx context.Context, gr schema.GroupResource, cp *Checkpoint) error {
	raw, err := json.Marshal(cp)
	if err != nil {
		return err
	}
	return s.update(ctx, func(data map[string]string) { data[gr.String()] = string(raw) })
}

func (s ConfigMapCheckpoints) Delete(ctx context.Context, gr schema.GroupResource) error {
	return s.update(ctx, func(data map[string]string) { delete(data, gr.String()) })
}

// update changes the ConfigMap with a read-modify-write retried on conflict,
// so that checkpoints of different resources, saved concurrently, never
// overwrite each other.
func (s ConfigMapCheckpoints) update(ctx context.Context, change func(map[string]string)) error {
	if err := configmapdata.Update(ctx, s.Client, s.Namespace, s.Name, s.Recorder, change); err != nil {
		return fmt.Errorf("writing migration checkpoints %s/%s: %w", s.Namespace, s.Name, err)
	}
	return nil
}

// memoryCheckpoints is the store used when Options.Checkpoints is nil.
type memoryCheckpoints struct {
	lock sync.Mutex
	data map[schema.GroupResource]Checkpoint
}

func (m *memoryCheckpoints) Load(_ context.Context, gr schema.GroupResource) (*Checkpoint, error) {
	m.lock.Lock()
	defer m.lock.Unlock()
	cp, ok := m.data[gr]
	if !ok {
		return nil, nil
	}
	return &cp, nil
}

func (m *memoryCheckpoints) Save(_ context.Context, gr schema.GroupResource, cp *Checkpoint) error {
	m.lock.Lock()
	defer m.lock.Unlock()
	if m.data == nil {
		m.data = map[schema.GroupResource]Checkpoint{}
	}
	m.data[gr] = *cp
	return nil
}

func (m *memoryCheckpoints) Delete(_ context.Context, gr schema.GroupResource) error {
	m.lock.Lock()
	defer m.lock.Unlock()
	delete(m.data, gr)
	return nil
}
