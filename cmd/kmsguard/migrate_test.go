package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kmsguard/kmsguard/internal/cli"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

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

// TestMigrate is the command's side of a run: the flags it refuses before touching the cluster, the exit code of
// each outcome, and what it prints. What a run migrates is kmsmigration's (TestMigrateAll).
func TestMigrate(t *testing.T) {
	scenarios := []struct {
		name  string
		opts  func(o *migrateOptions)
		setup func(c *migrateCluster)
		// kube holds --checkpoint-configmap.
		kube    func(k *kubefake.Clientset)
		want    int
		wantErr string
		wantOut []string
		// wantUntouched: refused before the cluster is asked anything.
		wantUntouched bool
		checkJSON     func(t *testing.T, r migrateReport)
	}{
		{
			name:    "every object migrated",
			want:    cli.ExitOK,
			wantOut: []string{"secrets 40/40 migrated (40 rewritten, 0 already current, 0 written concurrently, 0 deleted); ", " objects/s over "},
		},
		{
			name: "objects under the current key are counted, not written",
			setup: func(c *migrateCluster) {
				for key := range c.Stale {
					c.Stale[key] = !strings.HasPrefix(key, "ns00/")
				}
			},
			want:    cli.ExitOK,
			wantOut: []string{"secrets 40/40 migrated (20 rewritten, 20 already current,"},
		},
		{
			name: "undecryptable objects: the rest is migrated, exit 2",
			setup: func(c *migrateCluster) {
				for _, key := range []string{"ns00/s0002", "ns00/s0010", "ns01/s0019"} {
					c.Unreadable[key] = true
				}
			},
			want: cli.ExitIncomplete,
			wantOut: []string{
				" migrated (37 rewritten, 0 already current, 0 written concurrently, 0 deleted), 3 undecryptable; ",
				"  undecryptable (kmsguard recover deletes them) (first 3 of 3):\n    /kubernetes.io/secrets/ns00/s0002\n",
			},
		},
		{
			name:    "objects that cannot be rewritten: exit 2",
			setup:   func(c *migrateCluster) { c.forbidden["ns01/s0004"] = true },
			want:    cli.ExitIncomplete,
			wantOut: []string{"secrets 39/40 migrated", ", 1 failed; ", "  not rewritten (first 1 of 1):\n    ns01/s0004\n"},
		},
		{
			name: "json",
			opts: func(o *migrateOptions) { o.output = "json" },
			setup: func(c *migrateCluster) {
				c.Unreadable["ns00/s0002"] = true
			},
			want: cli.ExitIncomplete,
			checkJSON: func(t *testing.T, r migrateReport) {
				if r.ExitCode != cli.ExitIncomplete || len(r.Resources) != 1 {
					t.Fatalf("report %+v", r)
				}
				got := r.Resources[0]
				want := kmsmigration.Counts{Listed: 39, Rewritten: 39, Undecryptable: 1}
				if got.Resource != "secrets" || got.Outcome != kmsmigration.RunIncomplete || got.Counts != want || got.Resumed != nil ||
					got.Target.WriteKey != "standalone" || got.ObjectsPerSecond <= 0 {
					t.Errorf("result %+v, want counts %+v", got, want)
				}
				if len(got.UndecryptableKeys) != 1 || got.UndecryptableKeys[0] != "/kubernetes.io/secrets/ns00/s0002" || !strings.Contains(got.Error, "cannot be decrypted") {
					t.Errorf("undecryptable keys %v, error %q", got.UndecryptableKeys, got.Error)
				}
			},
		},
		{
			name: "a checkpoint that cannot be read: the resource's error is printed, exit 1",
			opts: func(o *migrateOptions) { o.checkpoint = "kmsguard/migration" },
			kube: func(k *kubefake.Clientset) {
				k.PrependReactor("get", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
					return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "migration", errors.New("no get"))
				})
			},
			want:    cli.ExitError,
			wantErr: "secrets: reading migration checkpoints kmsguard/migration",
			wantOut: []string{"secrets: reading migration checkpoints kmsguard/migration: configmaps \"migration\" is forbidden: no get\n"},
		},
		{
			name:    "a resource the server does not serve: its error, exit 1",
			opts:    func(o *migrateOptions) { o.resources = []string{"secrets", "widgets.example.com"} },
			want:    cli.ExitError,
			wantErr: "resolving widgets.example.com",
		},
		{
			name:          "a malformed resource",
			opts:          func(o *migrateOptions) { o.resources = []string{"secrets", ""} },
			want:          cli.ExitError,
			wantErr:       `--resources: "" is not a resource`,
			wantUntouched: true,
		},
		{
			name:          "unknown output format",
			opts:          func(o *migrateOptions) { o.output = "xml" },
			want:          cli.ExitError,
			wantErr:       `unknown output format "xml"`,
			wantUntouched: true,
		},
		{
			name:          "qps 0 is refused",
			opts:          func(o *migrateOptions) { o.qps = 0 },
			want:          cli.ExitError,
			wantErr:       "--qps must not be 0",
			wantUntouched: true,
		},
		{
			name:          "malformed checkpoint configmap",
			opts:          func(o *migrateOptions) { o.checkpoint = "just-a-name" },
			want:          cli.ExitError,
			wantErr:       "want namespace/name",
			wantUntouched: true,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			cluster := newMigrateCluster()
			if s.setup != nil {
				s.setup(cluster)
			}
			kube := kubefake.NewClientset()
			if s.kube != nil {
				s.kube(kube)
			}
			opts := testMigrateOptions()
			if s.opts != nil {
				s.opts(&opts)
			}
			var out, errOut bytes.Buffer
			code, err := opts.run(context.Background(), &out, &errOut, cluster.clients(kube))
			if code != s.want {
				t.Errorf("exit code %d, want %d (error %v)\n%s", code, s.want, err, out.String())
			}
			if (err != nil) != (s.wantErr != "") || (err != nil && !strings.Contains(err.Error(), s.wantErr)) {
				t.Errorf("error %v, want %q", err, s.wantErr)
			}
			if s.wantUntouched && (cluster.Lists != 0 || cluster.UpdateCount() != 0 || len(kube.Actions()) != 0) {
				t.Errorf("bad flags, yet %d LISTs, %d updates and %d checkpoint requests were sent", cluster.Lists, cluster.UpdateCount(), len(kube.Actions()))
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

// TestMigrateCheckpointConfigMap: --checkpoint-configmap is where the checkpoints are, --write-key their target;
// a resumed migration prints the counts it resumed from, in text and JSON. Which checkpoint is resumed is
// kmsmigration's (TestMigrateAllResumes).
func TestMigrateCheckpointConfigMap(t *testing.T) {
	scenarios := []struct {
		name     string
		writeKey string
		output   cli.OutputFormat
		// wantResumed are the resumed counts printed; nil wants none.
		wantResumed *kmsmigration.Counts
		wantOut     string
	}{
		{name: "same write key: resumed", writeKey: "standalone", output: "json", wantResumed: &kmsmigration.Counts{Listed: 7, Rewritten: 7}},
		{name: "same write key: resumed, text", writeKey: "standalone", wantOut: "  resumed from a checkpoint with 7 objects migrated\n"},
		{name: "another write key: started over", writeKey: "other", output: "json"},
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
			opts.checkpoint, opts.output = "kmsguard/migration", s.output
			var out bytes.Buffer
			code, err := opts.run(ctx, &out, &bytes.Buffer{}, cluster.clients(kube))
			if code != cli.ExitOK || err != nil {
				t.Fatalf("exit code %d, error %v", code, err)
			}
			if s.output == "json" {
				var r migrateReport
				if err := json.Unmarshal(out.Bytes(), &r); err != nil {
					t.Fatalf("output is not JSON: %v\n%s", err, out.String())
				}
				if got := r.Resources[0].Resumed; (got == nil) != (s.wantResumed == nil) || (got != nil && *got != *s.wantResumed) {
					t.Errorf("resumed %v, want %v", got, s.wantResumed)
				}
			}
			if !strings.Contains(out.String(), s.wantOut) {
				t.Errorf("output does not contain %q:\n%s", s.wantOut, out.String())
			}
			cp, err := store.Load(ctx, apiservertest.GR)
			if err != nil || cp == nil || cp.Finished.IsZero() || cp.Target.WriteKey != "standalone" {
				t.Errorf("checkpoint in the ConfigMap after the run: %+v, %v; want a finished one for write key standalone", cp, err)
			}
		})
	}
}

