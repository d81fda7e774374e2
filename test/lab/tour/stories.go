package tour

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/kmsguard/kmsguard/pkg/kmsguard"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/test/kmsenv"
	"github.com/kmsguard/kmsguard/test/lab"
)

// Stories are the tour's stories, in the order they run: each leaves the cluster healthy on KMS for the next.
var Stories = []Story{
	{Name: "enable-kms", Title: "enable KMS v2 from aescbc with applications writing: read key everywhere first, then write key, node by node; migrated and proven from etcd", MinNodes: 1, Run: enableKMS},
	{Name: "plugin-down-one-node", Title: "the KMS plugin of one node dies and comes back", MinNodes: 3, Run: pluginDownOneNode},
	{Name: "plugin-down-apiserver-restarted", Title: "the KMS plugin of one node dies and that node's kube-apiserver restarts: no DEK cached, it cannot serve encrypted data; the plugin comes back", MinNodes: 3, Run: pluginDownAPIServerRestarted},
	{Name: "plugin-down-all-nodes", Title: "the KMS plugins of every node die: writes go on on cached DEKs, until they cannot; the plugins come back", MinNodes: 1, Run: pluginDownAllNodes},
	{Name: "key-disabled", Title: "the KMS key is disabled while Status still says ok, then restored", MinNodes: 1, Run: keyDisabled},
	{Name: "key-rotated", Title: "the KMS rotates its key: rotation detected, data migrated again and proven under the new KEK", MinNodes: 1, Run: keyRotated},
	{Name: "key-destroyed", Title: "the KMS rotates twice before the migration reached the cluster's objects and the middle KEK is destroyed: lost once the apiservers restart, listed exactly, deleted only with consent", MinNodes: 1, Run: keyDestroyed},
	{Name: "kms-slow", Title: "drill: every KMS call takes longer than kube-apiserver's 10 s KMS timeout, then fast again", MinNodes: 1, Run: kmsSlow},
	{Name: "plugin-upgrade", Title: "drill: each node's plugin is replaced by a new process, one node at a time, with no failed request", MinNodes: 1, Run: pluginUpgrade},
	{Name: "migration-rate", Title: "drill: a migration of every Secret with --qps 50 stays at the rate it was given", MinNodes: 1, Run: migrationRate},
	{Name: "migration-pause", Title: "drill: the apiserver a migration talks to restarts mid-way: the migrator pauses once errors cross its threshold, then finishes", MinNodes: 1, Run: migrationPause},
	{Name: "misconfigured-kms", Title: "the admin names a KMS that is not there: nothing refutes the new read key before its revision (the always-succeed preflight), so the gate admits it and says so; it fails on the first node and kmsrollback reverts it", MinNodes: 1, Run: misconfiguredKMS},
}

// storyTimeout bounds each wait of a story: far beyond what any step takes in the lab, short enough that a
// story that does not recover fails rather than hangs.
const storyTimeout = 10 * time.Minute

