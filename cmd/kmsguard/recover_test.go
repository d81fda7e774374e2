package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kmsguard/kmsguard/internal/cli"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	discoveryfake "k8s.io/client-go/discovery/fake"
	clienttesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kmsguard/kmsguard/internal/recoverytest"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// recoverDiscovery serves secrets and configmaps only, as a plain Kubernetes apiserver.
func recoverDiscovery() *discoveryfake.FakeDiscovery {
	return &discoveryfake.FakeDiscovery{Fake: &clienttesting.Fake{Resources: []*metav1.APIResourceList{{
		GroupVersion: "v1",
		APIResources: []metav1.APIResource{{Name: "secrets", Namespaced: true}, {Name: "configmaps", Namespaced: true}},
	}}}}
}

var recoverT0 = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// kmsViewOf is the KMS view the CLI builds: the reports of nodes master-0 and master-1 on key "1", evaluated by
// kmsstate, plus every report's KEK id.
func kmsViewOf(reports ...operatorv1.KMSPluginHealthReport) kmsrecovery.KMSView {
	return kmsrecovery.KMSViewFunc(func(context.Context) (kmsrecovery.KMSSnapshot, error) {
		state, _ := kmsstate.Evaluate(kmsstate.Config{}, kmsstate.Memory{}, kmsstate.Observation{
			Now: recoverT0, Nodes: []string{"master-0", "master-1"}, KeyIDs: []string{"1"}, Reports: reports,
		})
		s := kmsrecovery.SnapshotFromKMSState(state)
		s.AddReports(reports)
		return s, nil
	})
}

func report(node string, status operatorv1.KMSPluginHealthStatus, kekID string) operatorv1.KMSPluginHealthReport {
	return operatorv1.KMSPluginHealthReport{NodeName: node, KeyID: "1", Status: status, RemoteKeyID: kekID, LastCheckedTime: metav1.NewTime(recoverT0)}
}

// healthyKMSView: both nodes' plugins healthy, serving key-live.
func healthyKMSView() kmsrecovery.KMSView {
	return kmsViewOf(report("master-0", operatorv1.KMSPluginHealthStatusHealthy, "key-live"), report("master-1", operatorv1.KMSPluginHealthStatusHealthy, "key-live"))
}

// recoverLines splits JSON-lines output by kind.
func recoverLines(t *testing.T, out []byte) (deletions []kmsrecovery.Result, reports []recoverReport, ends []endLine, kinds []string) {
	t.Helper()
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var kind struct{ Kind string }
		if err := json.Unmarshal(line, &kind); err != nil {
			t.Fatalf("not a JSON line: %v: %s", err, line)
		}
		kinds = append(kinds, kind.Kind)
		switch kind.Kind {
		case "deletion":
			var d deletionLine
			if err := json.Unmarshal(line, &d); err != nil {
				t.Fatal(err)
			}
			deletions = append(deletions, d.Result)
		case "report":
			var r recoverReport
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatal(err)
			}
			reports = append(reports, r)
		case "end":
			var e endLine
			if err := json.Unmarshal(line, &e); err != nil {
				t.Fatal(err)
			}
			ends = append(ends, e)
		default:
			t.Fatalf("line of unknown kind: %s", line)
		}
	}
	return
}

