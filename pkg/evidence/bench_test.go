package evidence_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kmsguard/kmsguard/internal/etcdtest"
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

// BenchmarkCensusRanges measures how well the Census chooses the ranges of its reads (pageRanges), on key
// layouts of a cluster's size, in pages of evidence.DefaultPageSize. It reports reads/page, the range reads per
// page of keys (1 would be ranges that each hold exactly one page), and counted/key, the keys etcd counted per
// key read (etcd counts every key of a read's range; 1 would count each key once). A round trip costs etcd and
// the client about as much as counting a few thousand keys (make bench-migration's exact pages against the
// census).
func BenchmarkCensusRanges(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"apiserver", "authentication", "build", "cluster", "config", "console", "dns", "etcd", "image",
		"ingress", "kube", "machine", "monitoring", "network", "operator", "service", "storage", "user"}
	word := func() string { return words[rng.IntN(len(words))] }
	key := func(namespace, name string) string { return secrets.Prefix + namespace + "/" + name }

	var numbered, oneNamespace []string
	// make bench-migration's data set: numbered names, ten namespaces.
	for i := range 20000 {
		numbered = append(numbered, key(fmt.Sprintf("bench-%d", i%10), fmt.Sprintf("secret-%06d", i)))
	}
	// namespaces of 5 to 64 Secrets, every 50th of 2,000, with generated names.
	cluster := func(namespaces int) []string {
		var keys []string
		for ns := range namespaces {
			namespace := fmt.Sprintf("%s-%s-%d", word(), word(), rng.IntN(1000))
			if ns%3 == 0 {
				namespace = "openshift-" + namespace
			}
			n := 5 + rng.IntN(60)
			if ns%50 == 0 {
				n = 2000
			}
			for range n {
				keys = append(keys, key(namespace, word()+"-token-"+generatedName(rng, 5)))
			}
		}
		return keys
	}
	for range 20000 {
		oneNamespace = append(oneNamespace, key("default", "app-"+generatedName(rng, 10)))
	}

	for _, layout := range []struct {
		name string
		keys []string
	}{
		{name: "numbered names in 10 namespaces", keys: numbered},
		{name: "generated names in 400 namespaces", keys: cluster(400)},
		{name: "generated names in 1600 namespaces", keys: cluster(1600)},
		{name: "generated names in one namespace", keys: oneNamespace},
	} {
		b.Run(layout.name, func(b *testing.B) {
			kv := etcdtest.NewKV()
			for _, k := range layout.keys {
				kv.Store(k, current(b))
			}
			census := evidence.NewCensus(kv, evidence.CensusOptions{})
			var keys, reads, counted int64
			for b.Loop() {
				kv.Calls = nil
				before := kv.KeysCounted()
				report, err := census.Take(context.Background(), []evidence.Resource{secrets}, currentKey)
				if err != nil {
					b.Fatal(err)
				}
				keys, reads, counted = report.Resources[0].Total, int64(len(kv.Calls)), kv.KeysCounted()-before
			}
			pages := (keys + evidence.DefaultPageSize - 1) / evidence.DefaultPageSize
			b.ReportMetric(float64(keys), "keys")
			b.ReportMetric(float64(reads)/float64(pages), "reads/page")
			b.ReportMetric(float64(counted)/float64(keys), "counted/key")
		})
	}
}
