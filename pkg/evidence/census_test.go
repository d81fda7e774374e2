package evidence_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	kmstypes "k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2"

	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

func TestVerify(t *testing.T) {
	hkdf := etcdvalue.DEKSourceHKDFSeed
	kmsKey := func(keyID string) evidence.Key {
		return evidence.Key{Kind: etcdvalue.KindKMSv2, Name: "kms", KEKID: keyID, DEKSourceType: hkdf}
	}
	scenarios := []struct {
		name      string
		setup     func(t *testing.T, kv *etcdtest.KV)
		pageSize  int64
		maxListed int
		want      evidence.WriteKey
		// expected is compared with the report without Duration, KeysPerSecond and APICount (apicount_test.go).
		expected     evidence.ResourceReport
		wantVerified bool
	}{
		{
			name:         "empty prefix",
			setup:        func(t *testing.T, kv *etcdtest.KV) { kv.Store("/registry/configmaps/default/c", identityValue()) },
			want:         currentKey,
			expected:     evidence.ResourceReport{Keys: []evidence.KeyCount{}, Revisions: []int64{2}},
			wantVerified: true,
		},
		{
			name: "every object under the write key",
			setup: func(t *testing.T, kv *etcdtest.KV) {
				for i := range 5 {
					kv.Store(secretKey(fmt.Sprint(i)), current(t))
				}
			},
			pageSize: 2,
			want:     currentKey,
			expected: evidence.ResourceReport{
				Total: 5, UnderWriteKey: 5, Revisions: []int64{6},
				Keys: []evidence.KeyCount{{Key: kmsKey("key-2"), Count: 5, WriteKey: true}},
			},
			wantVerified: true,
		},
		{
			name: "plaintext, old key id, old DEK source type and other resources",
			setup: func(t *testing.T, kv *etcdtest.KV) {
				kv.Store(secretKey("a-plain"), identityValue())
				kv.Store(secretKey("b-plain"), identityValue())
				kv.Store(secretKey("c-old"), oldKMS(t))
				kv.Store(secretKey("d-current"), current(t))
				kv.Store(secretKey("e-legacy-dek"), kmsv2Value(t, "kms", "key-2", kmstypes.EncryptedDEKSourceType_AES_GCM_KEY))
				kv.Store(secretKey("f-aescbc"), aescbcValue("1"))
				// A prefix without its "/" would count these.
				kv.Store("/registry/secretsbackup/default/x", identityValue())
				kv.Store("/registry/configmaps/default/y", identityValue())
			},
			want: currentKey,
			expected: evidence.ResourceReport{
				Total: 6, UnderWriteKey: 1, NotUnderWriteKey: 5, Revisions: []int64{9},
				NotUnderWriteKeyListed: []string{secretKey("a-plain"), secretKey("b-plain"), secretKey("c-old"), secretKey("e-legacy-dek"), secretKey("f-aescbc")},
				Keys: []evidence.KeyCount{
					{Key: evidence.Key{Kind: etcdvalue.KindIdentity}, Count: 2},
					{Key: evidence.Key{Kind: etcdvalue.KindAESCBC, Name: "1"}, Count: 1},
					{Key: kmsKey("key-1"), Count: 1},
					{Key: evidence.Key{Kind: etcdvalue.KindKMSv2, Name: "kms", KEKID: "key-2", DEKSourceType: etcdvalue.DEKSourceAESGCMKey}, Count: 1},
					{Key: kmsKey("key-2"), Count: 1, WriteKey: true},
				},
			},
		},
		{
			name: "identity as the write key",
			setup: func(t *testing.T, kv *etcdtest.KV) {
				kv.Store(secretKey("plain"), identityValue())
				kv.Store(secretKey("kms"), current(t))
			},
			want: identity,
			expected: evidence.ResourceReport{
				Total: 2, UnderWriteKey: 1, NotUnderWriteKey: 1, Revisions: []int64{3},
				NotUnderWriteKeyListed: []string{secretKey("kms")},
				Keys: []evidence.KeyCount{
					{Key: evidence.Key{Kind: etcdvalue.KindIdentity}, Count: 1, WriteKey: true},
					{Key: kmsKey("key-2"), Count: 1},
				},
			},
		},
		{
			name: "only the first MaxListed offenders are listed, all are counted",
			setup: func(t *testing.T, kv *etcdtest.KV) {
				for i := range 7 {
					kv.Store(secretKey(fmt.Sprint(i)), oldKMS(t))
				}
			},
			pageSize:  3,
			maxListed: 2,
			want:      currentKey,
			expected: evidence.ResourceReport{
				Total: 7, NotUnderWriteKey: 7, Revisions: []int64{8},
				NotUnderWriteKeyListed: []string{secretKey("0"), secretKey("1")},
				Keys:                   []evidence.KeyCount{{Key: kmsKey("key-1"), Count: 7}},
			},
		},
		{
			name: "unparsable values are corrupt, listed with the reason",
			setup: func(t *testing.T, kv *etcdtest.KV) {
				kv.Store(secretKey("a-truncated"), []byte("k8s:enc:kms:v2:kms:"))
				kv.Store(secretKey("b-unknown"), append([]byte("\x01\x02"), payloadMarker...))
				kv.Store(secretKey("c-empty"), []byte{})
				kv.Store(secretKey("d-current"), current(t))
			},
			maxListed: 2,
			want:      currentKey,
			expected: evidence.ResourceReport{
				Total: 4, UnderWriteKey: 1, Corrupt: 3, Revisions: []int64{5},
				CorruptByKind: map[string]int64{"kms-v2": 1, "unknown": 2},
				CorruptListed: []evidence.CorruptValue{
					{Key: secretKey("a-truncated"), Error: "etcdvalue: malformed value (kms-v2): encrypted data is empty"},
					{Key: secretKey("b-unknown"), Error: "etcdvalue: unknown value format: value has no encryption prefix and does not start like a protobuf, JSON or CBOR object"},
				},
				Keys: []evidence.KeyCount{{Key: kmsKey("key-2"), Count: 1, WriteKey: true}},
			},
		},
		{
			name: "a scan is a snapshot at the revision of its first page",
			setup: func(t *testing.T, kv *etcdtest.KV) {
				for i := range 4 {
					kv.Store(secretKey(fmt.Sprint(i)), identityValue())
				}
				kv.BeforeGet = func(n int, _ clientv3.Op) error {
					if n == 2 {
						// Written after the snapshot: rewritten, deleted and created keys not yet read.
						kv.Store(secretKey("2"), current(t))
						kv.Remove(secretKey("3"))
						kv.Store(secretKey("4"), current(t))
					}
					return nil
				}
			},
			pageSize: 2,
			want:     currentKey,
			expected: evidence.ResourceReport{
				Total: 4, NotUnderWriteKey: 4, Revisions: []int64{5},
				NotUnderWriteKeyListed: []string{secretKey("0"), secretKey("1"), secretKey("2"), secretKey("3")},
				Keys:                   []evidence.KeyCount{{Key: evidence.Key{Kind: etcdvalue.KindIdentity}, Count: 4}},
			},
		},
		{
			name: "compaction mid-scan continues at the newest revision without reading a key twice",
			setup: func(t *testing.T, kv *etcdtest.KV) {
				for i := range 5 {
					kv.Store(secretKey(fmt.Sprint(i)), identityValue())
				}
				kv.BeforeGet = func(n int, _ clientv3.Op) error {
					if n == 2 {
						kv.Store(secretKey("0"), current(t)) // already read: stays counted as read
						kv.Store(secretKey("3"), current(t)) // not read yet: counted as it is now
						kv.CompactAll()
					}
					return nil
				}
			},
			pageSize: 2,
			want:     currentKey,
			expected: evidence.ResourceReport{
				Total: 5, UnderWriteKey: 1, NotUnderWriteKey: 4, Revisions: []int64{6, 8}, SpansRevisions: true,
				NotUnderWriteKeyListed: []string{secretKey("0"), secretKey("1"), secretKey("2"), secretKey("4")},
				Keys: []evidence.KeyCount{
					{Key: evidence.Key{Kind: etcdvalue.KindIdentity}, Count: 4},
					{Key: kmsKey("key-2"), Count: 1, WriteKey: true},
				},
			},
		},
		{
			name: "a member behind the pinned revision is read linearizably",
			setup: func(t *testing.T, kv *etcdtest.KV) {
				for i := range 3 {
					kv.Store(secretKey(fmt.Sprint(i)), current(t))
				}
				kv.BeforeGet = func(_ int, op clientv3.Op) error {
					if op.IsSerializable() {
						return rpctypes.ErrFutureRev
					}
					return nil
				}
			},
			pageSize: 1,
			want:     currentKey,
			expected: evidence.ResourceReport{
				Total: 3, UnderWriteKey: 3, Revisions: []int64{4},
				Keys: []evidence.KeyCount{{Key: kmsKey("key-2"), Count: 3, WriteKey: true}},
			},
			wantVerified: true,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kv := etcdtest.NewKV()
			s.setup(t, kv)
			v := evidence.NewCensus(kv, evidence.CensusOptions{PageSize: s.pageSize, MaxListed: s.maxListed, Counter: newStoreCounter(kv, secrets)})
			report, err := v.Take(context.Background(), []evidence.Resource{secrets}, s.want)
			if err != nil {
				t.Fatal(err)
			}
			if len(report.Resources) != 1 {
				t.Fatalf("got %d resource reports, want 1", len(report.Resources))
			}
			s.expected.Resource, s.expected.Prefix = "secrets", secrets.Prefix
			got := report.Resources[0]
			if diff := cmp.Diff(s.expected, got, cmpopts.IgnoreFields(evidence.ResourceReport{}, "Duration", "KeysPerSecond", "APICount"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("report (-want +got):\n%s", diff)
			}
			if report.Verified() != s.wantVerified {
				t.Errorf("Verified() = %v, want %v", report.Verified(), s.wantVerified)
			}
			if c := got.APICount; c == nil || c.Objects != got.Total {
				t.Errorf("API count %+v, want %d objects", c, got.Total)
			}
			if !kv.WithinPrefix(secrets.Prefix) {
				t.Errorf("a range read left the prefix %s", secrets.Prefix)
			}
			assertNoPayload(t, report)
		})
	}
}

