package monitoring

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/promqltest"
	"github.com/prometheus/prometheus/rules"
)

// evalInterval is how often the rules are evaluated here, the cluster monitoring stack's default.
const evalInterval = 30 * time.Second

// ruleCase is one alert's behaviour over input series, in promqltest's load syntax with samples every 30 s from
// time 0: the fault, which must make the alert pending at faultAt and firing one `for:` later, and the calm
// series of the same metrics, which must leave it silent.
type ruleCase struct {
	fault, calm string
	// faultAt is when the fault's expression first holds.
	faultAt time.Duration
	// wantFor is the alert's `for:`, written here again so that a change of it in the rule file is a change of
	// this test too.
	wantFor time.Duration
	// wantLabels are labels the firing alert must carry besides alertname and severity.
	wantLabels map[string]string
	// calmPends, when set, says why the calm series may make the alert pending (never firing): by default they
	// must not even do that.
	calmPends string
}

// stepsUp is the case of an alert on one series that is 0 until one minute, then to: the fault; calm, it stays 0.
func stepsUp(series, to string, wantFor time.Duration, wantLabels map[string]string) ruleCase {
	return ruleCase{fault: series + " 0 0 " + to + "x300", calm: series + " 0x302", faultAt: time.Minute, wantFor: wantFor, wantLabels: wantLabels}
}

