package kmsstate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/component-base/metrics/testutil"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/metricstest"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
)

// recordingOperatorClient records every status apply, so that tests compare whole apply configurations.
type recordingOperatorClient struct {
	v1helpers.OperatorClient
	applied []*applyoperatorv1.OperatorStatusApplyConfiguration
}

func (c *recordingOperatorClient) ApplyOperatorStatus(ctx context.Context, fieldManager string, status *applyoperatorv1.OperatorStatusApplyConfiguration) error {
	// KMSStateControllerDegraded, which every sync applies under its own field manager, is left out: the tests
	// here compare the controller's KMS conditions; conventions_test.go tests that one.
	if strings.HasSuffix(fieldManager, "-reportDegraded") {
		return c.OperatorClient.ApplyOperatorStatus(ctx, fieldManager, status)
	}
	c.applied = append(c.applied, status)
	return c.OperatorClient.ApplyOperatorStatus(ctx, fieldManager, status)
}

// fakeStatusProvider holds health reports and records the applies that remove orphans.
type fakeStatusProvider struct {
	reports []operatorv1.KMSPluginHealthReport
	getErr  error
	applies map[string]*applyoperatorv1.KMSEncryptionStatusApplyConfiguration // by field manager
}

func (p *fakeStatusProvider) GetKMSEncryptionStatus(context.Context) (*operatorv1.KMSEncryptionStatus, error) {
	return &operatorv1.KMSEncryptionStatus{HealthReports: p.reports}, p.getErr
}

func (p *fakeStatusProvider) ApplyKMSEncryptionStatus(_ context.Context, fieldManager string, status *applyoperatorv1.KMSEncryptionStatusApplyConfiguration) error {
	if p.applies == nil {
		p.applies = map[string]*applyoperatorv1.KMSEncryptionStatusApplyConfiguration{}
	}
	p.applies[fieldManager] = status
	return nil
}

// UpdateKMSEncryptionStatus fails: kmsstate owns no field of the encryption status by itself, so it only applies.
func (p *fakeStatusProvider) UpdateKMSEncryptionStatus(context.Context, func(*operatorv1.KMSEncryptionStatus)) error {
	return errors.New("kmsstate must not update the encryption status: it applies its removals")
}

type staticNodes []string

func (n staticNodes) Nodes(context.Context) ([]string, error) { return n, nil }

type staticKeys Keys

func (k staticKeys) KMSKeys(context.Context) (Keys, error) { return Keys(k), nil }

type staticAPIServers []APIServerView

func (a staticAPIServers) Probe(context.Context) []APIServerView { return a }

