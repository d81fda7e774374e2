package kmsstate

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kmsguard/kmsguard/internal/conditions"
)

// Reason names one class of KMS failure. It is the reason of the KMSPluginsDegraded condition when it is the
// most severe failure present.
type Reason string

// The failure classes. Which one names the condition when several are present is decided by severity, below.
const (
	// ReasonDecryptFailing: a kube-apiserver fails to read KMS-encrypted data right now (its transformation or
	// KMS Decrypt error counters grow). Reads of encrypted resources are already failing.
	ReasonDecryptFailing Reason = "DecryptFailing"
	// ReasonPluginUnreachable: no answer to a plugin's Status came back (report status Error): the socket is
	// gone or refuses connections, the call timed out, or what listens there is not a KMS v2 plugin. Check the
	// plugin process, its socket and the sidecar.
	ReasonPluginUnreachable Reason = "PluginUnreachable"
	// ReasonPluginUnhealthy: a plugin answered, but not healthy (report status Unhealthy): healthz != "ok",
	// Status answered with a gRPC error of the plugin's own (FailedPrecondition "key disabled",
	// PermissionDenied, Unauthenticated, Internal, ...; the message holds the code), or the active probe's
	// Encrypt/Decrypt round trip failed (a revoked key whose Status still says "ok"). Check the key and the
	// plugin's access to its KMS. pkg/kmsplugin/pluginprobe tells the plugin's own errors from transport
	// failures; library-go's reporter writes every failed Status as Error, so behind it they read as
	// PluginUnreachable.
	ReasonPluginUnhealthy Reason = "PluginUnhealthy"
	// ReasonAPIServerKMSCheckFailing: a kube-apiserver's own /healthz/kms-providers fails or its KMS calls
	// fail. New DEKs cannot be made; writes stop three minutes after the last good Status.
	ReasonAPIServerKMSCheckFailing Reason = "APIServerKMSCheckFailing"
	// ReasonKEKIDMismatch: nodes have disagreed on the KEK id for longer than the grace period, so
	// apiservers on different nodes write under different KMS keys.
	ReasonKEKIDMismatch Reason = "KEKIDMismatch"
	// ReasonHealthReportStale: a plugin's last report is older than the staleness limit; its reporter is
	// stuck or gone, and nothing is known about the plugin.
	ReasonHealthReportStale Reason = "HealthReportStale"
	// ReasonHealthReportMissing: a node of the current revision has never reported on a key of the current
	// config.
	ReasonHealthReportMissing Reason = "HealthReportMissing"
	// ReasonStateStale: kmsstate's own latest evaluation is older than its freshness bound (Reader): its syncs
	// fail or have stopped, and nothing is known about the plugins now. Only the Reader methods answer with it;
	// no condition carries it (a controller that does not sync writes no condition).
	ReasonStateStale Reason = "StateStale"
	// ReasonStateNotEvaluated: kmsstate has not evaluated anything yet (the operator just started).
	ReasonStateNotEvaluated Reason = "StateNotEvaluated"
)

// kmsFault are the reasons that always show a key failing on a node: its data cannot be decrypted, or its plugin
// is unreachable or answers unhealthy. APIServerKMSCheckFailing does when it names the key (Failure.KMSFault).
// The others say that nothing is known (a missing or stale report, a stale or absent evaluation) or that a
// rotation is under way (a key id mismatch): none of them proves that the KMS is to blame for a failure.
var kmsFault = map[Reason]bool{
	ReasonDecryptFailing:    true,
	ReasonPluginUnreachable: true,
	ReasonPluginUnhealthy:   true,
}

// KMSFault reports whether every failure of this reason shows the KMS key failing on the node, rather than that
// nothing is known. Failure.KMSFault decides for one failure.
func (r Reason) KMSFault() bool { return kmsFault[r] }

