package tour

import (
	"context"
	"fmt"
	"time"

	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/test/lab"
)

// drillQPS is the rate migration-rate gives the migrator.
const drillQPS = 50

func migrationRate(ctx context.Context, env *Env, res *Result) error {
	l := env.Lab
	keyID, err := l.WaitForEncryption(ctx, state.KMS)
	if err != nil {
		return err
	}
	migrator, err := drillMigrator(l.RESTConfig(), kmsmigration.Options{KMS: l.PublishedKMSState(), QPS: drillQPS, Burst: 1}, "migration-rate-drill")
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
