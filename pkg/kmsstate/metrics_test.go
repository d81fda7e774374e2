package kmsstate

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/component-base/metrics/testutil"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/conventionstest"
	"github.com/kmsguard/kmsguard/internal/metricstest"
)

// newMetricsTestController is newTestController with an instance name of the test's own: the tests of the package
// share the legacy registry, and each reads back only its own component's series (metricstest.Gatherer).
func newMetricsTestController(t *testing.T, opts Options) *Controller {
	t.Helper()
	c, err := NewController(t.Name(), opts)
	if err != nil {
		t.Fatal(err)
	}
	conventionstest.ExpectRegisteredReasonsAtEnd(t, opts.OperatorClient, ConditionReasons())
	return c
}

const (
	healthyMetric    = "kmsguard_kms_plugin_healthy"
	stateMetric      = "kmsguard_kms_plugin_state"
	lastReportMetric = "kmsguard_kms_plugin_last_report_timestamp_seconds"
)

var metricsHeader = map[string]string{
	healthyMetric: `# HELP kmsguard_kms_plugin_healthy [ALPHA] 1 when the KMS plugin for a key on a node is healthy with a fresh report, 0 otherwise.
# TYPE kmsguard_kms_plugin_healthy gauge
`,
	stateMetric: `# HELP kmsguard_kms_plugin_state [ALPHA] 1 for the state of the KMS plugin for a key on a node (Healthy, Unhealthy, Unreachable, Stale, Missing), 0 for the other states.
# TYPE kmsguard_kms_plugin_state gauge
`,
	lastReportMetric: `# HELP kmsguard_kms_plugin_last_report_timestamp_seconds [ALPHA] Unix time at which the reporter last checked the KMS plugin for a key on a node.
# TYPE kmsguard_kms_plugin_last_report_timestamp_seconds gauge
`,
}

// wantPluginMetrics is the exposition of the plugin metrics for plugins, in the registry's order (by node, then
// key; states sorted by name).
func wantPluginMetrics(component string, plugins ...Plugin) string {
	var healthy, state, last strings.Builder
	for _, p := range plugins {
		labels := fmt.Sprintf(`component=%q,key_id=%q,node=%q`, component, p.KeyID, p.Node)
		fmt.Fprintf(&healthy, "%s{%s} %v\n", healthyMetric, labels, oneIf(p.Health == PluginHealthy))
		for _, s := range []PluginHealth{PluginHealthy, PluginMissing, PluginStale, PluginUnhealthy, PluginUnreachable} {
			fmt.Fprintf(&state, "%s{%s,state=%q} %v\n", stateMetric, labels, s, oneIf(p.Health == s))
		}
		if !p.LastChecked.IsZero() {
			fmt.Fprintf(&last, "%s{%s} %v\n", lastReportMetric, labels, float64(p.LastChecked.Unix()))
		}
	}
	out := metricsHeader[healthyMetric] + healthy.String() + metricsHeader[stateMetric] + state.String()
	if last.Len() > 0 {
		out += metricsHeader[lastReportMetric] + last.String()
	}
	return out
}

// TestPluginMetricsFollowEachState sets the metrics from a sequence of states of two plugins and reads them back
// from the registry after each: one healthy series per plugin whose value flips without the series changing,
// all five state series with the 1 on the current state, and the time of the last report.
func TestPluginMetricsFollowEachState(t *testing.T) {
	component := t.Name()
	m := newComponentMetrics(component)
	t0 := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	plugin := func(node string, health PluginHealth, lastChecked time.Duration) Plugin {
		p := Plugin{Node: node, KeyID: "1", Health: health}
		if lastChecked >= 0 {
			p.LastChecked = t0.Add(lastChecked)
		}
		return p
	}
	healthySeries := m.pluginHealthy.WithLabelValues(component, "master-0", "1")

	for i, plugins := range [][]Plugin{
		{plugin("master-0", PluginMissing, -1), plugin("master-1", PluginHealthy, 0)},
		{plugin("master-0", PluginHealthy, 30*time.Second), plugin("master-1", PluginHealthy, 30*time.Second)},
		{plugin("master-0", PluginUnhealthy, time.Minute), plugin("master-1", PluginHealthy, time.Minute)},
		{plugin("master-0", PluginUnreachable, 90*time.Second), plugin("master-1", PluginHealthy, 90*time.Second)},
		{plugin("master-0", PluginStale, 90*time.Second), plugin("master-1", PluginHealthy, 5*time.Minute)},
		{plugin("master-0", PluginHealthy, 6*time.Minute), plugin("master-1", PluginHealthy, 6*time.Minute)},
		// master-1 left the control plane: its series go.
		{plugin("master-0", PluginHealthy, 7*time.Minute)},
	} {
		m.update(&State{Plugins: plugins}, t0)
		if err := testutil.GatherAndCompare(metricstest.Gatherer(component), strings.NewReader(wantPluginMetrics(component, plugins...)),
			healthyMetric, stateMetric, lastReportMetric); err != nil {
			t.Errorf("step %d (%s):\n%v", i, plugins[0].Health, err)
		}
		// The series is the same object throughout: never deleted and made again, which would restart the
		// "for:" timer of an alert on it and could be missed by a scrape in between.
		if got := m.pluginHealthy.WithLabelValues(component, "master-0", "1"); got != healthySeries && i > 0 {
			t.Errorf("step %d: the healthy series of master-0 was replaced", i)
		}
	}

	// A plugin that stops having reports loses its timestamp, not its state series.
	missing := []Plugin{plugin("master-0", PluginMissing, -1)}
	m.update(&State{Plugins: missing}, t0)
	if err := testutil.GatherAndCompare(metricstest.Gatherer(component), strings.NewReader(wantPluginMetrics(component, missing...)),
		healthyMetric, stateMetric, lastReportMetric); err != nil {
		t.Error(err)
	}

	// Nothing evaluated: nothing exported.
	m.update(&State{}, t0)
	if err := testutil.GatherAndCompare(metricstest.Gatherer(component), strings.NewReader(""),
		healthyMetric, stateMetric, lastReportMetric); err != nil {
		t.Error(err)
	}
}

