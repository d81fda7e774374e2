package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"text/tabwriter"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/restmapper"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// sizeResult are the figures for one data set size.
type sizeResult struct {
	objects int
	series  map[string]*series
	// census and unpaged are keys/s per round: the Census's etcd scan, and one unpaged read of the prefix.
	census, unpaged []float64
	// exactPages are keys/s of the prefix read in pages whose ranges hold exactly one page each, every value
	// parsed: the census's reads with perfect range estimates, which only the benchmark, knowing the Secrets'
	// names, can choose.
	exactPages []float64
	verified   bool
}

// series are the runs of one loop at one size.
type series struct {
	samples []sample
	// err says why the loop could not be measured.
	err error
}

func (s *series) spread(f func(sample) float64) spread { return spreadOf(s.values(f)) }

// values are the figures f of a series' samples, in the order measured.
func (s *series) values(f func(sample) float64) []float64 {
	values := make([]float64, 0, len(s.samples))
	for _, x := range s.samples {
		values = append(values, f(x))
	}
	return values
}

func sampleRate(s sample) float64 { return s.rate() }
func sampleWall(s sample) float64 { return s.elapsed.Seconds() }
func sampleRSS(s sample) float64  { return float64(s.rssRise) }
func sampleHeap(s sample) float64 { return float64(s.heapLive) }
func samplePeak(s sample) float64 { return float64(s.heapLivePeak) }
func sampleCPU(i int) func(sample) float64 {
	return func(s sample) float64 { return s.cpuPerObject(i) }
}
func (r *sizeResult) rate(name string) spread {
	if s := r.series[name]; s != nil {
		return s.spread(sampleRate)
	}
	return spread{}
}

// limit is the limit loop with the best median rate.
func (r *sizeResult) limit(b *bench) (*loop, spread) {
	var best *loop
	var bestRate spread
	for _, l := range b.loops {
		if l.kind != kindLimit {
			continue
		}
		if s := r.rate(l.name); s.n > 0 && (best == nil || s.median > bestRate.median) {
			best, bestRate = l, s
		}
	}
	return best, bestRate
}

// censusPairs is how many times per round the census, the exact pages and the unpaged read are each taken, in
// rotating order: each takes a tenth of a second at 20,000 keys, so one of each per round would be all noise.
const censusPairs = 5

