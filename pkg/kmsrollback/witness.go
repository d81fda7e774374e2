package kmsrollback

import (
	"context"
	"fmt"
	"sync"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// witness remembers kmsstate's KMS faults on each node that is installing the newest revision, seen while
// that node ran it. A new key's plugin runs only in the pod of the revision that adds it, and kmsstate knows of
// it only from that pod's reporter: once the startup monitor falls back (a single-node control plane), that pod
// and its reporter are gone, and by the time library-go's installer records the fallback kmsstate has no report
// of the key left. attribute then takes what the witness saw. On three nodes there is no startup monitor, the
// failing pod keeps running and reporting, and kmsstate's live verdict decides.
//
// The memory is in-process: an operator restart between the failure and its record loses it, and that
// failure is not attributed (KMSRollbackDegraded says which evidence was missing); the revision is then the
// admin's, as any failure kmsguard does not attribute.
type witness struct {
	mu       sync.Mutex
	revision int32
	// keys are the revision's KMS key ids, read once: a revision's encryption config does not change once the
	// revision is available, and the controller syncs on every health report while a rollout is in progress.
	keys     []string
	keysRead bool
	seen     map[string][]kmsstate.Failure // node -> KMS faults of the revision's keys
}

// observe records, for every node in transition to the newest revision, kmsstate's KMS faults of that
// revision's KMS keys there. It keeps only the newest revision, and a node's latest non-empty observation.
func (w *witness) observe(ctx context.Context, rollout Rollout, configs revisions.Reader, health HealthReader) error {
	latest := rollout.LatestAvailableRevision
	var nodes []string
	for _, n := range rollout.Nodes {
		if n.TargetRevision == latest && n.CurrentRevision < latest {
			nodes = append(nodes, n.Node)
		}
	}
	w.mu.Lock()
	if w.revision != latest {
		w.revision, w.keys, w.keysRead, w.seen = latest, nil, false, map[string][]kmsstate.Failure{}
	}
	w.mu.Unlock()
	if len(nodes) == 0 || latest == 0 {
		return nil
	}
	keys, err := w.revisionKeys(ctx, latest, configs)
	if err != nil || len(keys) == 0 {
		return err
	}
	for _, node := range nodes {
		faults, err := failing(health, node, keys)
		if err != nil {
			return err
		}
		if len(faults) == 0 {
			continue
		}
		w.mu.Lock()
		if w.revision == latest {
			w.seen[node] = faults
		}
		w.mu.Unlock()
	}
	return nil
}

// revisionKeys are the KMS key ids of revision's encryption config, read on the first call for that revision.
func (w *witness) revisionKeys(ctx context.Context, revision int32, configs revisions.Reader) ([]string, error) {
	w.mu.Lock()
	if w.revision == revision && w.keysRead {
		defer w.mu.Unlock()
		return w.keys, nil
	}
	w.mu.Unlock()
	data, err := configs.RevisionConfig(ctx, revision)
	if err != nil {
		return nil, err
	}
	var keys []string
	// An undecodable config has no keys to watch; attribute says why it is not KMS's.
	if config, err := decode(data); err == nil && config != nil {
		keys = encryptionconfig.KMSKeysOf(config).IDs
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.revision == revision {
		w.keys, w.keysRead = keys, true
	}
	return keys, nil
}

// recall returns the KMS faults of keys seen on node while it ran revision.
func (w *witness) recall(revision int32, node string, keys []string) []kmsstate.Failure {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.revision != revision {
		return nil
	}
	want := map[string]bool{}
	for _, k := range keys {
		want[k] = true
	}
	var out []kmsstate.Failure
	for _, f := range w.seen[node] {
		if want[f.KeyID] {
			f.Detail += fmt.Sprintf(" (seen while the node ran revision %d)", revision)
			out = append(out, f)
		}
	}
	return out
}
