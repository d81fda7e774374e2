package evidence_test

import (
	"context"
	"fmt"
	"github.com/kmsguard/kmsguard/internal/etcdtest"
	"testing"

	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// BenchmarkCensus measures the Census's own cost per key (paging, parsing, counting) over an in-memory
// keyspace of 10,000 Secrets, half of them still under an old KMS key id. It reports keys/s. The fake
// rebuilds its view of the pinned revision for every page, so the figure is a lower bound on the Census's
// own speed; etcd's cost is what test/e2e's TestVerifyMigrationFromIdentityToKMS measures.
func BenchmarkCensus(b *testing.B) {
	const keys = 10000
	kv := etcdtest.NewKV()
	for i := range keys {
		value := current(b)
		if i%2 == 0 {
			value = oldKMS(b)
		}
		kv.Store(secretKey(fmt.Sprintf("s-%05d", i)), value)
	}
	v := evidence.NewCensus(kv, evidence.CensusOptions{})
	b.ReportAllocs()
	for b.Loop() {
		report, err := v.Take(context.Background(), []evidence.Resource{secrets}, currentKey)
		if err != nil {
			b.Fatal(err)
		}
		if got := report.Resources[0].Total; got != keys {
			b.Fatalf("counted %d keys, want %d", got, keys)
		}
	}
	b.ReportMetric(float64(keys*b.N)/b.Elapsed().Seconds(), "keys/s")
}
