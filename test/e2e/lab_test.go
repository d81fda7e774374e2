package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/restmapper"

	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/test/lab"
)

// startLab starts a lab of opts.Nodes nodes with opts.Reporter and opts.Preflight and the short timings, that is
// stopped when t ends. Its directory is short (unix socket paths live below it) and kept, with every log, when the
// test fails.
func startLab(t *testing.T, opts lab.Options) *lab.Lab {
	t.Helper()
	dir, err := os.MkdirTemp("", "lab-")
	if err != nil {
		t.Fatal(err)
	}
	controllerLog, err := os.Create(filepath.Join(dir, "operator.log"))
	if err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	opts.Dir, opts.Log, opts.ControllerLog, opts.Timings = dir, testWriter{t}, controllerLog, lab.ShortOperatorTimings()
	l, err := lab.Start(context.Background(), opts)
	if err != nil {
		t.Fatalf("starting the lab (logs in %s): %v", dir, err)
	}
	t.Logf("lab of %d nodes started in %s (%s; KMS preflight %s)", len(l.Nodes()), time.Since(started).Round(time.Millisecond), l.Reporter(), l.Preflight())
	t.Cleanup(func() {
		if err := l.Stop(); err != nil {
			t.Errorf("stopping the lab: %v", err)
		}
		controllerLog.Close()
		if t.Failed() {
			t.Logf("lab directory kept: %s", dir)
			return
		}
		os.RemoveAll(dir)
	})
	return l
}

// testWriter sends the lab's step lines to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// verifyUnderKMS proves from raw etcd values what `kmsguard verify` proves: every Secret and ConfigMap is stored
// under the KMS write key of library-go's key keyID (provider <keyID>_<resource>) and the KEK id the simulated
// KMS serves, and the API counts as many objects as the scan found.
func verifyUnderKMS(t *testing.T, l *lab.Lab, keyID string) {
	t.Helper()
	ctx := context.Background()
	etcd, err := l.ControlPlane().EtcdClient()
	if err != nil {
		t.Fatal(err)
	}
	cfg := l.RESTConfig()
	discoveryClient, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	verifier := evidence.NewCensus(etcd, evidence.CensusOptions{Counter: &evidence.MetadataCounter{
		Client: metadata.NewForConfigOrDie(cfg),
		Mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(discoveryClient)),
	}})
	for _, resource := range []string{"secrets", "configmaps"} {
		writeKey, err := evidence.ParseWriteKey(fmt.Sprintf("kms-v2:%s_%s:%s", keyID, resource, l.KMS().CurrentKEKID()))
		if err != nil {
			t.Fatal(err)
		}
		report, err := verifier.Take(ctx, []evidence.Resource{evidence.BuiltInResource("/registry", schema.GroupResource{Resource: resource})}, writeKey)
		if err != nil {
			t.Fatalf("verifying %s: %v", resource, err)
		}
		r := report.Resources[0]
		if !report.Verified() || r.Total == 0 || r.UnderWriteKey != r.Total {
			t.Errorf("%s not proven under %s: %d of %d values under it, %d under other keys %v, %d corrupt; verdict %+v",
				resource, writeKey, r.UnderWriteKey, r.Total, r.NotUnderWriteKey, r.NotUnderWriteKeyListed, r.Corrupt, r.Verdict())
			continue
		}
		t.Logf("%s: %d of %d values in etcd under %s", resource, r.UnderWriteKey, r.Total, writeKey)
	}
}