// TestPendingPluginsHaveNoSeries: a plugin whose revision has not reached its node exports nothing, so that no
// alert pages for a rollout; once the node runs it, its series appear. A plugin of a node that is down on purpose
// exports nothing either.
func TestPendingPluginsHaveNoSeries(t *testing.T) {
	component := t.Name()
	m := newComponentMetrics(component)
	t0 := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	running := Plugin{Node: "master-0", KeyID: "1", Health: PluginHealthy, LastChecked: t0}
	pending := Plugin{Node: "master-1", KeyID: "1", Health: PluginUnreachable, LastChecked: t0, Pending: true}

	m.update(&State{Plugins: []Plugin{running, pending}}, t0)
	if err := testutil.GatherAndCompare(metricstest.Gatherer(component), strings.NewReader(wantPluginMetrics(component, running)),
		healthyMetric, stateMetric, lastReportMetric); err != nil {
		t.Error(err)
	}
	pending.Pending = false
	m.update(&State{Plugins: []Plugin{running, pending}}, t0)
	if err := testutil.GatherAndCompare(metricstest.Gatherer(component), strings.NewReader(wantPluginMetrics(component, running, pending)),
		healthyMetric, stateMetric, lastReportMetric); err != nil {
		t.Error(err)
	}
	// The node is drained and rebooted: its stale plugin's series go, so that no alert pages for an upgrade.
	rebooting := Plugin{Node: "master-1", KeyID: "1", Health: PluginStale, LastChecked: t0.Add(-10 * time.Minute), NodeUnavailable: "node unavailable: cordoned"}
	m.update(&State{Plugins: []Plugin{running, rebooting}}, t0)
	if err := testutil.GatherAndCompare(metricstest.Gatherer(component), strings.NewReader(wantPluginMetrics(component, running)),
		healthyMetric, stateMetric, lastReportMetric); err != nil {
		t.Error(err)
	}
}

// TestPluginStatesCoverEveryHealth: the fixed set of state series has every PluginHealth the evaluation gives.
func TestPluginStatesCoverEveryHealth(t *testing.T) {
	known := map[PluginHealth]bool{}
	for _, s := range pluginStates {
		known[s] = true
	}
	for _, h := range []PluginHealth{PluginHealthy, PluginUnhealthy, PluginUnreachable, PluginStale, PluginMissing} {
		if !known[h] {
			t.Errorf("no state series for %s", h)
		}
	}
}

const (
	rotationPendingMetric = "kmsguard_kms_key_rotation_pending"
	failuresMetric        = "kmsguard_kms_failures"
)

// wantNodeMetrics is the exposition of the rotation and failure metrics: pending by node (of key 9), failures by
// node and reason. Every reason of a node's failures is listed, 0 when absent.
func wantNodeMetrics(component string, pending map[string]int, failures map[string]map[Reason]int) string {
	var b strings.Builder
	if len(failures) > 0 {
		b.WriteString("# HELP kmsguard_kms_failures [ALPHA] KMS failures on a node in kmsstate's latest evaluation, by KMSPluginsDegraded reason: one per key, or one for an apiserver failure that names no key.\n# TYPE kmsguard_kms_failures gauge\n")
	}
	reasons := append([]Reason(nil), failureReasons...)
	slices.Sort(reasons)
	for _, node := range slices.Sorted(maps.Keys(failures)) {
		for _, r := range reasons {
			fmt.Fprintf(&b, "%s{component=%q,node=%q,reason=%q} %d\n", failuresMetric, component, node, r, failures[node][r])
		}
	}
	if len(pending) > 0 {
		b.WriteString("# HELP kmsguard_kms_key_rotation_pending [ALPHA] 1 while a rotation of the KEK id behind a key waits for a node, 0 otherwise.\n# TYPE kmsguard_kms_key_rotation_pending gauge\n")
	}
	for _, node := range slices.Sorted(maps.Keys(pending)) {
		fmt.Fprintf(&b, "%s{component=%q,key_id=\"9\",node=%q} %d\n", rotationPendingMetric, component, node, pending[node])
	}
	return b.String()
}