// TestVerifyReadsPagesAtOneRevision checks the read options: the first page linearizable at the newest
// revision, every later page serializable at that revision, all limited to the page size.
func TestVerifyReadsPagesAtOneRevision(t *testing.T) {
	kv := etcdtest.NewKV()
	for i := range 5 {
		kv.Store(secretKey(fmt.Sprint(i)), current(t))
	}
	if _, err := evidence.NewCensus(kv, evidence.CensusOptions{PageSize: 2}).Take(context.Background(), []evidence.Resource{secrets}, currentKey); err != nil {
		t.Fatal(err)
	}
	// The first read fixes the revision; the others, as many as the ranges take, read at it.
	revs := kv.PinnedReads()
	if len(revs) < 3 || revs[0] != 0 || slices.ContainsFunc(revs[1:], func(r int64) bool { return r != 6 }) {
		t.Errorf("read revisions %v, want 0 then 6 for every later read (at least three reads of 5 keys in pages of 2)", revs)
	}
	for i, op := range kv.Calls {
		if op.Limit() != 2 {
			t.Errorf("read %d has limit %d, want 2", i, op.Limit())
		}
		if wantSerializable := i > 0; op.IsSerializable() != wantSerializable {
			t.Errorf("read %d serializable = %v, want %v", i, op.IsSerializable(), wantSerializable)
		}
	}
}

