package evidence_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// scriptedCounter answers CountObjects with answer(rev) and records the revisions asked for.
type scriptedCounter struct {
	answer func(rev int64) (evidence.ObjectCount, error)
	revs   []int64
}

func (c *scriptedCounter) CountObjects(_ context.Context, gr schema.GroupResource, rev int64) (evidence.ObjectCount, error) {
	if gr != secrets.GroupResource {
		return evidence.ObjectCount{}, fmt.Errorf("counted %s", gr)
	}
	c.revs = append(c.revs, rev)
	return c.answer(rev)
}

// TestVerifyComparesWithTheAPI covers part 1 of the rule: no verdict without the API's count, zero keys
// verify only when the API lists no objects, and counts that differ beyond the writes between them do not.
func TestVerifyComparesWithTheAPI(t *testing.T) {
	compacted := func(rev int64) (evidence.ObjectCount, error) {
		return evidence.ObjectCount{}, fmt.Errorf("410: %w", evidence.ErrRevisionCompacted)
	}
	scenarios := []struct {
		name    string
		keys    int
		noCount bool
		// answer gets the revision asked for; kv lets it write to etcd in between, as a concurrent writer would.
		answer       func(kv *etcdtest.KV, rev int64) (evidence.ObjectCount, error)
		wantRevs     []int64 // revisions the API was asked for; the scan reads at keys+1
		wantVerified bool
		wantEmpty    bool
		wantReason   evidence.Reason
		wantCount    *evidence.APICount
		wantMessage  string
	}{
		{
			name: "no counter: not verified however right the values are", keys: 3, noCount: true,
			wantReason: evidence.ReasonNoAPICount, wantMessage: "the API's object count is missing: 3 keys under /registry/secrets/ prove nothing about the objects elsewhere",
		},
		{
			name: "zero keys, the API lists objects", keys: 0,
			answer: func(_ *etcdtest.KV, rev int64) (evidence.ObjectCount, error) {
				return evidence.ObjectCount{Objects: 4, Revision: rev, Consistent: true}, nil
			},
			wantRevs: []int64{1}, wantReason: evidence.ReasonNoKeys,
			wantCount:   &evidence.APICount{Objects: 4, Comparison: evidence.CompareExact, Revision: 1},
			wantMessage: "no keys under /registry/secrets/, but the API lists 4 objects: is the etcd prefix right?",
		},
		{
			name: "zero keys, the API lists none: verified empty", keys: 0,
			answer: func(_ *etcdtest.KV, rev int64) (evidence.ObjectCount, error) {
				return evidence.ObjectCount{Revision: rev, Consistent: true}, nil
			},
			wantRevs: []int64{1}, wantVerified: true, wantEmpty: true,
			wantCount: &evidence.APICount{Comparison: evidence.CompareExact, Revision: 1},
		},
		{
			name: "counts equal at the scan's revision", keys: 5,
			answer: func(_ *etcdtest.KV, rev int64) (evidence.ObjectCount, error) {
				return evidence.ObjectCount{Objects: 5, Revision: rev, Consistent: true}, nil
			},
			wantRevs: []int64{6}, wantVerified: true,
			wantCount: &evidence.APICount{Objects: 5, Comparison: evidence.CompareExact, Revision: 6},
		},
		{
			name: "one object more than keys at the scan's revision", keys: 5,
			answer: func(_ *etcdtest.KV, rev int64) (evidence.ObjectCount, error) {
				return evidence.ObjectCount{Objects: 6, Revision: rev, Consistent: true}, nil
			},
			wantRevs: []int64{6}, wantReason: evidence.ReasonCountMismatch,
			wantCount:   &evidence.APICount{Objects: 6, Comparison: evidence.CompareExact, Revision: 6},
			wantMessage: "etcd holds 5 keys under /registry/secrets/, the API lists 6 objects (both at revision 6)",
		},
		{
			name: "revision compacted: a current count within the writes in between verifies", keys: 5,
			answer: func(kv *etcdtest.KV, rev int64) (evidence.ObjectCount, error) {
				if rev != 0 {
					return compacted(rev)
				}
				kv.Store(secretKey("created-after-the-scan"), current(t))
				return evidence.ObjectCount{Objects: 6, Revision: 7, Consistent: true}, nil
			},
			wantRevs: []int64{6, 0}, wantVerified: true,
			wantCount: &evidence.APICount{Objects: 6, Comparison: evidence.CompareWithinWrites, Revision: 7, AllowedDifference: 1, Note: "the apiserver no longer has revision 6"},
		},
		{
			name: "revision compacted: a difference beyond the writes in between", keys: 5,
			answer: func(kv *etcdtest.KV, rev int64) (evidence.ObjectCount, error) {
				if rev != 0 {
					return compacted(rev)
				}
				kv.Store(secretKey("created-after-the-scan"), current(t))
				return evidence.ObjectCount{Objects: 9, Revision: 7, Consistent: true}, nil
			},
			wantRevs: []int64{6, 0}, wantReason: evidence.ReasonCountMismatch,
			wantCount:   &evidence.APICount{Objects: 9, Comparison: evidence.CompareWithinWrites, Revision: 7, AllowedDifference: 1, Note: "the apiserver no longer has revision 6"},
			wantMessage: "etcd holds 5 keys under /registry/secrets/, the API lists 9 objects (the API listed at revision 7 because the apiserver no longer has revision 6; at most 1 writes happened in between)",
		},
		{
			name: "a LIST at the scan's revision that stepped over unreadable objects is not exact", keys: 3,
			answer: func(_ *etcdtest.KV, rev int64) (evidence.ObjectCount, error) {
				return evidence.ObjectCount{Objects: 3, Unreadable: 1, Revision: 4}, nil
			},
			wantRevs: []int64{4, 0}, wantVerified: true,
			wantCount: &evidence.APICount{Objects: 3, Unreadable: 1, Comparison: evidence.CompareWithinWrites, Revision: 4, Note: "the LIST at the scan's revision stepped over unreadable objects or expired"},
		},
		{
			name: "zero keys never verify against objects, whatever the writes in between", keys: 0,
			answer: func(kv *etcdtest.KV, rev int64) (evidence.ObjectCount, error) {
				if rev != 0 {
					return compacted(rev)
				}
				kv.Store("/registry/configmaps/default/a", current(t))
				kv.Store("/registry/configmaps/default/b", current(t))
				return evidence.ObjectCount{Objects: 1, Revision: 3, Consistent: true}, nil
			},
			wantRevs: []int64{1, 0}, wantReason: evidence.ReasonNoKeys,
			wantCount:   &evidence.APICount{Objects: 1, Comparison: evidence.CompareWithinWrites, Revision: 3, AllowedDifference: 2, Note: "the apiserver no longer has revision 1"},
			wantMessage: "no keys under /registry/secrets/, but the API lists 1 objects: is the etcd prefix right?",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kv := etcdtest.NewKV()
			for i := range s.keys {
				kv.Store(secretKey(fmt.Sprint(i)), current(t))
			}
			var counter *scriptedCounter
			opts := evidence.CensusOptions{}
			if !s.noCount {
				counter = &scriptedCounter{answer: func(rev int64) (evidence.ObjectCount, error) { return s.answer(kv, rev) }}
				opts.Counter = counter
			}
			report, err := evidence.NewCensus(kv, opts).Take(context.Background(), []evidence.Resource{secrets}, currentKey)
			if err != nil {
				t.Fatal(err)
			}
			got := report.Resources[0]
			if counter != nil {
				if diff := cmp.Diff(s.wantRevs, counter.revs); diff != "" {
					t.Errorf("revisions counted at (-want +got):\n%s", diff)
				}
			}
			if diff := cmp.Diff(s.wantCount, got.APICount); diff != "" {
				t.Errorf("API count (-want +got):\n%s", diff)
			}
			v := got.Verdict()
			if v.Verified != s.wantVerified || v.Empty != s.wantEmpty || v.Reason != s.wantReason {
				t.Errorf("verdict %+v, want verified %v, empty %v, reason %q", v, s.wantVerified, s.wantEmpty, s.wantReason)
			}
			if v.Message != s.wantMessage {
				t.Errorf("message\n got %q\nwant %q", v.Message, s.wantMessage)
			}
			if report.Verified() != s.wantVerified || got.Verified() != s.wantVerified {
				t.Errorf("Report.Verified() = %v, ResourceReport.Verified() = %v, want %v", report.Verified(), got.Verified(), s.wantVerified)
			}
		})
	}
}

