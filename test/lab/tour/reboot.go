package tour

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/test/lab"
)

// nodeReboots drains and reboots every control-plane node in turn, as the machine-config operator does in every
// upgrade, with KMS enabled and every plugin healthy; while the first node is down (on a single node, just before
// it goes down), etcd's CA bundle gains a CA, so a revision rolls out across the reboots. A node that is down is no KMS fault: its plugins' reports stop with
// it, and kmsstate, which reads the node (cordoned, NotReady, its pod gone or just started), says so in
// KMSPluginsProgressing (NodeUnavailable). Nothing may degrade, nothing be reverted, the CA's revision must reach
// every node, and (a Calm story) no alert may go pending or fire.
func nodeReboots(ctx context.Context, env *Env, res *Result) error {
	l := env.Lab
	running, err := l.APIServerEncryption(ctx)
	if err != nil {
		return err
	}
	if running.Type != configv1.EncryptionTypeKMS {
		return fmt.Errorf("the APIServer resource's encryption is %q, not KMS: node-reboots starts from enable-kms", running.Type)
	}
	kube, err := kubernetesClient(l)
	if err != nil {
		return err
	}
	before, err := latestRevision(ctx, l)
	if err != nil {
		return err
	}
	degraded := sampleDegraded(ctx, env, time.Second)
	progressing := sampleReasons(ctx, env, kmsstate.ConditionKMSPluginsProgressing, time.Second)
	started := time.Now()
	var withCA carries
	var longest time.Duration
	nodes := l.Nodes()
	for i, n := range nodes {
		// The CA lands while the first node is down; with a single node nothing answers then, and it lands just
		// before, its revision waiting for the node to come back.
		addCA := i == 0
		if addCA && len(nodes) == 1 {
			if withCA, err = addEtcdCA(ctx, env, kube); err != nil {
				degraded()
				progressing()
				return err
			}
			addCA = false
		}
		if err := inject(ctx, env, lab.Injection{Fault: lab.FaultNodeReboot, Node: n.Name(), Down: env.RebootDown}); err != nil {
			degraded()
			progressing()
			return err
		}
		rebooted := time.Now()
		if addCA {
			if withCA, err = addEtcdCA(ctx, env, kube); err != nil {
				degraded()
				progressing()
				return err
			}
		}
		// The machine-config operator drains the next node only once this one is back and Ready.
		if err := poll(ctx, time.Second, env.RebootDown+storyTimeout, func() bool { return !n.Rebooting() }); err != nil {
			degraded()
			progressing()
			return fmt.Errorf("%s did not come back from its reboot: %w", n.Name(), err)
		}
		took := time.Since(rebooted)
		longest = max(longest, took)
		env.Logf("%s is back after %s", n.Name(), took.Round(time.Second))
	}
	err = l.WaitForRevision(ctx, before+1)
	samples, seen := degraded()
	reasons := progressing()
	if err != nil {
		res.problemf("the new CA bundle's revision did not roll out across the reboots: %v", err)
		return nil
	}
	latest, ok, err := latestCarries(ctx, l, res, withCA, "the new CA")
	if err != nil || !ok {
		return err
	}
	res.Recovered = time.Since(started)
	res.Recovery = fmt.Sprintf("%d nodes rebooted one at a time (down %s each, the longest back after %s); revision %d with the new CA on every node",
		len(nodes), env.RebootDown, longest.Round(time.Second), latest)
	noneDegraded(res, samples, seen)
	// A reboot shorter than the reports' staleness bound leaves no report stale, and nothing to explain.
	staleAfter := kmsstate.Config{ReportInterval: l.DetectionTimings().ReportInterval}.StaleAfter()
	if env.RebootDown > staleAfter && !slices.Contains(reasons, string(kmsstate.ReasonNodeUnavailable)) {
		res.problemf("the reports of a node down for %s went stale (after %s), but KMSPluginsProgressing never said %s (reasons seen: %v)",
			env.RebootDown, staleAfter, kmsstate.ReasonNodeUnavailable, reasons)
	}
	if len(reasons) == 0 {
		reasons = []string{"none"}
	}
	res.notef("KMSPluginsProgressing reasons while True: %s (reports are stale after %s)", strings.Join(reasons, ", "), staleAfter)
	checkRollout(res, l, started, false)
	return nil
}

// sampleReasons reads the operator's condition of type every interval until the returned function is called, which
// stops the sampling and returns the reasons it had while True, sorted, once each.
func sampleReasons(ctx context.Context, env *Env, conditionType string, interval time.Duration) func() []string {
	seen := sets.New[string]()
	stop := sampleConditions(ctx, env, interval, func(conditions []operatorv1.OperatorCondition) {
		if c := v1helpers.FindOperatorCondition(conditions, conditionType); c != nil && c.Status == operatorv1.ConditionTrue {
			seen.Insert(c.Reason)
		}
	})
	return func() []string {
		stop()
		return sets.List(seen)
	}
}
