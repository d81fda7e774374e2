package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/restmapper"

	ectest "github.com/kmsguard/kmsguard/internal/encryptionconfigtest"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

const (
	// plaintextSecrets are created before KMS becomes the write key, kmsSecrets after.
	plaintextSecrets = 300
	kmsSecrets       = 50
)

var secretsResource = evidence.BuiltInResource(evidence.DefaultEtcdPrefix, schema.GroupResource{Resource: "secrets"})

// TestVerifyMigrationFromIdentityToKMS follows a migration to KMS v2 on a real etcd and kube-apiserver: the
// verifier counts plaintext and KMS-encrypted Secrets from the raw etcd values, is not satisfied until a no-op
// update of every Secret rewrote the plaintext ones, and only then does the pruning rule let identity go, once
// the rollback window has passed. It also compares the verifier's keys/s with one unpaged read of the prefix.
func TestVerifyMigrationFromIdentityToKMS(t *testing.T) {
	ctx := context.Background()
	kms := fake.NewKMS()
	plugin := fake.StartForTest(t, kms)
	cp := kmsenv.StartForTest(t, kmsenv.Options{APIServerOptions: kmsenv.APIServerOptions{
		EncryptionConfig: ectest.Secrets(ectest.Identity(), kmsenv.KMSv2Provider(providerName, plugin.Endpoint())),
	}})
	a := cp.APIServer(0)
	etcd, err := cp.EtcdClient()
	if err != nil {
		t.Fatal(err)
	}
	writeKMS := evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: providerName, KEKID: kms.CurrentKEKID()}
	identity := evidence.ReadKey{Kind: etcdvalue.KindIdentity}

	// Whatever kube-apiserver created by itself (none in envtest, some in a real cluster) is plaintext too.
	before := verify(t, a, etcd, nil, writeKMS)
	preexisting := before.Resources[0].Total
	t.Logf("Secrets before the test: %d", preexisting)

	for i := range plaintextSecrets {
		createSecret(t, a.Client(), fmt.Sprintf("plain-%03d", i), "v")
	}
	if err := a.Restart(kmsenv.APIServerOptions{
		EncryptionConfig: ectest.Secrets(kmsenv.KMSv2Provider(providerName, plugin.Endpoint()), ectest.Identity()),
	}); err != nil {
		t.Fatal(err)
	}
	for i := range kmsSecrets {
		createSecret(t, a.Client(), fmt.Sprintf("kms-%03d", i), "v")
	}

	sampler := &evidence.DynamicSampler{
		Client:   dynamic.NewForConfigOrDie(a.RESTConfig()),
		Versions: map[schema.GroupResource]string{{Resource: "secrets"}: "v1"},
	}
	report := verify(t, a, etcd, sampler, writeKMS)
	got := report.Resources[0]
	plainKey := evidence.Key{Kind: etcdvalue.KindIdentity}
	kmsKey := evidence.Key{Kind: etcdvalue.KindKMSv2, Name: providerName, KEKID: kms.CurrentKEKID(), DEKSourceType: etcdvalue.DEKSourceHKDFSeed}
	wantPlain := preexisting + plaintextSecrets
	if counts := keyCounts(got); counts[plainKey] != wantPlain || counts[kmsKey] != kmsSecrets || len(counts) != 2 {
		t.Errorf("counts %v, want %d under %s and %d under %s", counts, wantPlain, plainKey, kmsSecrets, kmsKey)
	}
	if got.Total != wantPlain+kmsSecrets || got.NotUnderWriteKey != wantPlain || got.UnderWriteKey != kmsSecrets || got.Corrupt != 0 {
		t.Errorf("total %d, not under the write key %d, under it %d, corrupt %d; want %d, %d, %d, 0",
			got.Total, got.NotUnderWriteKey, got.UnderWriteKey, got.Corrupt, wantPlain+kmsSecrets, wantPlain, kmsSecrets)
	}
	if len(got.NotUnderWriteKeyListed) != evidence.DefaultMaxListed || got.NotUnderWriteKeyListed[0] != secretKey("plain-000") {
		t.Errorf("listed %d keys starting with %v, want %d starting with %s", len(got.NotUnderWriteKeyListed), got.NotUnderWriteKeyListed[:1], evidence.DefaultMaxListed, secretKey("plain-000"))
	}
	checkSamples(t, got)
	if report.Verified() {
		t.Error("verified with plaintext Secrets left")
	}
	kmsguard := buildKMSGuard(t)
	kubeconfig := writeKubeconfig(t, a)
	if cli := runVerifyCommand(t, kmsguard, kubeconfig, cp.EtcdEndpoint(), writeKMS, exitCodeNotVerified, "--resources=secrets"); cli.Resources[0].NotUnderWriteKey != wantPlain {
		t.Errorf("kmsguard verify counts %d objects not under the write key, want %d", cli.Resources[0].NotUnderWriteKey, wantPlain)
	}
	var refused *evidence.PruneError
	err = evidence.CanDropReadKey(report, identity, time.Now().Add(-time.Hour), 0, time.Now())
	if !errors.As(err, &refused) || refused.Reason != evidence.PruneObjectsUnderKey || refused.Objects != wantPlain {
		t.Errorf("pruning identity with %d plaintext Secrets: got %v, want %s for %d objects", wantPlain, err, evidence.PruneObjectsUnderKey, wantPlain)
	}

	rewriteAllSecrets(t, a.Client())
	migrationFinished := time.Now()

	report = verify(t, a, etcd, sampler, writeKMS)
	got = report.Resources[0]
	if counts := keyCounts(got); counts[kmsKey] != wantPlain+kmsSecrets || len(counts) != 1 {
		t.Errorf("after the rewrite counts are %v, want all %d under %s", counts, wantPlain+kmsSecrets, kmsKey)
	}
	checkSamples(t, got)
	if !report.Verified() {
		t.Errorf("not verified after every Secret was rewritten: %+v", got)
	}
	if cli := runVerifyCommand(t, kmsguard, kubeconfig, cp.EtcdEndpoint(), writeKMS, exitCodeVerified, "--resources=secrets"); cli.Resources[0].UnderWriteKey != wantPlain+kmsSecrets {
		t.Errorf("kmsguard verify counts %d objects under the write key, want %d", cli.Resources[0].UnderWriteKey, wantPlain+kmsSecrets)
	}
	const window = time.Hour
	err = evidence.CanDropReadKey(report, identity, migrationFinished, window, migrationFinished.Add(window/2))
	if !errors.As(err, &refused) || refused.Reason != evidence.PruneRollbackWindow {
		t.Errorf("pruning identity inside the rollback window: got %v, want %s", err, evidence.PruneRollbackWindow)
	}
	if err := evidence.CanDropReadKey(report, identity, migrationFinished, window, migrationFinished.Add(window)); err != nil {
		t.Errorf("pruning identity after the rollback window: %v", err)
	}

	// keys/s of the paged, pinned scan against one unpaged read of the same prefix. Not asserted: the machine
	// is shared; the figures are for the reader.
	start := time.Now()
	resp, err := etcd.Get(ctx, secretsResource.Prefix, clientv3.WithPrefix())
	if err != nil {
		t.Fatal(err)
	}
	unpaged := time.Since(start)
	if int64(len(resp.Kvs)) != got.Total {
		t.Errorf("the unpaged read found %d keys, the verifier %d", len(resp.Kvs), got.Total)
	}
	t.Logf("unpaged Get(WithPrefix): %d keys in %s = %.0f keys/s", len(resp.Kvs), unpaged, float64(len(resp.Kvs))/unpaged.Seconds())
	for _, pageSize := range []int64{evidence.DefaultPageSize, 50} {
		paged, err := evidence.NewCensus(etcd, evidence.CensusOptions{PageSize: pageSize}).Take(ctx, []evidence.Resource{secretsResource}, writeKMS)
		if err != nil {
			t.Fatal(err)
		}
		r := paged.Resources[0]
		if r.Total != int64(len(resp.Kvs)) {
			t.Errorf("the verifier with pages of %d found %d keys, the unpaged read %d", pageSize, r.Total, len(resp.Kvs))
		}
		t.Logf("verifier, pages of %d: %d keys in %s = %.0f keys/s", pageSize, r.Total, r.Duration.Duration, r.KeysPerSecond)
	}
}

