// Command migration is `make bench-migration`: it measures kmsguard's migrator (pkg/kmsmigration) against the
// two baselines of issue 5 on one real etcd and kube-apiserver, and one data set of Secrets grown from 5,000 to
// 20,000:
//
//   - sequential: kube-storage-version-migrator's algorithm without its QPS limit: LIST 500 at a time, PUT each
//     object unchanged, one at a time;
//   - limit: an unthrottled concurrent PUT loop, with the best of several worker counts: what the apiserver can
//     take;
//   - the migrator with its default concurrency and its token bucket disabled (QPS -1), so that the apiserver is
//     its only limit, as it is for the two loops. Its heap peak is sampled during the run.
//
// Every measured run starts with every Secret stale: before each one, the apiserver restarts with the other of
// two KMS v2 providers as write provider (both read), and the run must rewrite every object (its
// resourceVersion changes). It then compares the evidence verifier's keys/s with one unpaged read of the prefix.
//
// It prints PASS or FAIL per goal, but exits non-zero only on errors: on a shared machine the numbers are
// noisy, and this is a measurement, not a test.
package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// Goals of issue 5.
const (
	goalVsLimit      = 0.8
	goalVsSequential = 3.0
	goalHeapRatio    = 1.2
)

const (
	// listPageSize is kube-storage-version-migrator's chunk size, and the migrator's default page size.
	listPageSize = 500
	// Provider names. The two KMS v2 providers take turns as write provider; aescbc writes the data set.
	providerAESCBC = "bench-aescbc"
	providerKMSA   = "kms-a"
	providerKMSB   = "kms-b"
	namespaces     = 10
	// heapSampleInterval is how often HeapInuse is read during a migrator run.
	heapSampleInterval = 10 * time.Millisecond
)

var secretsGR = schema.GroupResource{Resource: "secrets"}
var secretsGVR = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}

func main() {
	sizes := flag.String("sizes", "5000,20000", "data set sizes, ascending: the Secrets are created once and grown")
	workers := flag.String("workers", "8,16,32", "worker counts of the unthrottled concurrent loop; the best one is the limit")
	secretBytes := flag.Int("secret-bytes", 1024, "bytes of data per Secret")
	latencyFactor := flag.Float64("latency-factor", 0, "the migrator's LatencyFactor; 0 keeps its default")
	flag.Parse()
	// envtest logs through controller-runtime's logger and warns once when none is set.
	ctrllog.SetLogger(zap.New(zap.WriteTo(os.Stderr)))

	b := &bench{secretBytes: *secretBytes, latencyFactor: *latencyFactor}
	var err error
	if b.sizes, err = parseInts(*sizes); err != nil {
		fail(fmt.Errorf("-sizes: %w", err))
	}
	if b.workers, err = parseInts(*workers); err != nil {
		fail(fmt.Errorf("-workers: %w", err))
	}
	if err := b.run(context.Background()); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench-migration:", err)
	os.Exit(1)
}

type bench struct {
	sizes, workers []int
	secretBytes    int
	latencyFactor  float64

	kms     *fake.KMS
	cp      *kmsenv.ControlPlane
	configs map[string]*apiserverv1.EncryptionConfiguration
	// writer is the apiserver's write provider; lastKMS the KMS provider that wrote last, so that the other one
	// makes everything stale.
	writer, lastKMS string
	created         int
	results         []sizeResult
}

// sizeResult are the figures for one data set size.
type sizeResult struct {
	objects    int
	sequential run
	limits     []run
	best       run
	migrator   run
	heapPeak   uint64
	// Census and unpaged full-prefix read, in keys/s.
	verifierKeysPerSecond, unpagedKeysPerSecond float64
	verified                                    bool
}

// run is one measured rewrite of every Secret.
type run struct {
	name      string
	workers   int
	rewritten int64
	elapsed   time.Duration
}

func (r run) rate() float64 { return float64(r.rewritten) / r.elapsed.Seconds() }

