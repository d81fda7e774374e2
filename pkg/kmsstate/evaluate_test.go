package kmsstate

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var t0 = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

const interval = 30 * time.Second

func report(node, key string, status operatorv1.KMSPluginHealthStatus, kek string, age time.Duration) operatorv1.KMSPluginHealthReport {
	r := operatorv1.KMSPluginHealthReport{NodeName: node, KeyID: key, Status: status, RemoteKeyID: kek, LastCheckedTime: metav1.NewTime(t0.Add(-age))}
	if status != operatorv1.KMSPluginHealthStatusHealthy {
		r.Detail = "boom on " + node
	}
	return r
}

func healthy(node, key, kek string) operatorv1.KMSPluginHealthReport {
	return report(node, key, operatorv1.KMSPluginHealthStatusHealthy, kek, 10*time.Second)
}

func observation(reports ...operatorv1.KMSPluginHealthReport) Observation {
	return Observation{Now: t0, Nodes: []string{"master-0", "master-1"}, KeyIDs: []string{"1"}, Providers: map[string]string{"1_secrets": "1"}, Reports: reports}
}

func TestEvaluateReasons(t *testing.T) {
	scenarios := []struct {
		name       string
		obs        Observation
		wantReason Reason // "" means not degraded
		// wantFailures, when set, are the failures KMSPluginsDegraded is rendered from (TestDegradedMessage),
		// most severe first.
		wantFailures []Failure
		wantHealth   map[string]PluginHealth // node -> health of key 1
		wantIgnored  int
		wantOrphans  []ReportRef
	}{
		{
			name:       "all healthy",
			obs:        observation(healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a")),
			wantHealth: map[string]PluginHealth{"master-0": PluginHealthy, "master-1": PluginHealthy},
		},
		{
			name:         "plugin unreachable",
			obs:          observation(healthy("master-0", "1", "kek-a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusError, "", time.Second)),
			wantReason:   ReasonPluginUnreachable,
			wantFailures: []Failure{{Reason: ReasonPluginUnreachable, Node: "master-1", KeyID: "1", Detail: "boom on master-1"}},
			wantHealth:   map[string]PluginHealth{"master-0": PluginHealthy, "master-1": PluginUnreachable},
		},
		{
			name:       "plugin unhealthy",
			obs:        observation(healthy("master-0", "1", "kek-a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusUnhealthy, "kek-a", time.Second)),
			wantReason: ReasonPluginUnhealthy,
			wantHealth: map[string]PluginHealth{"master-1": PluginUnhealthy},
		},
		{
			name:       "report exactly 4 intervals old is still fresh",
			obs:        observation(healthy("master-0", "1", "kek-a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusHealthy, "kek-a", 4*interval)),
			wantHealth: map[string]PluginHealth{"master-1": PluginHealthy},
		},
		{
			name:       "report just over 4 intervals old is stale",
			obs:        observation(healthy("master-0", "1", "kek-a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusHealthy, "kek-a", 4*interval+time.Nanosecond)),
			wantReason: ReasonHealthReportStale,
			// The limit is four report intervals.
			wantFailures: []Failure{{Reason: ReasonHealthReportStale, Node: "master-1", KeyID: "1", Detail: "last report 2m0s ago, limit 2m0s"}},
			wantHealth:   map[string]PluginHealth{"master-1": PluginStale},
		},
		{
			name:         "missing report",
			obs:          observation(healthy("master-0", "1", "kek-a")),
			wantReason:   ReasonHealthReportMissing,
			wantFailures: []Failure{{Reason: ReasonHealthReportMissing, Node: "master-1", KeyID: "1"}},
			wantHealth:   map[string]PluginHealth{"master-1": PluginMissing},
		},
		{
			name: "most severe reason wins, all are listed",
			obs: observation(
				report("master-0", "1", operatorv1.KMSPluginHealthStatusUnhealthy, "", time.Second),
				report("master-1", "1", operatorv1.KMSPluginHealthStatusError, "", time.Second)),
			wantReason: ReasonPluginUnreachable,
			wantFailures: []Failure{
				{Reason: ReasonPluginUnreachable, Node: "master-1", KeyID: "1", Detail: "boom on master-1"},
				{Reason: ReasonPluginUnhealthy, Node: "master-0", KeyID: "1", Detail: "boom on master-0"},
			},
		},
		{
			name: "apiserver KMS check failing",
			obs: func() Observation {
				o := observation(healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a"))
				o.APIServers = []APIServerView{{NodeName: "master-0", CheckedAt: t0, KMSHealthz: &HealthzResult{OK: false, Detail: "[-]kms-providers failed"}}}
				return o
			}(),
			wantReason:   ReasonAPIServerKMSCheckFailing,
			wantFailures: []Failure{{Reason: ReasonAPIServerKMSCheckFailing, Node: "master-0", Detail: "/healthz/kms-providers: [-]kms-providers failed"}},
		},
		{
			name: "unreachable apiserver is ignored, not a failure",
			obs: func() Observation {
				o := observation(healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a"))
				o.APIServers = []APIServerView{{NodeName: "master-0", Err: "connection refused"}}
				return o
			}(),
			wantIgnored: 1,
		},
		{
			name: "a health answer counts even when /metrics could not be scraped",
			obs: func() Observation {
				o := observation(healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a"))
				o.APIServers = []APIServerView{{NodeName: "master-1", Err: "metrics: HTTP 403", KMSHealthz: &HealthzResult{Detail: "kms-provider-0: timeout"}}}
				return o
			}(),
			wantReason:  ReasonAPIServerKMSCheckFailing,
			wantIgnored: 1,
		},
		{
			name: "bad reports are ignored and never healthy",
			obs: observation(
				healthy("master-0", "1", ""),                        // healthy without a key id
				healthy("master-1", "1", strings.Repeat("k", 1025)), // over-long key id
				report("master-0", "1", "Bogus", "kek-a", time.Second),
				report("master-1", "1", operatorv1.KMSPluginHealthStatusHealthy, "kek-a", -2*interval), // from the future
				healthy("", "1", "kek-a"),
			),
			wantReason:  ReasonHealthReportMissing,
			wantHealth:  map[string]PluginHealth{"master-0": PluginMissing, "master-1": PluginMissing},
			wantIgnored: 5,
		},
		{
			name: "a little clock skew is tolerated",
			obs:  observation(healthy("master-0", "1", "kek-a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusHealthy, "kek-a", -interval/2)),
		},
		{
			name: "unknown nodes and keys are ignored; stale ones are orphans",
			obs: observation(healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a"),
				healthy("master-2", "1", "kek-a"), // unknown node, fresh: a live reporter, not an orphan
				report("master-3", "1", operatorv1.KMSPluginHealthStatusHealthy, "kek-a", time.Hour),
				report("master-0", "7", operatorv1.KMSPluginHealthStatusError, "", time.Hour)),
			wantIgnored: 3,
			wantOrphans: []ReportRef{{Node: "master-0", KeyID: "7"}, {Node: "master-3", KeyID: "1"}},
		},
		{
			name: "duplicate reports: the newest counts",
			obs: observation(healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a"),
				report("master-1", "1", operatorv1.KMSPluginHealthStatusError, "", time.Minute)),
			wantHealth:  map[string]PluginHealth{"master-1": PluginHealthy},
			wantIgnored: 1,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			state, _ := Evaluate(Config{ReportInterval: interval}, ranFor(s.obs, time.Hour), s.obs)
			degraded, reason, message := state.Degraded()
			if s.wantReason == "" {
				if degraded {
					t.Fatalf("want not degraded, got %s: %s", reason, message)
				}
			} else if !degraded || reason != s.wantReason {
				t.Fatalf("want reason %s, got degraded=%v %s: %s", s.wantReason, degraded, reason, message)
			}
			if s.wantFailures != nil && !reflect.DeepEqual(state.Failures, s.wantFailures) {
				t.Errorf("failures %#v, want %#v", state.Failures, s.wantFailures)
			}
			for node, want := range s.wantHealth {
				if got := pluginOf(t, state, node, "1").Health; got != want {
					t.Errorf("node %s: health %s, want %s", node, got, want)
				}
			}
			if len(state.Ignored) != s.wantIgnored {
				t.Errorf("ignored %d inputs, want %d: %+v", len(state.Ignored), s.wantIgnored, state.Ignored)
			}
			if !equalRefs(state.Orphans, s.wantOrphans) {
				t.Errorf("orphans %v, want %v", state.Orphans, s.wantOrphans)
			}
		})
	}
}

func TestEvaluateMetricGrowth(t *testing.T) {
	sample := func(decrypt, encryptErrors float64) *MetricsSample {
		return &MetricsSample{DecryptErrors: decrypt, KMSCallErrors: map[KMSCall]float64{{Provider: "1_secrets", Method: "Encrypt"}: encryptErrors}}
	}
	scenarios := []struct {
		name       string
		prev, cur  *MetricsSample
		wantReason Reason
		wantKeyID  string
	}{
		{name: "first sample never counts as growth", cur: sample(5, 5)},
		{name: "unchanged counters", prev: sample(5, 5), cur: sample(5, 5)},
		{name: "decrypt errors grow", prev: sample(5, 5), cur: sample(7, 5), wantReason: ReasonDecryptFailing},
		{name: "counter reset by a restart, with new errors", prev: sample(50, 5), cur: sample(2, 5), wantReason: ReasonDecryptFailing},
		{name: "KMS call errors grow, attributed to the key", prev: sample(5, 5), cur: sample(5, 6), wantReason: ReasonAPIServerKMSCheckFailing, wantKeyID: "1"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			var memory Memory
			base := observation(healthy("master-0", "1", "kek-a"), healthy("master-1", "1", "kek-a"))
			if s.prev != nil {
				o := base
				o.APIServers = []APIServerView{{NodeName: "master-0", Metrics: s.prev}}
				_, memory = Evaluate(Config{}, memory, o)
			}
			o := base
			o.APIServers = []APIServerView{{NodeName: "master-0", Metrics: s.cur}}
			state, _ := Evaluate(Config{}, memory, o)
			degraded, reason, message := state.Degraded()
			if s.wantReason == "" {
				if degraded {
					t.Fatalf("want not degraded, got %s: %s", reason, message)
				}
				return
			}
			if reason != s.wantReason || state.Failures[0].KeyID != s.wantKeyID {
				t.Fatalf("want %s for key %q, got %+v", s.wantReason, s.wantKeyID, state.Failures)
			}
		})
	}
}

func TestEvaluateRotation(t *testing.T) {
	apiserverOn := func(node, kek string) APIServerView {
		return APIServerView{NodeName: node, Metrics: &MetricsSample{KeyIDHashes: map[string]string{"1_secrets": KEKIDHash(kek)}}}
	}
	type step struct {
		after      time.Duration // since t0
		reports    []operatorv1.KMSPluginHealthReport
		apiservers []APIServerView
		// expectations
		rotating     string // "from->to" or ""
		pending      []string
		completed    string // "from->to" or ""
		wantMismatch bool
	}
	scenarios := []struct {
		name  string
		steps []step
	}{
		{
			name: "first sight settles without a rotation",
			steps: []step{
				{reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "a"), healthy("master-1", "1", "a")}},
			},
		},
		{
			name: "rotation starts on the first node and completes when all report it",
			steps: []step{
				{reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "a"), healthy("master-1", "1", "a")}},
				{after: time.Minute, reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "b"), healthy("master-1", "1", "a")}, rotating: "a->b", pending: []string{"master-1"}},
				{after: 2 * time.Minute, reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "b"), healthy("master-1", "1", "b")}, completed: "a->b"},
				{after: 3 * time.Minute, reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "b"), healthy("master-1", "1", "b")}},
			},
		},
		{
			name: "an unhealthy node keeps the rotation pending",
			steps: []step{
				{reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "a"), healthy("master-1", "1", "a")}},
				{after: time.Minute, reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "b"), report("master-1", "1", operatorv1.KMSPluginHealthStatusError, "", 0)}, rotating: "a->b", pending: []string{"master-1"}},
				{after: 2 * time.Minute, reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "b"), healthy("master-1", "1", "b")}, completed: "a->b"},
			},
		},
		{
			name: "an apiserver still on the old key_id keeps the rotation pending",
			steps: []step{
				{reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "a"), healthy("master-1", "1", "a")}, apiservers: []APIServerView{apiserverOn("master-0", "a")}},
				{after: time.Minute, reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "b"), healthy("master-1", "1", "b")}, apiservers: []APIServerView{apiserverOn("master-0", "a")}, rotating: "a->b", pending: []string{"master-0"}},
				{after: 2 * time.Minute, reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "b"), healthy("master-1", "1", "b")}, apiservers: []APIServerView{apiserverOn("master-0", "b")}, completed: "a->b"},
			},
		},
		{
			name: "disagreement beyond the grace period is a KEKIDMismatch",
			steps: []step{
				{reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "a"), healthy("master-1", "1", "a")}},
				{after: time.Minute, reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "b"), healthy("master-1", "1", "a")}, rotating: "a->b", pending: []string{"master-1"}},
				{after: 6 * time.Minute, reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "b"), healthy("master-1", "1", "a")}, rotating: "a->b", pending: []string{"master-1"}},
				{after: 6*time.Minute + time.Second, reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "b"), healthy("master-1", "1", "a")}, rotating: "a->b", pending: []string{"master-1"}, wantMismatch: true},
			},
		},
		{
			name: "started during a rotation: completes with an unknown origin",
			steps: []step{
				{reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "b"), healthy("master-1", "1", "a")}, rotating: "->b", pending: []string{"master-1"}},
				{after: time.Minute, reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "b"), healthy("master-1", "1", "b")}, completed: "->b"},
			},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			var memory Memory
			for i, st := range s.steps {
				obs := observation()
				obs.Now = t0.Add(st.after)
				for _, r := range st.reports {
					r.LastCheckedTime = metav1.NewTime(obs.Now.Add(-5 * time.Second))
					obs.Reports = append(obs.Reports, r)
				}
				obs.APIServers = st.apiservers
				var state State
				state, memory = Evaluate(Config{ReportInterval: interval}, memory, obs)

				var rotating, completed string
				var pending []string
				if len(state.Rotations) > 0 {
					rotating = state.Rotations[0].From + "->" + state.Rotations[0].To
					pending = state.Rotations[0].Pending
				}
				if len(state.Completed) > 0 {
					completed = state.Completed[0].From + "->" + state.Completed[0].To
					if r, ok := state.LatestRotation("1"); !ok || r.To != state.Completed[0].To {
						t.Errorf("step %d: LatestRotation %+v does not match the completed rotation", i, r)
					}
				}
				if rotating != st.rotating || completed != st.completed || strings.Join(pending, ",") != strings.Join(st.pending, ",") {
					t.Fatalf("step %d: rotating %q pending %v completed %q, want %q %v %q", i, rotating, pending, completed, st.rotating, st.pending, st.completed)
				}
				mismatch := false
				for _, f := range state.Failures {
					mismatch = mismatch || f.Reason == ReasonKEKIDMismatch
				}
				if mismatch != st.wantMismatch {
					t.Fatalf("step %d: KEKIDMismatch %v, want %v: %+v", i, mismatch, st.wantMismatch, state.Failures)
				}
			}
		})
	}
}

