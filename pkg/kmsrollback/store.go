package kmsrollback

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// Hold is one revert of a failed KMS config. It is active (the failed config is held out of library-go's
// encryption controllers) until Released is set; it is over once Cleared is set.
type Hold struct {
	// Hash is the hash of the failed encryption-config (revisions.CandidateHash).
	Hash string `json:"hash"`
	// FailedRevision failed; RevertedTo is the last known good revision whose config was written back.
	FailedRevision int32  `json:"failedRevision"`
	RevertedTo     int32  `json:"revertedTo"`
	RevertedToHash string `json:"revertedToHash"`
	// Nodes failed with KMS evidence; KeyIDs are the keys FailedRevision added or changed.
	Nodes  []string `json:"nodes"`
	KeyIDs []string `json:"keyIDs"`
	// Error is the KMS evidence, for the condition message.
	Error      string    `json:"error"`
	RevertedAt time.Time `json:"revertedAt"`
	// Reverts counts the reverts of Hash, this one included; the backoff before the next try doubles with it.
	Reverts int `json:"reverts"`
	// AdminConfig is the AdminConfig hash at the revert; a different one releases the Hold.
	AdminConfig string     `json:"adminConfig,omitempty"`
	Released    *time.Time `json:"released,omitempty"`
	// ReleaseReason says why the failed config may be tried again.
	ReleaseReason string     `json:"releaseReason,omitempty"`
	Cleared       *time.Time `json:"cleared,omitempty"`
	// ClearedBy is the revision that rolled out healthy after the revert.
	ClearedBy int32 `json:"clearedBy,omitempty"`
}

// Active reports whether the failed config is held out.
func (h *Hold) Active() bool { return h.Released == nil }

// Holds are the reverts the controller remembers, oldest first.
type Holds []Hold

// Active is the active Hold, if any. The controller keeps at most one: a revert happens only with no Hold
// active, or replaces the one for the same config.
func (hs Holds) Active() *Hold {
	for i := len(hs) - 1; i >= 0; i-- {
		if hs[i].Active() {
			return &hs[i]
		}
	}
	return nil
}

// Latest is the newest Hold, active or not.
func (hs Holds) Latest() *Hold {
	if len(hs) == 0 {
		return nil
	}
	return &hs[len(hs)-1]
}

// reverts is how often hash has been reverted.
func (hs Holds) reverts(hash string) int {
	n := 0
	for _, h := range hs {
		if h.Hash == hash && h.Reverts > n {
			n = h.Reverts
		}
	}
	return n
}

// handled reports whether the failure of revision with config hash has been reverted already.
func (hs Holds) handled(revision int32, hash string) bool {
	for _, h := range hs {
		if h.FailedRevision == revision && h.Hash == hash {
			return true
		}
	}
	return false
}

// maxHolds bounds the history; older cleared Holds are forgotten first. A hash that failed long ago and is
// forgotten starts its backoff from the beginning again, which is what an admin who fixed things expects.
const maxHolds = 10

func (hs Holds) trimmed() Holds {
	for len(hs) > maxHolds {
		i := 0
		for i < len(hs) && hs[i].Cleared == nil {
			i++
		}
		if i == len(hs) {
			i = 0
		}
		hs = append(hs[:i:i], hs[i+1:]...)
	}
	return hs
}

// HoldStore persists Holds in a ConfigMap (data key holds.json), so that a held config stays held across
// operator restarts and leader changes, and HoldingDeployer sees it in every process. A condition message would
// be lost to the next apply and cannot be read back reliably; an annotation on the operator resource would race
// with every other controller writing it. The ConfigMap holds hashes, revisions, nodes and error text, never
// the configs themselves: those carry key material and live in Secrets.
//
// Reads are live GETs: the controller must not revert twice because its cache lags its own write, and the
// deployer must not let the state controller run in the moment after a Hold was recorded.
type HoldStore struct {
	client          corev1client.ConfigMapsGetter
	namespace, name string
}

