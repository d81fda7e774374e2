// Command migration is `make bench-migration`: it measures kmsguard's migrator (pkg/kmsmigration) against
// three baselines on one real etcd and kube-apiserver, and one data set of Secrets grown from 5,000 to 20,000:
//
//   - sequential: kube-storage-version-migrator's algorithm without its QPS limit: LIST 500 at a time, PUT each
//     object unchanged, one at a time;
//   - limit: an unthrottled concurrent PUT loop at each of several worker counts; the best one is what the
//     apiserver can take;
//   - in-tree: the storage version migrator Kubernetes ships (KEP-4192, kube-controller-manager's
//     storage-version-migrator-controller, beta and off by default in 1.36), built from the same
//     k8s.io/kubernetes as the apiserver, migrating the Secrets for one StorageVersionMigration;
//   - the migrator with its defaults and its token bucket disabled (QPS -1), so that the apiserver is its only
//     limit, as it is for the loops. Its live heap is read at every GC cycle of the run.
//
// Every measured run starts with every Secret stale: before each one, the apiserver restarts with the other of
// two KMS v2 providers as write provider (both read), and the run must rewrite every object (its
// resourceVersion changes). During every run the apiserver's resident memory (VmRSS) is sampled; its rise over
// the value before the run is the run's memory cost to the apiserver. The loops run interleaved, in rounds, so
// that a slow minute of a shared machine falls on all of them alike, and the summary gives medians and the
// spread. The goals compare medians, but for the RSS rise, which is judged by a rank test of every run
// (goalRSSAlpha). After each round the Census's keys/s is compared with one unpaged read of the prefix.
//
// It prints PASS or FAIL per goal, but exits non-zero only when it could not measure: on a shared machine the
// numbers are noisy, and this is a measurement, not a test.
package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// Goals the migrator is held to, against the apiserver's limit, a sequential rewrite and the in-tree migrator.
const (
	goalVsLimit      = 0.95
	goalVsSequential = 3.0
	goalVsInTree     = 3.0
	goalHeapRatio    = 1.2
	goalCensus       = 0.8
	// goalRSSAlpha: the migrator's apiserver RSS rise exceeds the limit loop's when its rises rank above the
	// loop's more than chance would place them, at this level (a one-sided rank-sum test, ranks.go). One loop's
	// rise varies by a tenth from run to run, and the two loops send the apiserver the same requests, so a
	// comparison of two medians of a few runs would say "exceeds" about half the time whatever the migrator did.
	goalRSSAlpha = 0.05
)

const (
	// listPageSize is kube-storage-version-migrator's chunk size, and the migrator's default page size.
	listPageSize = 500
	// Provider names. The two KMS v2 providers take turns as write provider; aescbc writes the data set.
	providerAESCBC = "bench-aescbc"
	providerKMSA   = "kms-a"
	providerKMSB   = "kms-b"
	namespaces     = 10
)

var secretsGR = schema.GroupResource{Resource: "secrets"}
var secretsGVR = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}

// apiServerArgs serve the storagemigration.k8s.io API the in-tree migrator needs, at every (re)start.
var (
	apiServerArgs         = map[string]string{"runtime-config": "storagemigration.k8s.io/v1beta1=true"}
	apiServerFeatureGates = []string{"StorageVersionMigrator=true"}
)