func TestHealthy(t *testing.T) {
	state, _ := Evaluate(Config{}, Memory{}, Observation{
		Now: t0, Nodes: []string{"master-0", "master-1"}, KeyIDs: []string{"1", "2"},
		Reports: []operatorv1.KMSPluginHealthReport{
			healthy("master-0", "1", "a"), healthy("master-1", "1", "a"),
			healthy("master-0", "2", "x"), report("master-1", "2", operatorv1.KMSPluginHealthStatusError, "", time.Second),
		},
		APIServers: []APIServerView{{NodeName: "master-0", KMSHealthz: &HealthzResult{Detail: "key 2 broken"}}},
	})
	scenarios := []struct {
		name       string
		nodes      []string
		keys       []string
		wantReason Reason // "" = healthy
	}{
		{name: "key 1 everywhere", nodes: []string{"master-0", "master-1"}, keys: []string{"1"}},
		{name: "key 2 everywhere", nodes: []string{"master-0", "master-1"}, keys: []string{"2"}, wantReason: ReasonPluginUnreachable},
		{name: "key 2 on the good node", nodes: []string{"master-0"}, keys: []string{"2"}},
		{name: "a key nobody watches", nodes: []string{"master-0"}, keys: []string{"9"}, wantReason: ReasonHealthReportMissing},
		{name: "a node nobody watches", nodes: []string{"master-9"}, keys: []string{"1"}, wantReason: ReasonHealthReportMissing},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			err := state.Healthy(s.nodes, s.keys)
			if s.wantReason == "" {
				if err != nil {
					t.Fatalf("want healthy, got %v", err)
				}
				return
			}
			var unhealthy *UnhealthyError
			if !errors.As(err, &unhealthy) || unhealthy.Reason() != s.wantReason {
				t.Fatalf("want an UnhealthyError with reason %s, got %v", s.wantReason, err)
			}
		})
	}
}