// TestMigrateInterrupted: a stopped run exits 130 on a signal and 1 otherwise (--timeout), and says where its
// progress is; the next run says it resumed.
func TestMigrateInterrupted(t *testing.T) {
	scenarios := []struct {
		name  string
		cause error
		want  int
	}{
		{name: "a signal", cause: cli.ErrInterrupted, want: cli.ExitInterrupted},
		{name: "the timeout", cause: context.DeadlineExceeded, want: cli.ExitError},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			cluster := newMigrateCluster()
			kube := kubefake.NewClientset()
			opts := testMigrateOptions()
			opts.checkpoint = "kmsguard/migration"

			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var once sync.Once
			cluster.beforeUpdate = func(n int) {
				if n == 20 {
					once.Do(func() { cancel(s.cause) })
				}
			}
			var out bytes.Buffer
			code, err := opts.run(ctx, &out, &bytes.Buffer{}, cluster.clients(kube))
			if code != s.want || err == nil || !strings.Contains(err.Error(), "context canceled") ||
				!strings.Contains(err.Error(), "progress is saved in ConfigMap kmsguard/migration: run again with the same --write-key to resume") {
				t.Fatalf("interrupted run: exit code %d, error %v; want %d with the checkpoint named", code, err, s.want)
			}
			if !strings.Contains(out.String(), "secrets ") || !strings.Contains(out.String(), "  error: context canceled\n") {
				t.Errorf("the stopped resource's summary is not printed:\n%s", out.String())
			}
			cp, err := kmsmigration.ConfigMapCheckpoints{Client: kube.CoreV1(), Namespace: "kmsguard", Name: "migration"}.Load(context.Background(), apiservertest.GR)
			if err != nil || cp == nil {
				t.Fatalf("no checkpoint in the ConfigMap the error names: %+v, %v", cp, err)
			}

			cluster.beforeUpdate = nil
			out.Reset()
			code, err = opts.run(context.Background(), &out, &bytes.Buffer{}, cluster.clients(kube))
			if code != cli.ExitOK || err != nil {
				t.Fatalf("second run: exit code %d, error %v\n%s", code, err, out.String())
			}
			for _, want := range []string{"secrets 40/40 migrated", fmt.Sprintf("  resumed from a checkpoint with %d objects migrated\n", cp.Counts.Done())} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("the second run's summary does not contain %q:\n%s", want, out.String())
				}
			}
		})
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
		if cli.IsTerminal(out) {
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