func main() {
	sizes := flag.String("sizes", "5000,20000", "data set sizes, ascending: the Secrets are created once and grown")
	workers := flag.String("workers", "8,16,32", "worker counts of the unthrottled concurrent loop; the best one is the limit")
	rounds := flag.Int("rounds", 5, "rounds per size: each runs every loop once, in a rotated order")
	loops := flag.String("loops", "", "comma-separated loops to run (sequential, limit-<workers>, migrator, in-tree); empty runs all")
	secretBytes := flag.Int("secret-bytes", 1024, "bytes of data per Secret")
	latencyFactor := flag.Float64("latency-factor", 0, "the migrator's LatencyFactor; 0 keeps its default")
	concurrency := flag.Int("concurrency", 0, "the migrator's Concurrency; 0 keeps its default")
	profileDir := flag.String("apiserver-profile", "", "directory for a CPU profile of kube-apiserver over the first 5 s of each run (its /debug/pprof/profile); empty takes none")
	profileKind := flag.String("apiserver-profile-kind", "profile", "what -apiserver-profile takes: profile (CPU) or allocs (the bytes and objects allocated over the 5 s, /debug/pprof/allocs)")
	flag.Parse()
	// envtest logs through controller-runtime's logger and warns once when none is set.
	ctrllog.SetLogger(zap.New(zap.WriteTo(os.Stderr)))

	b := &bench{secretBytes: *secretBytes, latencyFactor: *latencyFactor, concurrency: *concurrency, rounds: *rounds, profileDir: *profileDir, profileKind: *profileKind}
	var err error
	if b.sizes, err = parseInts(*sizes); err != nil {
		fail(fmt.Errorf("-sizes: %w", err))
	}
	if b.workers, err = parseInts(*workers); err != nil {
		fail(fmt.Errorf("-workers: %w", err))
	}
	if b.profileKind != "profile" && b.profileKind != "allocs" {
		fail(fmt.Errorf("-apiserver-profile-kind %q: profile or allocs", b.profileKind))
	}
	if b.rounds < 1 {
		fail(fmt.Errorf("-rounds %d: at least 1", b.rounds))
	}
	b.loops = b.allLoops()
	if *loops != "" {
		if b.loops, err = selectLoops(b.loops, *loops); err != nil {
			fail(fmt.Errorf("-loops: %w", err))
		}
	}
	b.args = os.Args[1:]
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
	rounds         int
	loops          []*loop
	secretBytes    int
	latencyFactor  float64
	concurrency    int
	profileDir     string
	profileKind    string
	args           []string

	dir     string
	kms     *fake.KMS
	cp      *kmsenv.ControlPlane
	configs map[string]*apiserverv1.EncryptionConfiguration
	// writer is the apiserver's write provider; lastKMS the KMS provider that wrote last, so that the other one
	// makes everything stale.
	writer, lastKMS string
	created         int
	results         []*sizeResult
	// client is the measured loops' config (client.go).
	client *rest.Config
	// kcmRuns numbers the kube-controller-manager processes, for their log files; profiles the apiserver's
	// profiles.
	kcmRuns, profiles int
}

func (b *bench) run(ctx context.Context) (err error) {
	dir, err := os.MkdirTemp("", "kmsbench-") // short: it holds the plugins' unix sockets
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			// The process logs say what went wrong.
			fmt.Fprintf(os.Stderr, "bench-migration: the control plane's logs are kept in %s\n", dir)
			return
		}
		os.RemoveAll(dir)
	}()
	b.dir = dir
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

	b.printHeader()
	cpDir := filepath.Join(dir, "control-plane")
	if err := os.Mkdir(cpDir, 0o700); err != nil {
		return err
	}
	b.cp, err = kmsenv.Start(kmsenv.Options{Dir: cpDir, APIServerOptions: b.apiServerOptions(providerAESCBC)})
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
	if err := b.provisionClient(ctx); err != nil {
		return err
	}
	for _, size := range b.sizes {
		r, err := b.measureSize(ctx, size)
		if err != nil {
			return fmt.Errorf("%d Secrets: %w", size, err)
		}
		b.results = append(b.results, r)
		b.printSize(r)
	}
	b.printGoals()
	fmt.Printf("\nfinished %s; load average %s\n", time.Now().UTC().Format(time.RFC3339), loadAverage())
	fmt.Println("A measurement on a shared machine, not a test: the exit code says only whether it ran.")
	return nil
}

func (b *bench) printHeader() {
	fmt.Println("kmsguard migration benchmark")
	fmt.Printf("  commit %s; started %s; load average %s; other kube-apiserver processes: %d\n",
		gitCommit(), time.Now().UTC().Format(time.RFC3339), loadAverage(), countProcesses("kube-apiserver"))
	fmt.Printf("  command: go run ./test/bench/migration %s\n", strings.Join(b.args, " "))
	fmt.Printf("  control plane: 1 etcd + 1 kube-apiserver (KUBEBUILDER_ASSETS), KMS v2 through pkg/kmsplugin/fake; GOMAXPROCS %d, %d CPUs\n", runtime.GOMAXPROCS(0), runtime.NumCPU())
	fmt.Printf("  data set: Secrets of %d bytes in %d namespaces, created under aescbc and grown to each size\n", b.secretBytes, namespaces)
	fmt.Printf("  stale data: before every measured run the apiserver restarts with the other of two KMS v2 providers\n"+
		"    (%s, %s) as write provider, all providers read; every run must change every resourceVersion\n", providerKMSA, providerKMSB)
	fmt.Printf("  %d rounds per size, each running every loop once, the order rotated by one per round; medians (min-max)\n", b.rounds)
	fmt.Printf("  sequential: LIST limit %d, one PUT at a time (kube-storage-version-migrator without its QPS limit), JSON\n", listPageSize)
	fmt.Printf("  limit-N: LIST limit %d, unthrottled concurrent PUTs with N workers, %s; the limit is the best median of %v\n", listPageSize, limitFormat, b.workers)
	factor := fmt.Sprintf("default %g", kmsmigration.DefaultLatencyFactor)
	if b.latencyFactor > 1 {
		factor = fmt.Sprint(b.latencyFactor)
	}
	concurrency := fmt.Sprintf("%d (default)", kmsmigration.DefaultConcurrency)
	if b.concurrency > 0 {
		concurrency = fmt.Sprint(b.concurrency)
	}
	fmt.Printf("  migrator: kmsmigration.Options{RESTConfig (protobuf, objects not decoded), Concurrency: %s,\n"+
		"    PageSize: %d (default), QPS: -1 (token bucket disabled: the apiserver is the limit), LatencyFactor: %s}\n",
		concurrency, kmsmigration.DefaultPageSize, factor)
	fmt.Printf("  in-tree: kube-controller-manager %s (KUBEBUILDER_ASSETS) with --controllers=%s,\n"+
		"    --feature-gates=StorageVersionMigrator=true, its default client QPS; apiserver --runtime-config=%s;\n"+
		"    timed from the StorageVersionMigration's creation to its Succeeded condition, with the controller manager\n"+
		"    started and its garbage collector's caches synced before\n",
		kcmVersion(), strings.Join(kcmControllers, ","), apiServerArgs["runtime-config"])
	fmt.Println("  apiserver RSS rise: VmRSS of the kube-apiserver process, peak during the run (every 50ms) minus the value before it")
	fmt.Println("  sequential, limit-N and the migrator authenticate as a service account (bound token, RBAC get/list/update on")
	fmt.Println("    Secrets, priority and fairness: workload-low), as an operator's migrator does; in-tree as system:masters")
	fmt.Println("    (a client certificate); client-side QPS off")
}

