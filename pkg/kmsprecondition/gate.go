package kmsprecondition

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/internal/required"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// HealthReader answers whether the plugins of keyIDs are healthy and freshly reported on every node in nodes.
// *kmsstate.Controller satisfies it; the gate reads kmsstate's verdict and never probes plugins itself.
type HealthReader interface {
	Healthy(nodes, keyIDs []string) error
}

// RevertReader tells whether a candidate config, by revisions.CandidateHash, is a revert to the config of an earlier
// revision that ran healthy.
type RevertReader interface {
	IsRevert(ctx context.Context, candidateHash string) (bool, error)
}

// DefaultDegradedAfter is how long a KMS change may wait before KMSRolloutGateDegraded turns True: longer than
// library-go's preflight pod startup timeout (3m) plus a few health report intervals (30s each), so that a
// change that is merely on its way does not page anyone.
const DefaultDegradedAfter = 15 * time.Minute

// Options configure a Gate. All fields but Preflight, Evidence or Migration (one of them is needed to ever drop a
// read key), Reverts, RollbackWindow, DegradedAfter and Clock are required.
type Options struct {
	// Configs says where the candidate and deployed configs are (revisions.Secrets for library-go operators).
	Configs revisions.ConfigSource
	// Nodes are the nodes whose apiservers will load the candidate (kmsstate.StaticPodNodes).
	Nodes  kmsstate.NodeLister
	Health HealthReader
	// Preflight, when set, requires library-go's KMS preflight to have passed for the KMS configuration new
	// keys come from (PreflightFromStatus). library-go's key controller already makes no KMS key before that
	// preflight passed; what the gate adds is the refusal of a candidate whose configuration was preflighted
	// and then changed. Without it a new key must still be healthy on every node, and kmsguard's health
	// reporter checks that with the preflight's own calls (Status, Encrypt, Decrypt) on each node.
	Preflight PreflightReader
	// Evidence is the raw etcd evidence dropped read keys are judged by (kmsmigration's VerificationController).
	// Leave it nil only where the operator has no etcd access: Migration is then the fallback, and the
	// conditions say so.
	Evidence ReadKeyEvidence
	// Migration is library-go's record of finished migrations (KeySecretMigrations), used only when Evidence is
	// nil. With neither, no read key may be dropped.
	Migration MigrationEvidence
	// RollbackWindow is how long after the migration away from a read key it must stay in the config;
	// DefaultRollbackWindow when zero.
	RollbackWindow time.Duration
	// Reverts, when set, names the candidates that are reverts to an earlier revision's exact config
	// (kmsrollback's HoldStore). A revert may drop the failed revision's new KMS providers without migration
	// evidence: library-go adds a key as a read key one revision before it writes with it, so a provider the
	// last good revision did not have never wrote anything.
	Reverts RevertReader
	// OperatorClient carries the conditions and spec.unsupportedConfigOverrides.
	OperatorClient v1helpers.OperatorClient
	Recorder       events.Recorder
	// DegradedAfter is how long a KMS change may be blocked before Degraded; DefaultDegradedAfter when zero.
	DegradedAfter time.Duration
	Clock         clock.PassiveClock
}

// Gate keeps revisions whose encryption config changes KMS providers from being created until the change is
// safe to roll out. Precondition and ReadinessCheck are its two hooks into library-go's revision controller.
//
// The Gate is no controller and has no <Name>ControllerDegraded condition of its own: an error of Precondition
// or ReadinessCheck (a config, the operator state or kmsstate cannot be read, a condition cannot be applied) is
// the revision controller's sync error, and library-go's revision controller is built
// WithSyncDegradedOnError, so RevisionControllerDegraded turns True with that error and False after the next
// successful sync, and no revision is created meanwhile. A second condition would report the same failure
// twice. Nor does it look at spec.managementState: the revision controller calls it only when Managed.
type Gate struct {
	name    string
	options Options
}

