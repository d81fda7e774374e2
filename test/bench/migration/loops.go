package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/restmapper"

	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
)

type loopKind int

const (
	kindSequential loopKind = iota
	kindLimit
	kindMigrator
	kindInTree
	// kindMigratorJSON is the migrator without Options.RESTConfig: the dynamic client, JSON. Run only when
	// -loops names it (migrator-json), to measure what protobuf buys.
	kindMigratorJSON
)

// loop is one way of rewriting every Secret.
type loop struct {
	name    string
	kind    loopKind
	workers int
	// mayFail: a loop whose failure is reported as NOT MEASURED instead of ending the benchmark (the in-tree
	// migrator, which needs a feature gate and a controller manager that may not do the job).
	mayFail bool
}

func (b *bench) allLoops() []*loop {
	loops := []*loop{{name: "sequential", kind: kindSequential}}
	for _, w := range b.workers {
		loops = append(loops, &loop{name: "limit-" + strconv.Itoa(w), kind: kindLimit, workers: w})
	}
	return append(loops,
		&loop{name: "migrator", kind: kindMigrator},
		&loop{name: "in-tree", kind: kindInTree, mayFail: true})
}

func selectLoops(all []*loop, names string) ([]*loop, error) {
	all = append(all, &loop{name: "migrator-json", kind: kindMigratorJSON})
	var out []*loop
	for _, name := range strings.Split(names, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, l := range all {
			if l.name == name {
				out, found = append(out, l), true
			}
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(name, "migrator-")); !found && err == nil && n > 0 {
			// migrator-<n>: the migrator with Concurrency n, to compare concurrencies in one run.
			out, found = append(out, &loop{name: name, kind: kindMigrator, workers: n}), true
		}
		if !found {
			return nil, fmt.Errorf("no loop %q (sequential, limit-<one of -workers>, migrator, in-tree)", name)
		}
	}
	return out, nil
}

// sample is one measured rewrite of every Secret.
type sample struct {
	rewritten int64
	elapsed   time.Duration
	// rssRise is the apiserver's peak VmRSS during the run minus its VmRSS before.
	rssRise uint64
	// Migrator only: its live heap above the value before the run, the median and the largest over the GC
	// cycles of the run (heapSampler), the number of those cycles, and the peak of HeapInuse.
	heapLive, heapLivePeak, heapInuse uint64
	heapCycles                        int
	// cpu is the CPU time the apiserver, etcd and the client (this process, or the controller manager for the
	// in-tree run) used during the run.
	cpu [3]time.Duration
	// note is printed after the run's line.
	note string
}

func (s sample) rate() float64 { return float64(s.rewritten) / s.elapsed.Seconds() }

// cpuPerObject is the CPU time of process i of sample.cpu per object rewritten, in µs.
func (s sample) cpuPerObject(i int) float64 {
	return float64(s.cpu[i].Microseconds()) / float64(max(s.rewritten, 1))
}

func (b *bench) secrets() (dynamic.NamespaceableResourceInterface, error) {
	client, err := dynamic.NewForConfig(b.restConfig())
	if err != nil {
		return nil, err
	}
	return client.Resource(secretsGVR), nil
}

