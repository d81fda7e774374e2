package kmsprecondition

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/util/sets"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/internal/required"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig/revisions"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/pkg/operatorstate"
)

// HealthReader is kmsstate's verdict: the gate reads one fresh evaluation per check, and asks it which plugins are
// healthy on which nodes (State.Healthy) and which KEK id a key's plugins agree on (State.SettledKEKID).
// *kmsstate.Controller satisfies it; the gate never probes plugins itself.
type HealthReader interface {
	Current() (kmsstate.State, error)
}

// RevertReader tells whether a candidate config, by revisions.CandidateHash, is a revert to the config of an earlier
// revision that ran healthy.
type RevertReader interface {
	IsRevert(ctx context.Context, candidateHash string) (bool, error)
}

// DefaultDegradedAfter is how long a KMS change may wait on a fault before KMSRolloutGateDegraded turns True:
// longer than library-go's preflight pod startup timeout (3m) plus a few health report intervals (30s each), so
// that a plugin that is merely starting does not page anyone. Only the faults wait for it (KMSPluginsNotHealthy,
// PreflightNotPassed); what ends by itself (ReadKeyStillInUse while a migration runs, RollbackWindowNotPassed)
// never degrades, and a verdict (InvalidEncryptionConfig, PreflightFailed, NewKMSKeyWrites) degrades at once.
const DefaultDegradedAfter = 15 * time.Minute

// UnverifiedReadKeyPolicy decides a new KMS read key that nothing has shown to work or to fail: no preflight
// result is bound to its configuration (library-go's always-succeed deployer, which both operators wire today,
// records none that counts), and no node reports its plugin, since the plugin comes with the revision that adds
// the key.
type UnverifiedReadKeyPolicy string

const (
	// AdmitUnverifiedReadKeys, the default, lets the revision that adds the read key roll out, and says so in
	// KMSRolloutGateProgressing's message and a KMSReadKeyAdmittedUnverified event. A read key writes nothing, so
	// nothing is lost if it fails: the first kube-apiserver that cannot reach its plugin fails its readiness,
	// and kmsrollback reverts the revision (from the startup monitor's fallback on a single node, from the
	// not-ready pod elsewhere). Blocking instead would stop every KMS enablement, and with it every
	// kube-apiserver revision, on every cluster whose preflight is the stub.
	AdmitUnverifiedReadKeys UnverifiedReadKeyPolicy = "Admit"
	// BlockUnverifiedReadKeys holds the revision (PreflightNotPassed) until a real preflight succeeds for the
	// key's configuration or its plugin is reported healthy on every node. Choose it with a preflight deployer
	// that runs the plugin.
	BlockUnverifiedReadKeys UnverifiedReadKeyPolicy = "Block"
)