// checkLabCommands runs kmsguard against the lab as docs/lab.md says an admin would: the census proves the switch
// from etcd by itself, `kmsguard status` shows every node's plugin healthy, `kmsguard verify` proves the Secrets
// under the KMS key, and `kmsguard-lab inject` stops one node's plugin, which KMSPluginsDegraded then names, and
// starts it again, which clears it.
func checkLabCommands(t *testing.T, l *lab.Lab, kmsKeyID string) {
	t.Helper()
	ctx := context.Background()
	reports, err := l.WaitForVerified(ctx, kmsKeyID, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, report := range reports {
		for _, r := range report.Resources {
			t.Logf("census: %s: %d of %d values under %s", r.Resource, r.UnderWriteKey, r.Total, report.WriteKey)
		}
	}

	bin := buildKMSGuard(t)
	out, code, stderr := execKMSGuard(t, bin, "status", "--kubeconfig", l.KubeConfigPath(), "-o", "json")
	if code != 0 {
		t.Errorf("kmsguard status exited %d; stderr:\n%s", code, stderr)
	}
	var status struct {
		State *kmsstate.State `json:"state"`
	}
	if err := json.Unmarshal(out, &status); err != nil || status.State == nil {
		t.Fatalf("kmsguard status -o json printed no evaluation (%v):\n%s", err, out)
	}
	healthy := 0
	for _, p := range status.State.Plugins {
		if p.Health == kmsstate.PluginHealthy {
			healthy++
		}
	}
	if healthy != len(l.Nodes()) {
		t.Errorf("kmsguard status shows %d healthy plugins, want one per node (%d):\n%s", healthy, len(l.Nodes()), out)
	}

	writeKey := fmt.Sprintf("kms-v2:%s_secrets:%s", kmsKeyID, l.KMS().CurrentKEKID())
	etcd := l.EtcdConfig()
	out, code, stderr = execKMSGuard(t, bin, "verify", "--kubeconfig", l.KubeConfigPath(), "--etcd-endpoints", l.EtcdEndpoint(),
		"--etcd-cacert", etcd.CAFile, "--etcd-cert", etcd.CertFile, "--etcd-key", etcd.KeyFile,
		"--resources", "secrets", "--write-provider", writeKey)
	if code != 0 {
		t.Errorf("kmsguard verify --write-provider %s exited %d:\n%s\n%s", writeKey, code, out, stderr)
	}

	node := l.Nodes()[1].Name()
	degraded := func(want operatorv1.ConditionStatus) {
		t.Helper()
		var last string
		err := wait.PollUntilContextTimeout(ctx, time.Second, 2*time.Minute, true, func(context.Context) (bool, error) {
			status, err := l.OperatorStatus(ctx)
			if err != nil {
				return false, nil
			}
			cond := v1helpers.FindOperatorCondition(status.Conditions, kmsstate.ConditionKMSPluginsDegraded)
			if cond == nil {
				return false, nil
			}
			last = fmt.Sprintf("%s %s: %s", cond.Status, cond.Reason, cond.Message)
			if cond.Status != want || want == operatorv1.ConditionFalse {
				return cond.Status == want, nil
			}
			// True: kmsstate's verdict behind it has a failure on the node.
			state, err := l.KMSState(ctx)
			return err == nil && slices.ContainsFunc(state.Failures, func(f kmsstate.Failure) bool { return f.Node == node }), nil
		})
		if err != nil {
			t.Fatalf("%s never %s with a failure on %s (last: %s)", kmsstate.ConditionKMSPluginsDegraded, want, node, last)
		}
		t.Logf("%s %s", kmsstate.ConditionKMSPluginsDegraded, last)
	}
	labBin := buildCommand(t, "github.com/kmsguard/kmsguard/test/cmd/kmsguard-lab")
	for _, step := range []struct {
		fault lab.Fault
		want  operatorv1.ConditionStatus
	}{{lab.FaultPluginStop, operatorv1.ConditionTrue}, {lab.FaultPluginStart, operatorv1.ConditionFalse}} {
		started := time.Now()
		out, code, stderr = execKMSGuard(t, labBin, "inject", string(step.fault), node, "--dir", l.Dir())
		if code != 0 {
			t.Fatalf("kmsguard-lab inject %s %s exited %d: %s", step.fault, node, code, stderr)
		}
		t.Logf("kmsguard-lab inject %s %s: %s", step.fault, node, strings.TrimSpace(string(out)))
		degraded(step.want)
		t.Logf("seen after %s", time.Since(started).Round(100*time.Millisecond))
	}
}
