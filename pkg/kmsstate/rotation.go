package kmsstate

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
)

// KEKIDHash is how kube-apiserver names a KMS key_id in its metrics (key_id_hash labels): "sha256:" and the hex
// SHA-256 of the key_id. It lets a plugin's reported key_id be compared with what an apiserver uses.
func KEKIDHash(keyID string) string {
	if keyID == "" {
		return ""
	}
	return fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(keyID)))
}

// evaluateRotations follows the KEK id (KEK) behind each key.
//
// A rotation starts when a healthy plugin reports a key_id other than the one every node agreed on before,
// and completes when every node's plugin reports it healthy and every kube-apiserver that exposes key id
// metrics for the key's providers uses it: from then on new writes everywhere are under the new KEK, which
// is when re-encrypting old data (kmsmigration) makes sense. A fresh Memory settles on the first key_id all
// nodes agree on without calling it a rotation.
func (e *evaluation) evaluateRotations() {
	for _, key := range e.state.KeyIDs {
		e.evaluateRotation(key)
	}
	sort.Slice(e.state.Rotations, func(i, j int) bool { return e.state.Rotations[i].KeyID < e.state.Rotations[j].KeyID })
	sort.Slice(e.state.Completed, func(i, j int) bool { return e.state.Completed[i].KeyID < e.state.Completed[j].KeyID })
}

func (e *evaluation) evaluateRotation(key string) {
	settled := e.prev.settledKEK[key]
	nodesByKEK := map[string][]string{}
	var newest Plugin
	for _, p := range e.state.Plugins {
		if p.KeyID != key || p.Health != PluginHealthy {
			continue
		}
		nodesByKEK[p.KEKID] = append(nodesByKEK[p.KEKID], p.Node)
		if p.KEKID != settled && p.LastChecked.After(newest.LastChecked) {
			newest = p
		}
	}

	if len(nodesByKEK) == 0 {
		// Nothing healthy to learn from: keep what was known.
		e.carryRotation(key, settled)
		return
	}
	if len(nodesByKEK) == 1 {
		var kek string
		for k := range nodesByKEK {
			kek = k
		}
		pending := e.pendingNodes(key, kek)
		switch {
		case len(pending) == 0 && (settled == "" && e.prev.rotations[key].To == ""):
			e.next.settledKEK[key] = kek // first sight: nothing to compare with
			return
		case len(pending) == 0 && (kek != settled || e.prev.rotations[key].To == kek):
			e.completeRotation(key, settled, kek)
			return
		case kek == settled || settled == "":
			// Everyone healthy agrees on the settled key_id (some nodes are not healthy, or an apiserver lags
			// behind), or there is nothing settled yet to call this a rotation from.
			e.carryRotation(key, settled)
			return
		}
	}

	// Healthy nodes disagree, or all report a new key_id that is not yet everywhere.
	to := newest.KEKID
	rotation := e.prev.rotations[key]
	if rotation.To != to {
		rotation = Rotation{KeyID: key, From: settled, To: to, Started: e.obs.Now}
	}
	rotation.Pending = e.pendingNodes(key, to)
	e.next.rotations[key] = rotation
	e.state.Rotations = append(e.state.Rotations, rotation)
	if settled != "" {
		e.next.settledKEK[key] = settled
	}

	if len(nodesByKEK) < 2 {
		return
	}
	since, ok := e.prev.disagreeSince[key]
	if !ok {
		since = e.obs.Now
	}
	e.next.disagreeSince[key] = since
	if e.obs.Now.Sub(since) <= e.config.KEKIDMismatchGrace {
		return
	}
	reported := describeKEKs(nodesByKEK)
	for kek, nodes := range nodesByKEK {
		if kek == to {
			continue
		}
		for _, node := range nodes {
			e.addFailure(Failure{Reason: ReasonKEKIDMismatch, Node: node, KeyID: key,
				Detail: fmt.Sprintf("nodes report different KEK ids since %s (%s)", since.UTC().Format(time.RFC3339), reported)})
		}
	}
}

func (e *evaluation) carryRotation(key, settled string) {
	if settled != "" {
		e.next.settledKEK[key] = settled
	}
	if r, ok := e.prev.rotations[key]; ok {
		e.next.rotations[key] = r
		e.state.Rotations = append(e.state.Rotations, r)
	}
	if since, ok := e.prev.disagreeSince[key]; ok {
		e.next.disagreeSince[key] = since
	}
}

func (e *evaluation) completeRotation(key, settled, to string) {
	rotation := e.prev.rotations[key]
	if rotation.To != to {
		rotation = Rotation{KeyID: key, From: settled, To: to, Started: e.obs.Now}
	}
	rotation.Completed = e.obs.Now
	rotation.Pending = nil
	e.next.settledKEK[key] = to
	e.next.lastCompleted[key] = rotation
	e.state.Completed = append(e.state.Completed, rotation)
}

// pendingNodes are the nodes whose plugin for key does not report kek healthy, or whose kube-apiserver's key id
// metrics for the key's providers name another key_id.
func (e *evaluation) pendingNodes(key, kek string) []string {
	pending := sets.New[string]()
	for _, p := range e.state.Plugins {
		if p.KeyID == key && (p.Health != PluginHealthy || p.KEKID != kek) {
			pending.Insert(p.Node)
		}
	}
	want := KEKIDHash(kek)
	for _, v := range e.obs.APIServers {
		if !e.nodes.Has(v.NodeName) || v.Metrics == nil {
			continue
		}
		for provider, hash := range v.Metrics.KeyIDHashes {
			if e.obs.Providers[provider] == key && hash != want {
				pending.Insert(v.NodeName)
			}
		}
	}
	return sets.List(pending)
}

func describeKEKs(nodesByKEK map[string][]string) string {
	keks := make([]string, 0, len(nodesByKEK))
	for kek := range nodesByKEK {
		keks = append(keks, kek)
	}
	sort.Strings(keks)
	parts := make([]string, 0, len(keks))
	for _, kek := range keks {
		nodes := append([]string(nil), nodesByKEK[kek]...)
		sort.Strings(nodes)
		parts = append(parts, fmt.Sprintf("%s on %s", kek, strings.Join(nodes, ",")))
	}
	return strings.Join(parts, "; ")
}