// Options configure a Gate. All fields but Preflight, UnverifiedReadKeys, Census or Migration (one of them is
// needed to ever drop a read key), Reverts, RollbackWindow, DegradedAfter and Clock are required.
type Options struct {
	// Configs says where the candidate and deployed configs are (revisions.Secrets for library-go operators).
	Configs revisions.ConfigSource
	// Nodes are the nodes whose apiservers will load the candidate (kmsstate.StaticPodNodes).
	Nodes  kmsstate.NodeLister
	Health HealthReader
	// Preflight, when set, is the evidence for a new KMS read key before any node runs its plugin
	// (PreflightFromStatus): a preflight that succeeded for exactly that key's configuration admits it, one that
	// failed blocks it. Without it only the health reports are evidence.
	Preflight PreflightReader
	// UnverifiedReadKeys decides a new read key without evidence either way; AdmitUnverifiedReadKeys when empty.
	UnverifiedReadKeys UnverifiedReadKeyPolicy
	// Census is the raw etcd evidence dropped read keys are judged by (evidence.CensusController).
	// Leave it nil only where the operator has no etcd access: Migration is then the fallback, and the
	// conditions say so.
	Census ReadKeyEvidence
	// Migration is library-go's record of finished migrations (evidence.KeySecretMigrations), used only when Census is
	// nil. With neither, no read key may be dropped.
	Migration MigrationEvidence
	// RollbackWindow is how long after the migration away from a read key it must stay in the config;
	// DefaultRollbackWindow when zero.
	RollbackWindow time.Duration
	// Reverts, when set, names the candidates that are reverts to an earlier revision's exact config
	// (kmsrollback's HoldStore). A revert may drop the failed revision's new KMS providers without migration
	// evidence: library-go adds a key as a read key one revision before it writes with it, so a provider the
	// last good revision did not have never wrote anything. Nor is a revert held for the health of the keys it
	// keeps (checkKeys says why).
	Reverts RevertReader
	// OperatorClient carries the conditions and spec.unsupportedConfigOverrides.
	OperatorClient v1helpers.OperatorClient
	// Admitted, when set, keeps the candidates ConfigSyncPrecondition let through in the annotation
	// kmsguard.openshift.io/rollout-gate-admitted of the operator resource (AdmittedStoreName), which the KMS never
	// encrypts, so that the second line keeps to them after an operator restart instead of judging them again: a
	// config admitted before the restart and refused now (a plugin that started ahead of its revision and
	// fails) would otherwise hold the next revision of every other change. Without it the record lives in the
	// process.
	Admitted operatorstate.Resource
	Recorder events.Recorder
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

	// syncHeld is set once ConfigSyncPrecondition is in use: the gate then judges the config before library-go's
	// resource sync copies it, and Precondition and ReadinessCheck are a silent second line.
	syncHeld atomic.Bool

	mu sync.Mutex
	// announced are the unverified read keys already announced, as "<candidate hash>/<key id>": one
	// KMSReadKeyAdmittedUnverified event per decision, not one per sync.
	announced sets.Set[string]
	// secondLine is the message of the last revision the second line held, so that it is evented once.
	secondLine string
	// synced are the candidate hashes ConfigSyncPrecondition let through, newest last (at most maxSynced): the
	// second line keeps to that decision, so that evidence that turns bad between the copy and the revision
	// (a plugin that starts ahead of its revision and fails) cannot leave encryption-config holding a config that
	// every revision then waits on. kmsrollback's safety net is for such a config. With Options.Admitted they are
	// loaded from there once (syncedLoaded) and saved on every change.
	synced       []string
	syncedLoaded bool
	admitted     *operatorstate.Store[[]string]
}

// AdmittedStoreName names the annotation, kmsguard.openshift.io/<AdmittedStoreName>, that keeps the candidates
// the sync let through (Options.Admitted).
const AdmittedStoreName = "rollout-gate-admitted"

// maxSynced bounds Gate.synced: a revision follows its copy within minutes, and library-go writes a few
// configs per KMS change.
const maxSynced = 16

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
	switch opts.UnverifiedReadKeys {
	case "":
		opts.UnverifiedReadKeys = AdmitUnverifiedReadKeys
	case AdmitUnverifiedReadKeys, BlockUnverifiedReadKeys:
	default:
		return nil, fmt.Errorf("kmsprecondition: unknown UnverifiedReadKeys policy %q (want %q or %q)", opts.UnverifiedReadKeys, AdmitUnverifiedReadKeys, BlockUnverifiedReadKeys)
	}
	g := &Gate{name: factory.ControllerInstanceName(instanceName, "KMSRolloutGate"), options: opts, announced: sets.New[string]()}
	if opts.Admitted != nil {
		g.admitted = operatorstate.NewStore[[]string](opts.Admitted, AdmittedStoreName)
	}
	return g, nil
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
// blocked KMS change, because the revision controller would copy both into the same revision. With
// ConfigSyncPrecondition in use, a blocked KMS change never reaches encryption-config, and Precondition is the
// second line: it lets through what the sync let through (evidence that turns bad after the copy is kmsrollback's
// to act on), sets no condition, and holds a revision only of a config the sync did not admit (in this process, or
// before an operator restart with Options.Admitted) and that is refused now (one written around the sync), with a
// KMSRolloutBlocked event.
func (g *Gate) Precondition(ctx context.Context) (bool, error) {
	configs, err := g.options.Configs.Configs(ctx)
	if err != nil {
		return false, err
	}
	if g.syncHeld.Load() {
		return g.secondLineCheck(ctx, configs)
	}
	return g.check(ctx, configs)
}

