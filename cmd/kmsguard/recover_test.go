package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	discoveryfake "k8s.io/client-go/discovery/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/kmsguard/kmsguard/pkg/kmsrollback/recovery"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback/recovery/recoverytest"
)

// recoverDiscovery serves secrets and configmaps only, as a plain Kubernetes apiserver.
func recoverDiscovery() *discoveryfake.FakeDiscovery {
	return &discoveryfake.FakeDiscovery{Fake: &clienttesting.Fake{Resources: []*metav1.APIResourceList{{
		GroupVersion: "v1",
		APIResources: []metav1.APIResource{{Name: "secrets", Namespaced: true}, {Name: "configmaps", Namespaced: true}},
	}}}}
}

// TestRecover runs the command against a fake apiserver with 150 undecryptable Secrets under key-lost (more than
// one StorageReadError names), 20 under key-live that read fine, and checks the exit code, what was deleted and
// the report for each way to call it.
func TestRecover(t *testing.T) {
	const lost = 150
	scenarios := []struct {
		name    string
		opts    recoverOptions
		noLost  bool
		setup   func(c *recoverytest.Cluster)
		noEtcd  bool
		want    int
		wantErr string
		// wantDeleted is the number of unsafe deletes; all must be of lost Secrets.
		wantDeleted int
		wantOut     []string
		checkJSON   func(t *testing.T, r recoverReport)
	}{
		{
			name:    "nothing undecryptable",
			noLost:  true,
			want:    recoverExitOK,
			wantOut: []string{"skipped routes.route.openshift.io: not served", "secrets: 0 undecryptable of 20", "Nothing is undecryptable."},
		},
		{
			name:    "missing consent: report only",
			want:    recoverExitUndecryptable,
			wantOut: []string{"secrets: 150 undecryptable of 170", "key-lost  secrets   app/lost-0000 ", "Nothing was deleted.", "key ids: key-lost"},
		},
		{
			name:    "wrong key id",
			opts:    recoverOptions{consent: "key-live"},
			want:    recoverExitConsentMismatch,
			wantOut: []string{"--confirm-data-loss=key-live matches no undecryptable object; they are stored under key-lost"},
		},
		{
			name:    "consent, dry run by default",
			opts:    recoverOptions{consent: "key-lost", dryRun: true},
			want:    recoverExitUndecryptable,
			wantOut: []string{"Dry run: would delete 150 undecryptable objects stored under key key-lost"},
		},
		{
			name:        "consent, no dry run",
			opts:        recoverOptions{consent: "key-lost"},
			want:        recoverExitOK,
			wantDeleted: lost,
			wantOut:     []string{"deleted 150 undecryptable objects", "Deleted objects no operator is expected to recreate", "secrets app/lost-0000", "Undecryptable objects left: 0"},
		},
		{
			name:        "consent, no dry run, json",
			opts:        recoverOptions{consent: "key-lost", output: "json"},
			want:        recoverExitOK,
			wantDeleted: lost,
			checkJSON: func(t *testing.T, r recoverReport) {
				if r.Deletion == nil || r.Deletion.Count(recovery.OutcomeDeleted) != lost || r.Remaining == nil || *r.Remaining != 0 || r.ExitCode != 0 {
					t.Errorf("report %+v", r)
				}
				if len(r.NotExpectedBack) != lost-10 {
					t.Errorf("%d objects not expected back, want %d (the ones outside openshift-*)", len(r.NotExpectedBack), lost-10)
				}
				if len(r.Found) != 2 || len(r.Found[0].Unreadable) != lost || r.Found[0].Readable != 20 {
					t.Errorf("found %+v", r.Found)
				}
			},
		},
		{
			name:        "consent, objects under another key remain",
			opts:        recoverOptions{consent: "key-lost"},
			setup:       func(c *recoverytest.Cluster) { c.Add(recoverytest.ConfigMaps, "app", "other", "key-other", false) },
			want:        recoverExitUndecryptable,
			wantDeleted: lost,
			wantOut:     []string{"configmaps: 1 undecryptable of 1", "Undecryptable objects left: 1"},
		},
		{
			name:    "consent without the RBAC verb",
			opts:    recoverOptions{consent: "key-lost"},
			setup:   func(c *recoverytest.Cluster) { c.ForbidUnsafeDelete() },
			want:    recoverExitError,
			wantErr: "150 deletes failed",
			wantOut: []string{"Failed secrets \"lost-0000\" is forbidden"},
		},
		{
			name:    "without etcd the key id is unknown, and the consent must name that",
			opts:    recoverOptions{consent: recovery.UnknownKeyID, dryRun: true},
			noEtcd:  true,
			want:    recoverExitUndecryptable,
			wantOut: []string{"unknown  secrets   app/lost-0000 ", "would delete 150"},
		},
		{
			name:    "unknown output format",
			opts:    recoverOptions{output: "yaml"},
			want:    recoverExitError,
			wantErr: `unknown output format "yaml"`,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
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
				s.setup(cluster)
			}
			opts := s.opts
			opts.resources = []string{"secrets", "configmaps", "routes.route.openshift.io"}
			raw := cluster.Raw()
			if s.noEtcd {
				raw = nil
			}
			var out bytes.Buffer
			code, err := opts.run(context.Background(), &out, recoverDiscovery(), cluster.Dynamic, raw)
			if code != s.want {
				t.Errorf("exit code %d, want %d (error %v)\n%s", code, s.want, err, out.String())
			}
			if (err != nil) != (s.wantErr != "") || (err != nil && !strings.Contains(err.Error(), s.wantErr)) {
				t.Errorf("error %v, want %q", err, s.wantErr)
			}
			deleted := cluster.UnsafeDeleted()
			if len(deleted) != s.wantDeleted {
				t.Errorf("%d unsafe deletes, want %d", len(deleted), s.wantDeleted)
			}
			for _, key := range deleted {
				if !strings.Contains(key, "/lost-") {
					t.Errorf("deleted %s, which is not under the consented key", key)
				}
			}
			for _, want := range s.wantOut {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output does not contain %q:\n%s", want, out.String())
				}
			}
			if s.checkJSON != nil {
				var r recoverReport
				if err := json.Unmarshal(out.Bytes(), &r); err != nil {
					t.Fatalf("output is not JSON: %v\n%s", err, out.String())
				}
				s.checkJSON(t, r)
			}
		})
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
		"resources":         "[secrets,configmaps,routes.route.openshift.io,oauthaccesstokens.oauth.openshift.io,oauthauthorizetokens.oauth.openshift.io]",
		"etcd-endpoints":    "[]",
	} {
		if got := cmd.Flags().Lookup(flag); got == nil || got.DefValue != want {
			t.Errorf("--%s defaults to %v, want %q", flag, got, want)
		}
	}
}