func TestVerifyFails(t *testing.T) {
	boom := errors.New("etcd is down")
	scenarios := []struct {
		name      string
		resources []evidence.Resource
		want      evidence.WriteKey
		getErr    error
		wantErr   string
	}{
		{name: "no resources", want: currentKey, wantErr: "no resources"},
		{name: "KMS v2 write key without key id", resources: []evidence.Resource{secrets}, want: evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: "kms"}, wantErr: "needs a provider name and a KEK id"},
		{name: "prefix without trailing slash", resources: []evidence.Resource{{Prefix: "/registry/secrets"}}, want: currentKey, wantErr: `must be a path ending in "/"`},
		{name: "etcd error", resources: []evidence.Resource{secrets}, want: currentKey, getErr: boom, wantErr: "etcd is down"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kv := etcdtest.NewKV()
			kv.Store(secretKey("a"), current(t))
			kv.BeforeGet = func(int, clientv3.Op) error { return s.getErr }
			report, err := evidence.NewCensus(kv, evidence.CensusOptions{}).Take(context.Background(), s.resources, s.want)
			if err == nil || !strings.Contains(err.Error(), s.wantErr) {
				t.Fatalf("got error %v, want one containing %q", err, s.wantErr)
			}
			if report != nil {
				t.Errorf("got a report with an error: %+v", report)
			}
		})
	}
}

