package kmsrollback

import (
	"context"
	"fmt"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/management"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/internal/conditions"
	"github.com/kmsguard/kmsguard/internal/required"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
)

// Backoff is how long a reverted config waits before the plugins' health may release it: Initial after its
// first revert, doubled for every further revert of the same config, at most Max. An admin change releases it
// at once.
type Backoff struct {
	Initial, Max time.Duration
}

// DefaultBackoff waits ten minutes after a first revert (a few health report intervals and library-go's
// preflight), and at most six hours.
var DefaultBackoff = Backoff{Initial: 10 * time.Minute, Max: 6 * time.Hour}

// after is the wait after the n-th revert of a config.
func (b Backoff) after(reverts int) time.Duration {
	d := b.Initial
	for i := 1; i < reverts && d < b.Max; i++ {
		d *= 2
	}
	if d > b.Max {
		d = b.Max
	}
	return d
}

// Options configure a Controller. Preflight, AdminConfig, Backoff, Clock and Informers are optional.
type Options struct {
	// Rollout reads the rollout and its failures (StaticPodRollout).
	Rollout RolloutReader
	// Configs reads the encryption config of a revision (revisions.Secrets).
	Configs revisions.Reader
	// Target is what the revert writes (ManagedEncryptionConfig).
	Target Target
	// Health is kmsstate's verdict. For a Hold to be released by health, kmsstate must keep watching the held
	// keys after the revert dropped them from the config: add HoldStore.HeldKeyIDs to its KeyLister.
	Health HealthReader
	// Preflight, when set, must have succeeded for each held key's configuration before health releases a Hold
	// (kmsprecondition.PreflightFromStatus).
	Preflight kmsprecondition.PreflightReader
	// AdminConfig, when set, releases a Hold as soon as the admin's encryption configuration changes
	// (APIServerEncryption). Without it only health releases a Hold.
	AdminConfig AdminConfig
	Store       *HoldStore
	// OperatorClient carries the KMSRollbackDegraded condition.
	OperatorClient v1helpers.OperatorClient
	Recorder       events.Recorder
	Backoff        Backoff
	Clock          clock.PassiveClock
	// Informers trigger a sync besides the operator resource (pods, the APIServer); the operator resource, which holds the store, always does.
	Informers []factory.Informer
}

// Controller reverts KMS configs that make apiservers fail; see the package documentation.
type Controller struct {
	factory.Controller

	name    string
	options Options
	metrics *componentMetrics
	// witness keeps what kmsstate showed on the nodes installing the newest revision (see witness).
	witness witness
}