// measureCensus reads the Secrets' prefix unpaged, in exact pages and with a census, censusPairs times each, the
// order rotating.
func (b *bench) measureCensus(ctx context.Context, r *sizeResult, round int) error {
	etcd, err := b.cp.EtcdClient()
	if err != nil {
		return err
	}
	resource := evidence.BuiltInResource(evidence.DefaultEtcdPrefix, secretsGR)
	want := evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: b.writer, KEKID: b.kms.CurrentKEKID()}
	config := b.cp.APIServer(0).RESTConfig()
	disc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return err
	}
	// The verdict needs the API's object count; the keys/s are of the etcd scan alone.
	counter := &evidence.MetadataCounter{Client: metadata.NewForConfigOrDie(config), Mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))}
	census := evidence.NewCensus(etcd, evidence.CensusOptions{Counter: counter})
	starts := exactPageStarts(resource.Prefix, r.objects, evidence.DefaultPageSize)
	var keys int
	var report *evidence.Report
	var censusRates, unpagedRates, exactRates []float64
	readUnpaged := func() error {
		start := time.Now()
		resp, err := etcd.Get(ctx, resource.Prefix, clientv3.WithPrefix())
		if err != nil {
			return err
		}
		keys = len(resp.Kvs)
		unpagedRates = append(unpagedRates, float64(keys)/time.Since(start).Seconds())
		return nil
	}
	takeCensus := func() error {
		var err error
		if report, err = census.Take(ctx, []evidence.Resource{resource}, want); err != nil {
			return err
		}
		censusRates = append(censusRates, report.Resources[0].KeysPerSecond)
		return nil
	}
	readExactPages := func() error {
		start := time.Now()
		n, err := readPages(ctx, etcd, starts, clientv3.GetPrefixRangeEnd(resource.Prefix), evidence.DefaultPageSize)
		if err != nil {
			return err
		}
		if n != r.objects {
			return fmt.Errorf("the exact pages held %d keys, want %d", n, r.objects)
		}
		exactRates = append(exactRates, float64(n)/time.Since(start).Seconds())
		return nil
	}
	for i := range censusPairs {
		steps := []func() error{readUnpaged, takeCensus, readExactPages}
		rotate := (round*censusPairs + i) % len(steps)
		steps = slices.Concat(steps[rotate:], steps[:rotate])
		for _, step := range steps {
			if err := step(); err != nil {
				return err
			}
		}
		runtime.GC()
	}
	got := report.Resources[0]
	r.census = append(r.census, censusRates...)
	r.unpaged = append(r.unpaged, unpagedRates...)
	r.exactPages = append(r.exactPages, exactRates...)
	r.verified = report.Verified()
	fmt.Printf("    census (pages of %d): %d keys, %s keys/s; exact pages: %s keys/s; unpaged Get(prefix): %d keys, %s keys/s (medians of %d, min-max); verified under %s: %v\n",
		evidence.DefaultPageSize, got.Total, spreadOf(censusRates).format(rate), spreadOf(exactRates).format(rate), keys,
		spreadOf(unpagedRates).format(rate), censusPairs, want, r.verified)
	if got.Total != int64(keys) {
		return fmt.Errorf("the census counted %d keys, the unpaged read %d", got.Total, keys)
	}
	return nil
}

// exactPageStarts are the first keys of the pages of pageSize keys of the data set of size Secrets under prefix,
// in key order.
func exactPageStarts(prefix string, size, pageSize int) []string {
	keys := make([]string, 0, size)
	for i := range size {
		namespace, name := secretName(i)
		keys = append(keys, prefix+namespace+"/"+name)
	}
	slices.Sort(keys)
	var starts []string
	for i := 0; i < len(keys); i += pageSize {
		starts = append(starts, keys[i])
	}
	return starts
}

// readPages reads the range from each start to the next (the last to end) as one page of at most pageSize keys,
// all at the revision of the first, and parses every value as the census does. It returns the number of keys. A
// range that holds more than a page is an error: the starts are not exact.
func readPages(ctx context.Context, kv clientv3.KV, starts []string, end string, pageSize int) (int, error) {
	var rev int64
	n := 0
	for i, from := range starts {
		to := end
		if i+1 < len(starts) {
			to = starts[i+1]
		}
		opts := []clientv3.OpOption{clientv3.WithRange(to), clientv3.WithLimit(int64(pageSize))}
		if rev != 0 {
			opts = append(opts, clientv3.WithRev(rev), clientv3.WithSerializable())
		}
		resp, err := kv.Get(ctx, from, opts...)
		if err != nil {
			return n, err
		}
		if resp.More {
			return n, fmt.Errorf("the range from %q to %q holds more than %d keys", from, to, pageSize)
		}
		if rev == 0 {
			rev = resp.Header.Revision
		}
		for _, kv := range resp.Kvs {
			if _, err := etcdvalue.Parse(kv.Value); err != nil {
				return n, fmt.Errorf("%s: %w", kv.Key, err)
			}
		}
		n += len(resp.Kvs)
	}
	return n, nil
}

