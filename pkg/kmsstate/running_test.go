package kmsstate

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
)

// TestEvaluateExpectsWhatEachNodeRuns: a key is judged on a node only when the revision the node runs has it.
// Everywhere else it is pending: known to Healthy (the gate reads it), never a failure of KMSPluginsDegraded.
func TestEvaluateExpectsWhatEachNodeRuns(t *testing.T) {
	twoKeys := func(running map[string][]string, reports ...operatorv1.KMSPluginHealthReport) Observation {
		obs := observation(reports...)
		obs.KeyIDs, obs.Running = []string{"1", "2"}, running
		return obs
	}
	rolledToMaster0 := map[string][]string{"master-0": {"1", "2"}, "master-1": {"1"}}
	scenarios := []struct {
		name string
		obs  Observation
		// wantDegraded is the reason of KMSPluginsDegraded, "" for False.
		wantDegraded Reason
		wantPending  []string // "node/key" of the pending plugins
		// wantProgress are the pending plugins KMSPluginsProgressing names, with what is known of them (the reason
		// of their failure, else their health); nil for False.
		wantProgress []pendingPlugin
		// healthyKey2 is what Healthy says about key 2 on both nodes: "" for healthy, else the reason.
		healthyKey2 Reason
		// runningHealthy is the reason of RunningHealthy, "" for healthy.
		runningHealthy Reason
	}{
		{
			name: "a candidate key no node runs yet, with no report: pending everywhere, not Degraded",
			obs: twoKeys(map[string][]string{"master-0": {"1"}, "master-1": {"1"}},
				healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a")),
			wantPending:  []string{"master-0/2", "master-1/2"},
			wantProgress: []pendingPlugin{{ReportRef: ReportRef{Node: "master-0", KeyID: "2"}, known: "HealthReportMissing"}, {ReportRef: ReportRef{Node: "master-1", KeyID: "2"}, known: "HealthReportMissing"}},
			healthyKey2:  ReasonHealthReportMissing,
		},
		{
			name: "the new key's revision reached master-0 only: judged there, pending on master-1",
			obs: twoKeys(rolledToMaster0,
				healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a"), healthy("master-0", "2", "kek-b")),
			wantPending:  []string{"master-1/2"},
			wantProgress: []pendingPlugin{{ReportRef: ReportRef{Node: "master-1", KeyID: "2"}, known: "HealthReportMissing"}},
			healthyKey2:  ReasonHealthReportMissing,
		},
		{
			name: "a pending plugin that fails is known to the gate, and still not Degraded",
			obs: twoKeys(map[string][]string{"master-0": {"1"}, "master-1": {"1"}},
				healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a"),
				report("master-0", "2", operatorv1.KMSPluginHealthStatusError, "", 0), healthy("master-1", "2", "kek-b")),
			wantPending:  []string{"master-0/2", "master-1/2"},
			wantProgress: []pendingPlugin{{ReportRef: ReportRef{Node: "master-0", KeyID: "2"}, known: "PluginUnreachable"}, {ReportRef: ReportRef{Node: "master-1", KeyID: "2"}, known: "Healthy"}},
			healthyKey2:  ReasonPluginUnreachable,
		},
		{
			name: "a key a node runs is judged as always",
			obs: twoKeys(rolledToMaster0,
				healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a")),
			wantDegraded:   ReasonHealthReportMissing,
			wantPending:    []string{"master-1/2"},
			wantProgress:   []pendingPlugin{{ReportRef: ReportRef{Node: "master-1", KeyID: "2"}, known: "HealthReportMissing"}},
			healthyKey2:    ReasonHealthReportMissing,
			runningHealthy: ReasonHealthReportMissing,
		},
		{
			name: "a node that runs no revision yet runs no plugin",
			obs: twoKeys(map[string][]string{"master-0": {"1", "2"}},
				healthy("master-0", "1", "kek-a"), healthy("master-0", "2", "kek-b")),
			wantPending:  []string{"master-1/1", "master-1/2"},
			wantProgress: []pendingPlugin{{ReportRef: ReportRef{Node: "master-1", KeyID: "1"}, known: "HealthReportMissing"}, {ReportRef: ReportRef{Node: "master-1", KeyID: "2"}, known: "HealthReportMissing"}},
			healthyKey2:  ReasonHealthReportMissing,
		},
		{
			name: "every key runs everywhere: nothing pending",
			obs: twoKeys(map[string][]string{"master-0": {"1", "2"}, "master-1": {"1", "2"}},
				healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a"), healthy("master-0", "2", "kek-b"), healthy("master-1", "2", "kek-b")),
		},
		{
			name:         "without Running every key is expected on every node",
			obs:          twoKeys(nil, healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a")),
			wantDegraded: ReasonHealthReportMissing, healthyKey2: ReasonHealthReportMissing, runningHealthy: ReasonHealthReportMissing,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			state, _ := Evaluate(Config{ReportInterval: interval}, ranFor(s.obs, time.Hour), s.obs)
			degraded, reason, msg := state.Degraded()
			if s.wantDegraded == "" && degraded {
				t.Errorf("Degraded %s: %s", reason, msg)
			}
			if s.wantDegraded != "" && reason != s.wantDegraded {
				t.Errorf("Degraded reason %q, want %q (%s)", reason, s.wantDegraded, msg)
			}
			var pending []string
			for _, p := range state.Plugins {
				if p.Pending {
					pending = append(pending, p.Node+"/"+p.KeyID)
				}
			}
			if strings.Join(pending, ",") != strings.Join(s.wantPending, ",") {
				t.Errorf("pending plugins %v, want %v", pending, s.wantPending)
			}
			progressing, _, message := state.Progressing()
			if progressing != (s.wantProgress != nil) {
				t.Errorf("Progressing %v (%q), want %v", progressing, message, s.wantProgress != nil)
			}
			if got := state.progress(); !reflect.DeepEqual(got.pending, s.wantProgress) || len(got.awaiting) != 0 {
				t.Errorf("progress %+v, want pending %+v", got, s.wantProgress)
			}
			checkReason(t, "Healthy(key 2)", state.Healthy(state.Nodes, []string{"2"}), s.healthyKey2)
			checkReason(t, "RunningHealthy", state.RunningHealthy(), s.runningHealthy)
		})
	}
}

func checkReason(t *testing.T, what string, err error, want Reason) {
	t.Helper()
	var unhealthy *UnhealthyError
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v, want healthy", what, err)
	case want != "" && !errors.As(err, &unhealthy):
		t.Errorf("%s: %v, want %s", what, err, want)
	case want != "" && unhealthy.Reason() != want:
		t.Errorf("%s: reason %s, want %s (%v)", what, unhealthy.Reason(), want, err)
	}
}
