package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kmsguard/kmsguard/internal/cli"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// countsCounter is the API's object count per resource, the same at every revision.
type countsCounter map[schema.GroupResource]int64

func (c countsCounter) CountObjects(_ context.Context, gr schema.GroupResource, rev int64) (evidence.ObjectCount, error) {
	n, ok := c[gr]
	if !ok {
		return evidence.ObjectCount{}, fmt.Errorf("the server could not find the requested resource %s", gr)
	}
	return evidence.ObjectCount{Objects: n, Revision: max(rev, 1), Consistent: true}, nil
}

// crdLookup says that the given resources are custom resources and that nothing is aggregated.
type crdLookup map[schema.GroupResource]bool

func (l crdLookup) IsCustomResource(_ context.Context, gr schema.GroupResource) (bool, error) {
	return l[gr], nil
}
func (crdLookup) IsAggregated(context.Context, string) (bool, error) { return false, nil }

func TestVerifyCommand(t *testing.T) {
	secrets := schema.GroupResource{Resource: "secrets"}
	widgets := schema.GroupResource{Group: "example.com", Resource: "widgets"}
	routes := schema.GroupResource{Group: "route.openshift.io", Resource: "routes"}
	want := evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "vault", KEKID: "kek-2"}
	current := etcdtest.KMSv2Value("vault", "kek-2")
	scenarios := []struct {
		name       string
		keys       []string
		prefix     string
		grs        []schema.GroupResource
		counts     countsCounter
		wantCode   int
		wantErr    string
		wantStderr []string
		// wantPrefixes and wantReasons are per resource of the JSON report.
		wantPrefixes []string
		wantReasons  []string
	}{
		{
			name: "OpenShift's prefix detected, every object under the write key", keys: []string{"/kubernetes.io/secrets/a/1", "/kubernetes.io/secrets/b/2"},
			grs: []schema.GroupResource{secrets}, counts: countsCounter{secrets: 2}, wantCode: cli.ExitOK,
			wantStderr:   []string{"secrets (kube-apiserver): scanning /kubernetes.io/secrets/, etcd prefix /kubernetes.io detected"},
			wantPrefixes: []string{"/kubernetes.io/secrets/"}, wantReasons: []string{""},
		},
		{
			name: "a custom resource, a route and a Secret, each under its own prefix",
			keys: []string{"/registry/secrets/a/1", "/registry/example.com/widgets/a/w", "/openshift.io/routes/a/r"},
			grs:  []schema.GroupResource{secrets, widgets, routes}, counts: countsCounter{secrets: 1, widgets: 1, routes: 1}, wantCode: cli.ExitOK,
			wantPrefixes: []string{"/registry/secrets/", "/registry/example.com/widgets/", "/openshift.io/routes/"}, wantReasons: []string{"", "", ""},
		},
		{
			name: "zero keys while the API lists objects", keys: []string{"/kubernetes.io/configmaps/a/c"},
			grs: []schema.GroupResource{secrets}, counts: countsCounter{secrets: 3}, wantCode: cli.ExitIncomplete,
			wantPrefixes: []string{"/kubernetes.io/secrets/"}, wantReasons: []string{string(evidence.ReasonNoKeys)},
		},
		{
			name: "zero keys and no objects: verified empty", keys: []string{"/kubernetes.io/configmaps/a/c"},
			grs: []schema.GroupResource{secrets}, counts: countsCounter{secrets: 0}, wantCode: cli.ExitOK,
			wantStderr:   []string{"no keys of the resource under any known prefix; /kubernetes.io holds other keys"},
			wantPrefixes: []string{"/kubernetes.io/secrets/"}, wantReasons: []string{""},
		},
		{
			name: "more objects than keys", keys: []string{"/registry/secrets/a/1"},
			grs: []schema.GroupResource{secrets}, counts: countsCounter{secrets: 2}, wantCode: cli.ExitIncomplete,
			wantPrefixes: []string{"/registry/secrets/"}, wantReasons: []string{string(evidence.ReasonCountMismatch)},
		},
		{
			name: "an explicit prefix under which no resource has a key is an error", keys: []string{"/kubernetes.io/secrets/a/1"}, prefix: "/registry",
			grs: []schema.GroupResource{secrets}, counts: countsCounter{secrets: 1}, wantCode: cli.ExitError,
			wantErr: "no resource has any key under --etcd-prefix=/registry (/registry/secrets/: the API lists 1 objects)",
		},
		{
			name: "an explicit prefix that holds the keys", keys: []string{"/kubernetes.io/secrets/a/1"}, prefix: "kubernetes.io",
			grs: []schema.GroupResource{secrets}, counts: countsCounter{secrets: 1}, wantCode: cli.ExitOK,
			wantStderr:   []string{"scanning /kubernetes.io/secrets/, from --etcd-prefix"},
			wantPrefixes: []string{"/kubernetes.io/secrets/"}, wantReasons: []string{""},
		},
		{
			name: "keys under two roots", keys: []string{"/kubernetes.io/secrets/a/1", "/registry/secrets/a/1"},
			grs: []schema.GroupResource{secrets}, counts: countsCounter{secrets: 1}, wantCode: cli.ExitError, wantErr: "give --etcd-prefix",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kv := etcdtest.NewKV()
			for _, k := range s.keys {
				kv.Store(k, current)
			}
			o := &verifyOptions{etcdPrefix: s.prefix, output: "json", pageSize: 100, maxListed: 10}
			var out, errOut bytes.Buffer
			c := verifyClients{kv: kv, counter: s.counts, lookup: crdLookup{widgets: true}}
			code, err := o.verify(context.Background(), c, s.grs, want, canDropRequest{}, &out, &errOut)
			if code != s.wantCode || (err != nil) != (s.wantErr != "") || (err != nil && !strings.Contains(err.Error(), s.wantErr)) {
				t.Fatalf("got %d, %v; want %d and an error containing %q\nstdout: %s\nstderr: %s", code, err, s.wantCode, s.wantErr, out.String(), errOut.String())
			}
			for _, w := range s.wantStderr {
				if !strings.Contains(errOut.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut.String())
				}
			}
			if s.wantErr != "" {
				if out.Len() != 0 {
					t.Errorf("printed a report with an error: %s", out.String())
				}
				return
			}
			var report struct {
				Verified  bool `json:"verified"`
				Resources []struct {
					Prefix string `json:"prefix"`
					Reason string `json:"reason"`
				} `json:"resources"`
			}
			if err := json.Unmarshal(out.Bytes(), &report); err != nil {
				t.Fatalf("stdout is not one JSON report: %v\n%s", err, out.String())
			}
			if report.Verified != (s.wantCode == cli.ExitOK) || len(report.Resources) != len(s.wantPrefixes) {
				t.Fatalf("report %+v", report)
			}
			for i, r := range report.Resources {
				if r.Prefix != s.wantPrefixes[i] || r.Reason != s.wantReasons[i] {
					t.Errorf("resource %d: prefix %s, reason %q; want %s, %q", i, r.Prefix, r.Reason, s.wantPrefixes[i], s.wantReasons[i])
				}
			}
		})
	}
}

