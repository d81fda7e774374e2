package main

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"slices"
	"time"

	"github.com/kmsguard/kmsguard/test/kmsenv"
)

const (
	// heapSampleInterval is how often the migrator's heap is read during its run.
	heapSampleInterval = 10 * time.Millisecond
	// rssSampleInterval is how often the apiserver's VmRSS is read during a run.
	rssSampleInterval = 50 * time.Millisecond
)

// rssSampler records the peak VmRSS of a process above its value when the sampler started.
type rssSampler struct {
	baseline, peak uint64
	done, stopped  chan struct{}
}

func startRSSSampler(pid int) (*rssSampler, error) {
	baseline, err := kmsenv.ProcessRSS(pid)
	if err != nil {
		return nil, err
	}
	s := &rssSampler{baseline: baseline, peak: baseline, done: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		defer close(s.stopped)
		ticker := time.NewTicker(rssSampleInterval)
		defer ticker.Stop()
		for {
			if rss, err := kmsenv.ProcessRSS(pid); err == nil {
				s.peak = max(s.peak, rss)
			}
			select {
			case <-s.done:
				return
			case <-ticker.C:
			}
		}
	}()
	return s, nil
}

// stop ends the sampling and returns the rise: peak minus baseline.
func (s *rssSampler) stop() uint64 {
	close(s.done)
	<-s.stopped
	return s.peak - s.baseline
}

// heapSampler records the migrator's heap above its value after a GC before the run, two ways:
//   - the live heap (runtime/metrics /gc/heap/live:bytes, the bytes still reachable at the end of a GC) at every
//     GC cycle it sees, which is what the migrator holds;
//   - the peak of HeapInuse, which includes garbage not yet collected and so depends on when the GC runs.
//
// The live heap's median over the cycles is what the memory goal compares between sizes. Its peak, the largest
// of them, is printed too, but it is a maximum over a number of cycles that grows with the run (about 20 at
// 5,000 Secrets and 70 at 20,000 on 2 cores), so it is drawn from more samples at the larger size even when
// what the migrator holds is the same. (Heap profiles taken at each new peak showed most of the rise in objects
// decoded from LIST responses: a peak is a GC that ended while more of them were alive than usual.)
type heapSampler struct {
	baseline, peak uint64
	liveBaseline   uint64
	// live is the live heap above liveBaseline at each GC cycle seen, in the order seen.
	live []uint64
}

const (
	liveHeapMetric = "/gc/heap/live:bytes"
	gcCyclesMetric = "/gc/cycles/total:gc-cycles"
)

func (h *heapSampler) start() (stop func()) {
	runtime.GC()
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	readings := []metrics.Sample{{Name: liveHeapMetric}, {Name: gcCyclesMetric}}
	metrics.Read(readings)
	h.baseline, h.peak = stats.HeapInuse, 0
	h.liveBaseline, h.live = readings[0].Value.Uint64(), nil
	lastCycle := readings[1].Value.Uint64()
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		ticker := time.NewTicker(heapSampleInterval)
		defer ticker.Stop()
		for {
			runtime.ReadMemStats(&stats)
			if stats.HeapInuse > h.baseline {
				h.peak = max(h.peak, stats.HeapInuse-h.baseline)
			}
			metrics.Read(readings)
			// A cycle that ended between two readings, and the one before it if two did, is read once: the
			// value is of the latest.
			if cycle := readings[1].Value.Uint64(); cycle != lastCycle {
				lastCycle = cycle
				h.live = append(h.live, readings[0].Value.Uint64()-min(readings[0].Value.Uint64(), h.liveBaseline))
			}
			select {
			case <-done:
				return
			case <-ticker.C:
			}
		}
	}()
	return func() { close(done); <-stopped }
}

// liveSpread is the median, minimum and maximum of the live heap over the cycles seen.
func (h *heapSampler) liveSpread() spread {
	values := make([]float64, len(h.live))
	for i, v := range h.live {
		values[i] = float64(v)
	}
	return spreadOf(values)
}

// spread is the median, minimum and maximum of some runs' values.
type spread struct {
	median, min, max float64
	n                int
}

func spreadOf(values []float64) spread {
	if len(values) == 0 {
		return spread{}
	}
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	n := len(sorted)
	median := sorted[n/2]
	if n%2 == 0 {
		median = (sorted[n/2-1] + sorted[n/2]) / 2
	}
	return spread{median: median, min: sorted[0], max: sorted[n-1], n: n}
}

// format prints the median and the range with f, e.g. "1210 (1180-1250)".
func (s spread) format(f func(float64) string) string {
	if s.n == 0 {
		return "-"
	}
	if s.n == 1 {
		return f(s.median)
	}
	return fmt.Sprintf("%s (%s-%s)", f(s.median), f(s.min), f(s.max))
}

func mib(bytes uint64) string { return fmt.Sprintf("%.1f MiB", float64(bytes)/(1<<20)) }

func mibf(bytes float64) string { return fmt.Sprintf("%.1f", bytes/(1<<20)) }

func rate(v float64) string { return fmt.Sprintf("%.0f", v) }

func seconds(v float64) string { return fmt.Sprintf("%.1f", v) }

// cpuMeter reads the CPU time of some processes at its start and at its stop.
type cpuMeter struct {
	pids  []int
	start []time.Duration
}

func startCPU(pids ...int) (*cpuMeter, error) {
	m := &cpuMeter{pids: pids}
	for _, pid := range pids {
		t, err := kmsenv.ProcessCPU(pid)
		if err != nil {
			return nil, err
		}
		m.start = append(m.start, t)
	}
	return m, nil
}

// stop returns the CPU time each process used since start.
func (m *cpuMeter) stop() (used [3]time.Duration, err error) {
	for i, pid := range m.pids {
		t, err := kmsenv.ProcessCPU(pid)
		if err != nil {
			return used, err
		}
		used[i] = t - m.start[i]
	}
	return used, nil
}