func (b *bench) apiServerOptions(writer string) kmsenv.APIServerOptions {
	return kmsenv.APIServerOptions{EncryptionConfig: b.configs[writer], Args: apiServerArgs, FeatureGates: apiServerFeatureGates}
}

// setWriter restarts the apiserver with provider as write provider.
func (b *bench) setWriter(provider string) error {
	if b.writer == provider {
		return nil
	}
	if err := b.cp.APIServer(0).Restart(b.apiServerOptions(provider)); err != nil {
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
	client, err := kubernetes.NewForConfig(b.adminConfig())
	if err != nil {
		return err
	}
	// Secrets 0 to namespaces-1 are one in each namespace.
	for i := range namespaces {
		name, _ := secretName(i)
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
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
	client, err := kubernetes.NewForConfig(b.adminConfig())
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
		namespace, name := secretName(i)
		secret := &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
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

// secretName is the namespace and name of the i-th Secret of the data set.
func secretName(i int) (namespace, name string) {
	return fmt.Sprintf("bench-%d", i%namespaces), fmt.Sprintf("secret-%06d", i)
}

// measureSize grows the data set to size and runs every loop rounds times, interleaved, then the census.
func (b *bench) measureSize(ctx context.Context, size int) (*sizeResult, error) {
	fmt.Printf("\n== %d Secrets ==\n", size)
	if err := b.grow(ctx, size); err != nil {
		return nil, err
	}
	client, err := b.secrets()
	if err != nil {
		return nil, err
	}
	r := &sizeResult{series: map[string]*series{}}
	if r.objects, err = count(ctx, client); err != nil {
		return nil, err
	}
	for _, l := range b.loops {
		r.series[l.name] = &series{}
	}
	for round := range b.rounds {
		fmt.Printf("  round %d of %d (load average %s)\n", round+1, b.rounds, loadAverage())
		for i := range b.loops {
			l := b.loops[(i+round)%len(b.loops)]
			s := r.series[l.name]
			if s.err != nil {
				continue // not measurable: said once, not retried every round
			}
			got, err := b.measure(ctx, l, r.objects, size)
			if err != nil {
				if !l.mayFail {
					return nil, fmt.Errorf("%s: %w", l.name, err)
				}
				s.err = err
				fmt.Printf("    %-14s NOT MEASURED: %v\n", l.name, err)
				continue
			}
			s.samples = append(s.samples, got)
		}
		if err := b.measureCensus(ctx, r, round); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func gitCommit() string {
	out, err := exec.Command("git", "describe", "--always", "--dirty", "--abbrev=12").Output()
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	return strings.TrimSpace(string(out))
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	fields := strings.Fields(string(data))
	if len(fields) < 3 {
		return "unknown"
	}
	return strings.Join(fields[:3], " ")
}

// countProcesses counts the processes whose executable is named name: other kube-apiservers on the machine
// are other agents' tests, and noise for this one.
func countProcesses(name string) int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return -1
	}
	n := 0
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(cmdline) == 0 {
			continue
		}
		if filepath.Base(strings.SplitN(string(cmdline), "\x00", 2)[0]) == name {
			n++
		}
	}
	return n
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