func (b *bench) run(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "kmsbench-") // short: it holds the plugins' unix sockets
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	b.kms = fake.NewKMS()
	pluginA := fake.NewPlugin(b.kms, filepath.Join(dir, "a.sock"))
	pluginB := fake.NewPlugin(b.kms, filepath.Join(dir, "b.sock"))
	for _, p := range []*fake.Plugin{pluginA, pluginB} {
		if err := p.Start(); err != nil {
			return err
		}
		defer p.Stop()
	}
	aescbcKey := make([]byte, 32)
	if _, err := rand.Read(aescbcKey); err != nil {
		return err
	}
	aescbc := ectest.AESCBC(providerAESCBC, base64.StdEncoding.EncodeToString(aescbcKey))
	kmsA := kmsenv.KMSv2Provider(providerKMSA, pluginA.Endpoint())
	kmsB := kmsenv.KMSv2Provider(providerKMSB, pluginB.Endpoint())
	// The first provider writes; every one reads, so any switch makes every object stale and none unreadable.
	b.configs = map[string]*apiserverv1.EncryptionConfiguration{
		providerAESCBC: ectest.Secrets(aescbc, kmsA, kmsB),
		providerKMSA:   ectest.Secrets(kmsA, kmsB, aescbc),
		providerKMSB:   ectest.Secrets(kmsB, kmsA, aescbc),
	}
	b.writer, b.lastKMS = providerAESCBC, providerKMSB

	fmt.Println("kmsguard migration benchmark")
	fmt.Printf("  control plane: 1 etcd + 1 kube-apiserver (KUBEBUILDER_ASSETS), KMS v2 through pkg/kmsplugin/fake; GOMAXPROCS %d, %d CPUs\n", runtime.GOMAXPROCS(0), runtime.NumCPU())
	fmt.Printf("  data set: Secrets of %d bytes in %d namespaces, created under aescbc and grown to each size\n", b.secretBytes, namespaces)
	fmt.Printf("  stale data: before every measured run the apiserver restarts with the other of two KMS v2 providers\n"+
		"    (%s, %s) as write provider, all providers read; every run must change every resourceVersion\n", providerKMSA, providerKMSB)
	fmt.Printf("  sequential: LIST limit %d, one PUT at a time (kube-storage-version-migrator without its QPS limit)\n", listPageSize)
	fmt.Printf("  limit: LIST limit %d, unthrottled concurrent PUTs, best of %v workers\n", listPageSize, b.workers)
	factor := fmt.Sprintf("default %g", kmsmigration.DefaultLatencyFactor)
	if b.latencyFactor > 1 {
		factor = fmt.Sprint(b.latencyFactor)
	}
	fmt.Printf("  migrator: kmsmigration.Options{Concurrency: %d (default), PageSize: %d (default), QPS: -1 (token bucket\n"+
		"    disabled: the apiserver is the limit), LatencyFactor: %s}; run last at each size\n",
		kmsmigration.DefaultConcurrency, kmsmigration.DefaultPageSize, factor)
	fmt.Println("  every client authenticates as system:masters (exempt from priority and fairness), client-side QPS off")

	b.cp, err = kmsenv.Start(kmsenv.Options{APIServerOptions: kmsenv.APIServerOptions{EncryptionConfig: b.configs[providerAESCBC]}})
	if err != nil {
		return err
	}
	defer func() {
		if err := b.cp.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "bench-migration: stopping the control plane:", err)
		}
	}()
	if err := b.createNamespaces(ctx); err != nil {
		return err
	}
	for _, size := range b.sizes {
		if err := b.measureSize(ctx, size); err != nil {
			return fmt.Errorf("%d Secrets: %w", size, err)
		}
	}
	b.printSummary()
	return nil
}

func (b *bench) restConfig() *rest.Config {
	config := b.cp.APIServer(0).RESTConfig()
	// No client-side rate limit: client-go's default of 5 QPS would measure itself.
	config.QPS, config.Burst = -1, 0
	return config
}

func (b *bench) secrets() (dynamic.NamespaceableResourceInterface, error) {
	client, err := dynamic.NewForConfig(b.restConfig())
	if err != nil {
		return nil, err
	}
	return client.Resource(secretsGVR), nil
}

// setWriter restarts the apiserver with provider as write provider.
func (b *bench) setWriter(provider string) error {
	if b.writer == provider {
		return nil
	}
	if err := b.cp.APIServer(0).Restart(kmsenv.APIServerOptions{EncryptionConfig: b.configs[provider]}); err != nil {
		return err
	}
	b.writer = provider
	if provider != providerAESCBC {
		b.lastKMS = provider
	}
	return nil
}

// makeStale switches the write provider to the KMS provider that did not write last: every Secret is then
// under another provider than the one that writes.
func (b *bench) makeStale() error {
	next := providerKMSA
	if b.lastKMS == providerKMSA {
		next = providerKMSB
	}
	return b.setWriter(next)
}