// NewGate builds a Gate. instanceName is the operator's controller instance name; the gate applies its
// conditions with the field manager "<instanceName>-KMSRolloutGate". It fails when a required option is missing.
func NewGate(instanceName string, opts Options) (*Gate, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if opts.DegradedAfter == 0 {
		opts.DegradedAfter = DefaultDegradedAfter
	}
	if opts.RollbackWindow == 0 {
		opts.RollbackWindow = DefaultRollbackWindow
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	return &Gate{name: factory.ControllerInstanceName(instanceName, "KMSRolloutGate"), options: opts}, nil
}

func (o Options) validate() error {
	return required.Options("kmsprecondition", map[string]bool{
		"Configs": o.Configs == nil, "Nodes": o.Nodes == nil, "Health": o.Health == nil,
		"OperatorClient": o.OperatorClient == nil, "Recorder": o.Recorder == nil,
	})
}

// Precondition is a revisioncontroller.PreconditionFunc: true when the next revision may be created. The
// revision controller calls it on every sync, before it even looks for changes, so it is cheap when nothing
// changes KMS. While it returns false the revision controller does nothing and is synced again by the next
// operator status change (kmsstate's and the reporters' writes are such changes) or its one-minute resync.
//
// It judges the revision as a whole: an unrelated change waits too while encryption-config itself carries a
// blocked KMS change, because the revision controller would copy both into the same revision.
func (g *Gate) Precondition(ctx context.Context) (bool, error) {
	configs, err := g.options.Configs.Configs(ctx)
	if err != nil {
		return false, err
	}
	return g.check(ctx, configs)
}

// ReadinessCheck is a revisioncontroller.ReadinessCheckFunc: it judges encryption-config-<revision>, the copy the
// revision controller just made, against the latest available revision. It closes the window in which
// encryption-config changes between Precondition and the copy (the builder's revision controller reads the
// source through an informer cache, the gate does not). Options.Configs must be a revisions.RevisionConfigSource.
func (g *Gate) ReadinessCheck(ctx context.Context, revision int32) (bool, error) {
	source, ok := g.options.Configs.(revisions.RevisionConfigSource)
	if !ok {
		return false, fmt.Errorf("the KMS rollout gate's config source %T cannot read revision %d", g.options.Configs, revision)
	}
	configs, err := source.RevisionConfigs(ctx, revision)
	if err != nil {
		return false, err
	}
	return g.check(ctx, configs)
}

// check evaluates the configs, applies the conditions and emits the events. It returns (false, nil) while
// blocked: waiting is not an error, and an error would also set the revision controller's own Degraded.
func (g *Gate) check(ctx context.Context, configs revisions.Configs) (allowed bool, err error) {
	spec, status, _, err := g.options.OperatorClient.GetOperatorState()
	if err != nil {
		return false, fmt.Errorf("reading the operator state: %w", err)
	}
	now := g.options.Clock.Now()
	verdict, err := g.evaluate(ctx, configs, now)
	if err != nil {
		return false, err
	}

	forced, overrideErr := forcedHash(spec)
	if overrideErr != nil {
		klog.Warningf("%s: ignoring the override: %v", g.name, overrideErr)
	}
	verdict.Forced = len(verdict.Blocking) > 0 && forced != "" && forced == verdict.Hash
	verdict.IgnoredForce = len(verdict.Blocking) > 0 && forced != "" && !verdict.Forced

	conditions := g.conditions(verdict, status.Conditions, now)
	g.emitEvents(verdict, status.Conditions, conditions)
	if err := g.applyConditions(ctx, conditions); err != nil {
		return false, err
	}
	return len(verdict.Blocking) == 0 || verdict.Forced, nil
}

// verdict is the outcome of one evaluation.
type verdict struct {
	Configs revisions.Configs
	// KMSChanged is false when the candidate leaves KMS providers as deployed; only dropped read keys are then
	// checked.
	KMSChanged bool
	// Dropped are the read keys the candidate drops; Allowed those of them the evidence lets go.
	Dropped, Allowed []DroppedProvider
	// Revert says the candidate is a revert (Options.Reverts), whose dropped read keys are not judged.
	Revert bool
	// Hash is revisions.CandidateHash(Configs.Candidate).
	Hash string
	// KeyIDs are the KMS v2 keys of the candidate, Nodes the nodes they must be healthy on.
	KeyIDs, Nodes []string
	// Blocking is empty when the candidate may roll out, else sorted most severe first.
	Blocking     []BlockingError
	Forced       bool
	IgnoredForce bool
}

// Gated says whether the candidate is the gate's business: it changes KMS providers or drops a read key.
func (v verdict) Gated() bool { return v.KMSChanged || len(v.Dropped) > 0 }

// evaluate runs the checks. An error means an input could not be read, not that the candidate is bad.
func (g *Gate) evaluate(ctx context.Context, configs revisions.Configs, now time.Time) (verdict, error) {
	v := verdict{Configs: configs, Hash: revisions.CandidateHash(configs.Candidate)}
	deployed, err := encryptionconfig.DecodeUnvalidated(configs.Deployed)
	comparable := err == nil
	if err != nil {
		// What runs could not be decoded here; judge the candidate as if nothing KMS were deployed, so that
		// every KMS provider it has must be shown healthy, and a fix is not held up by a comparison (which is
		// also why no read key counts as dropped).
		klog.Warningf("%s: treating the deployed encryption config %s as having no KMS providers: %v", g.name, configs.DeployedName, err)
		deployed, _ = encryptionconfig.DecodeUnvalidated(nil)
	}
	candidate, err := encryptionconfig.DecodeUnvalidated(configs.Candidate)
	if err != nil {
		// Whether it changes KMS cannot be known, and no kube-apiserver will start with it.
		v.KMSChanged = true
		v.Blocking = []BlockingError{&InvalidConfigError{Err: err}}
		return v, nil
	}
	v.KMSChanged = encryptionconfig.DiffKMS(deployed, candidate).Changed()
	if comparable {
		v.Dropped = droppedReadKeys(candidate, deployed)
	}
	if !v.Gated() {
		return v, nil
	}
	if v.KMSChanged && len(configs.Candidate) > 0 {
		// kube-apiserver's own decoding (strict) and validation, exactly what will load the file.
		if _, err := encryptionconfig.Decode(configs.Candidate); err != nil {
			v.Blocking = []BlockingError{&InvalidConfigError{Err: err}}
			return v, nil
		}
	}

	revert := false
	if g.options.Reverts != nil && len(v.Dropped) > 0 {
		if revert, err = g.options.Reverts.IsRevert(ctx, v.Hash); err != nil {
			return v, fmt.Errorf("reading the KMS reverts: %w", err)
		}
	}
	v.Revert = revert
	if !revert && len(v.Dropped) > 0 {
		blocking, allowed, err := g.checkDropped(ctx, v.Dropped, now)
		if err != nil {
			return v, err
		}
		v.Blocking, v.Allowed = append(v.Blocking, blocking...), allowed
	}
	if !v.KMSChanged {
		sortBlocking(v.Blocking)
		return v, nil
	}

	candidateKeys, deployedKeys := encryptionconfig.KMSKeysOf(candidate), encryptionconfig.KMSKeysOf(deployed)
	v.KeyIDs = candidateKeys.IDs
	if newKeys := sets.List(sets.New(candidateKeys.IDs...).Difference(sets.New(deployedKeys.IDs...))); len(newKeys) > 0 && g.options.Preflight != nil {
		if err := g.options.Preflight.PreflightPassed(ctx, newKeys); err != nil {
			var pe *PreflightError
			if !errors.As(err, &pe) {
				return v, err
			}
			v.Blocking = append(v.Blocking, pe)
		}
	}

	if len(v.KeyIDs) > 0 {
		if v.Nodes, err = g.options.Nodes.Nodes(ctx); err != nil {
			return v, fmt.Errorf("listing the apiserver nodes: %w", err)
		}
		switch {
		case len(v.Nodes) == 0:
			// Healthy on no node proves nothing.
			v.Blocking = append(v.Blocking, &PluginsNotHealthyError{Err: fmt.Errorf("no apiserver node is known yet")})
		default:
			if err := g.options.Health.Healthy(v.Nodes, v.KeyIDs); err != nil {
				v.Blocking = append(v.Blocking, &PluginsNotHealthyError{Err: err})
			}
		}
	}
	sortBlocking(v.Blocking)
	return v, nil
}
