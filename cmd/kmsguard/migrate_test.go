package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
)

// migrateCluster is kube-apiserver serving Secrets as a migration sees it (internal/apiservertest), plus
// objects an admission webhook forbids to update.
type migrateCluster struct {
	*apiservertest.Secrets
	forbidden map[string]bool
	// beforeUpdate, when set, is called before every update with the number of updates so far.
	beforeUpdate func(n int)
}

// newMigrateCluster holds 40 stale secrets, ns00/s0000 to ns01/s0019.
func newMigrateCluster() *migrateCluster {
	c := &migrateCluster{Secrets: apiservertest.NewStaleSecrets(2, 20), forbidden: map[string]bool{}}
	c.BeforeUpdate = func(key string, n int) error {
		if c.beforeUpdate != nil {
			c.beforeUpdate(n)
		}
		if c.forbidden[key] {
			return apierrors.NewForbidden(apiservertest.GR, key, fmt.Errorf("denied by a webhook"))
		}
		return nil
	}
	return c
}

// clients are the dynamic client and mapper of the cluster, and configMaps for checkpoints.
func (c *migrateCluster) clients(configMaps *kubefake.Clientset) migrateClients {
	clients := migrateClients{dynamic: c.Dynamic(), mapper: apiservertest.Mapper()}
	if configMaps != nil {
		clients.configMaps = configMaps.CoreV1()
	}
	return clients
}

func testMigrateOptions() migrateOptions {
	plain := false
	return migrateOptions{resources: []string{"secrets"}, qps: -1, burst: 1, concurrency: 4, pageSize: 7, writeKey: "standalone", terminal: &plain}
}