// ConfigSyncPrecondition judges the config library-go's resource sync is about to copy into encryption-config
// (revisions.SecretSource.Synced: openshift-config-managed/encryption-config-<component>) and says whether the copy
// may happen. It sets the gate's conditions and events as Precondition does without it. While it says no,
// encryption-config keeps the last admitted config, so the revision controller goes on making revisions for every
// other change (certificates, CA bundles, an upgrade's image), and library-go's key controller stays free to
// react to the admin. Once it is used, Precondition and ReadinessCheck are the second line.
//
// library-go registers that sync in encryption.NewControllers with a precondition of its own; kmsguard's
// Controllers.HoldEncryptionConfigSync registers it again with this one in front.
func (g *Gate) ConfigSyncPrecondition(source revisions.ConfigSource) func(ctx context.Context) (bool, error) {
	g.syncHeld.Store(true)
	return func(ctx context.Context) (bool, error) {
		configs, err := source.Configs(ctx)
		if err != nil {
			return false, err
		}
		allowed, err := g.check(ctx, configs)
		if allowed && err == nil {
			// The copy waits until the record is kept: a config copied but not recorded would be judged again by
			// the second line after a restart.
			if err := g.rememberSynced(ctx, revisions.CandidateHash(configs.Candidate)); err != nil {
				return false, err
			}
		}
		return allowed, err
	}
}

// rememberSynced records a candidate the sync let through, and saves the record when it changed.
func (g *Gate) rememberSynced(ctx context.Context, hash string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.loadSynced(ctx); err != nil {
		return err
	}
	if n := len(g.synced); n > 0 && g.synced[n-1] == hash {
		return nil
	}
	next := slices.DeleteFunc(slices.Clone(g.synced), func(h string) bool { return h == hash })
	next = append(next, hash)
	if len(next) > maxSynced {
		next = next[len(next)-maxSynced:]
	}
	if g.admitted != nil {
		if err := g.admitted.Save(ctx, next); err != nil {
			return fmt.Errorf("keeping the rollout gate's admission of %s: %w", hash, err)
		}
	}
	g.synced = next
	return nil
}

// wasSynced says whether the sync let hash through, in this process or, with Options.Admitted, before it.
func (g *Gate) wasSynced(ctx context.Context, hash string) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.loadSynced(ctx); err != nil {
		return false, err
	}
	return slices.Contains(g.synced, hash), nil
}

// loadSynced reads the stored record once; g.mu is held. A record that cannot be decoded is started afresh, with
// a warning: the second line then judges the candidates it held, as without a record.
func (g *Gate) loadSynced(ctx context.Context) error {
	if g.syncedLoaded || g.admitted == nil {
		return nil
	}
	stored, _, err := g.admitted.Load(ctx)
	var corrupt *operatorstate.CorruptValueError
	switch {
	case errors.As(err, &corrupt):
		klog.Warningf("%s: %v; starting the record of admitted candidates afresh", g.name, err)
		stored = nil
	case err != nil:
		return fmt.Errorf("reading the rollout gate's admitted candidates: %w", err)
	}
	// What this process admitted before the first load stays, newest last.
	g.synced = append(slices.DeleteFunc(stored, func(h string) bool { return slices.Contains(g.synced, h) }), g.synced...)
	g.syncedLoaded = true
	return nil
}

