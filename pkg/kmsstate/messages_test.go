package kmsstate

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestDegradedMessage is the wording of KMSPluginsDegraded: each row renders failures, the typed data Evaluate
// decided, into the whole reason and message an admin reads. The evaluation tests assert the failures.
func TestDegradedMessage(t *testing.T) {
	unreachable := func(node string) Failure {
		return Failure{Reason: ReasonPluginUnreachable, Node: node, KeyID: "1", Detail: "connection refused"}
	}
	var many []Failure
	var listed []string
	for i := range 12 {
		many = append(many, unreachable(fmt.Sprintf("node-%02d", i)))
		if i < maxMessageFailures {
			listed = append(listed, fmt.Sprintf("node node-%02d key 1: connection refused", i))
		}
	}
	scenarios := []struct {
		name        string
		failures    []Failure
		wantReason  Reason
		wantMessage string
	}{
		{name: "no failure", wantReason: ReasonAsExpected},
		{name: "one failure: reason, node, key and detail", failures: []Failure{unreachable("master-1")},
			wantReason: ReasonPluginUnreachable, wantMessage: "PluginUnreachable: node master-1 key 1: connection refused"},
		{name: "failures grouped by reason, the most severe names the condition",
			failures: []Failure{unreachable("master-0"), unreachable("master-1"), {Reason: ReasonAPIServerKMSCheckFailing, Node: "master-1", Detail: "/healthz/kms-providers: [-]kms-providers failed"},
				{Reason: ReasonHealthReportMissing, Node: "master-2", KeyID: "1"}},
			wantReason: ReasonPluginUnreachable,
			wantMessage: "PluginUnreachable: node master-0 key 1: connection refused, node master-1 key 1: connection refused; " +
				"APIServerKMSCheckFailing: node master-1: /healthz/kms-providers: [-]kms-providers failed; HealthReportMissing: node master-2 key 1"},
		{name: "the first ten are named, the rest counted", failures: many,
			wantReason: ReasonPluginUnreachable, wantMessage: "PluginUnreachable: " + strings.Join(listed, ", ") + "; and 2 more"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			state := &State{Failures: s.failures}
			degraded, reason, message := state.Degraded()
			if degraded != (s.failures != nil) || reason != s.wantReason || message != s.wantMessage {
				t.Errorf("Degraded() = %v, %s, %q; want %v, %s, %q", degraded, reason, message, s.failures != nil, s.wantReason, s.wantMessage)
			}
		})
	}
}

// TestProgressingMessage is the wording of KMSPluginsProgressing over the plugins a State names as pending or
// awaiting their first report.
func TestProgressingMessage(t *testing.T) {
	pending := func(node, key string, health PluginHealth) Plugin {
		return Plugin{Node: node, KeyID: key, Health: health, Pending: true}
	}
	awaiting := func(node, key string) Plugin { return Plugin{Node: node, KeyID: key, AwaitingFirstReport: true} }
	var manyPending []Plugin
	var listed []string
	for i := range 11 {
		manyPending = append(manyPending, pending(fmt.Sprintf("node-%02d", i), "2", PluginMissing))
		if i < maxMessageFailures {
			listed = append(listed, fmt.Sprintf("key 2 on node node-%02d (Missing)", i))
		}
	}
	scenarios := []struct {
		name  string
		state State
		want  string
	}{
		{name: "nothing pending or awaited", state: State{Plugins: []Plugin{{Node: "master-0", KeyID: "1", Health: PluginHealthy}}}},
		{name: "pending: its failure there, else its health",
			state: State{
				Plugins: []Plugin{pending("master-0", "2", PluginUnreachable), pending("master-1", "2", PluginHealthy)},
				Pending: []Failure{{Reason: ReasonPluginUnreachable, Node: "master-0", KeyID: "2"}},
			},
			want: "not yet in the revision the node runs, so not judged there: key 2 on node master-0 (PluginUnreachable), key 2 on node master-1 (Healthy)"},
		{name: "pending and awaited",
			state: State{Plugins: []Plugin{pending("master-1", "2", PluginMissing), awaiting("master-0", "2")}},
			want:  "not yet in the revision the node runs, so not judged there: key 2 on node master-1 (Missing); running, its first health report awaited: key 2 on node master-0"},
		{name: "the first ten are named, the rest counted", state: State{Plugins: manyPending},
			want: "not yet in the revision the node runs, so not judged there: " + strings.Join(listed, ", ") + ", and 1 more"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			progressing, reason, message := s.state.Progressing()
			if progressing != (s.want != "") || message != s.want {
				t.Errorf("Progressing() = %v, %q; want %v, %q", progressing, message, s.want != "", s.want)
			}
			if progressing && reason != ReasonKeysPending {
				t.Errorf("Progressing() reason %q, want %q", reason, ReasonKeysPending)
			}
		})
	}
}

// TestMemoryDiscardedMessage is the wording of EventMemoryDiscarded.
func TestMemoryDiscardedMessage(t *testing.T) {
	got := memoryDiscardedMessage(&CorruptMemoryError{Where: "annotation kmsguard.openshift.io/kek-memory of openshift-kube-apiserver-operator/cluster", Err: errors.New("unexpected end of JSON input")})
	want := "the stored KMS KEK id memory in annotation kmsguard.openshift.io/kek-memory of openshift-kube-apiserver-operator/cluster cannot be decoded: " +
		"unexpected end of JSON input; starting afresh: a KEK id rotation completed while no operator ran will not be reported"
	if got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}
