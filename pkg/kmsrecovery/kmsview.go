package kmsrecovery

import (
	"context"
	"errors"
	"fmt"
	"sort"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// KMSView tells the consent rule what the KMS plugins say right now. Objects a KMS outage makes unreadable
// look exactly like objects of a lost key, so the rule deletes nothing under a KEK id the plugins still serve
// or kmsstate knows as current, and nothing while the plugins of the current keys are not healthy.
//
// The Controller's view is kmsstate's latest evaluation (KMSStateView); `kmsguard recover` builds a
// KMSSnapshot from the operator resource's health reports, evaluated with kmsstate's own code.
type KMSView interface {
	KMSSnapshot(ctx context.Context) (KMSSnapshot, error)
}

// KMSSnapshot is the KMS facts the consent rule reads.
type KMSSnapshot struct {
	// Served maps each KEK id a plugin reports serving to where ("node master-0 key 1"). A KEK id served under
	// any provider protects the objects of every provider: the comparison errs on the side of keeping data.
	Served map[string][]string
	// Current maps library-go key ids to the KEK id every node agreed on last (kmsstate's settled KEK ids).
	Current map[string]string
	// Unhealthy says why the plugins of the current keys are not all healthy on every node; nil when they are.
	Unhealthy error
}

// AddServed records that a plugin serves kekID; empty ids and the placeholder of a plugin that never
// answered ("unknown") are not KEK ids.
func (s *KMSSnapshot) AddServed(kekID, where string) {
	if kekID == "" || kekID == UnknownConsentID {
		return
	}
	if s.Served == nil {
		s.Served = map[string][]string{}
	}
	s.Served[kekID] = append(s.Served[kekID], where)
}

// currentUse says where kekID is in use, "" when nowhere.
func (s KMSSnapshot) currentUse(kekID string) []string {
	uses := append([]string(nil), s.Served[kekID]...)
	for keyID, kek := range s.Current {
		if kek == kekID {
			uses = append(uses, "kmsstate's settled KEK id of key "+keyID)
		}
	}
	sort.Strings(uses)
	return uses
}

// SnapshotFromKMSState is the snapshot of one kmsstate evaluation: the KEK ids its healthy plugins report, its
// settled KEK ids, and its verdict on the plugins each node runs (pluginsHealthy).
func SnapshotFromKMSState(state kmsstate.State) KMSSnapshot {
	s := KMSSnapshot{Current: map[string]string{}}
	for _, p := range state.Plugins {
		s.AddServed(p.KEKID, fmt.Sprintf("node %s key %s", p.Node, p.KeyID))
	}
	for keyID := range state.SettledKEKIDs {
		if kek, ok := state.SettledKEKID(keyID); ok {
			s.Current[keyID] = kek
		}
	}
	s.Unhealthy = pluginsHealthy(state)
	return s
}

// pluginsHealthy is kmsstate's verdict on the plugins each node runs (State.RunningHealthy: a key whose revision
// has not reached a node has no plugin there to hold anything up), less DecryptFailing.
//
// DecryptFailing is kube-apiserver's own count of failed reads. With a lost key, every apiserver fails to read
// exactly the objects a consent would delete, each time anything LISTs them, for as long as they exist: counting
// it would hold the deletion that ends it, forever. It says nothing about the current keys: a KMS outage that
// makes reads fail also fails the plugins' Status or the Encrypt/Decrypt round trip under the current KEK, and
// those failures still hold consent.
func pluginsHealthy(state kmsstate.State) error {
	err := state.RunningHealthy()
	var unhealthy *kmsstate.UnhealthyError
	if !errors.As(err, &unhealthy) {
		return err
	}
	var failures []kmsstate.Failure
	for _, f := range unhealthy.Failures {
		if f.Reason != kmsstate.ReasonDecryptFailing {
			failures = append(failures, f)
		}
	}
	if len(failures) == 0 {
		return nil
	}
	return &kmsstate.UnhealthyError{Failures: failures}
}

// AddReports adds the KEK id of every health report, healthy or not and whether or not its key is in the
// current config: a plugin that answers Status with a KEK id names its KMS's current key, and a report that
// kmsstate would ignore still says that key is not lost.
func (s *KMSSnapshot) AddReports(reports []operatorv1.KMSPluginHealthReport) {
	for _, r := range reports {
		s.AddServed(r.RemoteKeyID, fmt.Sprintf("node %s key %s (%s report)", r.NodeName, r.KeyID, r.Status))
	}
}

// StateSource is what KMSStateView reads: kmsstate.Reader's Current; (*kmsstate.Controller) satisfies it.
type StateSource interface {
	Current() (kmsstate.State, error)
}

// KMSStateView is the view of a running kmsstate controller. Before its first evaluation, or when its latest one
// is older than its freshness bound, it answers with kmsstate's error: nothing is known healthy that kmsstate has
// not seen lately, and the consent is refused (KMSUnhealthy).
func KMSStateView(source StateSource) KMSView { return stateView{source} }

type stateView struct{ source StateSource }

func (v stateView) KMSSnapshot(context.Context) (KMSSnapshot, error) {
	state, err := v.source.Current()
	if err != nil {
		return KMSSnapshot{}, err
	}
	return SnapshotFromKMSState(state), nil
}

// KMSViewFunc is a KMSView of a function, for `kmsguard recover`, which reads the operator resource only once a
// consent has to be checked.
type KMSViewFunc func(ctx context.Context) (KMSSnapshot, error)

func (f KMSViewFunc) KMSSnapshot(ctx context.Context) (KMSSnapshot, error) { return f(ctx) }