func TestMigrate(t *testing.T) {
	scenarios := []struct {
		name      string
		opts      func(o *migrateOptions)
		setup     func(c *migrateCluster)
		want      int
		wantErr   string
		wantOut   []string
		wantStale int
		checkJSON func(t *testing.T, r migrateReport)
	}{
		{
			name:    "every object migrated",
			want:    exitOK,
			wantOut: []string{"secrets 40/40 migrated (40 rewritten, 0 already current, 0 written concurrently, 0 deleted); ", " objects/s over "},
		},
		{
			name: "objects under the current key are counted, not written",
			setup: func(c *migrateCluster) {
				for key := range c.Stale {
					c.Stale[key] = !strings.HasPrefix(key, "ns00/")
				}
			},
			want:    exitOK,
			wantOut: []string{"secrets 40/40 migrated (20 rewritten, 20 already current,"},
		},
		{
			name: "undecryptable objects: the rest is migrated, exit 2",
			setup: func(c *migrateCluster) {
				for _, key := range []string{"ns00/s0002", "ns00/s0010", "ns01/s0019"} {
					c.Unreadable[key] = true
				}
			},
			want:      exitIncomplete,
			wantStale: 3,
			wantOut: []string{
				" migrated (37 rewritten, 0 already current, 0 written concurrently, 0 deleted), 3 undecryptable; ",
				"  undecryptable (kmsguard recover deletes them) (first 3 of 3):\n    /kubernetes.io/secrets/ns00/s0002\n",
			},
		},
		{
			name:      "objects that cannot be rewritten: exit 2",
			setup:     func(c *migrateCluster) { c.forbidden["ns01/s0004"] = true },
			want:      exitIncomplete,
			wantStale: 1,
			wantOut:   []string{"secrets 39/40 migrated", ", 1 failed; ", "  not rewritten (first 1 of 1):\n    ns01/s0004\n"},
		},
		{
			name: "json",
			opts: func(o *migrateOptions) { o.output = "json" },
			setup: func(c *migrateCluster) {
				c.Unreadable["ns00/s0002"] = true
			},
			want:      exitIncomplete,
			wantStale: 1,
			checkJSON: func(t *testing.T, r migrateReport) {
				if r.ExitCode != exitIncomplete || len(r.Resources) != 1 {
					t.Fatalf("report %+v", r)
				}
				got := r.Resources[0]
				want := kmsmigration.Counts{Listed: 39, Rewritten: 39, Undecryptable: 1}
				if got.Resource != "secrets" || got.Counts != want || got.Resumed != nil ||
					got.Target.WriteKey != "standalone" || got.ObjectsPerSecond <= 0 {
					t.Errorf("result %+v, want counts %+v", got, want)
				}
				if len(got.UndecryptableKeys) != 1 || got.UndecryptableKeys[0] != "/kubernetes.io/secrets/ns00/s0002" || !strings.Contains(got.Error, "cannot be decrypted") {
					t.Errorf("undecryptable keys %v, error %q", got.UndecryptableKeys, got.Error)
				}
			},
		},
		{
			name:      "a resource the server does not serve: nothing is migrated",
			opts:      func(o *migrateOptions) { o.resources = []string{"secrets", "widgets.example.com"} },
			want:      exitError,
			wantErr:   "resolving widgets.example.com",
			wantStale: 40,
		},
		{
			name:      "unknown output format",
			opts:      func(o *migrateOptions) { o.output = "xml" },
			want:      exitError,
			wantErr:   `unknown output format "xml"`,
			wantStale: 40,
		},
		{
			name:      "qps 0 is refused",
			opts:      func(o *migrateOptions) { o.qps = 0 },
			want:      exitError,
			wantErr:   "--qps must not be 0",
			wantStale: 40,
		},
		{
			name:      "malformed checkpoint configmap",
			opts:      func(o *migrateOptions) { o.checkpoint = "just-a-name" },
			want:      exitError,
			wantErr:   "want namespace/name",
			wantStale: 40,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			cluster := newMigrateCluster()
			if s.setup != nil {
				s.setup(cluster)
			}
			opts := testMigrateOptions()
			if s.opts != nil {
				s.opts(&opts)
			}
			var out, errOut bytes.Buffer
			code, err := opts.run(context.Background(), &out, &errOut, cluster.clients(kubefake.NewClientset()))
			if code != s.want {
				t.Errorf("exit code %d, want %d (error %v)\n%s", code, s.want, err, out.String())
			}
			if (err != nil) != (s.wantErr != "") || (err != nil && !strings.Contains(err.Error(), s.wantErr)) {
				t.Errorf("error %v, want %q", err, s.wantErr)
			}
			if got := cluster.StaleCount(); got != s.wantStale {
				t.Errorf("%d objects stale after the migration, want %d", got, s.wantStale)
			}
			for _, want := range s.wantOut {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output does not contain %q:\n%s", want, out.String())
				}
			}
			if s.checkJSON != nil {
				var r migrateReport
				if err := json.Unmarshal(out.Bytes(), &r); err != nil {
					t.Fatalf("output is not JSON: %v\n%s", err, out.String())
				}
				s.checkJSON(t, r)
			}
		})
	}
}