// secondLineCheck lets through what the sync let through, and judges anything else without setting conditions; a
// held revision is evented once per message.
func (g *Gate) secondLineCheck(ctx context.Context, configs revisions.Configs) (bool, error) {
	if synced, err := g.wasSynced(ctx, revisions.CandidateHash(configs.Candidate)); err != nil || synced {
		return synced, err
	}
	v, _, _, err := g.judge(ctx, configs)
	if err != nil {
		return false, err
	}
	if v.allowed() {
		return true, nil
	}
	msg := fmt.Sprintf("no revision is created from %s (%s), which the resource sync did not let through, until: %s; %s",
		v.Configs.CandidateName, v.Hash, joinBlocking(v.Blocking), overrideHint(v.Hash))
	g.mu.Lock()
	repeat := g.secondLine == msg
	g.secondLine = msg
	g.mu.Unlock()
	if !repeat {
		klog.Warningf("%s: %s", g.name, msg)
		g.options.Recorder.Warningf(EventBlocked, "%s", msg)
	}
	return false, nil
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
	if g.syncHeld.Load() {
		return g.secondLineCheck(ctx, configs)
	}
	return g.check(ctx, configs)
}

// check evaluates the configs, applies the conditions and emits the events. It returns (false, nil) while
// blocked: waiting is not an error, and an error would also set the revision controller's own Degraded.
func (g *Gate) check(ctx context.Context, configs revisions.Configs) (allowed bool, err error) {
	verdict, previous, now, err := g.judge(ctx, configs)
	if err != nil {
		return false, err
	}
	conditions := g.conditions(verdict, previous, now)
	g.emitEvents(verdict, previous, conditions)
	if err := g.applyConditions(ctx, conditions); err != nil {
		return false, err
	}
	return verdict.allowed(), nil
}

// judge evaluates configs with the override applied, and returns the conditions the operator had and the time of
// the judgement; it writes nothing.
func (g *Gate) judge(ctx context.Context, configs revisions.Configs) (verdict, []operatorv1.OperatorCondition, time.Time, error) {
	spec, status, _, err := g.options.OperatorClient.GetOperatorState()
	if err != nil {
		return verdict{}, nil, time.Time{}, fmt.Errorf("reading the operator state: %w", err)
	}
	now := g.options.Clock.Now()
	v, err := g.evaluate(ctx, configs, now)
	if err != nil {
		return verdict{}, nil, time.Time{}, err
	}
	g.decideForce(&v, spec)
	return v, status.Conditions, now, nil
}

// decideForce sets whether the override forces the blocked candidate of v, or names another one.
func (g *Gate) decideForce(v *verdict, spec *operatorv1.OperatorSpec) {
	forced, overrideErr := forcedHash(spec)
	if overrideErr != nil {
		klog.Warningf("%s: ignoring the override: %v", g.name, overrideErr)
	}
	v.Forced = len(v.Blocking) > 0 && forced != "" && forced == v.Hash
	v.IgnoredForce = len(v.Blocking) > 0 && forced != "" && !v.Forced
}

// verdict is the outcome of one evaluation.
type verdict struct {
	Configs revisions.Configs
	// KMSChanged is false when the candidate leaves KMS providers as deployed; only dropped read keys are then
	// checked.
	KMSChanged bool
	// Dropped are the read keys the candidate drops; Allowed those of them the evidence lets go.
	Dropped, Allowed []DroppedProvider
	// Revert says the candidate is a revert (Options.Reverts), whose dropped read keys and kept keys' health are not
	// judged; revertAsked that Options.Reverts was asked (askRevert).
	Revert      bool
	revertAsked bool
	// Hash is revisions.CandidateHash(Configs.Candidate).
	Hash string
	// Keys classifies the candidate's KMS keys against the deployed config; Nodes are the nodes deployed keys
	// must be healthy on.
	Keys  keyClasses
	Nodes []string
	// Admitted says, per new read key, by which evidence (or policy) it may roll out.
	Admitted []admittedKey
	// Blocking is empty when the candidate may roll out, else sorted most severe first.
	Blocking     []BlockingError
	Forced       bool
	IgnoredForce bool
}