// measure makes every Secret stale, then times one run of l and checks that it rewrote every one of them.
func (b *bench) measure(ctx context.Context, l *loop, objects, size int) (sample, error) {
	if err := b.makeStale(); err != nil {
		return sample{}, err
	}
	if err := b.warmDiscovery(); err != nil {
		return sample{}, err
	}
	pid, err := b.cp.APIServer(0).PID()
	if err != nil {
		return sample{}, err
	}
	var inTree *inTreeRun
	if l.kind == kindInTree {
		if inTree, err = b.prepareInTree(ctx); err != nil {
			return sample{}, err
		}
		defer inTree.stop()
	}
	etcdPID, err := b.cp.EtcdPID()
	if err != nil {
		return sample{}, err
	}
	clientPID := os.Getpid()
	if inTree != nil {
		clientPID = inTree.cmd.Process.Pid
	}
	runtime.GC()
	cpu, err := startCPU(pid, etcdPID, clientPID)
	if err != nil {
		return sample{}, err
	}
	rss, err := startRSSSampler(pid)
	if err != nil {
		return sample{}, err
	}
	var heap heapSampler
	stopHeap := func() {}
	if l.kind == kindMigrator || l.kind == kindMigratorJSON {
		stopHeap = heap.start()
	}
	var s sample
	retriedBefore := retries.Load()
	profiled := b.profileAPIServer(ctx, fmt.Sprintf("%d-%s", size, l.name))
	start := time.Now()
	switch l.kind {
	case kindSequential:
		s.rewritten, err = b.sequential(ctx)
	case kindLimit:
		s.rewritten, err = b.concurrent(ctx, l.workers)
	case kindMigrator, kindMigratorJSON:
		s.rewritten, s.note, err = b.migrate(ctx, size, l.kind == kindMigrator, cmp.Or(l.workers, b.concurrency))
	case kindInTree:
		s.note, err = inTree.run(ctx)
	}
	s.elapsed = time.Since(start)
	if err := profiled(); err != nil {
		fmt.Fprintf(os.Stderr, "bench-migration: no apiserver profile of %s: %v\n", l.name, err)
	}
	stopHeap()
	s.rssRise = rss.stop()
	live := heap.liveSpread()
	s.heapLive, s.heapLivePeak, s.heapCycles, s.heapInuse = uint64(live.median), uint64(live.max), live.n, heap.peak
	if err != nil {
		return s, err
	}
	if s.cpu, err = cpu.stop(); err != nil {
		return s, err
	}
	// Read after the samplers stopped: the scrape is the benchmark's, not the run's.
	if requests, err := b.readSecretRequests(ctx); err != nil {
		s.note = strings.TrimPrefix(s.note+"; requests for Secrets not read: "+err.Error(), "; ")
	} else {
		s.note = strings.TrimPrefix(s.note+"; requests for Secrets answered: "+requests.String(), "; ")
	}
	if l.kind == kindInTree {
		// Counted after the clock stopped: the in-tree migrator does not count what it rewrote.
		if s.rewritten, err = inTree.rewritten(ctx); err != nil {
			return s, err
		}
		s.note += "; 1 Secret touched by the benchmark (" + inTree.touched + "), see intree.go"
	}
	if n := retries.Load() - retriedBefore; n > 0 {
		s.note = strings.TrimPrefix(s.note+fmt.Sprintf("; %d requests retried after errors (stderr)", n), "; ")
	}
	if s.rewritten != int64(objects) {
		return s, fmt.Errorf("rewrote %d of %d Secrets: the run did not start with all of them stale", s.rewritten, objects)
	}
	fmt.Printf("    %-14s %6d rewritten in %7s  %6.0f objects/s  apiserver RSS +%s  CPU µs/object apiserver %.0f etcd %.0f client %.0f  (write provider %s)\n",
		l.name, s.rewritten, s.elapsed.Round(10*time.Millisecond), s.rate(), mib(s.rssRise),
		s.cpuPerObject(0), s.cpuPerObject(1), s.cpuPerObject(2), b.writer)
	if l.kind == kindMigrator || l.kind == kindMigratorJSON {
		s.note = fmt.Sprintf("live heap +%s, at most +%s over %d GC cycles (HeapInuse +%s); %s",
			mib(s.heapLive), mib(s.heapLivePeak), s.heapCycles, mib(s.heapInuse), s.note)
	}
	if s.note != "" {
		fmt.Printf("      %s\n", s.note)
	}
	return s, nil
}

// warmDiscovery asks the apiserver, just restarted by makeStale, for its discovery documents, which it builds at
// the first request for them. The migrator asks for them (its RESTMapper) and the loops do not; asked here,
// before the samplers start, they are counted against no run, as in a cluster whose apiserver has answered
// discovery long before a migration.
func (b *bench) warmDiscovery() error {
	disc, err := discovery.NewDiscoveryClientForConfig(b.restConfig())
	if err != nil {
		return err
	}
	if _, _, err := disc.ServerGroupsAndResources(); err != nil {
		return fmt.Errorf("asking the restarted apiserver for discovery: %w", err)
	}
	return nil
}