// TestRecover runs the command against a fake apiserver with 150 undecryptable Secrets under kms:key-lost
// (more than one StorageReadError names), 20 under key-live that read fine, and checks the exit code and what
// was printed for each way to call it. What the run deletes and records is kmsrecovery's (TestRun).
func TestRecover(t *testing.T) {
	const lost = 150
	errInterruptedAt := func(n int) func(c *recoverytest.Cluster, cancel context.CancelCauseFunc) {
		return func(c *recoverytest.Cluster, cancel context.CancelCauseFunc) {
			seen := 0
			c.BeforeDelete(func(kmsrecovery.Resource, string, string) {
				if seen++; seen == n {
					cancel(cli.ErrInterrupted)
				}
			})
		}
	}
	failScanAfterDeleting := func(c *recoverytest.Cluster, _ context.CancelCauseFunc) {
		failing := false
		c.Fake.PrependReactor("list", "*", func(clienttesting.Action) (bool, runtime.Object, error) {
			return failing, nil, apierrors.NewServiceUnavailable("apiserver restarting")
		})
		c.BeforeDelete(func(kmsrecovery.Resource, string, string) { failing = true })
	}
	scenarios := []struct {
		name   string
		opts   recoverOptions
		noLost bool
		setup  func(c *recoverytest.Cluster, cancel context.CancelCauseFunc)
		noEtcd bool
		// kms replaces healthyKMSView.
		kms     kmsrecovery.KMSView
		want    int
		wantErr string
		wantOut []string
		// wantRecorded: the command handed its recorder to the run, which recorded the deletion in the cluster.
		wantRecorded bool
		checkJSON    func(t *testing.T, deletions []kmsrecovery.Result, reports []recoverReport, ends []endLine, kinds []string)
	}{
		{
			name:    "nothing undecryptable",
			noLost:  true,
			want:    cli.ExitOK,
			wantOut: []string{"skipped routes.route.openshift.io: not served", "secrets: 0 undecryptable of 20", "Nothing is undecryptable."},
		},
		{
			name:    "missing consent: report only",
			want:    cli.ExitIncomplete,
			wantOut: []string{"secrets: 150 undecryptable of 170", "kms:key-lost  secrets   app/lost-0000 ", "Nothing was deleted.", "(keys: kms:key-lost)"},
		},
		{
			name:    "wrong key id",
			opts:    recoverOptions{consent: "key-live"},
			want:    exitConsentMismatch,
			wantOut: []string{"--confirm-data-loss=key-live matches no undecryptable object; they are stored under kms:key-lost"},
		},
		{
			name:    "consent, dry run by default",
			opts:    recoverOptions{consent: "key-lost", dryRun: true},
			want:    cli.ExitIncomplete,
			wantOut: []string{"would delete secrets openshift-config/lost-0149 (etcd key /registry/secrets/openshift-config/lost-0149, key kms:key-lost)", "Dry run: would delete 150 undecryptable objects stored under key kms:key-lost"},
		},
		{
			name:         "consent, no dry run",
			opts:         recoverOptions{consent: "kms:key-lost"},
			want:         cli.ExitOK,
			wantRecorded: true,
			wantOut: []string{"deleted secrets app/lost-0000 (etcd key /registry/secrets/app/lost-0000, key kms:key-lost)\n", "deleted 150 undecryptable objects",
				"Deleted objects no operator is expected to recreate", "  secrets app/lost-0000\n", "Undecryptable objects left: 0"},
		},
		{
			name:         "consent, no dry run, json lines",
			opts:         recoverOptions{consent: "key-lost", output: "json"},
			want:         cli.ExitOK,
			wantRecorded: true,
			checkJSON: func(t *testing.T, deletions []kmsrecovery.Result, reports []recoverReport, ends []endLine, kinds []string) {
				if len(deletions) != lost || deletions[0].Name != "lost-0000" || deletions[0].Outcome != kmsrecovery.OutcomeDeleted {
					t.Errorf("%d deletion lines, first %+v; want %d, lost-0000 Deleted", len(deletions), deletions[0], lost)
				}
				if len(kinds) != lost+2 || kinds[lost] != "report" || kinds[lost+1] != "end" {
					t.Errorf("lines %v..., want %d deletions, the report, the end", kinds[len(kinds)-3:], lost)
				}
				r := reports[0]
				if r.Deletion == nil || r.Deletion.Count(kmsrecovery.OutcomeDeleted) != lost || len(r.NotExpectedBack) != lost-10 {
					t.Errorf("report %+v", r)
				}
				if len(r.Found) != 2 || len(r.Found[0].Unreadable) != lost || r.Found[0].Readable != 20 {
					t.Errorf("found %+v", r.Found)
				}
				if e := ends[0]; e.ExitCode != 0 || e.Remaining == nil || *e.Remaining != 0 || e.Error != "" {
					t.Errorf("end %+v", e)
				}
			},
		},
		{
			name: "consent, objects under another key remain",
			opts: recoverOptions{consent: "key-lost"},
			setup: func(c *recoverytest.Cluster, _ context.CancelCauseFunc) {
				c.Add(recoverytest.ConfigMaps, "app", "other", "key-other", false)
			},
			want:         cli.ExitIncomplete,
			wantRecorded: true,
			wantOut:      []string{"configmaps: 1 undecryptable of 1", "Undecryptable objects left: 1"},
		},
		{
			name:         "consent without the RBAC verb",
			opts:         recoverOptions{consent: "key-lost"},
			setup:        func(c *recoverytest.Cluster, _ context.CancelCauseFunc) { c.ForbidUnsafeDelete() },
			want:         cli.ExitError,
			wantErr:      "150 deletes failed",
			wantRecorded: true,
			wantOut:      []string{"failed to delete secrets app/lost-0000 (etcd key /registry/secrets/app/lost-0000, key kms:key-lost): secrets \"lost-0000\" is forbidden"},
		},
		{
			name:    "without etcd the key is unknown, and a consent for unknown is refused",
			opts:    recoverOptions{consent: kmsrecovery.UnknownConsentID},
			noEtcd:  true,
			want:    exitConsentUnprovable,
			wantOut: []string{"unknown  secrets   app/lost-0000 ", "--confirm-data-loss refused (ConsentUnprovable)"},
		},
		{
			name:    "without etcd and without consent: nothing can be consented",
			noEtcd:  true,
			want:    cli.ExitIncomplete,
			wantOut: []string{"No undecryptable object can be deleted by a consent: the key of each is unknown"},
		},
		{
			name: "consent identity: corrupt plaintext",
			opts: recoverOptions{consent: "identity"},
			setup: func(c *recoverytest.Cluster, _ context.CancelCauseFunc) {
				c.AddRaw(recoverytest.ConfigMaps, "app", "corrupt", []byte("k8s\x00\n\x0c\n\x02v1\x12\x06Secret\x1a"), false)
			},
			want:    exitConsentUnprovable,
			wantOut: []string{"identity      configmaps  app/corrupt", "is corrupt, not encrypted under a lost key"},
		},
		{
			name:    "consent naming the KEK id a plugin serves",
			opts:    recoverOptions{consent: "key-lost"},
			kms:     kmsViewOf(report("master-0", operatorv1.KMSPluginHealthStatusHealthy, "key-lost"), report("master-1", operatorv1.KMSPluginHealthStatusHealthy, "key-lost")),
			want:    exitConsentNamesCurrentKey,
			wantOut: []string{"--confirm-data-loss refused (ConsentNamesCurrentKey)", "node master-0 key 1"},
		},
		{
			name:    "consent while the current key's plugin is unreachable on a node",
			opts:    recoverOptions{consent: "key-lost"},
			kms:     kmsViewOf(report("master-0", operatorv1.KMSPluginHealthStatusHealthy, "key-live"), report("master-1", operatorv1.KMSPluginHealthStatusError, "unknown")),
			want:    exitKMSUnhealthy,
			wantOut: []string{"--confirm-data-loss refused (KMSUnhealthy)", "PluginUnreachable: node master-1 key 1"},
		},
		{
			name: "consent when the health reports cannot be read",
			opts: recoverOptions{consent: "key-lost"},
			kms: kmsrecovery.KMSViewFunc(func(context.Context) (kmsrecovery.KMSSnapshot, error) {
				return kmsrecovery.KMSSnapshot{}, errors.New("reading the kubeapiserver operator resource: forbidden")
			}),
			want:    exitKMSUnhealthy,
			wantOut: []string{"forbidden"},
		},
		{
			name: "a bare KEK id two providers have",
			opts: recoverOptions{consent: "key-lost"},
			setup: func(c *recoverytest.Cluster, _ context.CancelCauseFunc) {
				c.AddKMS(recoverytest.ConfigMaps, "app", "twin", "other-kms", "key-lost", false)
			},
			want:    exitConsentMismatch,
			wantOut: []string{"(ConsentAmbiguous)", "kms:key-lost, other-kms:key-lost"},
		},
		{
			name:         "the scan after the deletion fails: the record is printed",
			opts:         recoverOptions{consent: "key-lost"},
			setup:        failScanAfterDeleting,
			want:         cli.ExitError,
			wantErr:      "scanning after the deletion",
			wantRecorded: true,
			wantOut:      []string{"deleted secrets openshift-config/lost-0149 ", "deleted 150 undecryptable objects stored under key kms:key-lost", "  secrets app/lost-0000\n"},
		},
		{
			name:         "the scan after the deletion fails: the record is printed, json lines",
			opts:         recoverOptions{consent: "key-lost", output: "json"},
			setup:        failScanAfterDeleting,
			want:         cli.ExitError,
			wantErr:      "scanning after the deletion",
			wantRecorded: true,
			checkJSON: func(t *testing.T, deletions []kmsrecovery.Result, reports []recoverReport, ends []endLine, kinds []string) {
				if len(deletions) != lost || len(reports) != 1 || reports[0].Deletion.Count(kmsrecovery.OutcomeDeleted) != lost {
					t.Errorf("%d deletion lines and %d reports, want %d and one with %d deleted", len(deletions), len(reports), lost, lost)
				}
				if e := ends[0]; e.ExitCode != cli.ExitError || e.Remaining != nil || !strings.Contains(e.Error, "apiserver restarting") {
					t.Errorf("end %+v", e)
				}
			},
		},
		{
			name:         "interrupted during the 5th delete: it completes, nothing after it is tried",
			opts:         recoverOptions{consent: "key-lost"},
			setup:        errInterruptedAt(5),
			want:         cli.ExitInterrupted,
			wantErr:      "interrupted: 145 objects not tried",
			wantRecorded: true,
			wantOut:      []string{"deleted secrets app/lost-0004 ", "\ndeleted 5 undecryptable objects stored under key kms:key-lost (skipped: 0 readable again, 0 gone, 0 under another key; failed: 0); stopped (interrupted) with 145 objects not tried."},
		},
		{
			name:         "interrupted, json lines",
			opts:         recoverOptions{consent: "key-lost", output: "json"},
			setup:        errInterruptedAt(5),
			want:         cli.ExitInterrupted,
			wantErr:      "interrupted",
			wantRecorded: true,
			checkJSON: func(t *testing.T, deletions []kmsrecovery.Result, reports []recoverReport, ends []endLine, kinds []string) {
				d := reports[0].Deletion
				if len(deletions) != 5 || d.Count(kmsrecovery.OutcomeDeleted) != 5 || d.NotTried != 145 || d.Stopped != "interrupted" || ends[0].ExitCode != cli.ExitInterrupted {
					t.Errorf("%d deletion lines, report %d deleted, %d not tried, stopped %q, end %+v", len(deletions), d.Count(kmsrecovery.OutcomeDeleted), d.NotTried, d.Stopped, ends[0])
				}
			},
		},
		{
			name:    "unknown output format",
			opts:    recoverOptions{output: "xml"},
			want:    cli.ExitError,
			wantErr: `unknown output format "xml"`,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			cluster := recoverytest.NewCluster()
			for i := 0; i < 20; i++ {
				cluster.Add(recoverytest.Secrets, "app", fmt.Sprintf("live-%04d", i), "key-live", true)
			}
			if !s.noLost {
				for i := 0; i < lost; i++ {
					ns := "app"
					if i >= lost-10 {
						ns = "openshift-config"
					}
					cluster.Add(recoverytest.Secrets, ns, fmt.Sprintf("lost-%04d", i), "key-lost", false)
				}
			}
			if s.setup != nil {
				s.setup(cluster, cancel)
			}
			opts := s.opts
			opts.resources = []string{"secrets", "configmaps", "routes.route.openshift.io"}
			opts.operator = "kubeapiserver"
			recorder := events.NewInMemoryRecorder("kmsguard-recover", clocktesting.NewFakePassiveClock(recoverT0))
			c := recoverClients{discovery: recoverDiscovery(), dynamic: cluster.Dynamic, raw: cluster.Raw(), kms: s.kms, recorder: recorder}
			if s.noEtcd {
				c.raw = nil
			}
			if c.kms == nil {
				c.kms = healthyKMSView()
			}
			var out, errOut bytes.Buffer
			code, err := opts.run(ctx, &out, &errOut, c)
			if code != s.want {
				t.Errorf("exit code %d, want %d (error %v)\n%s", code, s.want, err, out.String())
			}
			if (err != nil) != (s.wantErr != "") || (err != nil && !strings.Contains(err.Error(), s.wantErr)) {
				t.Errorf("error %v, want %q", err, s.wantErr)
			}
			if deleted := len(cluster.UnsafeDeleted()); opts.output == "" {
				if n := strings.Count(out.String(), "\ndeleted secrets "); n != deleted {
					t.Errorf("%d deletion lines printed, want one per delete: %d", n, deleted)
				}
			}
			for _, want := range s.wantOut {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output does not contain %q:\n%s", want, out.String())
				}
			}
			recorded := false
			for _, e := range recorder.Events() {
				recorded = recorded || e.Reason == kmsrecovery.EventObjectsDeletedBatch
			}
			if recorded != s.wantRecorded {
				t.Errorf("deletion recorded in the cluster: %v, want %v", recorded, s.wantRecorded)
			}
			if s.checkJSON != nil {
				deletions, reports, ends, kinds := recoverLines(t, out.Bytes())
				if len(reports) != 1 || len(ends) != 1 || kinds[len(kinds)-1] != "end" {
					t.Fatalf("want one report and one end line last: %v", kinds)
				}
				s.checkJSON(t, deletions, reports, ends, kinds)
			}
		})
	}
}