// TestVerifySurvivesCompaction compacts the real etcd while a scan is pinned to a revision: the scan must
// finish at a newer revision, say that it spans revisions, and still count every key exactly once.
func TestVerifySurvivesCompaction(t *testing.T) {
	ctx := context.Background()
	kms := fake.NewKMS()
	plugin := fake.StartForTest(t, kms)
	cp := startKMSControlPlane(t, plugin)
	const secrets = 25
	for i := range secrets {
		createSecret(t, cp.APIServer(0).Client(), fmt.Sprintf("s-%02d", i), "v")
	}
	etcd, err := cp.EtcdClient()
	if err != nil {
		t.Fatal(err)
	}
	kv := &compactingKV{KV: etcd, t: t, compactBefore: 2}
	want := evidence.WriteKey{Kind: etcdvalue.KindKMSv2, Name: providerName, KEKID: kms.CurrentKEKID()}
	counter := metadataCounter(t, cp.APIServer(0))
	report, err := evidence.NewCensus(kv, evidence.CensusOptions{PageSize: 10, Counter: counter}).Take(ctx, []evidence.Resource{secretsResource}, want)
	if err != nil {
		t.Fatal(err)
	}
	got := report.Resources[0]
	if !kv.compacted {
		t.Fatal("etcd was never compacted")
	}
	if !got.SpansRevisions || len(got.Revisions) != 2 || got.Revisions[1] <= got.Revisions[0] {
		t.Errorf("revisions %v, spans revisions %v: want two increasing revisions", got.Revisions, got.SpansRevisions)
	}
	if got.Total != secrets || got.UnderWriteKey != secrets || !report.Verified() {
		t.Errorf("total %d, under the write key %d, verified %v (%+v); want %d, %d, true", got.Total, got.UnderWriteKey, report.Verified(), got.Verdict(), secrets, secrets)
	}
	// The scan spans revisions: the API's count is the current one, compared within the writes since.
	if c := got.APICount; c == nil || c.Comparison != evidence.CompareWithinWrites || c.Objects != secrets {
		t.Errorf("API count %+v, want %d objects compared within writes", c, secrets)
	}
	t.Logf("scan restarted after compaction: revisions %v", got.Revisions)
}