func TestControllerSync(t *testing.T) {
	twoNodes := staticNodes{"master-0", "master-1"}
	keyOne := staticKeys{IDs: []string{"1"}, Providers: map[string]string{"1_secrets": "1"}}
	scenarios := []struct {
		name       string
		nodes      staticNodes
		keys       staticKeys
		reports    []operatorv1.KMSPluginHealthReport
		apiservers staticAPIServers
		running    map[string][]string // Options.Running; nil leaves it unset
		// availability is Options.Availability's answer; nil leaves it unset.
		availability map[string]NodeAvailability
		getErr       error
		wantErr      string
		want         *applyoperatorv1.OperatorStatusApplyConfiguration // nil: nothing applied
		wantEvents   []string
		wantCleanup  map[string][]string // field manager -> key ids kept
	}{
		{
			name:  "no KMS key in use",
			nodes: twoNodes,
			want: applyoperatorv1.OperatorStatus().WithConditions(
				condition(ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, ReasonKMSNotConfigured, "no KMS key is in use"),
				condition(ConditionKMSPluginsProgressing, operatorv1.ConditionFalse, ReasonKMSNotConfigured, "no KMS key is in use"),
				condition(ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, ReasonKMSNotConfigured, "no KMS key is in use")),
		},
		{
			name:    "all healthy",
			nodes:   twoNodes,
			keys:    keyOne,
			reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "a"), healthy("master-1", "1", "a")},
			want: applyoperatorv1.OperatorStatus().WithConditions(
				condition(ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, ReasonAsExpected, ""),
				condition(ConditionKMSPluginsProgressing, operatorv1.ConditionFalse, ReasonAsExpected, ""),
				condition(ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, ReasonAsExpected, "")),
		},
		{
			name:    "unreachable plugin",
			nodes:   twoNodes,
			keys:    keyOne,
			reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusError, "", time.Second)},
			want: applyoperatorv1.OperatorStatus().WithConditions(
				condition(ConditionKMSPluginsDegraded, operatorv1.ConditionTrue, string(ReasonPluginUnreachable), "PluginUnreachable: node master-1 key 1: boom on master-1"),
				condition(ConditionKMSPluginsProgressing, operatorv1.ConditionFalse, ReasonAsExpected, ""),
				condition(ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, ReasonAsExpected, "")),
			wantEvents: []string{"KMSPluginUnhealthy"},
		},
		{
			name:    "a key whose revision has not reached a node is pending there, not Degraded",
			nodes:   twoNodes,
			keys:    staticKeys{IDs: []string{"1", "2"}, Providers: map[string]string{"1_secrets": "1", "2_secrets": "2"}},
			running: map[string][]string{"master-0": {"1", "2"}, "master-1": {"1"}},
			reports: []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "a"), healthy("master-1", "1", "a"), healthy("master-0", "2", "b")},
			want: applyoperatorv1.OperatorStatus().WithConditions(
				condition(ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, ReasonAsExpected, ""),
				condition(ConditionKMSPluginsProgressing, operatorv1.ConditionTrue, ReasonKeysPending,
					"not yet in the revision the node runs, so not judged there: key 2 on node master-1 (HealthReportMissing)"),
				condition(ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, ReasonAsExpected, "")),
		},
		{
			name:       "apiserver check failing",
			nodes:      twoNodes,
			keys:       keyOne,
			reports:    []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "a"), healthy("master-1", "1", "a")},
			apiservers: staticAPIServers{{NodeName: "master-1", KMSHealthz: &HealthzResult{Detail: "[-]kms-providers failed: timeout"}}},
			want: applyoperatorv1.OperatorStatus().WithConditions(
				condition(ConditionKMSPluginsDegraded, operatorv1.ConditionTrue, string(ReasonAPIServerKMSCheckFailing), "APIServerKMSCheckFailing: node master-1: /healthz/kms-providers: [-]kms-providers failed: timeout"),
				condition(ConditionKMSPluginsProgressing, operatorv1.ConditionFalse, ReasonAsExpected, ""),
				condition(ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, ReasonAsExpected, "")),
			wantEvents: []string{"KMSPluginUnhealthy"},
		},
		{
			name:  "orphans of a removed node are removed as that node's reporter",
			nodes: staticNodes{"master-0"},
			keys:  keyOne,
			reports: []operatorv1.KMSPluginHealthReport{
				healthy("master-0", "1", "a"),
				report("master-9", "1", operatorv1.KMSPluginHealthStatusHealthy, "a", time.Hour),
			},
			want: applyoperatorv1.OperatorStatus().WithConditions(
				condition(ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, ReasonAsExpected, ""),
				condition(ConditionKMSPluginsProgressing, operatorv1.ConditionFalse, ReasonAsExpected, ""),
				condition(ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, ReasonAsExpected, "")),
			wantEvents:  []string{"KMSHealthReportRemoved"},
			wantCleanup: map[string][]string{encryptionstatus.ReporterFieldManager("master-9"): nil},
		},
		{
			name:  "an orphaned key of a live node keeps the node's other reports",
			nodes: staticNodes{"master-0"},
			keys:  keyOne,
			reports: []operatorv1.KMSPluginHealthReport{
				healthy("master-0", "1", "a"),
				report("master-0", "2", operatorv1.KMSPluginHealthStatusHealthy, "x", time.Hour),
			},
			want: applyoperatorv1.OperatorStatus().WithConditions(
				condition(ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, ReasonAsExpected, ""),
				condition(ConditionKMSPluginsProgressing, operatorv1.ConditionFalse, ReasonAsExpected, ""),
				condition(ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, ReasonAsExpected, "")),
			wantEvents:  []string{"KMSHealthReportRemoved"},
			wantCleanup: map[string][]string{encryptionstatus.ReporterFieldManager("master-0"): {"1"}},
		},
		{
			name:         "a rebooting node's stale report is progress, not a fault, and no event",
			nodes:        twoNodes,
			keys:         keyOne,
			reports:      []operatorv1.KMSPluginHealthReport{healthy("master-0", "1", "a"), report("master-1", "1", operatorv1.KMSPluginHealthStatusHealthy, "a", 10*time.Minute)},
			availability: map[string]NodeAvailability{"master-1": {Unavailable: "cordoned, NotReady (KubeletNotReady)"}},
			want: applyoperatorv1.OperatorStatus().WithConditions(
				condition(ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, ReasonAsExpected, ""),
				condition(ConditionKMSPluginsProgressing, operatorv1.ConditionTrue, ReasonNodeUnavailable,
					"report missing or stale while the node is down on purpose, so not judged there: key 1 on node master-1 (node unavailable: cordoned, NotReady (KubeletNotReady))"),
				condition(ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, ReasonAsExpected, "")),
		},
		{
			name:    "reports cannot be read",
			nodes:   twoNodes,
			keys:    keyOne,
			getErr:  errors.New("etcdserver: request timed out"),
			wantErr: "reading KMS health reports: etcdserver: request timed out",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			operatorClient := &recordingOperatorClient{OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)}
			statusProvider := &fakeStatusProvider{reports: s.reports, getErr: s.getErr}
			recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0))
			opts := Options{
				OperatorClient: operatorClient, StatusProvider: statusProvider, Nodes: s.nodes, Keys: s.keys,
				Recorder: recorder, Clock: clocktesting.NewFakePassiveClock(t0),
			}
			if s.running != nil {
				running := s.running
				opts.Running = RunningKeyListerFunc(func(context.Context) (map[string][]string, error) { return running, nil })
			}
			if s.apiservers != nil {
				opts.APIServers = s.apiservers
			}
			if s.availability != nil {
				availability := s.availability
				opts.Availability = availabilityFunc(func(context.Context) (map[string]NodeAvailability, error) { return availability, nil })
			}
			c := newTestController(t, opts)
			if opts.APIServers != nil {
				c.probeAPIServers(context.Background())
			}
			err := c.sync(context.Background(), factory.NewSyncContext("test", recorder))
			if s.wantErr != "" {
				if err == nil || err.Error() != s.wantErr {
					t.Fatalf("want error %q, got %v", s.wantErr, err)
				}
				if len(operatorClient.applied) != 0 {
					t.Errorf("conditions were applied on error: %v", operatorClient.applied)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(operatorClient.applied) != 1 {
				t.Fatalf("want one status apply, got %d", len(operatorClient.applied))
			}
			if !equality.Semantic.DeepEqual(operatorClient.applied[0], s.want) {
				t.Errorf("applied\n%s\nwant\n%s", describe(operatorClient.applied[0]), describe(s.want))
			}
			var reasons []string
			for _, e := range recorder.Events() {
				reasons = append(reasons, e.Reason)
			}
			if strings.Join(reasons, ",") != strings.Join(s.wantEvents, ",") {
				t.Errorf("events %v, want %v", reasons, s.wantEvents)
			}
			if len(statusProvider.applies) != len(s.wantCleanup) {
				t.Fatalf("cleanup applies %v, want %v", statusProvider.applies, s.wantCleanup)
			}
			for manager, wantKeys := range s.wantCleanup {
				applied, ok := statusProvider.applies[manager]
				if !ok {
					t.Fatalf("no cleanup apply as %s", manager)
				}
				var keys []string
				for _, r := range applied.HealthReports {
					keys = append(keys, *r.KeyID)
				}
				if strings.Join(keys, ",") != strings.Join(wantKeys, ",") {
					t.Errorf("cleanup as %s kept keys %v, want %v", manager, keys, wantKeys)
				}
			}
		})
	}
}