// TestRecoverScanProgress: a scan longer than the progress interval prints progress lines on stderr, never on
// stdout, JSON or not.
func TestRecoverScanProgress(t *testing.T) {
	for _, output := range []cli.OutputFormat{cli.OutputText, cli.OutputJSON, cli.OutputYAML} {
		cluster := recoverytest.NewCluster()
		for i := 0; i < 30; i++ {
			cluster.Add(recoverytest.Secrets, "app", fmt.Sprintf("live-%04d", i), "key-live", true)
		}
		// Each reading of the clock is a second later: with an interval of 10 s a line every 10 objects.
		now := recoverT0
		opts := recoverOptions{resources: []string{"secrets"}, operator: "kubeapiserver", output: output, pageSize: 7, progressInterval: 10 * time.Second,
			progressNow: func() time.Time { now = now.Add(time.Second); return now }}
		var out, errOut bytes.Buffer
		code, err := opts.run(context.Background(), &out, &errOut, recoverClients{discovery: recoverDiscovery(), dynamic: cluster.Dynamic, raw: cluster.Raw(), kms: healthyKMSView()})
		if code != cli.ExitOK || err != nil {
			t.Fatalf("-o %q: exit %d, %v", output, code, err)
		}
		want := "scanning secrets: 10 objects listed, 0 undecryptable so far\nscanning secrets: 20 objects listed, 0 undecryptable so far\nscanning secrets: 30 objects listed, 0 undecryptable so far\n"
		if errOut.String() != want {
			t.Errorf("-o %q: stderr %q, want %q", output, errOut.String(), want)
		}
		if strings.Contains(out.String(), "scanning") {
			t.Errorf("-o %q: progress on stdout: %s", output, out.String())
		}
	}
}

// TestRecoverFlags: deleting takes two explicit flags; the defaults only report.
func TestRecoverFlags(t *testing.T) {
	cmd, _, err := NewCommand().Find([]string{"recover"})
	if err != nil || cmd.Name() != "recover" {
		t.Fatalf("recover is not registered: %v", err)
	}
	for flag, want := range map[string]string{
		"dry-run":           "true",
		"confirm-data-loss": "",
		"operator":          "kubeapiserver",
		"resources":         "[secrets,configmaps,routes.route.openshift.io,oauthaccesstokens.oauth.openshift.io,oauthauthorizetokens.oauth.openshift.io]",
		"etcd-endpoints":    "[]",
	} {
		if got := cmd.Flags().Lookup(flag); got == nil || got.DefValue != want {
			t.Errorf("--%s defaults to %v, want %q", flag, got, want)
		}
	}
}
