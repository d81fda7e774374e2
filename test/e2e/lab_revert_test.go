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

// TestLabFailingRevisionFallsBackAndIsReverted: a revision whose KMS config cannot work on one node (that node's
// KMS plugin is down) fails to start there; the node agent's startup-monitor stand-in falls back to the last
// good revision; library-go's installer controller records the fallback from the mirror pod's annotations; and
// kmsguard's rollback controller, from that record and kmsstate's verdict on the node's plugin, reverts the
// encryption config to the last good revision's with a new revision that every node then runs. Nothing in the
// test posts a condition, a node status or an installer record: the fault is the only input.
func TestLabFailingRevisionFallsBackAndIsReverted(t *testing.T) {
	l := startLab(t, 3)
	ctx := context.Background()
	kube, err := kubernetes.NewForConfig(l.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	operator := l.Operator().Client

	if err := l.SetEncryption(ctx, configv1.EncryptionTypeAESCBC); err != nil {
		t.Fatal(err)
	}
	if _, err := l.WaitForEncryption(ctx, state.AESCBC); err != nil {
		t.Fatal(err)
	}
	_, status, _, err := operator.GetStaticPodOperatorState()
	if err != nil {
		t.Fatal(err)
	}
	lastGood := status.LatestAvailableRevision
	lastGoodConfig := revisionConfig(t, kube, lastGood)

	// The switch to KMS: library-go's key controller makes a KMS key, the gate admits the revision that adds it
	// as a read key once its plugin is healthy on every node, and the installer rolls that revision out node by
	// node in the order of the node statuses. The last node's plugin goes down as soon as the revision exists,
	// before that node's turn.
	if err := l.SetEncryption(ctx, configv1.EncryptionTypeKMS); err != nil {
		t.Fatal(err)
	}
	var failing int32
	var failingNode string
	if err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 5*time.Minute, true, func(context.Context) (bool, error) {
		_, status, _, err := operator.GetStaticPodOperatorState()
		if err != nil || status.LatestAvailableRevision <= lastGood {
			return false, nil
		}
		failing, failingNode = status.LatestAvailableRevision, status.NodeStatuses[len(status.NodeStatuses)-1].NodeName
		return true, nil
	}); err != nil {
		t.Fatalf("no revision after %d for the switch to KMS: %v", lastGood, err)
	}
	did, err := lab.InjectInto(ctx, l.Dir(), lab.Injection{Fault: lab.FaultPluginStop, Node: failingNode})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("revision %d exists; %s", failing, did)
	failingConfig := revisionConfig(t, kube, failing)
	if len(encryptionconfig.KMSKeysOf(failingConfig).IDs) == 0 {
		t.Fatalf("revision %d has no KMS provider: %+v", failing, failingConfig)
	}

	// The revert: a new revision with the last good config, on every node.
	if err := l.WaitForRevision(ctx, failing+1); err != nil {
		t.Fatal(err)
	}
	_, status, _, err = operator.GetStaticPodOperatorState()
	if err != nil {
		t.Fatal(err)
	}
	reverted := status.LatestAvailableRevision
	if diff := cmp.Diff(lastGoodConfig, revisionConfig(t, kube, reverted)); diff != "" {
		t.Errorf("revision %d is not revision %d's encryption config (-last good +reverted):\n%s", reverted, lastGood, diff)
	}

	// library-go's installer recorded the fallback on the failing node, and only there.
	for _, n := range status.NodeStatuses {
		switch {
		case n.NodeName == failingNode:
			if n.LastFailedRevision != failing || n.LastFailedReason != "OperandFailedFallback" || n.LastFallbackCount < 1 {
				t.Errorf("%s: last failed revision %d (%s), %d fallbacks; want revision %d, OperandFailedFallback, at least 1",
					n.NodeName, n.LastFailedRevision, n.LastFailedReason, n.LastFallbackCount, failing)
			}
		case n.LastFailedRevision != 0 || n.LastFallbackCount != 0:
			t.Errorf("%s: last failed revision %d, %d fallbacks; it never failed", n.NodeName, n.LastFailedRevision, n.LastFallbackCount)
		}
	}
	cond := v1helpers.FindOperatorCondition(status.Conditions, kmsrollback.ConditionDegraded)
	if cond == nil || cond.Status != operatorv1.ConditionTrue || cond.Reason != string(kmsrollback.ReasonRevertedFailingKMSConfig) {
		t.Errorf("%s = %+v, want True %s", kmsrollback.ConditionDegraded, cond, kmsrollback.ReasonRevertedFailingKMSConfig)
	} else {
		t.Logf("%s True %s: %s", cond.Type, cond.Reason, cond.Message)
	}

	// The failing node's own apiserver tried the failing revision once and went back to the last good config;
	// the others started it and never failed.
	for _, n := range l.Nodes() {
		var failed []string
		for _, e := range n.APIServer().Events() {
			if e.Kind == kmsenv.EventStartFailed {
				failed = append(failed, e.EncryptionConfigPath)
			}
		}
		want := []string(nil)
		if n.Name() == failingNode {
			want = []string{n.EncryptionConfigPath(failing)}
		}
		if !cmp.Equal(failed, want) {
			t.Errorf("%s: failed starts with configs %v, want %v", n.Name(), failed, want)
		}
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