// TestControllerRotationAndFailureMetrics syncs the controller through a KEK id rotation that one node does not
// follow, then loses, and reads the metrics back after each sync: the node a rotation waits for, the failures
// per node and reason (the apiservers' decrypt errors and the KEK id mismatch included, which no plugin metric
// shows), and no series left of a node that went away or of KMS switched off.
func TestControllerRotationAndFailureMetrics(t *testing.T) {
	clock := clocktesting.NewFakeClock(t0)
	statusProvider := &fakeStatusProvider{}
	nodes := staticNodes{"master-0", "master-1"}
	keys := staticKeys{IDs: []string{"9"}, Providers: map[string]string{"kms-9": "9"}}
	apiservers := staticAPIServers{}
	recorder := events.NewInMemoryRecorder("test", clock)
	c := newMetricsTestController(t, Options{
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		StatusProvider: statusProvider, Nodes: &nodes, Keys: &keys, APIServers: &apiservers, Recorder: recorder, Clock: clock,
	})
	// fresh is a report the reporter wrote 10 s before the sync.
	fresh := func(node string, status operatorv1.KMSPluginHealthStatus, kek string) operatorv1.KMSPluginHealthReport {
		return report(node, "9", status, kek, 10*time.Second-clock.Since(t0))
	}
	ok := operatorv1.KMSPluginHealthStatusHealthy
	decryptErrors := func(n float64) staticAPIServers {
		return staticAPIServers{{NodeName: "master-1", Metrics: &MetricsSample{DecryptErrors: n}}}
	}
	noFailures := map[Reason]int{}

	scenarios := []struct {
		name         string
		after        time.Duration
		nodes        staticNodes
		noKeys       bool
		reports      func() []operatorv1.KMSPluginHealthReport
		apiservers   staticAPIServers
		wantPending  map[string]int
		wantFailures map[string]map[Reason]int
	}{
		{
			name: "both nodes settle on KEK a",
			reports: func() []operatorv1.KMSPluginHealthReport {
				return []operatorv1.KMSPluginHealthReport{fresh("master-0", ok, "a"), fresh("master-1", ok, "a")}
			},
			apiservers:   decryptErrors(0),
			wantPending:  map[string]int{"master-0": 0, "master-1": 0},
			wantFailures: map[string]map[Reason]int{"master-0": noFailures, "master-1": noFailures},
		},
		{
			name:  "master-0 reports KEK b: the rotation waits for master-1",
			after: 30 * time.Second,
			reports: func() []operatorv1.KMSPluginHealthReport {
				return []operatorv1.KMSPluginHealthReport{fresh("master-0", ok, "b"), fresh("master-1", ok, "a")}
			},
			apiservers:   decryptErrors(0),
			wantPending:  map[string]int{"master-0": 0, "master-1": 1},
			wantFailures: map[string]map[Reason]int{"master-0": noFailures, "master-1": noFailures},
		},
		{
			name:  "past the grace master-1 still reports KEK a, and its apiserver fails to decrypt",
			after: DefaultKEKIDMismatchGrace + time.Second,
			reports: func() []operatorv1.KMSPluginHealthReport {
				return []operatorv1.KMSPluginHealthReport{fresh("master-0", ok, "b"), fresh("master-1", ok, "a")}
			},
			apiservers:  decryptErrors(5),
			wantPending: map[string]int{"master-0": 0, "master-1": 1},
			wantFailures: map[string]map[Reason]int{"master-0": noFailures,
				"master-1": {ReasonDecryptFailing: 1, ReasonKEKIDMismatch: 1}},
		},
		{
			name:  "master-1's plugin becomes unreachable; the decrypt errors stop growing",
			after: 30 * time.Second,
			reports: func() []operatorv1.KMSPluginHealthReport {
				return []operatorv1.KMSPluginHealthReport{fresh("master-0", ok, "b"), fresh("master-1", operatorv1.KMSPluginHealthStatusError, "")}
			},
			apiservers:   decryptErrors(5),
			wantPending:  map[string]int{"master-0": 0, "master-1": 1},
			wantFailures: map[string]map[Reason]int{"master-0": noFailures, "master-1": {ReasonPluginUnreachable: 1}},
		},
		{
			name:  "master-1 leaves the control plane: the rotation completes and its series go",
			after: 30 * time.Second,
			nodes: staticNodes{"master-0"},
			reports: func() []operatorv1.KMSPluginHealthReport {
				return []operatorv1.KMSPluginHealthReport{fresh("master-0", ok, "b")}
			},
			wantPending:  map[string]int{"master-0": 0},
			wantFailures: map[string]map[Reason]int{"master-0": noFailures},
		},
		{
			name:  "master-1 back with an unhealthy plugin; master-2 joins, its first report awaited",
			after: 30 * time.Second,
			nodes: staticNodes{"master-0", "master-1", "master-2"},
			reports: func() []operatorv1.KMSPluginHealthReport {
				return []operatorv1.KMSPluginHealthReport{fresh("master-0", ok, "b"), fresh("master-1", operatorv1.KMSPluginHealthStatusUnhealthy, "")}
			},
			wantPending:  map[string]int{"master-0": 0, "master-1": 0, "master-2": 0},
			wantFailures: map[string]map[Reason]int{"master-0": noFailures, "master-1": {ReasonPluginUnhealthy: 1}, "master-2": noFailures},
		},
		{
			name:  "master-2 still has no report past the staleness limit: missing",
			after: 4 * DefaultReportInterval,
			nodes: staticNodes{"master-0", "master-1", "master-2"},
			reports: func() []operatorv1.KMSPluginHealthReport {
				return []operatorv1.KMSPluginHealthReport{fresh("master-0", ok, "b"), fresh("master-1", operatorv1.KMSPluginHealthStatusUnhealthy, "")}
			},
			wantPending: map[string]int{"master-0": 0, "master-1": 0, "master-2": 0},
			wantFailures: map[string]map[Reason]int{"master-0": noFailures, "master-1": {ReasonPluginUnhealthy: 1},
				"master-2": {ReasonHealthReportMissing: 1}},
		},
		{
			name:   "KMS switched off: no plugin, rotation or failure series",
			after:  30 * time.Second,
			nodes:  staticNodes{"master-0", "master-1", "master-2"},
			noKeys: true,
			reports: func() []operatorv1.KMSPluginHealthReport {
				return []operatorv1.KMSPluginHealthReport{fresh("master-1", operatorv1.KMSPluginHealthStatusUnhealthy, "")}
			},
		},
	}
	for _, s := range scenarios {
		clock.Step(s.after)
		nodes = staticNodes{"master-0", "master-1"}
		if s.nodes != nil {
			nodes = s.nodes
		}
		keys = staticKeys{IDs: []string{"9"}, Providers: map[string]string{"kms-9": "9"}}
		if s.noKeys {
			keys = staticKeys{}
		}
		statusProvider.reports, apiservers = s.reports(), s.apiservers
		c.probeAPIServers(context.Background())
		if err := c.sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if err := testutil.GatherAndCompare(metricstest.Gatherer(t.Name()), strings.NewReader(wantNodeMetrics(t.Name(), s.wantPending, s.wantFailures)),
			rotationPendingMetric, failuresMetric); err != nil {
			t.Errorf("%s:\n%v", s.name, err)
		}
		if s.noKeys {
			if err := testutil.GatherAndCompare(metricstest.Gatherer(t.Name()), strings.NewReader(""), healthyMetric, stateMetric, lastReportMetric); err != nil {
				t.Errorf("%s: plugin series left:\n%v", s.name, err)
			}
		}
	}
}