func (b *bench) createNamespaces(ctx context.Context) error {
	client, err := kubernetes.NewForConfig(b.restConfig())
	if err != nil {
		return err
	}
	for i := range namespaces {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("bench-%d", i)}}
		if _, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// grow creates Secrets under aescbc until there are size of them.
func (b *bench) grow(ctx context.Context, size int) error {
	if err := b.setWriter(providerAESCBC); err != nil {
		return err
	}
	client, err := kubernetes.NewForConfig(b.restConfig())
	if err != nil {
		return err
	}
	data := make([]byte, b.secretBytes)
	if _, err := rand.Read(data); err != nil {
		return err
	}
	start := time.Now()
	first := b.created
	err = parallel(ctx, 16, size-first, func(ctx context.Context, i int) error {
		i += first
		secret := &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: fmt.Sprintf("bench-%d", i%namespaces), Name: fmt.Sprintf("secret-%06d", i)},
			Data:       map[string][]byte{"data": data},
		}
		_, err := client.CoreV1().Secrets(secret.Namespace).Create(ctx, secret, metav1.CreateOptions{})
		return err
	})
	if err != nil {
		return err
	}
	b.created = size
	fmt.Printf("  created %d Secrets under aescbc in %s\n", size-first, time.Since(start).Round(100*time.Millisecond))
	return nil
}

func (b *bench) measureSize(ctx context.Context, size int) error {
	fmt.Printf("\n== %d Secrets ==\n", size)
	if err := b.grow(ctx, size); err != nil {
		return err
	}
	r := sizeResult{}
	client, err := b.secrets()
	if err != nil {
		return err
	}
	if r.objects, err = count(ctx, client); err != nil {
		return err
	}

	if r.sequential, err = b.measure(ctx, "sequential list+PUT", r.objects, sequential); err != nil {
		return err
	}
	for _, w := range b.workers {
		limit, err := b.measure(ctx, fmt.Sprintf("concurrent PUT, %d workers", w), r.objects, func(ctx context.Context, c dynamic.NamespaceableResourceInterface) (int64, error) {
			return concurrent(ctx, c, w)
		})
		if err != nil {
			return err
		}
		limit.workers = w
		r.limits = append(r.limits, limit)
		if limit.rate() > r.best.rate() || r.best.rewritten == 0 {
			r.best = limit
		}
	}
	var heap heapSampler
	r.migrator, err = b.measure(ctx, "kmsguard migrator", r.objects, func(ctx context.Context, c dynamic.NamespaceableResourceInterface) (int64, error) {
		return b.migrate(ctx, &heap, size)
	})
	if err != nil {
		return err
	}
	r.heapPeak = heap.livePeak
	fmt.Printf("    migrator heap peak: live +%s over %s (runtime/metrics %s); HeapInuse +%s over %s (every %s)\n",
		mib(heap.livePeak), mib(heap.liveBaseline), liveHeapMetric, mib(heap.peak), mib(heap.baseline), heapSampleInterval)

	if err := b.measureCensus(ctx, &r); err != nil {
		return err
	}
	b.results = append(b.results, r)
	return nil
}

// measure makes every Secret stale, then times rewrite and checks that it rewrote every one of them.
func (b *bench) measure(ctx context.Context, name string, objects int, rewrite func(context.Context, dynamic.NamespaceableResourceInterface) (int64, error)) (run, error) {
	if err := b.makeStale(); err != nil {
		return run{}, err
	}
	client, err := b.secrets()
	if err != nil {
		return run{}, err
	}
	runtime.GC()
	start := time.Now()
	rewritten, err := rewrite(ctx, client)
	r := run{name: name, rewritten: rewritten, elapsed: time.Since(start)}
	if err != nil {
		return r, fmt.Errorf("%s: %w", name, err)
	}
	if rewritten != int64(objects) {
		return r, fmt.Errorf("%s rewrote %d of %d Secrets: the run did not start with all of them stale", name, rewritten, objects)
	}
	fmt.Printf("  %-30s %6d rewritten in %7s  %6.0f objects/s  (write provider %s)\n", name, rewritten, r.elapsed.Round(10*time.Millisecond), r.rate(), b.writer)
	return r, nil
}