func TestReportVerified(t *testing.T) {
	exact := func(n int64) *evidence.APICount {
		return &evidence.APICount{Objects: n, Comparison: evidence.CompareExact, Revision: 7}
	}
	scenarios := []struct {
		name   string
		report *evidence.Report
		want   bool
	}{
		{name: "nil", want: false},
		{name: "no resources", report: &evidence.Report{}, want: false},
		{name: "all under the write key, the API agrees", report: &evidence.Report{Resources: []evidence.ResourceReport{{Total: 3, UnderWriteKey: 3, APICount: exact(3)}, {APICount: exact(0)}}}, want: true},
		{name: "all under the write key, no API count", report: &evidence.Report{Resources: []evidence.ResourceReport{{Total: 3, UnderWriteKey: 3}}}, want: false},
		{name: "one resource without keys and without an API count", report: &evidence.Report{Resources: []evidence.ResourceReport{{Total: 3, UnderWriteKey: 3, APICount: exact(3)}, {}}}, want: false},
		{name: "one object elsewhere", report: &evidence.Report{Resources: []evidence.ResourceReport{{Total: 3, UnderWriteKey: 3, APICount: exact(3)}, {Total: 1, NotUnderWriteKey: 1, APICount: exact(1)}}}, want: false},
		{name: "one corrupt", report: &evidence.Report{Resources: []evidence.ResourceReport{{Total: 1, Corrupt: 1, APICount: exact(1)}}}, want: false},
		{name: "a failed sample", report: &evidence.Report{Resources: []evidence.ResourceReport{{Total: 1, UnderWriteKey: 1, APICount: exact(1), Samples: []evidence.SampleResult{{Key: "k", Error: "failed to decrypt DEK"}}}}}, want: false},
		{name: "a sampled object gone", report: &evidence.Report{Resources: []evidence.ResourceReport{{Total: 1, UnderWriteKey: 1, APICount: exact(1), Samples: []evidence.SampleResult{{Key: "k", Gone: true}}}}}, want: true},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			if got := s.report.Verified(); got != s.want {
				t.Errorf("Verified() = %v, want %v", got, s.want)
			}
		})
	}
}

// assertNoPayload fails when the JSON form of report holds payload bytes, and checks that it round-trips.
func assertNoPayload(t *testing.T, report *evidence.Report) {
	t.Helper()
	data, err := json.Marshal(report)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), string(payloadMarker[:8])) {
		t.Errorf("report holds payload bytes: %s", data)
	}
	var back evidence.Report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(*report, back, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("report does not round-trip through JSON (-want +got):\n%s", diff)
	}
}

