package main

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRankSumP(t *testing.T) {
	for _, tc := range []struct {
		name        string
		x, y        []float64
		p, smallest float64
		failsAt0_05 bool
	}{
		{name: "three above three", x: []float64{414, 424, 398}, y: []float64{381, 340, 390}, p: 1.0 / 20, smallest: 1.0 / 20, failsAt0_05: true},
		{name: "three below three", x: []float64{1, 2, 3}, y: []float64{4, 5, 6}, p: 1, smallest: 1.0 / 20},
		// The second run at a8a1a64, 20,000 Secrets: one of the migrator's rises is below one of limit-32's.
		{name: "overlapping by one", x: []float64{412.2, 466.6, 456.7}, y: []float64{387.9, 416.4, 376.3}, p: 2.0 / 20, smallest: 1.0 / 20},
		{name: "five above five", x: []float64{6, 7, 8, 9, 10}, y: []float64{1, 2, 3, 4, 5}, p: 1.0 / 252, smallest: 1.0 / 252, failsAt0_05: true},
		// Ranks 2 and 3 against 1: of the three pairs {2,3} {1,3} {1,2}, one sums to 5 or more.
		{name: "two against one", x: []float64{2, 3}, y: []float64{1}, p: 1.0 / 3, smallest: 1.0 / 3},
		{name: "all tied", x: []float64{7, 7}, y: []float64{7, 7}, p: 1, smallest: 1.0 / 6},
		{name: "one empty", x: []float64{7}, p: 1, smallest: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, smallest := rankSumP(tc.x, tc.y)
			if math.Abs(p-tc.p) > 1e-12 || math.Abs(smallest-tc.smallest) > 1e-12 {
				t.Errorf("rankSumP = %g, smallest %g; want %g, %g", p, smallest, tc.p, tc.smallest)
			}
			if fails := p <= goalRSSAlpha; fails != tc.failsAt0_05 {
				t.Errorf("p %g <= %g is %v, want %v", p, goalRSSAlpha, fails, tc.failsAt0_05)
			}
		})
	}
}

// TestRankSumPCountsEverySplit compares the dynamic programme with counting every split of the pooled values
// directly, on small samples with many ties.
func TestRankSumPCountsEverySplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 5))
	for range 200 {
		x := make([]float64, 1+rng.IntN(5))
		y := make([]float64, 1+rng.IntN(5))
		for i := range x {
			x[i] = float64(rng.IntN(4))
		}
		for i := range y {
			y[i] = float64(rng.IntN(4))
		}
		got, _ := rankSumP(x, y)
		if want := splitsAtLeast(x, y); math.Abs(got-want) > 1e-12 {
			t.Fatalf("rankSumP(%v, %v) = %g, counting every split gives %g", x, y, got, want)
		}
	}
}

// splitsAtLeast is rankSumP by enumeration: mid-ranks computed by comparing each value with every other, and
// every subset of len(x) of the pooled values tried.
func splitsAtLeast(x, y []float64) float64 {
	pooled := append(append([]float64{}, x...), y...)
	rank := make([]float64, len(pooled))
	for i, v := range pooled {
		below, equal := 0, 0
		for _, w := range pooled {
			switch {
			case w < v:
				below++
			case w == v:
				equal++
			}
		}
		rank[i] = float64(below) + float64(equal+1)/2
	}
	observed := 0.0
	for i := range x {
		observed += rank[i]
	}
	atLeast, total := 0, 0
	for mask := 0; mask < 1<<len(pooled); mask++ {
		sum, size := 0.0, 0
		for i := range pooled {
			if mask&(1<<i) != 0 {
				sum += rank[i]
				size++
			}
		}
		if size != len(x) {
			continue
		}
		total++
		if sum >= observed-1e-9 {
			atLeast++
		}
	}
	return float64(atLeast) / float64(total)
}

func TestRSSGoal(t *testing.T) {
	runs := func(mib ...float64) *series {
		s := &series{}
		for _, m := range mib {
			s.samples = append(s.samples, sample{rssRise: uint64(m * (1 << 20))})
		}
		return s
	}
	for _, tc := range []struct {
		name              string
		migrator, limit   *series
		judged, ok        bool
		wantText, notText string
	}{
		{name: "interleaved", migrator: runs(110, 134, 142, 144, 152), limit: runs(130, 136, 137, 138, 154), judged: true, ok: true,
			wantText: "+142.0 vs +137.0 MiB (limit-32), medians of 5 and 5 runs; rank-sum test p = ", notText: "<="},
		{name: "every migrator run above", migrator: runs(150, 151, 152), limit: runs(140, 141, 142), judged: true, ok: false,
			wantText: "p = 0.050 <= 0.05 (above it beyond chance)"},
		{name: "two rounds cannot tell", migrator: runs(150, 151), limit: runs(140, 141), judged: false,
			wantText: "2 and 2 runs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := rssGoal(tc.migrator, tc.limit, "limit-32", " at 5000")
			if (g.ok != nil) != tc.judged {
				t.Fatalf("judged = %v, want %v (%s)", g.ok != nil, tc.judged, g.why)
			}
			text := g.why
			if g.ok != nil {
				text = g.text
				if *g.ok != tc.ok {
					t.Errorf("ok = %v, want %v: %s", *g.ok, tc.ok, g.text)
				}
			}
			if !strings.Contains(text, tc.wantText) || (tc.notText != "" && strings.Contains(text, tc.notText)) {
				t.Errorf("text %q: want %q in it and not %q", text, tc.wantText, tc.notText)
			}
		})
	}
}