// migrate runs the migrator once over the Secrets, sampling its heap.
func (b *bench) migrate(ctx context.Context, heap *heapSampler, size int) (int64, error) {
	config := b.restConfig()
	client, err := dynamic.NewForConfig(config)
	if err != nil {
		return 0, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return 0, err
	}
	m, err := kmsmigration.New(kmsmigration.Options{
		Dynamic:       client,
		Mapper:        restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc)),
		QPS:           -1,
		LatencyFactor: b.latencyFactor,
	})
	if err != nil {
		return 0, err
	}
	stopLimit := watchInFlightLimit(m)
	stop := heap.start()
	p, err := m.Migrate(ctx, secretsGR, kmsmigration.Target{WriteKey: fmt.Sprintf("bench-%d-%s", size, b.writer)})
	stop()
	stopLimit()
	if err != nil {
		return p.Counts.Rewritten, err
	}
	if c := p.Counts; c.Listed != c.Rewritten {
		return c.Rewritten, fmt.Errorf("the migrator did not rewrite every object it listed: %s", c)
	}
	return p.Counts.Rewritten, nil
}

// watchInFlightLimit samples the migrator's latency-driven in-flight limit until stopped, and prints its
// range: a limit below Concurrency means the migrator backed off because PUT latency rose.
func watchInFlightLimit(m *kmsmigration.Migrator) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	lowest, samples, reduced := kmsmigration.DefaultConcurrency, 0, 0
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
					samples++
					lowest = min(lowest, p.InFlightLimit)
					if p.InFlightLimit < kmsmigration.DefaultConcurrency {
						reduced++
					}
				}
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
		if samples > 0 {
			fmt.Printf("    migrator in-flight limit: lowest %d of %d, below %d in %d%% of %d samples\n",
				lowest, kmsmigration.DefaultConcurrency, kmsmigration.DefaultConcurrency, 100*reduced/samples, samples)
		}
	}
}

// measureCensus reads the Secrets' prefix once unpaged, then runs a census over it.
func (b *bench) measureCensus(ctx context.Context, r *sizeResult) error {
	etcd, err := b.cp.EtcdClient()
	if err != nil {
		return err
	}
	resource := evidence.BuiltInResource(evidence.DefaultEtcdPrefix, secretsGR)
	start := time.Now()
	resp, err := etcd.Get(ctx, resource.Prefix, clientv3.WithPrefix())
	if err != nil {
		return err
	}
	unpaged := time.Since(start)
	keys := len(resp.Kvs)
	resp = nil
	r.unpagedKeysPerSecond = float64(keys) / unpaged.Seconds()

	want := evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: b.writer, KEKID: b.kms.CurrentKEKID()}
	// The verdict needs the API's object count; the keys/s are of the etcd scan alone.
	config := b.cp.APIServer(0).RESTConfig()
	disc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return err
	}
	counter := &evidence.MetadataCounter{Client: metadata.NewForConfigOrDie(config), Mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))}
	report, err := evidence.NewCensus(etcd, evidence.CensusOptions{Counter: counter}).Take(ctx, []evidence.Resource{resource}, want)
	if err != nil {
		return err
	}
	got := report.Resources[0]
	r.verifierKeysPerSecond, r.verified = got.KeysPerSecond, report.Verified()
	fmt.Printf("  verifier: %d keys in %s = %.0f keys/s (pages of %d); unpaged Get(prefix): %d keys in %s = %.0f keys/s; verified under %s: %v\n",
		got.Total, got.Duration.Round(time.Millisecond), got.KeysPerSecond, evidence.DefaultPageSize,
		keys, unpaged.Round(time.Millisecond), r.unpagedKeysPerSecond, want, r.verified)
	if got.Total != int64(keys) {
		return fmt.Errorf("the verifier counted %d keys, the unpaged read %d", got.Total, keys)
	}
	return nil
}