func enableKMS(ctx context.Context, env *Env, res *Result) error {
	l := env.Lab
	env.Logf("switching to aescbc first")
	if err := l.SetEncryption(ctx, configv1.EncryptionTypeAESCBC); err != nil {
		return err
	}
	if _, err := l.WaitForEncryption(ctx, state.AESCBC); err != nil {
		return err
	}
	env.Logf("switching to KMS")
	// Nothing an admin must act on happens in a KMS enablement: every condition of kmsguard's named *Degraded is
	// sampled each second from the switch until the census proved the result.
	degraded := sampleDegraded(ctx, env, time.Second)
	switched := time.Now()
	if err := l.SetEncryption(ctx, configv1.EncryptionTypeKMS); err != nil {
		return err
	}
	keyID, err := l.WaitForEncryption(ctx, state.KMS)
	if err != nil {
		return err
	}
	rolledOut := time.Since(switched)
	// Under the KMS key: a scan that started after the switch but before the KMS key wrote proves aescbc.
	reports, err := l.WaitForVerified(ctx, switched, l.KMS().CurrentKEKID())
	if err != nil {
		res.problemf("%v", err)
		return nil
	}
	res.Recovered, res.Recovery = time.Since(switched), "done: rolled out, migrated and proven from etcd"
	samples, seen := degraded()
	if len(seen) > 0 {
		res.problemf("a kmsguard *Degraded condition was True during the enablement (%d samples): %s", samples, strings.Join(seen, "; "))
	} else {
		res.notef("no kmsguard *Degraded condition was True in %d samples, one a second", samples)
	}
	res.notef("KMS key %s rolled out to every node and migrated after %s; the census proved it %s later", keyID, rolledOut.Round(time.Second), (res.Recovered - rolledOut).Round(time.Second))
	for _, report := range reports {
		for _, r := range report.Resources {
			res.notef("%s: %d of %d values in etcd under %s", r.Resource, r.UnderWriteKey, r.Total, report.WriteKey)
		}
	}
	for _, p := range l.Operator().Migrator.Progress() {
		if !p.Finished.IsZero() && !p.Finished.Before(switched) {
			res.notef("migration of %s: %d objects in %s", p.Resource, p.Counts.Done(), p.Finished.Sub(p.Started).Round(100*time.Millisecond))
		}
	}
	starts, err := l.APIServerStarts()
	if err != nil {
		return err
	}
	restarts, longest, err := lab.OneAtATime(starts)
	if err != nil {
		res.problemf("%v", err)
	} else {
		res.notef("%d apiserver restarts, one at a time, the longest %s", restarts, longest.Round(100*time.Millisecond))
	}
	first, provider, err := lab.ReadKeyFirst(starts, schema.GroupResource{Resource: "secrets"}, switched)
	if err != nil {
		res.problemf("%v", err)
	} else {
		res.notef("every node read with KMS provider %s before %s wrote with it", provider, first.Node)
	}
	return nil
}

// sampleDegraded reads the operator's conditions every interval until the returned function is called, which
// stops the sampling and returns how many samples were taken and each kmsguard-owned *Degraded condition seen True
// (type, reason and first line, once each).
func sampleDegraded(ctx context.Context, env *Env, interval time.Duration) func() (int, []string) {
	owned := sets.New(kmsguard.OwnedConditionTypes...)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var samples int
	var seen []string
	go func() {
		defer close(done)
		seenOnce := sets.New[string]()
		ticker := time.NewTicker(interval)
		defer ticker.Stop()
		for {
			if _, status, _, err := env.Lab.Operator().Client.GetStaticPodOperatorState(); err == nil {
				samples++
				for _, c := range status.Conditions {
					if owned.Has(c.Type) && strings.HasSuffix(c.Type, "Degraded") && c.Status == operatorv1.ConditionTrue {
						if key := describe(c); !seenOnce.Has(key) {
							seenOnce.Insert(key)
							seen = append(seen, key+": "+firstLine(c.Message))
						}
					}
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
			}
		}
	}()
	return func() (int, []string) {
		cancel()
		<-done
		return samples, seen
	}
}

func pluginDownOneNode(ctx context.Context, env *Env, res *Result) error {
	node := env.Lab.Nodes()[1].Name()
	return pluginDown(ctx, env, res, node, false)
}

func pluginDownAPIServerRestarted(ctx context.Context, env *Env, res *Result) error {
	n := env.Lab.Nodes()[2]
	node := n.Name()
	did, err := env.Lab.Inject(ctx, lab.Injection{Fault: lab.FaultPluginStop, Node: node})
	if err != nil {
		return err
	}
	stopped := time.Now()
	env.Logf("%s", did)
	if did, err = env.Lab.Inject(ctx, lab.Injection{Fault: lab.FaultAPIServerRestart, Node: node}); err != nil {
		return err
	}
	// The restart returns once the apiserver serves: from then on only it can tell that it cannot read.
	restarted := time.Since(stopped)
	env.Logf("%s", did)
	// What an application talking to this apiserver sees.
	if err := readThrough(ctx, n); err != nil {
		res.notef("a read through %s's own kube-apiserver fails: %s", node, firstLine(err.Error()))
	} else {
		res.notef("a read through %s's own kube-apiserver still succeeds", node)
	}
	cond, after, err := waitCondition(ctx, env, kmsstate.ConditionKMSPluginsDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue && strings.Contains(c.Message, "node "+node) &&
			(strings.Contains(c.Message, string(kmsstate.ReasonAPIServerKMSCheckFailing)) || strings.Contains(c.Message, string(kmsstate.ReasonDecryptFailing)))
	})
	if err != nil {
		res.problemf("KMSPluginsDegraded never reported %s's kube-apiserver failing its KMS checks: %v", node, err)
	} else {
		res.detected(time.Since(stopped), describe(cond), byAPIServerMetrics(lab.LabTimings(), restarted))
		res.notef("the apiserver's own failure was reported %s after its restart: %s", after.Round(100*time.Millisecond), firstLine(cond.Message))
	}
	if did, err = env.Lab.Inject(ctx, lab.Injection{Fault: lab.FaultPluginStart, Node: node}); err != nil {
		return err
	}
	env.Logf("%s", did)
	if _, _, err := waitCondition(ctx, env, kmsstate.ConditionKMSPluginsDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionFalse
	}); err != nil {
		res.problemf("KMSPluginsDegraded did not clear after the plugin came back: %v", err)
		return nil
	}
	var readErr error
	if err := poll(ctx, time.Second, 2*time.Minute, func() bool { readErr = readThrough(ctx, n); return readErr == nil }); errors.Is(err, errTimedOut) {
		res.problemf("reads through %s's kube-apiserver still fail 2 minutes after KMSPluginsDegraded cleared: %v", node, readErr)
		return nil
	} else if err != nil {
		return err
	}
	res.Recovered, res.Recovery = time.Since(stopped), "automatic, once the plugin was back"
	return nil
}

