package kmsrollback

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/kmsguard/kmsguard/pkg/operatorstate"
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

// maxErrorBytes bounds a Hold's Error, so that maxHolds Holds fit their store (operatorstate.MaxValueBytes). The
// condition message and the revert's event carry the evidence whole.
const maxErrorBytes = 2 << 10

// boundedError is failures, cut to maxErrorBytes.
func boundedError(failures string) string {
	if len(failures) <= maxErrorBytes {
		return failures
	}
	const cut = " ... (cut)"
	return strings.ToValidUTF8(failures[:maxErrorBytes-len(cut)], "") + cut
}

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

// HoldStore persists Holds, so that a held config stays held across operator restarts and leader changes, and
// HoldingDeployer sees it in every process. It keeps them where a KMS fault cannot reach them: the annotation
// kmsguard.openshift.io/rollback-holds of the operator resource (operatorstate). A ConfigMap would be encrypted by
// the KMS whose failure the Holds are about: while the KMS is down the controller could not revert, and
// HoldingDeployer would fail every library-go encryption controller. The Holds are hashes, revisions, nodes and
// error text, never the configs themselves: those carry key material and live in Secrets.
//
// Reads are live GETs: the controller must not revert twice because a cache lags its own write, and the deployer
// must not let the state controller run in the moment after a Hold was recorded. The controller is the only
// writer (one worker, under the operator's leader election), so a save needs no optimistic concurrency.
//
// Once openshift/api has typed fields for them (status.encryptionStatus.guard, hack/upstream/api), this file is
// the one that changes.
type HoldStore struct {
	store *operatorstate.Store[Holds]
}

// HoldsStoreName names the store: annotation operatorstate.AnnotationPrefix+HoldsStoreName.
const HoldsStoreName = "rollback-holds"

// NewHoldStore stores Holds on the operator resource.
func NewHoldStore(resource operatorstate.Resource) *HoldStore {
	return &HoldStore{store: operatorstate.NewStore[Holds](resource, HoldsStoreName)}
}

// Load reads the Holds, oldest first.
func (s *HoldStore) Load(ctx context.Context) (Holds, error) {
	// Refusing a value that cannot be decoded beats guessing: a corrupt store must not silently release a held
	// config.
	holds, _, err := s.store.Load(ctx)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(holds, func(i, j int) bool { return holds[i].RevertedAt.Before(holds[j].RevertedAt) })
	return holds, nil
}

// Save writes holds, trimmed to the newest maxHolds.
func (s *HoldStore) Save(ctx context.Context, holds Holds) error {
	return s.store.Save(ctx, holds.trimmed())
}

// HeldKeyIDs are the KMS keys of every active Hold. kmsstate must keep watching them after the revert dropped
// them from the config (add them in its KeyLister), or the plugins can never be seen healthy again and only an
// admin change releases the Hold.
func (s *HoldStore) HeldKeyIDs(ctx context.Context) ([]string, error) {
	holds, err := s.Load(ctx)
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
	holds, err := s.Load(ctx)
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