func (b *bench) printSummary() {
	fmt.Println("\n== Summary (objects/s) ==")
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "SECRETS\tSEQUENTIAL\tLIMIT (WORKERS)\tMIGRATOR\tMIGRATOR/LIMIT\tMIGRATOR/SEQUENTIAL\tLIVE HEAP PEAK\tVERIFIER KEYS/S\tUNPAGED KEYS/S")
	for _, r := range b.results {
		vsLimit := r.migrator.rate() / r.best.rate()
		vsSequential := r.migrator.rate() / r.sequential.rate()
		fmt.Fprintf(w, "%d\t%.0f\t%.0f (%d)\t%.0f\t%.2f %s\t%.2f %s\t+%s\t%.0f\t%.0f\n",
			r.objects, r.sequential.rate(), r.best.rate(), r.best.workers, r.migrator.rate(),
			vsLimit, verdict(vsLimit >= goalVsLimit), vsSequential, verdict(vsSequential >= goalVsSequential),
			mib(r.heapPeak), r.verifierKeysPerSecond, r.unpagedKeysPerSecond)
	}
	_ = w.Flush()
	fmt.Printf("goals: migrator/limit >= %.1f, migrator/sequential >= %.0f", goalVsLimit, goalVsSequential)
	if n := len(b.results); n >= 2 {
		small, large := b.results[0], b.results[n-1]
		ratio := float64(large.heapPeak) / float64(small.heapPeak)
		fmt.Printf(", heap peak %d/%d <= %.1f: %.2f %s", large.objects, small.objects, goalHeapRatio, ratio, verdict(ratio <= goalHeapRatio))
	}
	fmt.Println()
	fmt.Println("A measurement on a shared machine, not a test: the exit code says only whether it ran.")
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

func mib(bytes uint64) string { return fmt.Sprintf("%.1f MiB", float64(bytes)/(1<<20)) }

// heapSampler records two peaks above their values after a GC: of HeapInuse, which includes garbage not yet
// collected and so depends on when the GC happens to run, and of the live heap (runtime/metrics
// /gc/heap/live:bytes, the bytes still reachable at the end of each GC), which is what the migrator holds. The
// memory goal is judged on the live heap; both are printed.
type heapSampler struct {
	baseline, peak         uint64
	liveBaseline, livePeak uint64
}

const liveHeapMetric = "/gc/heap/live:bytes"

func (h *heapSampler) start() (stop func()) {
	runtime.GC()
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	live := []metrics.Sample{{Name: liveHeapMetric}}
	metrics.Read(live)
	h.baseline, h.peak = stats.HeapInuse, 0
	h.liveBaseline, h.livePeak = live[0].Value.Uint64(), 0
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
			metrics.Read(live)
			if v := live[0].Value.Uint64(); v > h.liveBaseline {
				h.livePeak = max(h.livePeak, v-h.liveBaseline)
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

// sequential is kube-storage-version-migrator's algorithm without its rate limit: one page of Secrets, then a
// PUT of each, unchanged, one at a time.
func sequential(ctx context.Context, client dynamic.NamespaceableResourceInterface) (int64, error) {
	var rewritten int64
	err := eachPage(ctx, client, func(items []unstructured.Unstructured) error {
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

// concurrent PUTs every Secret with workers in parallel and no rate limit. A page of objects is buffered, so
// that the next LIST runs while the workers write.
func concurrent(ctx context.Context, client dynamic.NamespaceableResourceInterface, workers int) (int64, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	queue := make(chan *unstructured.Unstructured, listPageSize)
	var rewritten atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for obj := range queue {
				changed, err := rewrite(ctx, client, obj)
				if err != nil {
					cancel(err)
					continue
				}
				if changed {
					rewritten.Add(1)
				}
			}
		}()
	}
	err := eachPage(ctx, client, func(items []unstructured.Unstructured) error {
		for i := range items {
			select {
			case queue <- &items[i]:
			case <-ctx.Done():
				return context.Cause(ctx)
			}
		}
		return nil
	})
	close(queue)
	wg.Wait()
	if cause := context.Cause(ctx); cause != nil {
		return rewritten.Load(), cause
	}
	return rewritten.Load(), err
}

// rewrite PUTs obj unchanged and says whether the apiserver stored it again.
func rewrite(ctx context.Context, client dynamic.NamespaceableResourceInterface, obj *unstructured.Unstructured) (bool, error) {
	updated, err := client.Namespace(obj.GetNamespace()).Update(ctx, obj, metav1.UpdateOptions{})
	if err != nil {
		return false, err
	}
	return updated.GetResourceVersion() != obj.GetResourceVersion(), nil
}

// eachPage lists every Secret, listPageSize at a time, following the apiserver's inconsistent continue token
// when a slow walk outlives the consistent one (410 Expired).
func eachPage(ctx context.Context, client dynamic.NamespaceableResourceInterface, page func([]unstructured.Unstructured) error) error {
	token := ""
	for {
		list, err := client.List(ctx, metav1.ListOptions{Limit: listPageSize, Continue: token})
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

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, n)
	}
	return out, nil
}