// readThrough reads a tour Secret through node n's own kube-apiserver, as an application behind no load balancer
// would, bounded as a client's request is.
func readThrough(ctx context.Context, n *lab.Node) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err := n.APIServer().Client().CoreV1().Secrets(Namespace).Get(ctx, "seed-0000", metav1.GetOptions{})
	return err
}

func pluginDownAllNodes(ctx context.Context, env *Env, res *Result) error {
	return pluginDown(ctx, env, res, "", true)
}

// writeOutageWait is how long pluginDown watches writes while every plugin is down. kube-apiserver keeps
// writing with its cached DEK seed for up to 3 minutes after its last good Status (kmsv2's cache of the
// transformer, 3 minutes beyond the last successful health check) and then fails writes.
const writeOutageWait = 4 * time.Minute

// pluginDown stops the plugins of node (every node when node is empty), waits until KMSPluginsDegraded names
// it, and, with waitForWriteFailures, watches the applications' writes until they fail; then starts the plugins
// again and waits until everything has cleared by itself.
func pluginDown(ctx context.Context, env *Env, res *Result, node string, waitForWriteFailures bool) error {
	did, err := env.Lab.Inject(ctx, lab.Injection{Fault: lab.FaultPluginStop, Node: node})
	if err != nil {
		return err
	}
	stopped := time.Now()
	env.Logf("%s", did)
	want := "node " + node
	if node == "" {
		want = "node "
	}
	cond, after, err := waitCondition(ctx, env, kmsstate.ConditionKMSPluginsDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue && strings.Contains(c.Message, want)
	})
	if err != nil {
		res.problemf("KMSPluginsDegraded never named the node: %v", err)
	} else {
		res.detected(after, describe(cond), byNextReport(lab.LabTimings()))
		if node == "" {
			for _, n := range env.Lab.Nodes() {
				if !strings.Contains(cond.Message, "node "+n.Name()) {
					res.notef("%s does not name %s yet when first True", cond.Type, n.Name())
				}
			}
		}
	}
	if waitForWriteFailures {
		before, _ := env.Writers.Counts()
		err := poll(ctx, time.Second, writeOutageWait, func() bool {
			now, lastErr := env.Writers.Counts()
			if now.Failed > before.Failed {
				res.notef("writes kept working for %s after the plugins stopped, then failed: %s", time.Since(stopped).Round(time.Second), firstLine(lastErr))
				return true
			}
			return false
		})
		switch {
		case errors.Is(err, errTimedOut):
			res.notef("writes kept working for the whole %s the plugins were down (cached DEK seed)", writeOutageWait)
		case err != nil:
			return err
		}
	}
	restarted, err := restore(ctx, env, res, lab.Injection{Fault: lab.FaultPluginStart, Node: node}, stopped, "the plugins were back")
	if err == nil && res.Recovered > 0 {
		res.notef("back %s after the plugins were started again (kube-apiserver's KMS gRPC client reconnects with grpc-go's "+
			"exponential backoff, up to 2 minutes after a long outage; the health reporter's redials every second)", (res.Recovered - restarted.Sub(stopped)).Round(100*time.Millisecond))
	}
	return err
}

