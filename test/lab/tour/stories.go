package tour

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/test/lab"
)

// Stories are the tour's stories, in the order they run: each leaves the cluster healthy on KMS for the next.
var Stories = []Story{
	{Name: "enable-kms", Title: "enable KMS v2 from aescbc with applications writing: read key everywhere first, then write key, node by node; migrated and proven from etcd", MinNodes: 1, Run: enableKMS, Takes: 205 * time.Second, Quick: true},
	{Name: "plugin-down-one-node", Title: "the KMS plugin of one node dies and comes back", MinNodes: 3, Run: pluginDownOneNode, Takes: 85 * time.Second, Quick: true},
	{Name: "plugin-down-apiserver-restarted", Title: "the KMS plugin of one node dies and that node's kube-apiserver restarts: no DEK cached, it cannot serve encrypted data; the plugin comes back", MinNodes: 3, Run: pluginDownAPIServerRestarted, Takes: 95 * time.Second, Quick: true},
	{Name: "plugin-down-all-nodes", Title: "the KMS plugins of every node die: writes go on on cached DEKs, until they cannot; the plugins come back", MinNodes: 1, Run: pluginDownAllNodes, Takes: 275 * time.Second},
	{Name: "key-disabled", Title: "the KMS key is disabled while Status still says ok, then restored", MinNodes: 1, Run: keyDisabled, Takes: 85 * time.Second, Quick: true},
	{Name: "key-rotated", Title: "the KMS rotates its key: rotation detected, data migrated again and proven under the new KEK", MinNodes: 1, Run: keyRotated, Takes: 45 * time.Second, Quick: true},
	{Name: "key-destroyed", Title: "the KMS rotates twice before the migration reached the cluster's objects and the middle KEK is destroyed while the operator's pod is rescheduled: lost once the apiservers restart, with kmsguard's own caches and its etcd credentials; the caches cleared without consent, the rest listed exactly and deleted only with consent, from a node's copy of the credentials", MinNodes: 1, Run: keyDestroyed, Takes: 175 * time.Second, Quick: true},
	{Name: "kms-slow", Title: "drill: every KMS call takes longer than kube-apiserver's 10 s KMS timeout, then fast again", MinNodes: 1, Run: kmsSlow, Takes: 125 * time.Second},
	{Name: "plugin-upgrade", Title: "drill: each node's plugin is replaced by a new process, one node at a time, with no failed request", MinNodes: 1, Run: pluginUpgrade, Takes: 80 * time.Second},
	{Name: "migration-rate", Title: "drill: a migration of every Secret with --qps 50 stays at the rate it was given", MinNodes: 1, Run: migrationRate, Takes: 25 * time.Second},
	{Name: "migration-pause", Title: "drill: the apiserver a migration talks to restarts mid-way: the migrator pauses once errors cross its threshold, then finishes", MinNodes: 1, Run: migrationPause, Takes: 45 * time.Second},
	{Name: "operator-restart-kms-rollout", Title: "drill: the admin moves to another Vault key and the operator's pod is rescheduled once the new key's first revision runs on a node: the change goes on from where it was, read key first and one node at a time, migrated and proven, nothing reverted", MinNodes: 1, Run: operatorRestartKMSRollout, Takes: 150 * time.Second},
	{Name: "operator-restart-cert-rollout", Title: "drill: etcd's CA bundle gains a CA and the operator's pod is rescheduled once its revision runs on a node: the revision, which the rollout gate has no stake in, rolls out to every node, nothing held or reverted", MinNodes: 1, Run: operatorRestartCertRollout, Takes: 75 * time.Second},
	// Takes is with the default 3-minute reboot of each node; make test plays it with a shorter one.
	{Name: "node-reboots", Title: "every control-plane node is drained and rebooted in turn, as in an upgrade, while etcd's CA bundle changes: a node down on purpose is no KMS fault, nothing degrades, nothing is reverted, no alert; the CA's revision reaches every node", MinNodes: 1, Run: nodeReboots, Takes: 10 * time.Minute, Calm: true},
	{Name: "misconfigured-kms", Title: "the admin moves to another Vault key and mistypes the address: with the always-succeed preflight both operators wire nothing refutes the new read key before its revision, so the gate admits it and says so, it fails on the first node and kmsrollback reverts it, and the admin's way out (library-go's LG-2, or its interim) rolls the corrected configuration out; with the pod preflight it is refused before a key exists, kmsguard names the node and the error, and the corrected configuration rolls out, migrated and proven", MinNodes: 1, Run: misconfiguredKMS, Takes: 250 * time.Second, Quick: true},
}

// storyTimeout bounds each wait of a story: far beyond what any step takes in the lab, short enough that a
// story that does not recover fails rather than hangs.
const storyTimeout = 10 * time.Minute