// KMSFault reports whether the failure shows its KMS key failing on its node: kmsrollback reverts a revision only
// on such evidence, and the rollout gate refuses a new key that shows one. Besides the reasons that always do, a
// kube-apiserver's own failed calls to the key's provider (APIServerKMSCheckFailing with a key, from its metrics)
// do: that is the KMS failing kube-apiserver itself, and on a single node whose new revision cannot start it is
// the only witness there is, since library-go's reporter cannot publish a failing plugin's report (the operator
// CRDs require remoteKeyID, which it writes only for a healthy one). Its /healthz/kms-providers failing names
// no key and may come from another key: it does not.
func (f Failure) KMSFault() bool {
	return kmsFault[f.Reason] || (f.Reason == ReasonAPIServerKMSCheckFailing && f.KeyID != "")
}

// ReasonAsExpected is the reason of a KMSPluginsDegraded=False condition.
const ReasonAsExpected = "AsExpected"

// severity orders the reasons, most severe first: the order an admin has to act in, and the one place that
// order is kept. Data that cannot be read comes first; then plugin failures before the apiserver's failing check,
// because a dead or unhealthy plugin is what makes that check fail, and the reason should say what to fix; then
// what says that nothing is known.
var severity = conditions.NewSeverity(
	ReasonDecryptFailing,
	ReasonPluginUnreachable,
	ReasonPluginUnhealthy,
	ReasonAPIServerKMSCheckFailing,
	ReasonKEKIDMismatch,
	ReasonHealthReportStale,
	ReasonHealthReportMissing,
	ReasonStateNotEvaluated,
	ReasonStateStale,
)

// Failure is one thing wrong with KMS on one node.
type Failure struct {
	Reason Reason `json:"reason"`
	// Node is the node the failure was seen on.
	Node string `json:"node"`
	// KeyID is the KMS key (encryption-key secret id) concerned; empty for failures an apiserver reports
	// without naming a key.
	KeyID string `json:"keyID,omitempty"`
	// Detail is the error as reported, for the condition message.
	Detail string `json:"detail,omitempty"`
}

func (f Failure) String() string {
	s := "node " + f.Node
	if f.KeyID != "" {
		s += " key " + f.KeyID
	}
	if f.Detail != "" {
		s += ": " + f.Detail
	}
	return s
}

// PluginHealth is the health of one plugin (one key on one node).
type PluginHealth string

const (
	PluginHealthy     PluginHealth = "Healthy"
	PluginUnhealthy   PluginHealth = "Unhealthy"
	PluginUnreachable PluginHealth = "Unreachable"
	PluginStale       PluginHealth = "Stale"
	PluginMissing     PluginHealth = "Missing"
)

// Plugin is the state of the plugin for one key on one node.
type Plugin struct {
	Node   string       `json:"node"`
	KeyID  string       `json:"keyID"`
	Health PluginHealth `json:"health"`
	// KEKID is the KEK id the plugin last reported while healthy; empty otherwise.
	KEKID string `json:"kekID,omitempty"`
	// LastChecked is when the plugin's reporter last checked it; zero when it never reported.
	LastChecked time.Time `json:"lastChecked,omitempty"`
	// Age is how old the last report was at evaluation time.
	Age    time.Duration `json:"age,omitempty"`
	Detail string        `json:"detail,omitempty"`
	// Pending is true when the key is not in the revision the node runs (Observation.Running): its health is
	// known for the rollout gate, but it is not a failure of the node.
	Pending bool `json:"pending,omitempty"`
	// AwaitingFirstReport is true when the node runs the key and no report of it has come yet, for less than the
	// staleness limit since this process first saw the node run it: the new pod's reporter has not published
	// (library-go's probes once as its pod starts, while the apiserver restarts, then every 30 s). Like Pending,
	// it is not a failure of the node, and the rollout gate still counts it.
	AwaitingFirstReport bool `json:"awaitingFirstReport,omitempty"`
	// NodeUnavailable says why the node's plugins may be silent on purpose (Observation.Availability), when the
	// plugin's report is missing or stale: like Pending, it is not a failure of the node, and the rollout gate
	// still counts it.
	NodeUnavailable string `json:"nodeUnavailable,omitempty"`
}