// ruleCases are the alerts' behaviours; every alert of the rule file has one. Series carry component, as every
// kmsguard series does.
var ruleCases = map[string]ruleCase{
	"KMSPluginUnreachable": stepsUp(`kmsguard_kms_plugin_state{component="kube-apiserver",node="master-1",key_id="1",state="Unreachable"}`, "1", 2*time.Minute, map[string]string{"node": "master-1", "key_id": "1"}),
	"KMSPluginUnhealthy":   stepsUp(`kmsguard_kms_plugin_state{component="kube-apiserver",node="master-0",key_id="2",state="Unhealthy"}`, "1", 2*time.Minute, map[string]string{"node": "master-0", "key_id": "2"}),
	// The last report's timestamp stops at 0: time() passes 120 at 2m30s, the first evaluation after 2m.
	"KMSPluginHealthReportStale": {
		fault:   `kmsguard_kms_plugin_last_report_timestamp_seconds{component="kube-apiserver",node="master-2",key_id="1"} 0x302`,
		calm:    `kmsguard_kms_plugin_last_report_timestamp_seconds{component="kube-apiserver",node="master-2",key_id="1"} 0+30x302`,
		faultAt: 150 * time.Second, wantFor: time.Minute, wantLabels: map[string]string{"node": "master-2"},
	},
	"KMSPluginHealthReportMissing": stepsUp(`kmsguard_kms_plugin_state{component="kube-apiserver",node="master-1",key_id="1",state="Missing"}`, "1", 10*time.Minute, nil),
	"KMSDecryptFailing":            stepsUp(`kmsguard_kms_failures{component="kube-apiserver",node="master-0",reason="DecryptFailing"}`, "2", time.Minute, map[string]string{"node": "master-0"}),
	"KMSAPIServerKMSCheckFailing":  stepsUp(`kmsguard_kms_failures{component="kube-apiserver",node="master-0",reason="APIServerKMSCheckFailing"}`, "1", 2*time.Minute, nil),
	// Every available node of the component failing, each by another fault, while master-2 reboots (failure
	// series at 0, no plugin series). Calm: one node failing while another serves, and master-2 rebooting.
	"KMSFailingOnEveryNode": {
		fault: strings.Join([]string{
			`kmsguard_kms_failures{component="kube-apiserver",node="master-0",reason="DecryptFailing"} 0x302`,
			`kmsguard_kms_failures{component="kube-apiserver",node="master-0",reason="PluginUnreachable"} 0 0 1x300`,
			`kmsguard_kms_failures{component="kube-apiserver",node="master-1",reason="DecryptFailing"} 0 0 3x300`,
			`kmsguard_kms_failures{component="kube-apiserver",node="master-1",reason="PluginUnreachable"} 0x302`,
			`kmsguard_kms_failures{component="kube-apiserver",node="master-2",reason="DecryptFailing"} 0x302`,
			`kmsguard_kms_failures{component="kube-apiserver",node="master-2",reason="PluginUnreachable"} 0x302`,
			`kmsguard_kms_plugin_healthy{component="kube-apiserver",node="master-0",key_id="1"} 1 1 0x300`,
			`kmsguard_kms_plugin_healthy{component="kube-apiserver",node="master-1",key_id="1"} 1x302`,
		}, "\n"),
		calm: strings.Join([]string{
			`kmsguard_kms_failures{component="kube-apiserver",node="master-0",reason="DecryptFailing"} 0x302`,
			`kmsguard_kms_failures{component="kube-apiserver",node="master-0",reason="PluginUnreachable"} 1x302`,
			`kmsguard_kms_failures{component="kube-apiserver",node="master-1",reason="DecryptFailing"} 0x302`,
			`kmsguard_kms_failures{component="kube-apiserver",node="master-1",reason="PluginUnreachable"} 0x302`,
			`kmsguard_kms_failures{component="kube-apiserver",node="master-2",reason="DecryptFailing"} 0x302`,
			`kmsguard_kms_failures{component="kube-apiserver",node="master-2",reason="PluginUnreachable"} 0x302`,
			`kmsguard_kms_plugin_healthy{component="kube-apiserver",node="master-0",key_id="1"} 0x302`,
			`kmsguard_kms_plugin_healthy{component="kube-apiserver",node="master-1",key_id="1"} 1x302`,
		}, "\n"),
		faultAt: time.Minute, wantFor: 2 * time.Minute, wantLabels: map[string]string{"component": "kube-apiserver"},
	},
	"KMSKEKIDMismatch":               stepsUp(`kmsguard_kms_failures{component="kube-apiserver",node="master-2",reason="KEKIDMismatch"}`, "1", time.Minute, nil),
	"KMSKeyRotationStuck":            stepsUp(`kmsguard_kms_key_rotation_pending{component="kube-apiserver",node="master-2",key_id="1"}`, "1", 10*time.Minute, nil),
	"KMSMigrationPausedKMSUnhealthy": stepsUp(`kmsguard_migration_paused{component="kube-apiserver",resource="secrets",reason="PausedKMSUnhealthy"}`, "1", 5*time.Minute, map[string]string{"resource": "secrets"}),
	// Pauses of a minute every four minutes: the 5 minute maximum holds the alert across the gaps. Calm is one
	// pause, which the maximum forgets after 5 minutes, before the 15 minute `for:`.
	"KMSMigrationErrorThresholdExceeded": {
		fault:   `kmsguard_migration_paused{component="kube-apiserver",resource="configmaps",reason="ErrorThresholdExceeded"} 0 0 ` + strings.Repeat("1 1 0 0 0 0 0 0 ", 38),
		calm:    `kmsguard_migration_paused{component="kube-apiserver",resource="configmaps",reason="ErrorThresholdExceeded"} 0 0 1 1 0x298`,
		faultAt: time.Minute, wantFor: 15 * time.Minute, calmPends: "one burst pends for the 5 minutes the maximum holds it",
	},
	// Objects remain and none is handled; calm is the same count while objects are handled.
	"KMSMigrationStalled": {
		fault: strings.Join([]string{
			`kmsguard_migration_remaining_objects{component="kube-apiserver",resource="secrets"} 100x302`,
			`kmsguard_migration_objects_total{component="kube-apiserver",resource="secrets"} 0x302`,
			`kmsguard_migration_paused{component="kube-apiserver",resource="secrets",reason="PausedKMSUnhealthy"} 0x302`,
		}, "\n"),
		calm: strings.Join([]string{
			`kmsguard_migration_remaining_objects{component="kube-apiserver",resource="secrets"} 100x302`,
			`kmsguard_migration_objects_total{component="kube-apiserver",resource="secrets"} 0+50x302`,
			`kmsguard_migration_paused{component="kube-apiserver",resource="secrets",reason="PausedKMSUnhealthy"} 0x302`,
		}, "\n"),
		faultAt: 0, wantFor: 5 * time.Minute,
		calmPends: "at the first evaluation the counter has one sample, so no rate, as after an operator restart",
	},
	// Not verified; calm is not verified while a migration of the resource runs.
	"KMSEncryptionNotVerified": {
		fault: `kmsguard_encryption_resource_verified{component="kube-apiserver",resource="secrets"} 1 1 0x300`,
		calm: strings.Join([]string{
			`kmsguard_encryption_resource_verified{component="kube-apiserver",resource="secrets"} 0x302`,
			`kmsguard_migration_remaining_objects{component="kube-apiserver",resource="secrets"} 5x302`,
		}, "\n"),
		faultAt: time.Minute, wantFor: time.Hour,
	},
	"KMSEncryptionCensusFailed":              stepsUp(`kmsguard_encryption_verification_state{component="kube-apiserver",reason="CensusFailed"}`, "1", 30*time.Minute, nil),
	"KMSEncryptionCensusTimeout":             stepsUp(`kmsguard_encryption_verification_state{component="kube-apiserver",reason="CensusDeadlineExceeded"}`, "1", 30*time.Minute, nil),
	"KMSConfigReverted":                      stepsUp(`kmsguard_kms_rollback_state{component="kube-apiserver",reason="RevertedFailingKMSConfig"}`, "1", 0, nil),
	"KMSConfigCannotBeReverted":              stepsUp(`kmsguard_kms_rollback_state{component="kube-apiserver",reason="CannotRevertKMSConfig"}`, "1", 2*time.Minute, nil),
	"KMSConfigNotRevertedOperatorNotManaged": stepsUp(`kmsguard_kms_rollback_state{component="kube-apiserver",reason="KMSConfigNotRevertedOperatorNotManaged"}`, "1", 2*time.Minute, nil),
	"KMSUndecryptableObjects":                stepsUp(`kmsguard_undecryptable_objects{component="kube-apiserver",resource="secrets"}`, "7", 15*time.Minute, map[string]string{"resource": "secrets"}),
}