// printSize prints the table of one size.
func (b *bench) printSize(r *sizeResult) {
	fmt.Printf("\n  %d Secrets: medians of %d rounds (min-max)\n", r.objects, b.rounds)
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "  LOOP\tOBJECTS/S\tWALL S\tAPISERVER RSS RISE MiB\tLIVE HEAP MiB\tPEAK MiB\tCPU µs/OBJECT APISERVER/ETCD/CLIENT")
	for _, l := range b.loops {
		s := r.series[l.name]
		if s.err != nil {
			fmt.Fprintf(w, "  %s\tnot measured: %v\t\t\t\n", l.name, s.err)
			continue
		}
		heap, peak := "-", "-"
		if l.kind == kindMigrator || l.kind == kindMigratorJSON {
			heap, peak = s.spread(sampleHeap).format(mibf), s.spread(samplePeak).format(mibf)
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t%s\t%s\t%s/%s/%s\n", l.name, s.spread(sampleRate).format(rate), s.spread(sampleWall).format(seconds),
			s.spread(sampleRSS).format(mibf), heap, peak,
			rate(s.spread(sampleCPU(0)).median), rate(s.spread(sampleCPU(1)).median), rate(s.spread(sampleCPU(2)).median))
	}
	fmt.Fprintf(w, "  census keys/s\t%s\t\t\t\n", spreadOf(r.census).format(rate))
	fmt.Fprintf(w, "  exact pages keys/s\t%s\t\t\t\n", spreadOf(r.exactPages).format(rate))
	fmt.Fprintf(w, "  unpaged keys/s\t%s\t\t\t\n", spreadOf(r.unpaged).format(rate))
	_ = w.Flush()
}

// goal is one goal line.
type goal struct {
	name  string
	value float64
	// ok is nil when the goal could not be judged; why says why.
	ok  *bool
	why string
	// format prints value and the threshold.
	text string
}

func judged(name string, value float64, ok bool, text string) goal {
	return goal{name: name, value: value, ok: &ok, text: text}
}

// migratorLoop is the loop the goals judge: migrator, or in a run of migrator-<n> loops only the first.
func (b *bench) migratorLoop() string {
	for _, l := range b.loops {
		if l.kind == kindMigrator {
			return l.name
		}
	}
	return "migrator"
}

func (b *bench) goals() []goal {
	var goals []goal
	for _, r := range b.results {
		at := fmt.Sprintf(" at %d", r.objects)
		name := b.migratorLoop()
		migrator := r.rate(name)
		if migrator.n == 0 {
			goals = append(goals, goal{name: "migrator" + at, why: "the migrator was not run"})
			continue
		}
		if l, limit := r.limit(b); l != nil {
			v := migrator.median / limit.median
			goals = append(goals, judged("migrator/limit"+at, v, v >= goalVsLimit,
				fmt.Sprintf("%.0f / %.0f (%s) = %.3f >= %.2f", migrator.median, limit.median, l.name, v, goalVsLimit)))
			goals = append(goals, rssGoal(r.series[name], r.series[l.name], l.name, at))
		}
		if seq := r.rate("sequential"); seq.n > 0 {
			v := migrator.median / seq.median
			goals = append(goals, judged("migrator/sequential"+at, v, v >= goalVsSequential,
				fmt.Sprintf("%.0f / %.0f = %.3f >= %.1f", migrator.median, seq.median, v, goalVsSequential)))
		}
		if s := r.series["in-tree"]; s != nil {
			if s.err != nil {
				goals = append(goals, goal{name: "migrator/in-tree" + at, why: "in-tree not measured: " + s.err.Error()})
			} else {
				inTree := s.spread(sampleRate)
				v := migrator.median / inTree.median
				goals = append(goals, judged("migrator/in-tree"+at, v, v >= goalVsInTree,
					fmt.Sprintf("%.0f / %.0f = %.3f >= %.1f", migrator.median, inTree.median, v, goalVsInTree)))
			}
		}
	}
	if n := len(b.results); n >= 2 {
		small, large := b.results[0], b.results[n-1]
		if name := b.migratorLoop(); small.series[name] != nil && large.series[name] != nil {
			goals = append(goals, heapGoal(small, large, name))
		}
	}
	if n := len(b.results); n > 0 {
		r := b.results[n-1]
		c, u, e := spreadOf(r.census), spreadOf(r.unpaged), spreadOf(r.exactPages)
		v := c.median / u.median
		goals = append(goals, judged(fmt.Sprintf("census/unpaged at %d", r.objects), v, v >= goalCensus,
			fmt.Sprintf("%.0f / %.0f keys/s = %.3f >= %.1f (exact pages/unpaged %.3f, not judged)", c.median, u.median, v,
				goalCensus, e.median/u.median)))
	}
	return goals
}