// keyClasses are the candidate's KMS keys, by what a node needs for them.
type keyClasses struct {
	// Deployed are in the deployed config too: their plugins run, so they must be healthy on every node.
	Deployed []string
	// Promoted are deployed keys the candidate makes write a resource: from that revision on data is written
	// under them, so their plugins must also agree on one KEK id.
	Promoted []string
	// NewRead are new to the candidate and write nothing: no plugin of theirs runs anywhere yet.
	NewRead []string
	// NewWrite are new to the candidate and write a resource: a key that writes before every apiserver can read
	// with it. library-go never proposes one.
	NewWrite []string
}

func classifyKeys(deployed, candidate *apiserverv1.EncryptionConfiguration) keyClasses {
	diff := encryptionconfig.DiffKMS(deployed, candidate)
	added, promoted := sets.New(diff.Added...), sets.New(diff.Promoted...)
	var c keyClasses
	for _, id := range encryptionconfig.KMSKeysOf(candidate).IDs {
		switch {
		case added.Has(id) && promoted.Has(id):
			c.NewWrite = append(c.NewWrite, id)
		case added.Has(id):
			c.NewRead = append(c.NewRead, id)
		default:
			c.Deployed = append(c.Deployed, id)
			if promoted.Has(id) {
				c.Promoted = append(c.Promoted, id)
			}
		}
	}
	return c
}

// admittedKey is a new read key the gate lets through, and on which evidence (by says it in words): a preflight
// bound to its configuration, its plugin healthy on HealthyOn ahead of its revision, or, Unverified, the policy.
type admittedKey struct {
	KeyID string
	// Preflight is what library-go's preflight proved about the key's configuration.
	Preflight PreflightEvidence
	// HealthyOn are the nodes its plugin is healthy on ahead of its revision, when that admitted it.
	HealthyOn []string
	// Unverified is true when the policy admitted it without evidence.
	Unverified bool
}

// by says on which evidence the key was admitted.
func (a admittedKey) by() string {
	switch {
	case a.Unverified:
		return fmt.Sprintf("UNVERIFIED (%s; no node runs its plugin yet); admitted by the %s policy: a read key writes nothing, and a revision whose kube-apiserver cannot reach its plugin is reverted by kmsrollback",
			a.Preflight.Detail, AdmitUnverifiedReadKeys)
	case len(a.HealthyOn) > 0:
		return fmt.Sprintf("its plugin is healthy on nodes %v ahead of its revision", a.HealthyOn)
	default:
		return a.Preflight.Detail
	}
}

// allowed says whether the candidate may roll out: nothing blocks it, or the override forces it.
func (v verdict) allowed() bool { return len(v.Blocking) == 0 || v.Forced }

// Gated says whether the candidate is the gate's business: it changes KMS providers or drops a read key.
func (v verdict) Gated() bool { return v.KMSChanged || len(v.Dropped) > 0 }