// evalEnd is how long each case is evaluated: the load above spans 302 samples at 30 s.
const evalEnd = 150 * time.Minute

// alertTimeline is when an alert was first pending and first firing (-1 for never), and the labels it fired with.
type alertTimeline struct {
	pending, firing time.Duration
	labels          labels.Labels
}

// evaluate evaluates r with Prometheus's own rule engine every evalInterval from time 0 to evalEnd over input.
func evaluate(t *testing.T, r rule, input string) alertTimeline {
	t.Helper()
	storage := promqltest.LoadedStorage(t, "load 30s\n"+indent(input))
	t.Cleanup(func() { _ = storage.Close() })
	engine := promqltest.NewTestEngine(t, false, 0, promqltest.DefaultMaxSamplesPerQuery)
	alert, err := r.AlertingRule()
	if err != nil {
		t.Fatal(err)
	}
	query := rules.EngineQueryFunc(engine, storage)
	timeline := alertTimeline{pending: -1, firing: -1}
	for at := time.Duration(0); at <= evalEnd; at += evalInterval {
		if _, err := alert.Eval(context.Background(), 0, time.Unix(0, 0).Add(at), query, nil, 0); err != nil {
			t.Fatalf("%s at %s: %v", r.Alert, at, err)
		}
		for _, a := range alert.ActiveAlerts() {
			if timeline.pending < 0 {
				timeline.pending = at
			}
			if a.State == rules.StateFiring && timeline.firing < 0 {
				timeline.firing, timeline.labels = at, a.Labels
			}
		}
	}
	return timeline
}

func indent(input string) string {
	lines := strings.Split(input, "\n")
	for i := range lines {
		lines[i] = "  " + lines[i]
	}
	return strings.Join(lines, "\n")
}

// TestAlertsFireOnTheirFaultOnly evaluates every alert of the rule file with Prometheus's rule engine: on its fault
// it is pending when the expression first holds and fires exactly its `for:` later, with the labels that say
// where; on calm series of the same metrics it never fires (and never goes pending unless the case says why). A
// changed expression or `for:` fails here; a changed severity fails TestOnlyClusterWideLossPages.
func TestAlertsFireOnTheirFaultOnly(t *testing.T) {
	pr, err := ReadPrometheusRule()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, g := range pr.Spec.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" {
				continue
			}
			seen[r.Alert] = true
			c, ok := ruleCases[r.Alert]
			if !ok {
				t.Errorf("alert %s has no case in ruleCases", r.Alert)
				continue
			}
			t.Run(r.Alert, func(t *testing.T) {
				fault := evaluate(t, r, c.fault)
				if fault.pending != c.faultAt {
					t.Errorf("pending at %s on its fault, want %s", fault.pending, c.faultAt)
				}
				if want := c.faultAt + c.wantFor; fault.firing != want {
					t.Errorf("firing at %s on its fault, want %s (pending at %s, for: %s)", fault.firing, want, fault.pending, c.wantFor)
				}
				for name, value := range c.wantLabels {
					if got := fault.labels.Get(name); got != value {
						t.Errorf("fired with %s=%q, want %q (%s)", name, got, value, fault.labels)
					}
				}
				calm := evaluate(t, r, c.calm)
				switch {
				case calm.firing >= 0:
					t.Errorf("firing at %s on calm series, want never", calm.firing)
				case calm.pending >= 0 && c.calmPends == "":
					t.Errorf("pending at %s on calm series, want never", calm.pending)
				case calm.pending < 0 && c.calmPends != "":
					t.Errorf("never pending on calm series, but the case says it pends: %s", c.calmPends)
				}
			})
		}
	}
	for name := range ruleCases {
		if !seen[name] {
			t.Errorf("ruleCases has %s, which is no alert of the rule file", name)
		}
	}
}