func keyDisabled(ctx context.Context, env *Env, res *Result) error {
	did, err := env.Lab.Inject(ctx, lab.Injection{Fault: lab.FaultKeyDisable})
	if err != nil {
		return err
	}
	disabled := time.Now()
	env.Logf("%s", did)
	cond, after, err := waitCondition(ctx, env, kmsstate.ConditionKMSPluginsDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue && strings.Contains(c.Message, "round trip failed")
	})
	if err != nil {
		res.problemf("KMSPluginsDegraded never reported the failed round trip: %v", err)
	} else {
		res.detected(after, describe(cond), byRoundTrip(lab.LabTimings()))
		res.notef("seen by kmsguard's Encrypt/Decrypt round trip (every 15 s in the lab, 5 min by default) while Status answered ok: %s", firstLine(cond.Message))
	}
	_, err = restore(ctx, env, res, lab.Injection{Fault: lab.FaultKeyRestore}, disabled, "the key was restored")
	return err
}

func keyRotated(ctx context.Context, env *Env, res *Result) error {
	did, err := env.Lab.Inject(ctx, lab.Injection{Fault: lab.FaultKeyRotate})
	if err != nil {
		return err
	}
	rotated := time.Now()
	newKEK := env.Lab.KMS().CurrentKEKID()
	env.Logf("%s", did)
	cond, after, err := waitCondition(ctx, env, kmsstate.ConditionKMSKeyRotationProgressing, func(c operatorv1.OperatorCondition) bool {
		return strings.Contains(c.Message, "-> "+newKEK)
	})
	if err != nil {
		res.problemf("no rotation to %s was reported: %v", newKEK, err)
		return nil
	}
	res.detected(after, describe(cond), byNextReport(lab.LabTimings()))
	reports, err := env.Lab.WaitForVerified(ctx, rotated, newKEK)
	if err != nil {
		res.problemf("%v", err)
		return nil
	}
	for _, report := range reports {
		if report.WriteKey.KEKID != newKEK {
			res.problemf("the census proved %s under %s, not the new KEK %s", report.WriteKey.Name, report.WriteKey, newKEK)
		}
		for _, r := range report.Resources {
			res.notef("%s: %d of %d values in etcd under %s", r.Resource, r.UnderWriteKey, r.Total, report.WriteKey)
		}
	}
	res.Recovered, res.Recovery = time.Since(rotated), "automatic: migrated again and proven under the new KEK"
	return nil
}

// kmsSlowdown is the latency kms-slow adds: above the 10 s timeout library-go writes for each KMS provider, and above
// the health reporter's 5 s call timeout.
const kmsSlowdown = 12 * time.Second

func kmsSlow(ctx context.Context, env *Env, res *Result) error {
	did, err := env.Lab.Inject(ctx, lab.Injection{Fault: lab.FaultKMSLatency, Latency: kmsSlowdown})
	if err != nil {
		return err
	}
	slowed := time.Now()
	env.Logf("%s", did)
	cond, after, err := waitCondition(ctx, env, kmsstate.ConditionKMSPluginsDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue
	})
	if err != nil {
		res.problemf("KMSPluginsDegraded never turned True: %v", err)
	} else {
		res.detected(after, describe(cond), bySlowCall(lab.LabTimings()))
		res.notef("%s", firstLine(cond.Message))
	}
	_, err = restore(ctx, env, res, lab.Injection{Fault: lab.FaultKMSLatency}, slowed, "the KMS was fast again")
	return err
}

func pluginUpgrade(ctx context.Context, env *Env, res *Result) error {
	started := time.Now()
	before, _ := env.Writers.Counts()
	for _, n := range env.Lab.Nodes() {
		for _, fault := range []lab.Fault{lab.FaultPluginStop, lab.FaultPluginStart} {
			did, err := env.Lab.Inject(ctx, lab.Injection{Fault: fault, Node: n.Name()})
			if err != nil {
				return err
			}
			env.Logf("%s", did)
		}
		// The next node only once this one's plugin reports healthy again, as a rolling upgrade waits.
		if err := waitPluginsHealthy(ctx, env, n.Name()); err != nil {
			res.problemf("%v", err)
			return nil
		}
	}
	after, lastErr := env.Writers.Counts()
	if failed := after.Failed - before.Failed; failed > 0 {
		res.problemf("%d of %d writes failed during the upgrade; the last: %s", failed, after.Attempted-before.Attempted, firstLine(lastErr))
	}
	res.Recovered, res.Recovery = time.Since(started), "done: every node's plugin replaced, one node at a time"
	return nil
}