// TestMetricsOfTwoComponents: two controllers in one process (kube-apiserver's and openshift-apiserver's wiring)
// share the registration; each sets and deletes only its own component's series.
func TestMetricsOfTwoComponents(t *testing.T) {
	t0 := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	kas, oas := newComponentMetrics(t.Name()+"-kube"), newComponentMetrics(t.Name()+"-openshift")
	kasPlugins := []Plugin{{Node: "master-0", KeyID: "1", Health: PluginHealthy, LastChecked: t0}}
	kas.update(&State{Plugins: kasPlugins}, t0)
	oas.update(&State{Plugins: []Plugin{{Node: "master-0", KeyID: "1", Health: PluginUnreachable}}}, t0)
	// openshift-apiserver stops using KMS: its series go, kube-apiserver's stay as they were.
	oas.update(&State{}, t0)
	if err := testutil.GatherAndCompare(metricstest.Gatherer(t.Name()+"-kube"), strings.NewReader(wantPluginMetrics(t.Name()+"-kube", kasPlugins...)),
		healthyMetric, stateMetric, lastReportMetric); err != nil {
		t.Error(err)
	}
	if err := testutil.GatherAndCompare(metricstest.Gatherer(t.Name()+"-openshift"), strings.NewReader(""),
		healthyMetric, stateMetric, lastReportMetric); err != nil {
		t.Error(err)
	}
}