func pluginOf(t *testing.T, state State, node, key string) Plugin {
	t.Helper()
	for _, p := range state.Plugins {
		if p.Node == node && p.KeyID == key {
			return p
		}
	}
	t.Fatalf("no plugin state for node %s key %s", node, key)
	return Plugin{}
}

func equalRefs(a, b []ReportRef) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestEvaluatePluginCauseBeforeAPIServerSymptom: when a plugin is down, the apiserver's KMS check fails
// because of it; the condition names the plugin, which is what the admin must fix.
func TestEvaluatePluginCauseBeforeAPIServerSymptom(t *testing.T) {
	obs := observation(healthy("master-0", "1", "a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusError, "a", time.Second))
	obs.APIServers = []APIServerView{{NodeName: "master-1", KMSHealthz: &HealthzResult{Detail: "[-]kms-providers failed"}}}
	state, _ := Evaluate(Config{}, Memory{}, obs)
	_, reason, message := state.Degraded()
	var reasons []Reason
	for _, f := range state.Failures {
		reasons = append(reasons, f.Reason)
	}
	if want := []Reason{ReasonPluginUnreachable, ReasonAPIServerKMSCheckFailing}; reason != ReasonPluginUnreachable || !reflect.DeepEqual(reasons, want) {
		t.Errorf("got %s (failures %v): %s; want PluginUnreachable, with the apiserver's failing check listed too (%v)", reason, reasons, message, want)
	}
}

// ranFor is a Memory in which every node of obs has run every key of obs for d: a report missing now is missing,
// not awaited.
func ranFor(obs Observation, d time.Duration) Memory {
	m := Memory{runningSince: map[ReportRef]time.Time{}}
	for _, node := range obs.Nodes {
		for _, key := range obs.KeyIDs {
			m.runningSince[ReportRef{Node: node, KeyID: key}] = obs.Now.Add(-d)
		}
	}
	return m
}

// TestEvaluateAwaitsAFirstReport: a key a node has just started to run has no report until its new pod's reporter
// publishes (library-go's probes as its pod starts, while the apiserver restarts, then 30 s later): for up to
// the staleness limit that is progress, not a failure; the gate and RunningHealthy still count it; past the limit
// it is HealthReportMissing. A report ends the wait, and a key the node stops running forgets it.
func TestEvaluateAwaitsAFirstReport(t *testing.T) {
	config := Config{ReportInterval: interval}
	limit := config.StaleAfter()
	at := func(d time.Duration, running map[string][]string, reports ...operatorv1.KMSPluginHealthReport) Observation {
		obs := observation(reports...)
		obs.Now = t0.Add(d)
		obs.Running = running
		return obs
	}
	both := map[string][]string{"master-0": {"1"}, "master-1": {"1"}}
	onlyMaster0 := map[string][]string{"master-0": {"1"}}
	master0 := report("master-0", "1", operatorv1.KMSPluginHealthStatusHealthy, "kek-a", 0)

	steps := []struct {
		name         string
		obs          Observation
		wantDegraded Reason // "" means not degraded
		wantAwaiting bool
	}{
		{name: "master-1 starts to run the key: its report is awaited", obs: at(0, both, master0), wantAwaiting: true},
		{name: "still awaited just inside the limit", obs: at(limit-time.Second, both, master0), wantAwaiting: true},
		{name: "past the limit it is missing", obs: at(limit, both, master0), wantDegraded: ReasonHealthReportMissing},
		{name: "the node stops running the key: pending, not judged", obs: at(limit+time.Second, onlyMaster0, master0)},
		{name: "it runs the key again: awaited anew", obs: at(limit+2*time.Second, both, master0), wantAwaiting: true},
	}
	memory := Memory{}
	for _, s := range steps {
		// Reports are fresh at each step's time.
		for i := range s.obs.Reports {
			s.obs.Reports[i].LastCheckedTime.Time = s.obs.Now
		}
		var state State
		state, memory = Evaluate(config, memory, s.obs)
		degraded, reason, message := state.Degraded()
		if s.wantDegraded == "" && degraded {
			t.Errorf("%s: Degraded %s: %s", s.name, reason, message)
		}
		if s.wantDegraded != "" && reason != s.wantDegraded {
			t.Errorf("%s: Degraded reason %q, want %q (%s)", s.name, reason, s.wantDegraded, message)
		}
		if got := pluginOf(t, state, "master-1", "1").AwaitingFirstReport; got != s.wantAwaiting {
			t.Errorf("%s: AwaitingFirstReport %t, want %t", s.name, got, s.wantAwaiting)
		}
		if s.wantAwaiting {
			if progressing, reason, _ := state.Progressing(); reason != ReasonKeysPending || !progressing || !reflect.DeepEqual(state.progress(), progress{awaiting: []ReportRef{{Node: "master-1", KeyID: "1"}}}) {
				t.Errorf("%s: Progressing %t on %+v, want the awaited report of key 1 on master-1", s.name, progressing, state.progress())
			}
			checkReason(t, s.name+": Healthy", state.Healthy(state.Nodes, []string{"1"}), ReasonHealthReportMissing)
			checkReason(t, s.name+": RunningHealthy", state.RunningHealthy(), ReasonHealthReportMissing)
		}
	}

	// The report comes: healthy, nothing awaited.
	obs := at(limit+3*time.Second, both, master0, report("master-1", "1", operatorv1.KMSPluginHealthStatusHealthy, "kek-a", 0))
	for i := range obs.Reports {
		obs.Reports[i].LastCheckedTime.Time = obs.Now
	}
	state, _ := Evaluate(config, memory, obs)
	if err := state.RunningHealthy(); err != nil {
		t.Errorf("with the report: RunningHealthy %v", err)
	}
	if p := pluginOf(t, state, "master-1", "1"); p.AwaitingFirstReport || p.Health != PluginHealthy {
		t.Errorf("with the report: %+v", p)
	}
}