// waitPluginsHealthy waits until every report of node is Healthy and checked after the wait began.
func waitPluginsHealthy(ctx context.Context, env *Env, node string) error {
	since := time.Now()
	err := poll(ctx, 500*time.Millisecond, storyTimeout, func() bool {
		view, err := env.Lab.Snapshot(ctx)
		if err != nil {
			return false
		}
		healthy, seen := true, false
		for _, r := range view.Plugins {
			if r.NodeName != node {
				continue
			}
			seen = true
			healthy = healthy && r.Status == operatorv1.KMSPluginHealthStatusHealthy && r.LastCheckedTime.After(since)
		}
		return seen && healthy
	})
	if errors.Is(err, errTimedOut) {
		return fmt.Errorf("%s's plugins did not report healthy within %s", node, storyTimeout)
	}
	return err
}

// drillQPS is the rate migration-rate gives the migrator.
const drillQPS = 50

func migrationRate(ctx context.Context, env *Env, res *Result) error {
	l := env.Lab
	keyID, err := l.WaitForEncryption(ctx, state.KMS)
	if err != nil {
		return err
	}
	migrator, err := drillMigrator(l.RESTConfig(), kmsmigration.Options{KMS: l.Operator().KMSState, QPS: drillQPS, Burst: 1}, "migration-rate-drill")
	if err != nil {
		return err
	}
	report, err := migrator.MigrateAll(ctx, []schema.GroupResource{{Resource: "secrets"}}, kmsmigration.Target{WriteKey: keyID}, kmsmigration.RunHooks{})
	if err != nil {
		res.problemf("the migration failed: %v", err)
		return nil
	}
	for _, r := range report.Resources {
		res.notef("%s: %d objects in %s, %.1f objects/s at --qps %d (%s)", r.Resource, r.Progress.Counts.Handled(), r.Duration.Round(100*time.Millisecond), r.ObjectsPerSecond, drillQPS, r.Outcome)
		// A slow machine only lowers the rate; a rate above the limit is the limiter failing.
		if r.ObjectsPerSecond > drillQPS*1.1 {
			res.problemf("%s migrated at %.1f objects/s, more than 10 %% above --qps %d", r.Resource, r.ObjectsPerSecond, drillQPS)
		}
		if r.Outcome != kmsmigration.RunMigrated {
			res.problemf("%s: %s: %v", r.Resource, r.Outcome, r.Err)
		}
	}
	if len(report.Resources) == 0 {
		res.problemf("the migration reported no resource")
		return nil
	}
	res.Recovered, res.Recovery = report.Resources[0].Duration, "done: every Secret rewritten at the given rate"
	return nil
}

// drillMigrator is a Migrator of its own for a drill, beside the operator's, talking to the apiserver cfg names
// and keeping its checkpoints in ConfigMap checkpoints of the tour's namespace.
func drillMigrator(cfg *rest.Config, opts kmsmigration.Options, checkpoints string) (*kmsmigration.Migrator, error) {
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	opts.Dynamic = dyn
	opts.Mapper = restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(kube.Discovery()))
	opts.Checkpoints = kmsmigration.ConfigMapCheckpoints{Client: kube.CoreV1(), Namespace: Namespace, Name: checkpoints}
	return kmsmigration.New(opts)
}

// drillErrorPause is how long migration-pause's migrator pauses once errors cross its threshold: shorter than
// kmsmigration.DefaultErrorPause (1 minute) to keep the tour short; the threshold and window are the defaults.
const drillErrorPause = 15 * time.Second

// drillPauseQPS is migration-pause's rate: slow enough that the migration of the e2e test's few hundred Secrets
// outlasts the apiserver's restart (at 50/s it could finish before the apiserver even stopped), fast enough that
// its retries cross kmsmigration.DefaultErrorThreshold during the seconds the apiserver is down.
const drillPauseQPS = 20