// TestMigrateResumesFromCheckpoint: a checkpoint of the same write key that committed the first page resumes
// after it; one of another write key starts over.
func TestMigrateResumesFromCheckpoint(t *testing.T) {
	scenarios := []struct {
		name        string
		writeKey    string
		wantUpdates int
		wantCounts  kmsmigration.Counts
		wantResumed bool
	}{
		{name: "same write key: resumed", writeKey: "standalone", wantUpdates: 33, wantCounts: kmsmigration.Counts{Listed: 40, Rewritten: 40}, wantResumed: true},
		{name: "another write key: started over", writeKey: "other", wantUpdates: 40, wantCounts: kmsmigration.Counts{Listed: 40, Rewritten: 33, Unchanged: 7}},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			ctx := context.Background()
			cluster := newMigrateCluster()
			// An earlier run rewrote the first page and checkpointed it.
			first, err := cluster.List(ctx, metav1.ListOptions{Limit: 7})
			if err != nil {
				t.Fatal(err)
			}
			for i := range first.Items {
				cluster.Stale[apiservertest.Key(&first.Items[i])] = false
			}
			kube := kubefake.NewClientset()
			store := kmsmigration.ConfigMapCheckpoints{Client: kube.CoreV1(), Namespace: "kmsguard", Name: "migration"}
			if err := store.Save(ctx, apiservertest.GR, &kmsmigration.Checkpoint{
				Target:   kmsmigration.Target{WriteKey: s.writeKey},
				Continue: first.GetContinue(),
				Counts:   kmsmigration.Counts{Listed: 7, Rewritten: 7},
				Started:  time.Now().Add(-time.Hour),
			}); err != nil {
				t.Fatal(err)
			}

			opts := testMigrateOptions()
			opts.checkpoint, opts.output = "kmsguard/migration", "json"
			var out bytes.Buffer
			code, err := opts.run(ctx, &out, &bytes.Buffer{}, cluster.clients(kube))
			if code != exitOK || err != nil {
				t.Fatalf("exit code %d, error %v", code, err)
			}
			var r migrateReport
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out.String())
			}
			got := r.Resources[0]
			if got.Counts != s.wantCounts || (got.Resumed != nil) != s.wantResumed {
				t.Errorf("counts %+v, resumed %v; want %+v, resumed %v", got.Counts, got.Resumed, s.wantCounts, s.wantResumed)
			}
			if n := cluster.UpdateCount(); n != s.wantUpdates {
				t.Errorf("%d updates, want %d", n, s.wantUpdates)
			}
			if n := cluster.StaleCount(); n != 0 {
				t.Errorf("%d objects stale", n)
			}
			cp, err := store.Load(ctx, apiservertest.GR)
			if err != nil || cp == nil || cp.Finished.IsZero() || cp.Target.WriteKey != "standalone" {
				t.Errorf("checkpoint after the run: %+v, %v; want a finished one for write key standalone", cp, err)
			}
		})
	}
}

// TestMigrateInterrupted: an interrupted run exits 1 and says where its progress is; the next run finishes.
func TestMigrateInterrupted(t *testing.T) {
	cluster := newMigrateCluster()
	kube := kubefake.NewClientset()
	opts := testMigrateOptions()
	opts.checkpoint = "kmsguard/migration"

	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	cluster.beforeUpdate = func(n int) {
		if n == 20 {
			once.Do(cancel)
		}
	}
	var out bytes.Buffer
	code, err := opts.run(ctx, &out, &bytes.Buffer{}, cluster.clients(kube))
	if code != exitError || err == nil || !strings.Contains(err.Error(), "context canceled") ||
		!strings.Contains(err.Error(), "progress is saved in ConfigMap kmsguard/migration") {
		t.Fatalf("interrupted run: exit code %d, error %v; want %d with the checkpoint named", code, err, exitError)
	}
	cp, err := kmsmigration.ConfigMapCheckpoints{Client: kube.CoreV1(), Namespace: "kmsguard", Name: "migration"}.Load(context.Background(), apiservertest.GR)
	if err != nil || cp == nil || !cp.Finished.IsZero() {
		t.Fatalf("checkpoint after the interruption: %+v, %v; want an unfinished one", cp, err)
	}

	cluster.beforeUpdate = nil
	out.Reset()
	code, err = opts.run(context.Background(), &out, &bytes.Buffer{}, cluster.clients(kube))
	if code != exitOK || err != nil {
		t.Fatalf("second run: exit code %d, error %v\n%s", code, err, out.String())
	}
	if n := cluster.StaleCount(); n != 0 {
		t.Errorf("%d objects stale after the second run", n)
	}
	if !strings.Contains(out.String(), "secrets 40/40 migrated") {
		t.Errorf("the second run's summary does not count every object:\n%s", out.String())
	}
}

