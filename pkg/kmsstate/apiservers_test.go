package kmsstate

import (
	"testing"
	"time"
)

// TestMetricGrowthHoldsUntilTheNextRead: the apiserver prober returns the same sample, with the read before it as
// Previous, until its next read of /metrics; the growth it shows is a failure at every evaluation until then, and
// gone after a read that shows none.
func TestMetricGrowthHoldsUntilTheNextRead(t *testing.T) {
	t0 := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	config := Config{ReportInterval: 30 * time.Second}
	first := &MetricsSample{DecryptErrors: 2, ScrapedAt: t0}
	second := &MetricsSample{DecryptErrors: 5, ScrapedAt: t0.Add(30 * time.Second), Previous: first}
	third := &MetricsSample{DecryptErrors: 5, ScrapedAt: t0.Add(time.Minute), Previous: &MetricsSample{DecryptErrors: 5, ScrapedAt: second.ScrapedAt}}

	var memory Memory
	for i, s := range []struct {
		at         time.Duration
		sample     *MetricsSample
		wantFailed bool
	}{
		{at: 0, sample: first},
		{at: 30 * time.Second, sample: second, wantFailed: true},
		// Syncs between two reads see the same sample again, and the same growth.
		{at: 35 * time.Second, sample: second, wantFailed: true},
		{at: 50 * time.Second, sample: second, wantFailed: true},
		// A sync whose probe could not read keeps the last failure out: nothing new is known.
		{at: 55 * time.Second},
		{at: time.Minute, sample: third},
		{at: 70 * time.Second, sample: third},
	} {
		now := t0.Add(s.at)
		obs := Observation{Now: now, Nodes: []string{"master-0"}, KeyIDs: []string{"1"}, Providers: map[string]string{"p": "1"},
			APIServers: []APIServerView{{NodeName: "master-0", CheckedAt: now, Metrics: s.sample}}}
		var state State
		state, memory = Evaluate(config, memory, obs)
		failed := false
		for _, f := range state.Failures {
			if f.Reason == ReasonDecryptFailing {
				failed = true
				if f.Detail != "3 failed reads of KMS-encrypted data since the last check" {
					t.Errorf("step %d: detail %q, want the growth of the read (3)", i, f.Detail)
				}
			}
		}
		if failed != s.wantFailed {
			t.Errorf("step %d at +%s: DecryptFailing %v, want %v (failures %v)", i, s.at, failed, s.wantFailed, state.Failures)
		}
	}
}

// TestKMSFaultOfAFailure: a kube-apiserver's own failed calls to a key's provider show that key failing; its
// /healthz/kms-providers, which names no key, does not; nor does what only says that nothing is known.
func TestKMSFaultOfAFailure(t *testing.T) {
	for _, s := range []struct {
		failure Failure
		want    bool
	}{
		{Failure{Reason: ReasonPluginUnreachable, Node: "master-0", KeyID: "2"}, true},
		{Failure{Reason: ReasonPluginUnhealthy, Node: "master-0", KeyID: "2"}, true},
		{Failure{Reason: ReasonDecryptFailing, Node: "master-0", KeyID: "2"}, true},
		{Failure{Reason: ReasonAPIServerKMSCheckFailing, Node: "master-0", KeyID: "2"}, true},
		{Failure{Reason: ReasonAPIServerKMSCheckFailing, Node: "master-0"}, false},
		{Failure{Reason: ReasonHealthReportStale, Node: "master-0", KeyID: "2"}, false},
		{Failure{Reason: ReasonHealthReportMissing, Node: "master-0", KeyID: "2"}, false},
		{Failure{Reason: ReasonKEKIDMismatch, Node: "master-0", KeyID: "2"}, false},
	} {
		if got := s.failure.KMSFault(); got != s.want {
			t.Errorf("%s (key %q): KMSFault %t, want %t", s.failure.Reason, s.failure.KeyID, got, s.want)
		}
	}
}
