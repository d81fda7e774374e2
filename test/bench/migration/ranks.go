package main

import (
	"cmp"
	"slices"
)

// rankSumP is the one-sided p-value of the Wilcoxon rank-sum (Mann-Whitney) test that x is higher than y: were
// both samples drawn from one distribution, the probability that x's ranks in the pooled sample sum to at least
// what they do. Tied values share the mean of their ranks. It is exact: it counts, over every way of choosing
// len(x) of the pooled values, the rank sums at least as high, by dynamic programming over the ranks (doubled,
// so that shared ranks stay whole). smallest is the lowest p-value the sizes can give, 1/C(len(x)+len(y),
// len(x)): a test whose smallest p is above its threshold cannot find a difference, however large.
func rankSumP(x, y []float64) (p, smallest float64) {
	n := len(x) + len(y)
	if len(x) == 0 || len(y) == 0 {
		return 1, 1
	}
	pooled := make([]float64, 0, n)
	pooled = append(append(pooled, x...), y...)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(pooled[a], pooled[b]) })
	// doubled[i] is twice the rank of pooled[i]; a run of ties from position a to b (0-based) shares rank
	// (a+b)/2+1, which doubled is a+b+2.
	doubled := make([]int, n)
	for a := 0; a < n; {
		b := a
		for b+1 < n && pooled[order[b+1]] == pooled[order[a]] {
			b++
		}
		for k := a; k <= b; k++ {
			doubled[order[k]] = a + b + 2
		}
		a = b + 1
	}
	observed := 0
	for i := range x {
		observed += doubled[i]
	}
	// ways[k][s]: the subsets of k of the ranks seen so far whose doubled ranks sum to s.
	maxSum := n * (n + 1)
	ways := make([][]float64, len(x)+1)
	for k := range ways {
		ways[k] = make([]float64, maxSum+1)
	}
	ways[0][0] = 1
	for _, r := range doubled {
		for k := len(x); k >= 1; k-- {
			for s := maxSum; s >= r; s-- {
				ways[k][s] += ways[k-1][s-r]
			}
		}
	}
	var atLeast, total float64
	for s, w := range ways[len(x)] {
		total += w
		if s >= observed {
			atLeast += w
		}
	}
	// total is every way of choosing len(x) of the n values, C(n, len(x)).
	return atLeast / total, 1 / total
}