// TestControllerEventsOnTransitionsOnly: a fault that lasts is one event when it starts and one when it ends.
func TestControllerEventsOnTransitionsOnly(t *testing.T) {
	clock := clocktesting.NewFakeClock(t0)
	statusProvider := &fakeStatusProvider{}
	recorder := events.NewInMemoryRecorder("test", clock)
	c := newTestController(t, Options{
		OperatorClient: &recordingOperatorClient{OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)},
		StatusProvider: statusProvider, Nodes: staticNodes{"master-0"}, Keys: staticKeys{IDs: []string{"1"}},
		Recorder: recorder, Clock: clock,
	})
	syncAt := func(status operatorv1.KMSPluginHealthStatus, kek string) {
		t.Helper()
		clock.Step(interval)
		statusProvider.reports = []operatorv1.KMSPluginHealthReport{{NodeName: "master-0", KeyID: "1", Status: status, RemoteKeyID: kek, LastCheckedTime: metav1.NewTime(clock.Now())}}
		if err := c.sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
			t.Fatal(err)
		}
	}
	syncAt(operatorv1.KMSPluginHealthStatusHealthy, "a")
	for range 5 {
		syncAt(operatorv1.KMSPluginHealthStatusError, "")
	}
	syncAt(operatorv1.KMSPluginHealthStatusHealthy, "a")
	syncAt(operatorv1.KMSPluginHealthStatusHealthy, "b")
	syncAt(operatorv1.KMSPluginHealthStatusHealthy, "b")

	var reasons []string
	for _, e := range recorder.Events() {
		reasons = append(reasons, e.Reason)
	}
	want := []string{EventPluginUnhealthy, EventPluginRecovered, EventKeyRotated}
	if strings.Join(reasons, ",") != strings.Join(want, ",") {
		t.Errorf("events %v, want %v", reasons, want)
	}
	if err := c.Healthy([]string{"master-0"}, []string{"1"}); err != nil {
		t.Errorf("Healthy after recovery: %v", err)
	}
	state, _ := c.State()
	if r, ok := state.LatestRotation("1"); !ok || r.From != "a" || r.To != "b" {
		t.Errorf("LatestRotation = %+v, %v; want a -> b", r, ok)
	}
}