// compactingKV passes reads to etcd, and before read number compactBefore writes a key outside every
// resource prefix and compacts etcd to the new revision, so the revision the scan is pinned to is gone.
type compactingKV struct {
	clientv3.KV
	t             *testing.T
	compactBefore int
	calls         int
	compacted     bool
}

func (kv *compactingKV) Get(ctx context.Context, key string, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	kv.calls++
	if kv.calls == kv.compactBefore {
		put, err := kv.KV.Put(ctx, "/kmsguard-e2e/compaction-marker", "x")
		if err != nil {
			kv.t.Fatal(err)
		}
		if _, err := kv.KV.Compact(ctx, put.Header.Revision, clientv3.WithCompactPhysical()); err != nil {
			kv.t.Fatal(err)
		}
		kv.compacted = true
	}
	return kv.KV.Get(ctx, key, opts...)
}

// verify scans the Secrets in etcd and counts them through a's API.
func verify(t *testing.T, a *kmsenv.APIServer, etcd *clientv3.Client, sampler evidence.Sampler, want evidence.WriteKey) *evidence.Report {
	t.Helper()
	opts := evidence.CensusOptions{Sampler: sampler, Counter: metadataCounter(t, a)}
	report, err := evidence.NewCensus(etcd, opts).Take(context.Background(), []evidence.Resource{secretsResource}, want)
	if err != nil {
		t.Fatal(err)
	}
	return report
}