// migrationPause is the error-rate drill: a migration of every Secret through one node's kube-apiserver, which
// restarts mid-way. The migrator's rewrites fail (connection refused) while nothing says the KMS is unhealthy;
// once kmsmigration.DefaultErrorThreshold of them fall within the window it pauses every worker instead of
// retrying at full speed, and after the pause it finishes, with no object failed.
func migrationPause(ctx context.Context, env *Env, res *Result) error {
	l := env.Lab
	keyID, err := l.WaitForEncryption(ctx, state.KMS)
	if err != nil {
		return err
	}
	n := l.Nodes()[0]
	// No KMS health: the pause must come from the errors alone.
	migrator, err := drillMigrator(n.APIServer().RESTConfig(), kmsmigration.Options{QPS: drillPauseQPS, ErrorPause: drillErrorPause}, "migration-pause-drill")
	if err != nil {
		return err
	}
	type outcome struct {
		report *kmsmigration.RunReport
		err    error
	}
	done := make(chan outcome, 1)
	started := time.Now()
	go func() {
		report, err := migrator.MigrateAll(ctx, []schema.GroupResource{{Resource: "secrets"}}, kmsmigration.Target{WriteKey: keyID}, kmsmigration.RunHooks{})
		done <- outcome{report, err}
	}()
	// Restart the apiserver once the migration is under way.
	if err := poll(ctx, 200*time.Millisecond, storyTimeout, func() bool {
		for _, p := range migrator.Progress() {
			if p.Counts.Done() >= 20 {
				return true
			}
		}
		return false
	}); err != nil {
		return fmt.Errorf("the drill's migration did not get going: %w", err)
	}
	// The restart returns once the apiserver serves again; the errors come while it is down.
	restarted := time.Now()
	if err := inject(ctx, env, lab.Injection{Fault: lab.FaultAPIServerRestart, Node: n.Name()}); err != nil {
		return err
	}
	var paused kmsmigration.Progress
	var result outcome
	err = poll(ctx, 100*time.Millisecond, storyTimeout, func() bool {
		for _, p := range migrator.Progress() {
			if p.Paused == kmsmigration.PausedErrorThreshold && paused.Paused == kmsmigration.NotPaused {
				paused = p
				res.detected(time.Since(restarted), "migration paused: "+string(p.Paused), byErrorThreshold(drillPauseQPS))
			}
		}
		select {
		case result = <-done:
			return true
		default:
			return false
		}
	})
	if err != nil {
		return fmt.Errorf("the drill's migration did not end: %w", err)
	}
	if result.err != nil {
		res.problemf("the migration failed: %v", result.err)
		return nil
	}
	if paused.Paused == kmsmigration.NotPaused {
		res.problemf("the migrator never paused for the error rate while %s's kube-apiserver restarted", n.Name())
	} else {
		res.notef("paused %s after the restart began: %s", res.Detected.Round(100*time.Millisecond), firstLine(paused.PauseDetail))
	}
	if len(result.report.Resources) == 0 {
		res.problemf("the migration reported no resource")
	}
	for _, r := range result.report.Resources {
		res.notef("%s: %s, %d objects in %s", r.Resource, r.Outcome, r.Progress.Counts.Handled(), r.Duration.Round(100*time.Millisecond))
		if r.Outcome != kmsmigration.RunMigrated {
			res.problemf("%s: %s: %v", r.Resource, r.Outcome, r.Err)
		}
	}
	res.Recovered, res.Recovery = time.Since(restarted), fmt.Sprintf("automatic: paused %s, then finished (migration took %s)", drillErrorPause, time.Since(started).Round(time.Second))
	return nil
}