// waitCondition polls the operator's condition until ok says so, and returns it with how long it took.
func waitCondition(ctx context.Context, env *Env, conditionType string, ok func(operatorv1.OperatorCondition) bool) (operatorv1.OperatorCondition, time.Duration, error) {
	return waitConditionWithin(ctx, env, conditionType, storyTimeout, ok)
}

// waitConditionWithin is waitCondition that gives up after timeout.
func waitConditionWithin(ctx context.Context, env *Env, conditionType string, timeout time.Duration, ok func(operatorv1.OperatorCondition) bool) (operatorv1.OperatorCondition, time.Duration, error) {
	started := time.Now()
	var found operatorv1.OperatorCondition
	last := "not set"
	err := poll(ctx, 250*time.Millisecond, timeout, func() bool {
		status, err := env.Lab.OperatorStatus(ctx)
		if err != nil {
			return false
		}
		for _, c := range status.Conditions {
			if c.Type == conditionType {
				last = describe(c) + ": " + firstLine(c.Message)
				if ok(c) {
					found = c
					return true
				}
			}
		}
		return false
	})
	if errors.Is(err, errTimedOut) {
		return operatorv1.OperatorCondition{}, 0, fmt.Errorf("%s after %s: %s: %w", conditionType, timeout, last, errTimedOut)
	}
	if err != nil {
		return operatorv1.OperatorCondition{}, 0, err
	}
	return found, time.Since(started), nil
}

// restore injects fix, the end of a fault injected at since, and waits until the cluster is back by itself:
// KMSPluginsDegraded False and the applications' writes succeeding. It records the recovery in res, or, when
// the cluster does not come back, why as a problem; it returns when fix was injected.
func restore(ctx context.Context, env *Env, res *Result, fix lab.Injection, since time.Time, fixed string) (time.Time, error) {
	did, err := env.Lab.Inject(ctx, fix)
	if err != nil {
		return time.Time{}, err
	}
	fixedAt := time.Now()
	env.Logf("%s", did)
	if _, _, err := waitCondition(ctx, env, kmsstate.ConditionKMSPluginsDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionFalse
	}); err != nil {
		res.problemf("KMSPluginsDegraded did not clear once %s: %v", fixed, err)
		return fixedAt, nil
	}
	if err := waitWritesResume(ctx, env); err != nil {
		res.problemf("%v", err)
		return fixedAt, nil
	}
	res.Recovered, res.Recovery = time.Since(since), "automatic, once "+fixed
	return fixedAt, nil
}

// waitWritesResume waits until the applications' writes succeed again.
func waitWritesResume(ctx context.Context, env *Env) error {
	before, _ := env.Writers.Counts()
	err := poll(ctx, 500*time.Millisecond, storyTimeout, func() bool {
		now, _ := env.Writers.Counts()
		return (now.Attempted-before.Attempted)-(now.Failed-before.Failed) >= 5
	})
	if errors.Is(err, errTimedOut) {
		return fmt.Errorf("the applications' writes did not succeed again within %s", storyTimeout)
	}
	return err
}

// errTimedOut is poll's error when done never said so within the timeout.
var errTimedOut = errors.New("timed out")

// poll calls done every interval, at once first, until it says so: nil then, errTimedOut after timeout, and
// ctx's error when ctx ends first.
func poll(ctx context.Context, interval, timeout time.Duration, done func() bool) error {
	err := wait.PollUntilContextTimeout(ctx, interval, timeout, true, func(context.Context) (bool, error) { return done(), nil })
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	default:
		return errTimedOut
	}
}

func latestRevision(ctx context.Context, l *lab.Lab) (int32, error) {
	status, err := l.OperatorStatus(ctx)
	if err != nil {
		return 0, err
	}
	return status.LatestAvailableRevision, nil
}

// kmsFailure reports whether kmsstate's latest published evaluation has a failure that ok accepts: the typed
// verdict the KMSPluginsDegraded condition and its message are written from.
func kmsFailure(env *Env, ok func(kmsstate.Failure) bool) bool {
	state, err := env.Lab.PublishedKMSState().Current()
	return err == nil && slices.ContainsFunc(state.Failures, ok)
}

func describe(c operatorv1.OperatorCondition) string {
	return fmt.Sprintf("%s %s %s", c.Type, c.Status, c.Reason)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:157]) + "..."
	}
	return s
}

// candidateVersion is the resourceVersion of the encryption config library-go's state controller writes
// (openshift-config-managed/encryption-config-<component>), which its resource sync, behind kmsguard's gate, copies
// into the candidate the next revision carries.
func candidateVersion(ctx context.Context, kube kubernetes.Interface) (string, error) {
	secret, err := kube.CoreV1().Secrets("openshift-config-managed").Get(ctx, encryptiondata.EncryptionConfSecretName+"-"+lab.TargetNamespace, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return secret.ResourceVersion, nil
}