func TestProgressBar(t *testing.T) {
	secrets := schema.GroupResource{Resource: "secrets"}
	scenarios := []struct {
		name string
		p    kmsmigration.Progress
		rate float64
		want string
	}{
		{
			name: "running",
			p:    kmsmigration.Progress{Resource: secrets, Total: 100, Counts: kmsmigration.Counts{Listed: 50, Rewritten: 38, Unchanged: 2, Undecryptable: 2}},
			rate: 12.4,
			want: "secrets [============>                 ] 42/100  42%  12 objects/s, 2 undecryptable",
		},
		{
			name: "finished",
			p:    kmsmigration.Progress{Resource: secrets, Total: 10, Counts: kmsmigration.Counts{Listed: 10, Rewritten: 9, Failed: 1}},
			rate: 3,
			want: "secrets [==============================] 10/10 100%  3 objects/s, 1 failed",
		},
		{
			name: "the estimate was low",
			p:    kmsmigration.Progress{Resource: secrets, Total: 10, Counts: kmsmigration.Counts{Listed: 12, Rewritten: 12}},
			want: "secrets [==============================] 12/10 100%  0 objects/s",
		},
		{
			name: "total unknown, paused",
			p:    kmsmigration.Progress{Resource: schema.GroupResource{Group: "route.openshift.io", Resource: "routes"}, Counts: kmsmigration.Counts{Rewritten: 5}, Paused: kmsmigration.PausedKMSUnhealthy},
			rate: 1,
			want: "routes.route.openshift.io 5/?  1 objects/s, paused: PausedKMSUnhealthy",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			if got := progressBar(s.p, s.rate); got != s.want {
				t.Errorf("got  %q\nwant %q", got, s.want)
			}
		})
	}
}

func TestProgressReporterDraw(t *testing.T) {
	p := kmsmigration.Progress{Resource: schema.GroupResource{Resource: "secrets"}, Total: 4, Counts: kmsmigration.Counts{Listed: 2, Rewritten: 2}}
	scenarios := []struct {
		name     string
		terminal bool
		want     string
	}{
		{name: "terminal: redrawn in place", terminal: true, want: "\rsecrets [===============>              ] 2/4  50%  7 objects/s\x1b[K"},
		{name: "not a terminal: one line", want: "secrets 2/4 migrated (2 rewritten, 0 already current, 0 written concurrently, 0 deleted); 7 objects/s\n"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			var out bytes.Buffer
			(&progressReporter{out: &out, terminal: s.terminal}).draw(p, 7)
			if out.String() != s.want {
				t.Errorf("got  %q\nwant %q", out.String(), s.want)
			}
		})
	}
}

func TestIsTerminal(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for name, out := range map[string]interface{ Write([]byte) (int, error) }{"buffer": &bytes.Buffer{}, "regular file": file} {
		if isTerminal(out) {
			t.Errorf("%s taken for a terminal", name)
		}
	}
}

// TestMigrateFlags: the defaults are the migrator's.
func TestMigrateFlags(t *testing.T) {
	cmd, _, err := NewCommand().Find([]string{"migrate"})
	if err != nil || cmd.Name() != "migrate" {
		t.Fatalf("migrate is not registered: %v", err)
	}
	for flag, want := range map[string]string{
		"resources":            "[secrets]",
		"qps":                  strconv.Itoa(kmsmigration.DefaultQPS),
		"burst":                strconv.Itoa(kmsmigration.DefaultBurst),
		"concurrency":          strconv.Itoa(kmsmigration.DefaultConcurrency),
		"page-size":            strconv.Itoa(kmsmigration.DefaultPageSize),
		"write-key":            "standalone",
		"checkpoint-configmap": "",
	} {
		if got := cmd.Flags().Lookup(flag); got == nil || got.DefValue != want {
			t.Errorf("--%s defaults to %v, want %q", flag, got, want)
		}
	}
}