// TestControllerEvaluatesTheKeysItCouldList: a KeyLister that cannot read one of its sources (kmsrollback's holds,
// in a ConfigMap the failing KMS encrypts) returns the keys it read with an IncompleteKeysError. The health of
// those keys is evaluated and applied as always, and the sync then fails with what could not be read; any other
// KeyLister error stops the sync before anything is applied.
func TestControllerEvaluatesTheKeysItCouldList(t *testing.T) {
	unreadable := errors.New(`Internal error occurred: failed to decrypt data`)
	for _, tc := range []struct {
		name        string
		keysErr     error
		wantApplied bool
	}{
		{name: "incomplete", keysErr: &IncompleteKeysError{What: "the held configs", Err: unreadable}, wantApplied: true},
		{name: "failed", keysErr: unreadable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := clocktesting.NewFakeClock(t0)
			operatorClient := &recordingOperatorClient{OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)}
			statusProvider := &fakeStatusProvider{reports: []operatorv1.KMSPluginHealthReport{
				{NodeName: "master-0", KeyID: "1", Status: operatorv1.KMSPluginHealthStatusError, RemoteKeyID: "a", Detail: "connection refused", LastCheckedTime: metav1.NewTime(t0)}}}
			recorder := events.NewInMemoryRecorder("test", clock)
			c := newTestController(t, Options{
				OperatorClient: operatorClient, StatusProvider: statusProvider, Nodes: staticNodes{"master-0"},
				Keys:     KeyListerFunc(func(context.Context) (Keys, error) { return Keys{IDs: []string{"1"}}, tc.keysErr }),
				Recorder: recorder, Clock: clock,
			})

			err := c.sync(context.Background(), factory.NewSyncContext("test", recorder))
			if !errors.Is(err, unreadable) {
				t.Fatalf("sync: %v, want the lister's error", err)
			}
			_, status, _, _ := operatorClient.GetOperatorState()
			degraded := v1helpers.FindOperatorCondition(status.Conditions, ConditionKMSPluginsDegraded)
			if !tc.wantApplied {
				if degraded != nil {
					t.Fatalf("%s applied from a key list that could not be read: %+v", ConditionKMSPluginsDegraded, degraded)
				}
				return
			}
			if degraded == nil || degraded.Status != operatorv1.ConditionTrue || degraded.Reason != string(ReasonPluginUnreachable) {
				t.Fatalf("%s = %+v, want True %s for the key that was listed", ConditionKMSPluginsDegraded, degraded, ReasonPluginUnreachable)
			}
			if !strings.Contains(err.Error(), "the KMS keys of the held configs are not known") {
				t.Errorf("sync error %q does not say what could not be read", err)
			}
			var unhealthy *UnhealthyError
			if err := c.Healthy([]string{"master-0"}, []string{"1"}); !errors.As(err, &unhealthy) || unhealthy.Reason() != ReasonPluginUnreachable {
				t.Errorf("Healthy = %v, want the plugin's failure, not a stale or missing verdict", err)
			}
		})
	}
}

