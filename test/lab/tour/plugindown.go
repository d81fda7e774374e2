package tour

import (
	"context"
	"errors"
	"fmt"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/test/lab"
)

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
		return c.Status == operatorv1.ConditionTrue && kmsFailure(env, func(f kmsstate.Failure) bool {
			return f.Node == node && (f.Reason == kmsstate.ReasonAPIServerKMSCheckFailing || f.Reason == kmsstate.ReasonDecryptFailing)
		})
	})
	if err != nil {
		res.problemf("KMSPluginsDegraded never reported %s's kube-apiserver failing its KMS checks: %v", node, err)
	} else {
		res.detected(time.Since(stopped), describe(cond), byAPIServerMetrics(env.Lab.DetectionTimings(), restarted))
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
	// A failure on the node, or on any node when every node's plugins stopped.
	onNode := func(f kmsstate.Failure) bool { return node == "" || f.Node == node }
	cond, after, err := waitCondition(ctx, env, kmsstate.ConditionKMSPluginsDegraded, func(c operatorv1.OperatorCondition) bool {
		return c.Status == operatorv1.ConditionTrue && kmsFailure(env, onNode)
	})
	if err != nil {
		res.problemf("KMSPluginsDegraded never named the node: %v", err)
	} else {
		res.detected(after, describe(cond), byDeadPlugin(env.Lab.DetectionTimings()))
		if node == "" {
			for _, n := range env.Lab.Nodes() {
				if !kmsFailure(env, func(f kmsstate.Failure) bool { return f.Node == n.Name() }) {
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