func misconfiguredKMS(ctx context.Context, env *Env, res *Result) error {
	l := env.Lab
	lastGood, err := latestRevision(l)
	if err != nil {
		return err
	}
	kube, err := kubernetes.NewForConfig(l.RESTConfig())
	if err != nil {
		return err
	}
	before, err := candidateVersion(ctx, kube)
	if err != nil {
		return err
	}
	did, err := l.Inject(ctx, lab.Injection{Fault: lab.FaultBadKMSConfig})
	if err != nil {
		return err
	}
	injected := time.Now()
	env.Logf("%s", did)
	// library-go's key controller makes a key for the new configuration once its preflight passed (the
	// always-succeed stub, as both operators wire it), and its state controller writes the config that adds the key
	// as a read key.
	var candidate time.Duration
	if err := poll(ctx, 100*time.Millisecond, storyTimeout, func() bool {
		v, err := candidateVersion(ctx, kube)
		candidate = time.Since(injected)
		return err == nil && v != before
	}); err != nil {
		res.problemf("library-go wrote no candidate encryption config for the new KMS: %v", err)
		return nil
	}
	// Nothing refutes the key before its revision: the stub's result proves nothing, and no plugin of the key runs
	// before the revision that brings it. The gate admits it by its default policy and says so.
	var failing int32
	if err := poll(ctx, 250*time.Millisecond, storyTimeout, func() bool {
		r, err := latestRevision(l)
		failing = r
		return err == nil && r > lastGood
	}); err != nil {
		res.problemf("no revision was made for the new KMS key: %v", err)
		return nil
	}
	admitted, err := kube.CoreV1().Events(lab.OperatorNamespace).List(ctx, metav1.ListOptions{
		FieldSelector: fields.OneTermEqualSelector("reason", kmsprecondition.EventReadKeyAdmittedUnverified).String()})
	switch {
	case err != nil:
		return err
	case len(admitted.Items) == 0:
		res.problemf("revision %d was made without a %s event saying why", failing, kmsprecondition.EventReadKeyAdmittedUnverified)
	default:
		res.notef("revision %d admitted: %s", failing, firstLine(admitted.Items[len(admitted.Items)-1].Message))
	}
	reverted, _, err := waitCondition(ctx, env, kmsrollback.ConditionDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue && c.Reason == string(kmsrollback.ReasonRevertedFailingKMSConfig) &&
			strings.Contains(c.Message, fmt.Sprintf("revision %d ", failing))
	})
	if err != nil {
		res.problemf("the failing revision %d was not reverted: %v", failing, err)
		return nil
	}
	res.detected(time.Since(injected), describe(reverted), byFallback(candidate))
	if err := l.WaitForRevision(ctx, failing+1); err != nil {
		res.problemf("the revert after revision %d did not roll out: %v", failing, err)
		return nil
	}
	res.Recovered, res.Recovery = time.Since(injected), fmt.Sprintf("admitted unverified; failed on one node, reverted by kmsrollback in revision %d", failing+1)
	res.notef("reverted: %s", firstLine(reverted.Message))
	// Which apiservers ever started the failing revision: one, and it failed.
	var tried []string
	for _, n := range l.Nodes() {
		for _, e := range n.APIServer().Events() {
			if e.EncryptionConfigPath == n.EncryptionConfigPath(failing) {
				tried = append(tried, fmt.Sprintf("%s %s", n.Name(), e.Kind))
			}
		}
	}
	failed := 0
	for _, t := range tried {
		if strings.HasSuffix(t, " "+string(kmsenv.EventStartFailed)) {
			failed++
		}
	}
	if nodes := nodesIn(tried); len(nodes) != 1 || failed == 0 {
		res.problemf("the failing revision %d should have been tried, and failed, on one node only: %v", failing, tried)
		return nil
	}
	res.notef("only %s tried revision %d: %s; the other nodes never started it", nodesIn(tried)[0], failing, strings.Join(tried, ", "))
	res.notef("not recovered by the tour: library-go's key controller makes no new key while the latest one is " +
		"not migrated, so correcting the APIServer resource alone does not replace the unreachable key")
	return nil
}

// nodesIn are the distinct nodes of "<node> <event>" lines.
func nodesIn(lines []string) []string {
	seen := map[string]bool{}
	var nodes []string
	for _, l := range lines {
		node, _, _ := strings.Cut(l, " ")
		if !seen[node] {
			seen[node] = true
			nodes = append(nodes, node)
		}
	}
	return nodes
}

// waitCondition polls the operator's condition until ok says so, and returns it with how long it took.
func waitCondition(ctx context.Context, env *Env, conditionType string, ok func(operatorv1.OperatorCondition) bool) (operatorv1.OperatorCondition, time.Duration, error) {
	started := time.Now()
	var found operatorv1.OperatorCondition
	last := "not set"
	err := poll(ctx, 250*time.Millisecond, storyTimeout, func() bool {
		_, status, _, err := env.Lab.Operator().Client.GetStaticPodOperatorState()
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
		return operatorv1.OperatorCondition{}, 0, fmt.Errorf("%s after %s: %s", conditionType, storyTimeout, last)
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

func latestRevision(l *lab.Lab) (int32, error) {
	_, status, _, err := l.Operator().Client.GetStaticPodOperatorState()
	if err != nil {
		return 0, err
	}
	return status.LatestAvailableRevision, nil
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