func TestVerifyFailsWhenTheAPICannotCount(t *testing.T) {
	kv := etcdtest.NewKV()
	kv.Store(secretKey("a"), current(t))
	counter := &scriptedCounter{answer: func(int64) (evidence.ObjectCount, error) {
		return evidence.ObjectCount{}, errors.New(`secrets is forbidden: User "x" cannot list resource "secrets"`)
	}}
	report, err := evidence.NewCensus(kv, evidence.CensusOptions{Counter: counter}).Take(context.Background(), []evidence.Resource{secrets}, currentKey)
	if err == nil || !strings.Contains(err.Error(), "forbidden") || report != nil {
		t.Fatalf("got %v, %v; want no report and the API's error", report, err)
	}
}

// TestVerifyCountsAfterASpanningScan: a scan etcd compacted under is not one snapshot, so the API is asked
// for the current count only.
func TestVerifyCountsAfterASpanningScan(t *testing.T) {
	kv := etcdtest.NewKV()
	for i := range 4 {
		kv.Store(secretKey(fmt.Sprint(i)), current(t))
	}
	kv.BeforeGet = func(n int, _ clientv3.Op) error {
		if n == 2 {
			kv.Store("/registry/configmaps/default/c", current(t))
			kv.CompactAll()
		}
		return nil
	}
	counter := &scriptedCounter{answer: func(rev int64) (evidence.ObjectCount, error) {
		return evidence.ObjectCount{Objects: 4, Revision: 5, Consistent: true}, nil
	}}
	report, err := evidence.NewCensus(kv, evidence.CensusOptions{PageSize: 2, Counter: counter}).Take(context.Background(), []evidence.Resource{secrets}, currentKey)
	if err != nil {
		t.Fatal(err)
	}
	got := report.Resources[0]
	if !got.SpansRevisions || len(counter.revs) != 1 || counter.revs[0] != 0 {
		t.Fatalf("spans revisions %v, counted at %v; want a spanning scan counted at 0 only", got.SpansRevisions, counter.revs)
	}
	if got.APICount.Comparison != evidence.CompareWithinWrites || got.APICount.Note != "the scan spans revisions" || !report.Verified() {
		t.Errorf("API count %+v, verified %v", got.APICount, report.Verified())
	}
}