// NewController builds the controller; run it with Run(ctx, 1). instanceName is the operator's controller
// instance name; conditions are applied with the field manager "<instanceName>-KMSRollback". It fails when a
// required option is missing.
func NewController(instanceName string, opts Options) (*Controller, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if opts.Backoff == (Backoff{}) {
		opts.Backoff = DefaultBackoff
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	c := &Controller{name: factory.ControllerInstanceName(instanceName, "KMSRollback"), options: opts, metrics: newComponentMetrics(instanceName)}
	c.Controller = factory.New().
		WithSync(c.sync).
		WithControllerInstanceName(c.name).
		// The backoff and the pods' not-ready time pass without any object changing.
		ResyncEvery(time.Minute).
		WithInformers(append([]factory.Informer{opts.OperatorClient.Informer()}, opts.Informers...)...).
		ToController(c.name, opts.Recorder.WithComponentSuffix("kms-rollback-controller"))
	return c, nil
}

func (o Options) validate() error {
	return required.Options("kmsrollback", map[string]bool{
		"Rollout": o.Rollout == nil, "Configs": o.Configs == nil, "Target": o.Target == nil, "Health": o.Health == nil,
		"Store": o.Store == nil, "OperatorClient": o.OperatorClient == nil, "Recorder": o.Recorder == nil,
	})
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) (err error) {
	defer conditions.ReportSync(ctx, c.options.OperatorClient, c.name, controllerName, &err)
	spec, status, _, err := c.options.OperatorClient.GetOperatorState()
	if err != nil {
		return fmt.Errorf("reading the operator state: %w", err)
	}
	rollout, err := c.options.Rollout.Rollout(ctx)
	if err != nil {
		return err
	}
	holds, err := c.options.Store.Load(ctx)
	if err != nil {
		return err
	}
	if err := c.witness.observe(ctx, rollout, c.options.Configs, c.options.Health); err != nil {
		// Best effort: the live verdict below still decides wherever the failing pod still runs.
		klog.V(2).InfoS("Could not record the KMS health of the nodes installing the newest revision", "controller", c.name, "err", err)
	}
	verdict, err := attribute(ctx, rollout, c.options.Configs, c.options.Health, &c.witness)
	if err != nil {
		return err
	}
	now := c.options.Clock.Now()
	recorder := syncCtx.Recorder()

	if !management.IsOperatorManaged(spec.ManagementState) {
		// As library-go's encryption controllers: nothing is written while the admin manages the operand; what
		// would be done is reported.
		cond := c.unmanagedCondition(verdict, holds, now, spec.ManagementState)
		c.emitTransitionEvents(recorder, status.Conditions, cond)
		return c.applyCondition(ctx, cond)
	}

	// Whatever happens below, the condition says what the store says; it is applied last so that it never
	// claims a revert that was not recorded.
	defer func() {
		if err != nil {
			return
		}
		cond := c.condition(verdict, holds.Latest(), now)
		c.emitTransitionEvents(recorder, status.Conditions, cond)
		err = c.applyCondition(ctx, cond)
	}()

	if failed, ok := verdict.(*KMSRolloutFailedError); ok && !holds.handled(failed.Revision, failed.Hash) {
		if holds, err = c.revert(ctx, recorder, failed, holds, now); err != nil {
			return err
		}
	}

	dirty := false
	if h := holds.Active(); h != nil {
		if err := c.ensureReverted(ctx, recorder, h); err != nil {
			return err
		}
		reason, err := c.releaseReason(ctx, h, rollout, now)
		if err != nil {
			return err
		}
		if reason != "" {
			h.Released, h.ReleaseReason, dirty = &now, reason, true
			recorder.Eventf(EventHoldReleased, "the encryption config %s of revision %d may roll out again: %s", h.Hash, h.FailedRevision, reason)
		}
	}
	if h := holds.Latest(); h != nil && !h.Active() && h.Cleared == nil {
		revision, err := c.healthyRollout(ctx, h, rollout)
		if err != nil {
			return err
		}
		if revision > 0 {
			h.Cleared, h.ClearedBy, dirty = &now, revision, true
			recorder.Eventf(EventCleared, "revision %d rolled out healthy after the revert of revision %d (%s)", revision, h.FailedRevision, h.Hash)
		}
	}
	if dirty {
		if err := c.options.Store.Save(ctx, holds); err != nil {
			return err
		}
	}
	return nil
}

// revert records the Hold, then writes the last known good config. In this order: once the Hold is stored,
// HoldingDeployer keeps the state controller from writing the failed config back, and a crash between the two
// steps is repaired by ensureReverted on the next sync.
func (c *Controller) revert(ctx context.Context, recorder events.Recorder, failed *KMSRolloutFailedError, holds Holds, now time.Time) (Holds, error) {
	hold := Hold{
		Hash: failed.Hash, FailedRevision: failed.Revision, RevertedTo: failed.LastGood, RevertedToHash: failed.LastGoodHash,
		Nodes: failed.Nodes, KeyIDs: failed.KeyIDs, Error: boundedError(failuresString(failed.Failures)),
		RevertedAt: now, Reverts: holds.reverts(failed.Hash) + 1,
	}
	if c.options.AdminConfig != nil {
		hash, err := c.options.AdminConfig.Hash(ctx)
		if err != nil {
			return holds, err
		}
		hold.AdminConfig = hash
	}
	for i := range holds {
		if holds[i].Active() {
			// A newer revision failed while an older one was held: the newer revert says what runs.
			holds[i].Released, holds[i].ReleaseReason = &now, fmt.Sprintf("superseded by the revert of revision %d", failed.Revision)
		}
	}
	holds = append(holds, hold)
	if err := c.options.Store.Save(ctx, holds); err != nil {
		return holds, err
	}
	data, err := c.options.Configs.RevisionConfig(ctx, failed.LastGood)
	if err != nil {
		return holds, err
	}
	if err := c.options.Target.Apply(ctx, data, recorder); err != nil {
		return holds, err
	}
	c.metrics.reverted()
	klog.Warningf("%s: reverted the encryption config to revision %d: %v", c.name, failed.LastGood, failed)
	recorder.Warningf(EventReverted, "reverted the encryption config to that of revision %d (%s): %v", failed.LastGood, failed.LastGoodHash, failed)
	return holds, nil
}

// ensureReverted writes the held revert's config again when the target no longer has it: the state controller
// may have been mid-sync when the Hold was recorded, or the operator crashed between recording and writing.
func (c *Controller) ensureReverted(ctx context.Context, recorder events.Recorder, h *Hold) error {
	current, err := c.options.Target.Current(ctx)
	if err != nil {
		return err
	}
	if configHash(current) == h.RevertedToHash {
		return nil
	}
	data, err := c.options.Configs.RevisionConfig(ctx, h.RevertedTo)
	if err != nil {
		return err
	}
	if configHash(data) != h.RevertedToHash {
		return fmt.Errorf("cannot restore the reverted encryption config: encryption-config-%d has hash %s, the revert recorded %s", h.RevertedTo, configHash(data), h.RevertedToHash)
	}
	klog.Warningf("%s: the desired encryption config was %s, writing the reverted config of revision %d again", c.name, configHash(current), h.RevertedTo)
	return c.options.Target.Apply(ctx, data, recorder)
}

// releaseReason is why the held config may be tried again, "" while it stays held.
func (c *Controller) releaseReason(ctx context.Context, h *Hold, rollout Rollout, now time.Time) (string, error) {
	if c.options.AdminConfig != nil && h.AdminConfig != "" {
		hash, err := c.options.AdminConfig.Hash(ctx)
		if err != nil {
			return "", err
		}
		if hash != h.AdminConfig {
			return "the admin changed the encryption configuration", nil
		}
	}
	if now.Before(c.retryAt(h)) {
		return "", nil
	}
	// Unhealthy plugins or a preflight that has not passed are not errors: the hold stays until they change.
	nodes := rollout.nodeNames()
	healthy := len(nodes) > 0 && c.options.Health.Healthy(nodes, h.KeyIDs) == nil
	if !healthy {
		return "", nil
	}
	if c.options.Preflight != nil {
		for _, id := range h.KeyIDs {
			evidence, err := c.options.Preflight.PreflightOf(ctx, id)
			if err != nil {
				return "", err
			}
			if evidence.Outcome != kmsprecondition.PreflightSucceeded {
				return "", nil
			}
		}
	}
	return fmt.Sprintf("the KMS plugins of keys %v are healthy on nodes %v", h.KeyIDs, nodes), nil
}

// retryAt is when the plugins' health may first release h: the backoff after its Reverts-th revert. The
// condition names it while h is held.
func (c *Controller) retryAt(h *Hold) time.Time {
	return h.RevertedAt.Add(c.options.Backoff.after(h.Reverts))
}

// healthyRollout is the revision that rolled out after a released Hold, with a config other than the one the
// revert wrote, and runs healthy on every node; 0 until there is one.
func (c *Controller) healthyRollout(ctx context.Context, h *Hold, rollout Rollout) (int32, error) {
	revision := rollout.converged()
	if revision <= h.FailedRevision {
		return 0, nil
	}
	data, err := c.options.Configs.RevisionConfig(ctx, revision)
	if err != nil {
		return 0, err
	}
	if configHash(data) == h.RevertedToHash {
		return 0, nil // still the reverted config: the admin's next one has not rolled out
	}
	// A config that does not decode, or whose plugins are not healthy, is not a healthy rollout; neither is an
	// error of this controller.
	config, decodeErr := decode(data)
	if decodeErr != nil {
		return 0, nil
	}
	keys := encryptionconfig.KMSKeysOf(config).IDs
	if healthy := len(keys) == 0 || c.options.Health.Healthy(rollout.nodeNames(), keys) == nil; !healthy {
		return 0, nil
	}
	return revision, nil
}