func TestControllerHealthyBeforeFirstSync(t *testing.T) {
	c := newTestController(t, Options{
		OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil),
		StatusProvider: &fakeStatusProvider{}, Nodes: staticNodes{"master-0"}, Keys: staticKeys{IDs: []string{"1"}},
		Recorder: events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(t0)),
	})
	var unhealthy *UnhealthyError
	if err := c.Healthy([]string{"master-0"}, []string{"1"}); !errors.As(err, &unhealthy) {
		t.Fatalf("want an UnhealthyError before the first evaluation, got %v", err)
	}
}

func describe(status *applyoperatorv1.OperatorStatusApplyConfiguration) string {
	var b strings.Builder
	for _, c := range status.Conditions {
		b.WriteString(*c.Type + "=" + string(*c.Status) + " " + *c.Reason + ": " + *c.Message + "\n")
	}
	return b.String()
}

// TestControllerMetrics: plugin health and rotations are exported through component-base's legacy registry,
// and the series of a node that went away disappear.
func TestControllerMetrics(t *testing.T) {
	clock := clocktesting.NewFakeClock(t0)
	statusProvider := &fakeStatusProvider{}
	nodes := staticNodes{"master-0", "master-1"}
	recorder := events.NewInMemoryRecorder("test", clock)
	c := newMetricsTestController(t, Options{
		OperatorClient: &recordingOperatorClient{OperatorClient: v1helpers.NewFakeOperatorClient(&operatorv1.OperatorSpec{}, &operatorv1.OperatorStatus{}, nil)},
		StatusProvider: statusProvider, Nodes: &nodes, Keys: staticKeys{IDs: []string{"9"}},
		Recorder: recorder, Clock: clock,
	})
	syncWith := func(reports ...operatorv1.KMSPluginHealthReport) {
		t.Helper()
		statusProvider.reports = reports
		if err := c.sync(context.Background(), factory.NewSyncContext("test", recorder)); err != nil {
			t.Fatal(err)
		}
	}
	// The rotation counter is shared by every test of the package and every
	// run of -count: read this key's series alone, before and after.
	rotations := func() float64 {
		t.Helper()
		got, err := testutil.GetCounterMetricValue(registeredMetrics().rotations.WithLabelValues(t.Name(), "9"))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	before := rotations()
	syncWith(healthy("master-0", "9", "a"), healthy("master-1", "9", "a"))
	syncWith(healthy("master-0", "9", "b"), healthy("master-1", "9", "b"))
	nodes = staticNodes{"master-0"}
	syncWith(report("master-0", "9", operatorv1.KMSPluginHealthStatusError, "b", 20*time.Second))

	if got := rotations() - before; got != 1 {
		t.Errorf("kmsguard_kms_key_rotations_total{key_id=\"9\"} rose by %v, want 1", got)
	}
	// The report was checked 20 s before the sync: a timestamp, not an age that would freeze if kmsstate stopped.
	want := `
# HELP kmsguard_kms_plugin_healthy [ALPHA] 1 when the KMS plugin for a key on a node is healthy with a fresh report, 0 otherwise.
# TYPE kmsguard_kms_plugin_healthy gauge
kmsguard_kms_plugin_healthy{component="TestControllerMetrics",key_id="9",node="master-0"} 0
# HELP kmsguard_kms_plugin_last_report_timestamp_seconds [ALPHA] Unix time at which the reporter last checked the KMS plugin for a key on a node.
# TYPE kmsguard_kms_plugin_last_report_timestamp_seconds gauge
kmsguard_kms_plugin_last_report_timestamp_seconds{component="TestControllerMetrics",key_id="9",node="master-0"} ` + fmt.Sprint(float64(clock.Now().Add(-20*time.Second).Unix())) + `
`
	if err := testutil.GatherAndCompare(metricstest.Gatherer(t.Name()), strings.NewReader(want),
		"kmsguard_kms_plugin_healthy", "kmsguard_kms_plugin_last_report_timestamp_seconds"); err != nil {
		t.Error(err)
	}
}