// TestReportJSON checks the verdict in the JSON report: at top level and per resource, with the reason
// when false.
func TestReportJSON(t *testing.T) {
	report := &evidence.Report{WriteKey: currentKey, Resources: []evidence.ResourceReport{
		{Resource: "secrets", Prefix: "/registry/secrets/", Total: 2, UnderWriteKey: 2, APICount: &evidence.APICount{Objects: 2, Comparison: evidence.CompareExact, Revision: 9}},
		{Resource: "configmaps", Prefix: "/registry/configmaps/", APICount: &evidence.APICount{Comparison: evidence.CompareExact, Revision: 9}},
		{Resource: "routes.route.openshift.io", Prefix: "/registry/routes/", APICount: &evidence.APICount{Objects: 3, Comparison: evidence.CompareExact, Revision: 9}},
	}}
	data, err := json.Marshal(report)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Verified  bool   `json:"verified"`
		Reason    string `json:"reason"`
		Message   string `json:"message"`
		Resources []struct {
			Resource      string `json:"resource"`
			Verified      bool   `json:"verified"`
			VerifiedEmpty bool   `json:"verifiedEmpty"`
			Reason        string `json:"reason"`
			APICount      struct {
				Objects int64 `json:"objects"`
			} `json:"apiCount"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Verified || got.Reason != "ResourcesNotVerified" || got.Message != "routes.route.openshift.io: NoKeysUnderPrefix" {
		t.Errorf("top level verified %v, reason %q, message %q", got.Verified, got.Reason, got.Message)
	}
	type resource struct {
		verified, empty bool
		reason          string
		objects         int64
	}
	want := []resource{{true, false, "", 2}, {true, true, "", 0}, {false, false, "NoKeysUnderPrefix", 3}}
	for i, r := range got.Resources {
		if g := (resource{r.Verified, r.VerifiedEmpty, r.Reason, r.APICount.Objects}); i >= len(want) || g != want[i] {
			t.Errorf("resource %s: %+v", r.Resource, g)
		}
	}
	if !strings.Contains(string(data), `"verified":false`) || len(got.Resources) != 3 {
		t.Errorf("JSON: %s", data)
	}
}
