package evidence_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// recordingSampler answers reads with errs[namespace/name] and records them.
type recordingSampler struct {
	errs  map[string]error
	reads []string
}

func (s *recordingSampler) Read(_ context.Context, gr schema.GroupResource, namespace, name string) error {
	s.reads = append(s.reads, gr.String()+" "+namespace+"/"+name)
	return s.errs[namespace+"/"+name]
}

func TestVerifySamples(t *testing.T) {
	gone := apierrors.NewNotFound(schema.GroupResource{Resource: "secrets"}, "gone")
	scenarios := []struct {
		name         string
		objects      int
		sampleSize   int
		errs         map[string]error
		wantReads    int
		wantResults  []evidence.SampleResult // nil: not compared
		wantVerified bool
	}{
		{
			name: "every object read, one fails, one is gone", objects: 3, sampleSize: 5,
			errs:      map[string]error{"default/1": errors.New("failed to decrypt DEK"), "default/2": gone},
			wantReads: 3,
			wantResults: []evidence.SampleResult{
				{Key: secretKey("0")},
				{Key: secretKey("1"), Error: "failed to decrypt DEK"},
				{Key: secretKey("2"), Gone: true},
			},
		},
		{name: "all read back", objects: 4, sampleSize: 10, wantReads: 4, wantVerified: true},
		{name: "sample bounded", objects: 200, sampleSize: 7, wantReads: 7, wantVerified: true},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kv := etcdtest.NewKV()
			for i := range s.objects {
				kv.Store(secretKey(fmt.Sprint(i)), current(t))
			}
			sampler := &recordingSampler{errs: s.errs}
			v := evidence.NewCensus(kv, evidence.CensusOptions{PageSize: 16, Sampler: sampler, SampleSize: s.sampleSize, Rand: rand.New(rand.NewPCG(1, 2)), Counter: newStoreCounter(kv, secrets)})
			report, err := v.Take(context.Background(), []evidence.Resource{secrets}, currentKey)
			if err != nil {
				t.Fatal(err)
			}
			got := report.Resources[0].Samples
			if len(sampler.reads) != s.wantReads || len(got) != s.wantReads {
				t.Fatalf("%d reads and %d results, want %d: %v", len(sampler.reads), len(got), s.wantReads, sampler.reads)
			}
			seen := map[string]bool{}
			for _, r := range got {
				if seen[r.Key] {
					t.Errorf("%s sampled twice", r.Key)
				}
				seen[r.Key] = true
			}
			if s.wantResults != nil {
				if diff := cmp.Diff(s.wantResults, got); diff != "" {
					t.Errorf("samples (-want +got):\n%s", diff)
				}
			}
			if report.Verified() != s.wantVerified {
				t.Errorf("Verified() = %v, want %v", report.Verified(), s.wantVerified)
			}
		})
	}
}