// TestVerifyProgress: nothing before the first interval, then a line per interval; redrawn in place and
// cleared at the end on a terminal.
func TestVerifyProgress(t *testing.T) {
	p := func(keys int64) evidence.Progress {
		return evidence.Progress{Resource: "secrets", Prefix: "/kubernetes.io/secrets/", Phase: evidence.PhaseScanning, Keys: keys, Total: 1000}
	}
	counting := evidence.Progress{Resource: "secrets", Prefix: "/kubernetes.io/secrets/", Phase: evidence.PhaseCounting, Keys: 1000, Total: 1000}
	for _, terminal := range []bool{false, true} {
		t.Run(fmt.Sprintf("terminal %v", terminal), func(t *testing.T) {
			start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			now := start
			var out bytes.Buffer
			o := &verifyOptions{terminal: &terminal, progressInterval: 5 * time.Second, now: func() time.Time { return now }}
			progress := o.newProgress(&out)
			steps := []struct {
				after time.Duration
				p     evidence.Progress
			}{{time.Second, p(100)}, {6 * time.Second, p(600)}, {8 * time.Second, p(800)}, {12 * time.Second, counting}}
			for _, s := range steps {
				now = start.Add(s.after)
				progress.observe(s.p)
			}
			progress.done()
			first := "secrets (/kubernetes.io/secrets/): scanning etcd, 600/1000 keys  60%"
			second := "secrets (/kubernetes.io/secrets/): counting through the API, 1000 keys"
			want := first + "\n" + second + "\n"
			if terminal {
				want = "\r" + first + "\x1b[K" + "\r" + second + "\x1b[K" + "\r\x1b[K"
			}
			if out.String() != want {
				t.Errorf("progress output %q, want %q", out.String(), want)
			}
		})
	}
}