// TestVerifyReportsProgress: a page read is a progress report with etcd's count of the range, then the count
// through the API begins.
func TestVerifyReportsProgress(t *testing.T) {
	kv := etcdtest.NewKV()
	for i := range 5 {
		kv.Store(secretKey(fmt.Sprint(i)), current(t))
	}
	var got []evidence.Progress
	opts := evidence.CensusOptions{PageSize: 2, Counter: newStoreCounter(kv, secrets), Progress: func(p evidence.Progress) { got = append(got, p) }}
	if _, err := evidence.NewCensus(kv, opts).Take(context.Background(), []evidence.Resource{secrets}, currentKey); err != nil {
		t.Fatal(err)
	}
	p := func(phase evidence.Phase, keys int64) evidence.Progress {
		return evidence.Progress{Resource: "secrets", Prefix: secrets.Prefix, Phase: phase, Keys: keys, Total: 5}
	}
	want := []evidence.Progress{p(evidence.PhaseScanning, 2), p(evidence.PhaseScanning, 4), p(evidence.PhaseScanning, 5), p(evidence.PhaseCounting, 5)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}

// TestCensusPagesReadBoundedRanges: etcd counts the whole range of every range read, so the census reads each
// page over a range estimated to hold a few pages, not over the rest of the prefix (pageRanges). Whatever the keys
// look like, every key is read exactly once and in order and no read leaves the prefix. Where namespaces hold a
// page or more, or names are evenly spread, etcd counts at most 5 times the keys (pages over the rest of the
// prefix would count n²/(2·page)) in at most 1.25 reads per page; where a page spans many namespaces that share
// long prefixes, at most 7 times the keys in 2 reads per page.
func TestCensusPagesReadBoundedRanges(t *testing.T) {
	const pageSize = 50
	key := func(namespace, name string) string { return secrets.Prefix + namespace + "/" + name }
	numbered := func(namespace string, n int) []string {
		var keys []string
		for i := range n {
			keys = append(keys, key(namespace, fmt.Sprintf("secret-%06d", i)))
		}
		return keys
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var manyNamespaces, mixed, binary, generated, nested []string
	for ns := range 40 {
		manyNamespaces = append(manyNamespaces, numbered(fmt.Sprintf("team-%02d", ns), 60)...)
	}
	mixed = append(numbered("a-sparse", 3), numbered("b-dense", 3000)...)
	mixed = append(mixed, numbered("c-sparse", 1)...)
	mixed = append(mixed, numbered("d-dense", 500)...)
	for range 2000 {
		name := make([]byte, 1+rng.IntN(12))
		for i := range name {
			name[i] = byte(rng.IntN(256))
		}
		binary = append(binary, key("bin", string(name)))
	}
	binary = append(binary, key("bin", ""), key("bin", "\xff\xff\xff\xff\xff\xff\xff\xff\xff"), key("bin", "a"), key("bin", "a\x00"), key("bin", "ab"))
	// Namespaces in groups that share long prefixes, a few to a few dozen Secrets each with generated names, as a
	// cluster's are: the gaps between groups are the ones estimates fall short of.
	words := []string{"apiserver", "build", "config", "console", "dns", "etcd", "image", "kube", "machine", "network", "operator", "storage"}
	for ns := range 200 {
		namespace := fmt.Sprintf("%s-%s-%d", words[rng.IntN(len(words))], words[rng.IntN(len(words))], rng.IntN(1000))
		if ns%3 == 0 {
			namespace = "openshift-" + namespace
		}
		for range 1 + rng.IntN(40) {
			generated = append(generated, key(namespace, words[rng.IntN(len(words))]+"-token-"+generatedName(rng, 5)))
		}
	}
	// Namespaces whose names are prefixes of each other's, and of the byte after "/".
	for _, namespace := range []string{"a", "a-", "a-b", "a.", "a0", "a00", "ab", "b"} {
		nested = append(nested, numbered(namespace, 30)...)
	}

	type bound struct{ countedPerKey, readsPerPage float64 }
	even := bound{countedPerKey: 5, readsPerPage: 1.25}
	for _, s := range []struct {
		name  string
		keys  []string
		bound bound
	}{
		{name: "one namespace", keys: numbered("default", 3000), bound: even},
		{name: "many namespaces", keys: manyNamespaces, bound: even},
		{name: "dense and sparse namespaces", keys: mixed, bound: even},
		{name: "random bytes, prefixes of each other, 0xff", keys: binary, bound: even},
		{name: "generated names in groups of namespaces", keys: generated, bound: bound{countedPerKey: 7, readsPerPage: 2}},
		{name: "namespaces that are prefixes of each other", keys: nested, bound: even},
		{name: "fewer keys than a page", keys: numbered("default", 7), bound: even},
		{name: "one key", keys: numbered("default", 1), bound: even},
	} {
		t.Run(s.name, func(t *testing.T) {
			kv := etcdtest.NewKV()
			for _, k := range s.keys {
				kv.Store(k, oldKMS(t))
			}
			want := slices.Compact(slices.Sorted(slices.Values(s.keys)))
			census := evidence.NewCensus(kv, evidence.CensusOptions{PageSize: pageSize, MaxListed: len(want) + 1})
			report, err := census.Take(context.Background(), []evidence.Resource{secrets}, currentKey)
			if err != nil {
				t.Fatal(err)
			}
			got := report.Resources[0]
			if got.Total != int64(len(want)) || !slices.Equal(got.NotUnderWriteKeyListed, want) {
				t.Fatalf("read %d keys, want %d, each once and in order; first difference at %d", got.Total, len(want), firstDifference(got.NotUnderWriteKeyListed, want))
			}
			if !kv.WithinPrefix(secrets.Prefix) {
				t.Errorf("a range read left the prefix %s", secrets.Prefix)
			}
			n := int64(len(want))
			pages := (n + pageSize - 1) / pageSize
			t.Logf("%d keys in pages of %d: %d reads, %d keys counted", n, pageSize, len(kv.Calls), kv.KeysCounted())
			if counted, most := kv.KeysCounted(), int64(s.bound.countedPerKey*float64(n)); counted > most {
				t.Errorf("etcd counted %d keys for a census of %d in pages of %d, want at most %d", counted, n, pageSize, most)
			}
			if reads, most := int64(len(kv.Calls)), int64(math.Ceil(s.bound.readsPerPage*float64(pages))); reads > most {
				t.Errorf("%d reads for %d pages, want at most %d: the ranges are too narrow", reads, pages, most)
			}
			for i, op := range kv.Calls {
				if op.Limit() != pageSize {
					t.Errorf("read %d has limit %d, want %d", i, op.Limit(), pageSize)
				}
			}
		})
	}
}

// generatedName is n characters of apimachinery's rand alphabet, what generateName appends (5 of them).
func generatedName(rng *rand.Rand, n int) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	s := make([]byte, n)
	for i := range s {
		s[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(s)
}

// firstDifference is the first index at which a and b differ, or the length of the shorter.
func firstDifference(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