// rssGoal asks whether the migrator's apiserver RSS rises rank above the limit loop's by more than chance
// (goalRSSAlpha). It is not judged when the rounds are too few for the test ever to find a difference.
func rssGoal(migrator, limit *series, limitName, at string) goal {
	title := "apiserver RSS rise, migrator not above limit" + at
	rises, limitRises := migrator.values(sampleRSS), limit.values(sampleRSS)
	p, smallest := rankSumP(rises, limitRises)
	if smallest > goalRSSAlpha {
		return goal{name: title, why: fmt.Sprintf("%d and %d runs: a rank test cannot tell a rise from noise at %.2f "+
			"with fewer than 3 runs of each (-rounds)", len(rises), len(limitRises), goalRSSAlpha)}
	}
	m, l := spreadOf(rises), spreadOf(limitRises)
	verdict := "> %.2f (not above it beyond chance)"
	if p <= goalRSSAlpha {
		verdict = "<= %.2f (above it beyond chance)"
	}
	return judged(title, p, p > goalRSSAlpha, fmt.Sprintf("+%s vs +%s MiB (%s), medians of %d and %d runs; rank-sum test p = %.3f "+verdict,
		mibf(m.median), mibf(l.median), limitName, m.n, l.n, p, goalRSSAlpha))
}

// heapGoal compares the migrator's live heap, the median over each run's GC cycles, between the smallest and
// the largest size. The peaks are printed beside it, not judged: a peak is the largest of a run's cycles, and the
// larger size has more of them (heapSampler).
func heapGoal(small, large *sizeResult, name string) goal {
	title := fmt.Sprintf("migrator live heap %d/%d", large.objects, small.objects)
	for _, r := range []*sizeResult{small, large} {
		for _, s := range r.series[name].samples {
			if s.heapCycles == 0 {
				return goal{name: title, why: fmt.Sprintf("a run at %d saw no GC cycle, so no live heap was read", r.objects)}
			}
		}
	}
	hs, hl := small.series[name].spread(sampleHeap), large.series[name].spread(sampleHeap)
	ps, pl := small.series[name].spread(samplePeak), large.series[name].spread(samplePeak)
	switch {
	case hs.n == 0 || hl.n == 0:
		return goal{name: title, why: "the migrator was not measured at both sizes"}
	case hs.median == 0:
		return goal{name: title, why: fmt.Sprintf("the live heap at %d was never above its value before the run", small.objects)}
	}
	v := hl.median / hs.median
	return judged(title, v, v <= goalHeapRatio, fmt.Sprintf("%s / %s MiB = %.3f <= %.1f (median over GC cycles; peaks %s / %s MiB = %.3f, not judged)",
		mibf(hl.median), mibf(hs.median), v, goalHeapRatio, mibf(pl.median), mibf(ps.median), pl.median/ps.median))
}

func (b *bench) printGoals() {
	fmt.Println("\n== Goals: on medians; the RSS rise by a rank test of every run ==")
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	for _, g := range b.goals() {
		switch {
		case g.ok == nil:
			fmt.Fprintf(w, "  NOT JUDGED\t%s\t%s\n", g.name, g.why)
		case *g.ok:
			fmt.Fprintf(w, "  PASS\t%s\t%s\n", g.name, g.text)
		default:
			fmt.Fprintf(w, "  FAIL\t%s\t%s\n", g.name, g.text)
		}
	}
	_ = w.Flush()
}