// profileAPIServer takes a profile of the apiserver over the first 5 s of a run into
// <-apiserver-profile>/<name>-<n>.pprof, when the flag is set: CPU, or with -apiserver-profile-kind allocs the
// allocations of those 5 s (a delta profile). wait waits for it and says why there is none.
func (b *bench) profileAPIServer(ctx context.Context, name string) (wait func() error) {
	if b.profileDir == "" {
		return func() error { return nil }
	}
	client, err := kubernetes.NewForConfig(b.adminConfig())
	if err != nil {
		return func() error { return err }
	}
	done := make(chan error, 1)
	go func() {
		profile, err := client.CoreV1().RESTClient().Get().AbsPath("/debug/pprof/"+b.profileKind).Param("seconds", "5").DoRaw(ctx)
		if err == nil {
			b.profiles++
			err = os.WriteFile(filepath.Join(b.profileDir, fmt.Sprintf("%s-%d.pprof", name, b.profiles)), profile, 0o600)
		}
		done <- err
	}()
	return func() error { return <-done }
}

// migrate runs the migrator once over the Secrets and reports its in-flight limit.
func (b *bench) migrate(ctx context.Context, size int, protobuf bool, concurrency int) (int64, string, error) {
	config := b.restConfig()
	restConfig := config
	if !protobuf {
		restConfig = nil
	}
	client, err := dynamic.NewForConfig(config)
	if err != nil {
		return 0, "", err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return 0, "", err
	}
	m, err := kmsmigration.New(kmsmigration.Options{
		Dynamic:       client,
		RESTConfig:    restConfig,
		Mapper:        restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc)),
		QPS:           -1,
		LatencyFactor: b.latencyFactor,
		Concurrency:   concurrency,
	})
	if err != nil {
		return 0, "", err
	}
	limits := watchInFlightLimit(m)
	p, err := m.Migrate(ctx, secretsGR, kmsmigration.Target{WriteKey: fmt.Sprintf("bench-%d-%s", size, b.writer)})
	note := limits()
	if err != nil {
		return p.Counts.Rewritten, note, err
	}
	if c := p.Counts; c.Listed != c.Rewritten {
		return c.Rewritten, note, fmt.Errorf("the migrator did not rewrite every object it listed: %s", c)
	}
	return p.Counts.Rewritten, note, nil
}

// watchInFlightLimit samples the migrator's in-flight limit until stopped, and describes its range.
func watchInFlightLimit(m *kmsmigration.Migrator) (stop func() string) {
	done, stopped := make(chan struct{}), make(chan struct{})
	lowest, highest, samples, sum := 0, 0, 0, 0
	go func() {
		defer close(stopped)
		ticker := time.NewTicker(100 * time.Millisecond)
		defer ticker.Stop()
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
			}
			for _, p := range m.Progress() {
				if p.Running() && p.InFlightLimit > 0 {
					if samples == 0 || p.InFlightLimit < lowest {
						lowest = p.InFlightLimit
					}
					highest = max(highest, p.InFlightLimit)
					samples++
					sum += p.InFlightLimit
				}
			}
		}
	}()
	return func() string {
		close(done)
		<-stopped
		if samples == 0 {
			return "in-flight limit not sampled"
		}
		return fmt.Sprintf("in-flight limit %d-%d, mean %.1f over %d samples", lowest, highest, float64(sum)/float64(samples), samples)
	}
}

// sequential is kube-storage-version-migrator's algorithm without its rate limit: one page of Secrets, then a
// PUT of each, unchanged, one at a time.
func (b *bench) sequential(ctx context.Context) (int64, error) {
	client, err := b.secrets()
	if err != nil {
		return 0, err
	}
	var rewritten int64
	err = eachPage(ctx, client, func(items []unstructured.Unstructured) error {
		for i := range items {
			changed, err := rewrite(ctx, client, &items[i])
			if err != nil {
				return err
			}
			if changed {
				rewritten++
			}
		}
		return nil
	})
	return rewritten, err
}

// limitFormat is the wire format of the concurrent loops: the migrator's for built-in resources, so that the
// limit is what the apiserver can take from a client like it, not what JSON costs.
const limitFormat = "protobuf (client-go's typed Secrets client)"