// HoldsDataKey is the ConfigMap data key the Holds are stored under, as JSON.
const HoldsDataKey = "holds.json"

// NewHoldStore stores Holds in the ConfigMap namespace/name, e.g. openshift-kube-apiserver-operator/
// kmsguard-rollback.
func NewHoldStore(client corev1client.ConfigMapsGetter, namespace, name string) *HoldStore {
	return &HoldStore{client: client, namespace: namespace, name: name}
}

// Namespace and Name locate the ConfigMap, for informers that watch it.
func (s *HoldStore) Namespace() string { return s.namespace }
func (s *HoldStore) Name() string      { return s.name }

// Version is the version of the store Load read, for Save's optimistic concurrency.
type Version struct {
	exists          bool
	resourceVersion string
}

// Load reads the Holds and their Version.
func (s *HoldStore) Load(ctx context.Context) (Holds, Version, error) {
	cm, err := s.client.ConfigMaps(s.namespace).Get(ctx, s.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, Version{}, nil
	}
	if err != nil {
		return nil, Version{}, fmt.Errorf("reading configmap %s/%s: %w", s.namespace, s.name, err)
	}
	var holds Holds
	if raw := cm.Data[HoldsDataKey]; raw != "" {
		if err := json.Unmarshal([]byte(raw), &holds); err != nil {
			// Refusing beats guessing: a corrupt store must not silently release a held config.
			return nil, Version{}, fmt.Errorf("decoding %s of configmap %s/%s: %w", HoldsDataKey, s.namespace, s.name, err)
		}
	}
	sort.SliceStable(holds, func(i, j int) bool { return holds[i].RevertedAt.Before(holds[j].RevertedAt) })
	return holds, Version{exists: true, resourceVersion: cm.ResourceVersion}, nil
}

// Save writes holds and returns the new Version. version is Load's (or the last Save's), so that a concurrent
// writer makes it fail with a conflict rather than be overwritten.
func (s *HoldStore) Save(ctx context.Context, holds Holds, version Version) (Version, error) {
	data, err := json.Marshal(holds.trimmed())
	if err != nil {
		return Version{}, err
	}
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.namespace, Name: s.name, ResourceVersion: version.resourceVersion},
		Data:       map[string]string{HoldsDataKey: string(data)},
	}
	var saved *corev1.ConfigMap
	if version.exists {
		saved, err = s.client.ConfigMaps(s.namespace).Update(ctx, cm, metav1.UpdateOptions{})
	} else {
		saved, err = s.client.ConfigMaps(s.namespace).Create(ctx, cm, metav1.CreateOptions{})
	}
	if err != nil {
		return Version{}, fmt.Errorf("writing configmap %s/%s: %w", s.namespace, s.name, err)
	}
	return Version{exists: true, resourceVersion: saved.ResourceVersion}, nil
}

// HeldKeyIDs are the KMS keys of every active Hold. kmsstate must keep watching them after the revert dropped
// them from the config (add them in its KeyLister), or the plugins can never be seen healthy again and only an
// admin change releases the Hold.
func (s *HoldStore) HeldKeyIDs(ctx context.Context) ([]string, error) {
	holds, _, err := s.Load(ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, h := range holds {
		if h.Active() {
			ids = append(ids, h.KeyIDs...)
		}
	}
	return ids, nil
}

// IsRevert implements kmsprecondition.RevertReader: the candidate is the config an active Hold reverted to,
// so kmsprecondition's gate lets it drop the failed revision's new KMS providers, which never wrote.
func (s *HoldStore) IsRevert(ctx context.Context, candidateHash string) (bool, error) {
	holds, _, err := s.Load(ctx)
	if err != nil {
		return false, err
	}
	for _, h := range holds {
		if h.Active() && h.RevertedToHash == candidateHash {
			return true, nil
		}
	}
	return false, nil
}