// Rotation is a change of the KEK id (KEK) behind one KMS key.
type Rotation struct {
	KeyID string `json:"keyID"`
	// From is the key_id every node agreed on before; empty when kmsstate started during the change.
	From string `json:"from,omitempty"`
	To   string `json:"to"`
	// Started is when a node first reported To.
	Started time.Time `json:"started"`
	// Completed is when every node (plugin and kube-apiserver) was seen on To; zero while in progress.
	Completed time.Time `json:"completed,omitempty"`
	// Pending are the nodes not yet seen on To, while in progress.
	Pending []string `json:"pending,omitempty"`
}

func (r Rotation) String() string {
	from := r.From
	if from == "" {
		from = "(unknown)"
	}
	return fmt.Sprintf("key %s: %s -> %s", r.KeyID, from, r.To)
}

// Ignored is an input kmsstate did not use, and why. Ignored inputs are logged and never count as healthy.
type Ignored struct {
	What string `json:"what"`
	Why  string `json:"why"`
}

// ReportRef names a health report by its list-map keys.
type ReportRef struct {
	Node  string `json:"node"`
	KeyID string `json:"keyID"`
}

// State is the result of one evaluation.
type State struct {
	EvaluatedAt time.Time `json:"evaluatedAt"`
	// Nodes and KeyIDs are the expected nodes and keys the state was evaluated for.
	Nodes  []string `json:"nodes"`
	KeyIDs []string `json:"keyIDs"`
	// Plugins has one entry per node and key, sorted by node then key.
	Plugins []Plugin `json:"plugins"`
	// Failures are sorted most severe first. They concern the keys each node runs (Plugin.Pending false) and
	// the apiservers; they make KMSPluginsDegraded.
	Failures []Failure `json:"failures,omitempty"`
	// Pending are the failures of pending plugins (Plugin.Pending), sorted most severe first: a key whose
	// revision has not reached the node. They are never Degraded; Healthy still counts them, since the gate
	// asks about keys before they run.
	Pending []Failure `json:"pending,omitempty"`
	// Rotations in progress.
	Rotations []Rotation `json:"rotations,omitempty"`
	// Completed are the rotations this evaluation saw complete (each is reported exactly once).
	Completed []Rotation `json:"completed,omitempty"`
	// LastCompleted is the latest completed rotation per key id, remembered across evaluations.
	LastCompleted map[string]Rotation `json:"lastCompleted,omitempty"`
	// SettledKEKIDs is, per key id, the KEK id (KEK id) every node last agreed on: the one kube-apiserver
	// records in the values it writes with that key.
	SettledKEKIDs map[string]string `json:"settledKEKIDs,omitempty"`
	// Orphans are reports of nodes or keys that no longer exist, old enough that no live reporter owns them.
	Orphans []ReportRef `json:"orphans,omitempty"`
	Ignored []Ignored   `json:"ignored,omitempty"`
}

// Progressing reports whether plugins are not judged yet, with the reason of KMSPluginsProgressing and a message
// naming them: keys not yet in the revision their node runs and keys whose first report is awaited (KeysPending),
// and nodes whose plugins are silent on purpose (NodeUnavailable, when nothing else is progressing).
func (s *State) Progressing() (bool, string, string) {
	p := s.progress()
	var pending, awaiting, unavailable []string
	for _, pp := range p.pending {
		pending = append(pending, fmt.Sprintf("key %s on node %s (%s)", pp.KeyID, pp.Node, pp.known))
	}
	for _, a := range p.awaiting {
		awaiting = append(awaiting, fmt.Sprintf("key %s on node %s", a.KeyID, a.Node))
	}
	for _, u := range p.unavailable {
		unavailable = append(unavailable, fmt.Sprintf("key %s on node %s (%s)", u.KeyID, u.Node, u.known))
	}
	var parts []string
	if len(pending) > 0 {
		parts = append(parts, "not yet in the revision the node runs, so not judged there: "+strings.Join(capped(pending), ", "))
	}
	if len(awaiting) > 0 {
		parts = append(parts, "running, its first health report awaited: "+strings.Join(capped(awaiting), ", "))
	}
	if len(unavailable) > 0 {
		parts = append(parts, "report missing or stale while the node is down on purpose, so not judged there: "+strings.Join(capped(unavailable), ", "))
	}
	switch {
	case len(parts) == 0:
		return false, "", ""
	case len(pending) == 0 && len(awaiting) == 0:
		return true, ReasonNodeUnavailable, strings.Join(parts, "; ")
	}
	return true, ReasonKeysPending, strings.Join(parts, "; ")
}