// evaluate runs the checks. An error means an input could not be read, not that the candidate is bad.
func (g *Gate) evaluate(ctx context.Context, configs revisions.Configs, now time.Time) (verdict, error) {
	v := verdict{Configs: configs, Hash: revisions.CandidateHash(configs.Candidate)}
	deployed, err := encryptionconfig.DecodeUnvalidated(configs.Deployed)
	comparable := err == nil
	if err != nil {
		// What runs could not be decoded here; judge the candidate as if nothing KMS were deployed, so that
		// every KMS provider it has must be shown to work, and a fix is not held up by a comparison (which is
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

	if len(v.Dropped) > 0 {
		if err := g.askRevert(ctx, &v); err != nil {
			return v, err
		}
	}
	if !v.Revert && len(v.Dropped) > 0 {
		blocking, allowed, err := g.checkDropped(ctx, v.Dropped, now)
		if err != nil {
			return v, err
		}
		v.Blocking, v.Allowed = append(v.Blocking, blocking...), allowed
	}
	if v.KMSChanged {
		if err := g.checkKeys(ctx, &v, deployed, candidate); err != nil {
			return v, err
		}
	}
	sortBlocking(v.Blocking)
	return v, nil
}

// checkKeys judges the candidate's KMS keys by the evidence that exists for each (see the package doc): a deployed
// key by its plugins' health on every node, a promoted one also by one settled KEK id, a new read key by a
// preflight bound to its configuration or its plugins' reports, else by Options.UnverifiedReadKeys, and a new key
// that writes is refused.
//
// A revert (Options.Reverts) is not held for the health of the keys it keeps: it is the exact config the nodes ran
// before the failed revision, and the node that runs the failed revision cannot show them healthy. Its kube-apiserver
// does not serve, and library-go's health reporter in its pod publishes nothing while one of the pod's plugins
// fails (a failing report has no remoteKeyID, which the operator CRDs require, so the node's whole apply is
// refused), so that node's reports of the kept keys go stale. Holding the revert for them would keep the failed
// revision for good.
func (g *Gate) checkKeys(ctx context.Context, v *verdict, deployed, candidate *apiserverv1.EncryptionConfiguration) error {
	v.Keys = classifyKeys(deployed, candidate)
	if len(v.Keys.NewWrite) > 0 {
		v.Blocking = append(v.Blocking, &NewKeyWritesError{KeyIDs: v.Keys.NewWrite})
	}
	if len(v.Keys.Deployed)+len(v.Keys.NewRead) == 0 {
		return nil
	}
	nodes, err := g.options.Nodes.Nodes(ctx)
	if err != nil {
		return fmt.Errorf("listing the apiserver nodes: %w", err)
	}
	v.Nodes = nodes
	if len(nodes) == 0 {
		// Healthy on no node proves nothing.
		v.Blocking = append(v.Blocking, &PluginsNotHealthyError{Err: fmt.Errorf("no apiserver node is known yet")})
		return nil
	}
	state, err := g.options.Health.Current()
	var unhealthy *kmsstate.UnhealthyError
	if err != nil && !errors.As(err, &unhealthy) {
		return fmt.Errorf("reading kmsstate: %w", err)
	}
	if err != nil {
		// No fresh verdict: nothing is known about any plugin. A new read key may still come in on a bound
		// preflight, which does not depend on kmsstate.
		if len(v.Keys.Deployed) > 0 {
			if err := g.blockKeptKeys(ctx, v, []BlockingError{&PluginsNotHealthyError{Err: err}}); err != nil {
				return err
			}
		}
		return g.checkNewReadKeys(ctx, v, nil, err)
	}
	var kept []BlockingError
	if len(v.Keys.Deployed) > 0 {
		if err := state.Healthy(nodes, v.Keys.Deployed); err != nil {
			kept = append(kept, &PluginsNotHealthyError{Err: err})
		}
	}
	for _, id := range v.Keys.Promoted {
		if _, ok := state.SettledKEKID(id); !ok {
			kept = append(kept, &PluginsNotHealthyError{Err: &kekNotSettledError{KeyID: id}})
		}
	}
	if err := g.blockKeptKeys(ctx, v, kept); err != nil {
		return err
	}
	return g.checkNewReadKeys(ctx, v, &state, nil)
}

// blockKeptKeys adds what the candidate's deployed and promoted keys are blocked by, unless the candidate is a
// revert (see checkKeys).
func (g *Gate) blockKeptKeys(ctx context.Context, v *verdict, blocking []BlockingError) error {
	if len(blocking) == 0 {
		return nil
	}
	if err := g.askRevert(ctx, v); err != nil {
		return err
	}
	if v.Revert {
		// Not judged, so not claimed healthy in the message either.
		v.Keys.Deployed, v.Keys.Promoted = nil, nil
		return nil
	}
	v.Blocking = append(v.Blocking, blocking...)
	return nil
}

// askRevert sets v.Revert from Options.Reverts, asking it once per evaluation, and only where the answer changes the
// verdict (a dropped read key, a kept key that is not healthy): the holds are a live read, which a KMS outage can
// make fail, and most KMS changes are no revert.
func (g *Gate) askRevert(ctx context.Context, v *verdict) error {
	if v.revertAsked || g.options.Reverts == nil {
		return nil
	}
	v.revertAsked = true
	revert, err := g.options.Reverts.IsRevert(ctx, v.Hash)
	if err != nil {
		return fmt.Errorf("reading the KMS reverts: %w", err)
	}
	v.Revert = revert
	return nil
}

// checkNewReadKeys judges each new read key: refuted (a failed preflight for its configuration, or a node that
// reports its plugin failing) blocks; proven (a preflight that ran the plugin and succeeded for its configuration,
// or its plugin healthy and fresh on every node ahead of its revision) admits; neither is Options.UnverifiedReadKeys.
// state is nil when kmsstate has no fresh verdict, and staleErr then says why; without a verdict only a bound
// preflight decides.
func (g *Gate) checkNewReadKeys(ctx context.Context, v *verdict, state *kmsstate.State, staleErr error) error {
	var unverified []string
	var details []string
	var unverifiedEvidence []PreflightEvidence
	for _, id := range v.Keys.NewRead {
		if state != nil && !slices.Contains(state.KeyIDs, id) {
			// kmsstate has not looked at the key yet (its key list reads the configs every sync): what it will
			// find may refute the key, so no policy decides before it has.
			v.Blocking = append(v.Blocking, &PluginsNotHealthyError{Err: &keyNotEvaluatedError{KeyID: id, Evaluated: state.KeyIDs, At: state.EvaluatedAt}})
			continue
		}
		preflight := PreflightEvidence{Outcome: PreflightUnverified, Detail: "no preflight reader is configured"}
		if g.options.Preflight != nil {
			var err error
			if preflight, err = g.options.Preflight.PreflightOf(ctx, id); err != nil {
				return fmt.Errorf("reading the KMS preflight of key %s: %w", id, err)
			}
		}
		healthErr := staleErr
		var faults []kmsstate.Failure
		if state != nil {
			healthErr = state.Healthy(v.Nodes, []string{id})
			var unhealthy *kmsstate.UnhealthyError
			if errors.As(healthErr, &unhealthy) {
				faults = unhealthy.KMSFaults()
			}
		}
		switch {
		case preflight.Outcome == PreflightFailed:
			v.Blocking = append(v.Blocking, &PreflightError{Failed: true, Detail: preflight.Detail})
		case state == nil && preflight.Outcome != PreflightSucceeded:
			// Without a fresh verdict kmsstate cannot have looked at the key: no policy decides before it has.
			v.Blocking = append(v.Blocking, &PluginsNotHealthyError{Err: fmt.Errorf("new key %s: %w", id, healthErr)})
		case len(faults) > 0:
			// A plugin that runs ahead of its revision and fails is evidence, whatever a preflight on one node said.
			v.Blocking = append(v.Blocking, &PluginsNotHealthyError{Err: &kmsstate.UnhealthyError{Failures: faults}})
		case preflight.Outcome == PreflightSucceeded:
			v.Admitted = append(v.Admitted, admittedKey{KeyID: id, Preflight: preflight})
		case healthErr == nil:
			v.Admitted = append(v.Admitted, admittedKey{KeyID: id, Preflight: preflight, HealthyOn: v.Nodes})
		default:
			unverified = append(unverified, id)
			details = append(details, preflight.Detail)
			unverifiedEvidence = append(unverifiedEvidence, preflight)
		}
	}
	if len(unverified) == 0 {
		return nil
	}
	if g.options.UnverifiedReadKeys == BlockUnverifiedReadKeys {
		v.Blocking = append(v.Blocking, &PreflightError{Detail: fmt.Sprintf(
			"new read keys %v are unverified (%s), and the policy %s blocks them until a preflight that runs the plugin succeeds for their configuration or their plugins report healthy on every node",
			unverified, strings.Join(details, "; "), BlockUnverifiedReadKeys)})
		return nil
	}
	for i, id := range unverified {
		v.Admitted = append(v.Admitted, admittedKey{KeyID: id, Preflight: unverifiedEvidence[i], Unverified: true})
	}
	return nil
}
