package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/test/kmsenv"
	"github.com/kmsguard/kmsguard/test/lab"
)

// TestLabFailingRevisionIsRevertedFromNotReady: on three nodes, where kube-apiserver-operator runs no startup
// monitor, a revision whose KMS config cannot work on one node (that node's KMS is slower than the apiserver's KMS
// timeout) keeps that node's apiserver from ever becoming ready: the node agent's kubelet restarts it with
// back-off, its pod stays Running and not ready, and library-go's installer controller records nothing. kmsguard's
// rollback controller, from the pod's readiness (kmsrollback.SourcePodNotReady after the lab's NotReadyAfter) and
// kmsstate's verdict on the plugin of that node's pod, reverts the encryption config to the last good revision's
// with a new revision that every node then runs. Nothing in the test posts a condition, a node status or a
// record: the fault is the only input. It logs the time from the failing revision to the revert revision and to
// every apiserver serving the reverted config.
func TestLabFailingRevisionIsRevertedFromNotReady(t *testing.T) {
	l := startLab(t, lab.Options{Nodes: 3, Reporter: lab.ReporterLibraryGo})
	ctx := context.Background()
	kube, err := kubernetes.NewForConfig(l.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}

	if err := l.SetEncryption(ctx, configv1.EncryptionTypeAESCBC); err != nil {
		t.Fatal(err)
	}
	if _, err := l.WaitForEncryption(ctx, state.AESCBC); err != nil {
		t.Fatal(err)
	}
	status, err := l.OperatorStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lastGood := status.LatestAvailableRevision
	lastGoodConfig := revisionConfig(t, kube, lastGood)

	// The last node in the installer's order gets a KMS slower than the 10 s timeout library-go writes for each
	// provider; its next pod's plugins are started with it.
	failingNode := status.NodeStatuses[len(status.NodeStatuses)-1].NodeName
	did, err := lab.InjectInto(ctx, l.Dir(), lab.Injection{Fault: lab.FaultKMSLatency, Node: failingNode, Latency: 12 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(did)

	// The switch to KMS: library-go's key controller makes a KMS key, the gate admits the revision that adds it
	// as a read key (unverified: the lab wires library-go's always-succeed preflight, as the operator does), and
	// the installer rolls it out node by node.
	if err := l.SetEncryption(ctx, configv1.EncryptionTypeKMS); err != nil {
		t.Fatal(err)
	}
	var failing int32
	if err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 5*time.Minute, true, func(context.Context) (bool, error) {
		status, err := l.OperatorStatus(ctx)
		if err != nil || status.LatestAvailableRevision <= lastGood {
			return false, nil
		}
		failing = status.LatestAvailableRevision
		return true, nil
	}); err != nil {
		t.Fatalf("no revision after %d for the switch to KMS: %v", lastGood, err)
	}
	failingConfig := revisionConfig(t, kube, failing)
	if len(encryptionconfig.KMSKeysOf(failingConfig).IDs) == 0 {
		t.Fatalf("revision %d has no KMS provider: %+v", failing, failingConfig)
	}
	faulted := time.Now()
	t.Logf("revision %d exists", failing)

	// The revert: a new revision with the last good config, on every node.
	var reverted int32
	if err := wait.PollUntilContextTimeout(ctx, time.Second, 10*time.Minute, true, func(context.Context) (bool, error) {
		status, err := l.OperatorStatus(ctx)
		if err != nil || status.LatestAvailableRevision <= failing {
			return false, nil
		}
		reverted = status.LatestAvailableRevision
		return true, nil
	}); err != nil {
		t.Fatalf("no revision after the failing %d: %v", failing, err)
	}
	revertedAfter := time.Since(faulted)
	if err := l.WaitForRevision(ctx, reverted); err != nil {
		t.Fatal(err)
	}
	t.Logf("measured: revision %d -> revert revision %d after %s; every apiserver runs it after %s (NotReadyAfter %s)",
		failing, reverted, revertedAfter.Round(time.Second), time.Since(faulted).Round(time.Second), l.Timings().NotReadyAfter)
	status, err = l.OperatorStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(lastGoodConfig, revisionConfig(t, kube, reverted)); diff != "" {
		t.Errorf("revision %d is not revision %d's encryption config (-last good +reverted):\n%s", reverted, lastGood, diff)
	}

	// Without a startup monitor, library-go's installer recorded no failure: the pod's readiness was the signal.
	for _, n := range status.NodeStatuses {
		if n.LastFailedRevision != 0 || n.LastFallbackCount != 0 {
			t.Errorf("%s: last failed revision %d (%s), %d fallbacks; no startup monitor runs on three nodes",
				n.NodeName, n.LastFailedRevision, n.LastFailedReason, n.LastFallbackCount)
		}
	}
	cond := v1helpers.FindOperatorCondition(status.Conditions, kmsrollback.ConditionDegraded)
	if cond == nil || cond.Status != operatorv1.ConditionTrue || cond.Reason != string(kmsrollback.ReasonRevertedFailingKMSConfig) {
		t.Errorf("%s = %+v, want True %s", kmsrollback.ConditionDegraded, cond, kmsrollback.ReasonRevertedFailingKMSConfig)
	} else {
		t.Logf("%s True %s: %s", cond.Type, cond.Reason, cond.Message)
	}

	// The failing node's apiserver tried the failing revision (the kubelet's restarts included) and nothing
	// else failed; the others started it and never failed.
	for _, n := range l.Nodes() {
		var failed []string
		for _, e := range n.APIServer().Events() {
			if e.Kind == kmsenv.EventStartFailed {
				failed = append(failed, e.EncryptionConfigPath)
			}
		}
		if n.Name() != failingNode {
			if len(failed) != 0 {
				t.Errorf("%s: failed starts with configs %v, want none", n.Name(), failed)
			}
			continue
		}
		if len(failed) == 0 {
			t.Errorf("%s: no failed start", n.Name())
		}
		for _, path := range failed {
			if path != n.EncryptionConfigPath(failing) {
				t.Errorf("%s: a failed start with %s, want only %s", n.Name(), path, n.EncryptionConfigPath(failing))
			}
		}
		t.Logf("%s: %d failed starts of revision %d", n.Name(), len(failed), failing)
	}
	var view strings.Builder
	if err := l.PrintStatus(ctx, &view); err != nil {
		t.Error(err)
	}
	t.Logf("lab status:\n%s", view.String())
}

// revisionConfig is the encryption config of a revision, as library-go's revision controller copied it.
func revisionConfig(t *testing.T, kube kubernetes.Interface, revision int32) *apiserverv1.EncryptionConfiguration {
	t.Helper()
	secret, err := kube.CoreV1().Secrets("openshift-kube-apiserver").Get(context.Background(),
		fmt.Sprintf("%s-%d", encryptiondata.EncryptionConfSecretName, revision), metav1.GetOptions{})
	if err != nil {
		t.Fatalf("revision %d: %v", revision, err)
	}
	config, err := encryptionconfig.Decode(secret.Data[encryptiondata.EncryptionConfSecretKey])
	if err != nil {
		t.Fatalf("revision %d: %v", revision, err)
	}
	return config
}