// rewrite PUTs obj unchanged and says whether the apiserver stored it again.
func rewrite(ctx context.Context, client dynamic.NamespaceableResourceInterface, obj *unstructured.Unstructured) (bool, error) {
	var updated *unstructured.Unstructured
	err := retry(ctx, func() (err error) {
		updated, err = client.Namespace(obj.GetNamespace()).Update(ctx, obj, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return false, err
	}
	return updated.GetResourceVersion() != obj.GetResourceVersion(), nil
}

// retries counts the requests of the loops that were retried after an error, for the run's note.
var retries atomic.Int64

// retry calls f until it succeeds, up to 5 times for an error that may pass (a 5xx, a lost connection): the
// migrator retries those too, and one of them on a shared machine must not end a half-hour benchmark. A
// Conflict, NotFound or any other client error is returned at once: in the benchmark none is expected.
func retry(ctx context.Context, f func() error) error {
	for attempt := 1; ; attempt++ {
		err := f()
		if err == nil || attempt == 5 || ctx.Err() != nil || apierrors.IsConflict(err) || apierrors.IsNotFound(err) ||
			apierrors.IsBadRequest(err) || apierrors.IsInvalid(err) || apierrors.IsForbidden(err) {
			return err
		}
		retries.Add(1)
		fmt.Fprintf(os.Stderr, "bench-migration: retrying after: %v\n", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
		}
	}
}

// eachPage lists every Secret, listPageSize at a time, following the apiserver's inconsistent continue token
// when a slow walk outlives the consistent one (410 Expired).
func eachPage(ctx context.Context, client dynamic.NamespaceableResourceInterface, page func([]unstructured.Unstructured) error) error {
	token := ""
	for {
		var list *unstructured.UnstructuredList
		err := retry(ctx, func() (err error) {
			list, err = client.List(ctx, metav1.ListOptions{Limit: listPageSize, Continue: token})
			return err
		})
		var status apierrors.APIStatus
		if apierrors.IsResourceExpired(err) && errors.As(err, &status) && status.Status().ListMeta.Continue != "" {
			token = status.Status().ListMeta.Continue
			continue
		}
		if err != nil {
			return err
		}
		if err := page(list.Items); err != nil {
			return err
		}
		if token = list.GetContinue(); token == "" {
			return nil
		}
	}
}

func count(ctx context.Context, client dynamic.NamespaceableResourceInterface) (int, error) {
	n := 0
	err := eachPage(ctx, client, func(items []unstructured.Unstructured) error {
		n += len(items)
		return nil
	})
	return n, err
}

// parallel calls f for 0..n-1 on workers goroutines and returns the first error.
func parallel(ctx context.Context, workers, n int, f func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := f(ctx, i); err != nil {
					cancel(err)
				}
			}
		}()
	}
	wg.Wait()
	return context.Cause(ctx)
}

// concurrent PUTs every Secret unchanged with workers in parallel and no rate limit, through client-go's typed
// client in protobuf. A page of objects is buffered, so that the next LIST runs while the workers write.
func (b *bench) concurrent(ctx context.Context, workers int) (int64, error) {
	config := b.restConfig()
	config.ContentType = "application/vnd.kubernetes.protobuf"
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	queue := make(chan *corev1.Secret, listPageSize)
	var rewritten atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for obj := range queue {
				var updated *corev1.Secret
				err := retry(ctx, func() (err error) {
					updated, err = client.CoreV1().Secrets(obj.Namespace).Update(ctx, obj, metav1.UpdateOptions{})
					return err
				})
				if err != nil {
					cancel(err)
					continue
				}
				if updated.ResourceVersion != obj.ResourceVersion {
					rewritten.Add(1)
				}
			}
		}()
	}
	token := ""
	for ctx.Err() == nil {
		var list *corev1.SecretList
		err := retry(ctx, func() (err error) {
			list, err = client.CoreV1().Secrets("").List(ctx, metav1.ListOptions{Limit: listPageSize, Continue: token})
			return err
		})
		if err != nil {
			cancel(err)
			break
		}
		for i := range list.Items {
			select {
			case queue <- &list.Items[i]:
			case <-ctx.Done():
			}
		}
		if token = list.Continue; token == "" {
			break
		}
	}
	close(queue)
	wg.Wait()
	return rewritten.Load(), context.Cause(ctx)
}