func keyCounts(r evidence.ResourceReport) map[evidence.Key]int64 {
	counts := map[evidence.Key]int64{}
	for _, k := range r.Keys {
		counts[k.Key] = k.Count
	}
	return counts
}

// checkSamples fails unless the verifier read a full sample through the API and every read succeeded.
func checkSamples(t *testing.T, r evidence.ResourceReport) {
	t.Helper()
	if len(r.Samples) != evidence.DefaultSampleSize {
		t.Errorf("%d objects sampled, want %d", len(r.Samples), evidence.DefaultSampleSize)
	}
	for _, s := range r.Samples {
		if s.Error != "" || s.Gone {
			t.Errorf("sample %s: error %q, gone %v", s.Key, s.Error, s.Gone)
		}
	}
}

// rewriteAllSecrets updates every Secret without changing it. kube-apiserver rewrites a value that was not read
// with its write provider, which is how a migration moves objects to the write key.
func rewriteAllSecrets(t *testing.T, client kubernetes.Interface) {
	t.Helper()
	ctx := context.Background()
	list, err := client.CoreV1().Secrets(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range list.Items {
		s := &list.Items[i]
		if _, err := client.CoreV1().Secrets(s.Namespace).Update(ctx, s, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("rewriting secret %s/%s: %v", s.Namespace, s.Name, err)
		}
	}
}

// buildKMSGuard builds the kmsguard binary, to check `kmsguard verify` end to end, exit codes included.
func buildKMSGuard(t *testing.T) string {
	t.Helper()
	return buildCommand(t, "github.com/kmsguard/kmsguard/cmd/kmsguard")
}

// buildCommand builds the command of package pkg into a temporary directory and returns its path.
func buildCommand(t *testing.T, pkg string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(pkg))
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// runVerifyCommand runs `kmsguard verify -o json` against etcd and the API of kubeconfig, checks its exit code
// and returns its report.
func runVerifyCommand(t *testing.T, bin, kubeconfig, endpoint string, want evidence.WriteKey, wantCode int, args ...string) *evidence.Report {
	t.Helper()
	out, code, stderr := execKMSGuard(t, bin, append([]string{"verify", "--kubeconfig=" + kubeconfig, "--etcd-endpoints=" + endpoint, "--write-provider=" + want.String(), "-o", "json"}, args...)...)
	if code != wantCode {
		t.Fatalf("kmsguard verify exited %d, want %d; stderr:\n%s", code, wantCode, stderr)
	}
	report := &evidence.Report{}
	if err := json.Unmarshal(out, report); err != nil || len(report.Resources) == 0 {
		t.Fatalf("kmsguard verify -o json printed no report (%v):\n%s", err, out)
	}
	return report
}

// execKMSGuard runs the binary and returns its stdout, exit code and stderr.
func execKMSGuard(t *testing.T, bin string, args ...string) (stdout []byte, code int, stderr string) {
	t.Helper()
	var errOut bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out, code, errOut.String()
}

// metadataCounter is the API's object count of a, as kmsguard verify counts.
func metadataCounter(t *testing.T, a *kmsenv.APIServer) *evidence.MetadataCounter {
	t.Helper()
	config := a.RESTConfig()
	disc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	return &evidence.MetadataCounter{Client: metadata.NewForConfigOrDie(config), Mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))}
}

// writeKubeconfig writes a's admin kubeconfig to a file for kmsguard.
func writeKubeconfig(t *testing.T, a *kmsenv.APIServer) string {
	t.Helper()
	data, err := a.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