// progress is what KMSPluginsProgressing is rendered from (Progressing).
type progress struct {
	// pending are the plugins pending on their node, in the order of Plugins.
	pending []pendingPlugin
	// awaiting are the plugins that run on their node and await their first report there.
	awaiting []ReportRef
	// unavailable are the plugins whose report is missing or stale on a node that is down on purpose, known by
	// why (Plugin.NodeUnavailable).
	unavailable []pendingPlugin
}

// pendingPlugin is a pending plugin and what is known of it on its node: the reason of its failure there
// (State.Pending), else its health.
type pendingPlugin struct {
	ReportRef
	known string
}

func (s *State) progress() progress {
	var p progress
	failed := map[ReportRef]Reason{}
	for _, f := range s.Pending {
		failed[ReportRef{Node: f.Node, KeyID: f.KeyID}] = f.Reason
	}
	for _, pl := range s.Plugins {
		ref := ReportRef{Node: pl.Node, KeyID: pl.KeyID}
		switch {
		case pl.Pending:
			known := string(pl.Health)
			if r, ok := failed[ref]; ok {
				known = string(r)
			}
			p.pending = append(p.pending, pendingPlugin{ReportRef: ref, known: known})
		case pl.AwaitingFirstReport:
			p.awaiting = append(p.awaiting, ref)
		case pl.NodeUnavailable != "":
			p.unavailable = append(p.unavailable, pendingPlugin{ReportRef: ref, known: pl.NodeUnavailable})
		}
	}
	return p
}

// capped keeps the first maxMessageFailures items of a message's list and counts the rest.
func capped(items []string) []string {
	if len(items) > maxMessageFailures {
		return append(items[:maxMessageFailures:maxMessageFailures], fmt.Sprintf("and %d more", len(items)-maxMessageFailures))
	}
	return items
}

// Degraded reports whether any failure is present, with the reason of the most severe one and a message
// naming every failure, grouped by reason.
func (s *State) Degraded() (bool, Reason, string) {
	if len(s.Failures) == 0 {
		return false, ReasonAsExpected, ""
	}
	return true, s.Failures[0].Reason, failureMessage(s.Failures)
}

// maxMessageFailures bounds how many failures a condition message lists, so that a 200-report outage stays
// a readable condition; the count of the rest is given.
const maxMessageFailures = 10

func failureMessage(failures []Failure) string {
	var b strings.Builder
	var last Reason
	for i, f := range failures {
		if i == maxMessageFailures {
			fmt.Fprintf(&b, "; and %d more", len(failures)-i)
			break
		}
		if f.Reason != last {
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%s: ", f.Reason)
			last = f.Reason
		} else {
			b.WriteString(", ")
		}
		b.WriteString(f.String())
	}
	return b.String()
}

func sortFailures(failures []Failure) {
	sort.SliceStable(failures, func(i, j int) bool {
		a, b := failures[i], failures[j]
		if ra, rb := severity.Rank(a.Reason), severity.Rank(b.Reason); ra != rb {
			return ra < rb
		}
		if a.Node != b.Node {
			return a.Node < b.Node
		}
		return a.KeyID < b.KeyID
	})
}
