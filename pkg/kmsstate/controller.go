package kmsstate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/management"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/internal/conditions"
	"github.com/kmsguard/kmsguard/internal/required"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
)

// Operator conditions owned by the controller. Their suffixes make library-go's status controllers roll them
// into the ClusterOperator's Degraded and Progressing.
const (
	ConditionKMSPluginsDegraded        = "KMSPluginsDegraded"
	ConditionKMSPluginsProgressing     = "KMSPluginsProgressing"
	ConditionKMSKeyRotationProgressing = "KMSKeyRotationProgressing"
)

// Condition reasons beside the failure Reasons.
const (
	ReasonKMSNotConfigured      = "KMSNotConfigured"
	ReasonKeyRotationInProgress = "KeyRotationInProgress"
	// ReasonKeysPending: a KMS key is not yet in the revision some node runs, or a node that has just started to
	// run it has not reported it yet (KMSPluginsProgressing).
	ReasonKeysPending = "KeysPending"
	// ReasonNodeUnavailable: a node is down on purpose (cordoned, NotReady, its kube-apiserver pod missing,
	// Pending, terminating or just started), and its plugins' reports are missing or stale (KMSPluginsProgressing): a drain and
	// reboot of every control-plane node in an upgrade is no KMS fault.
	ReasonNodeUnavailable = "NodeUnavailable"
)

// controllerName names ConditionControllerDegraded.
const controllerName = "KMSState"

// ConditionControllerDegraded is True with the error while a sync fails (the nodes, keys or health reports
// cannot be read, a condition, the memory or the published state cannot be written), as library-go's encryption
// controllers report theirs; False once a sync succeeds. KMSPluginsDegraded says what is wrong with KMS; this one
// says that the controller cannot tell.
var ConditionControllerDegraded = conditions.ControllerDegradedType(controllerName)

// Event reasons. Events are emitted on transitions only: a fault that lasts an hour is two events, not 120.
const (
	EventPluginUnhealthy     = "KMSPluginUnhealthy"
	EventPluginRecovered     = "KMSPluginRecovered"
	EventKeyRotated          = "KMSKeyRotated"
	EventHealthReportRemoved = "KMSHealthReportRemoved"
	// EventMemoryDiscarded: the stored KEK id memory could not be decoded and was replaced.
	EventMemoryDiscarded = "KMSStateMemoryDiscarded"
)

// NodeLister lists the nodes that run a kube-apiserver of the current revision.
type NodeLister interface {
	Nodes(ctx context.Context) ([]string, error)
}

// KeyLister lists the KMS keys to watch: those of the deployed encryption config and those about to be rolled
// out, so that what is known of a key before a revision uses it reaches the rollout gate (kmsprecondition). A
// lister that could read only some of its sources returns the keys it read with an
// *IncompleteKeysError: the controller evaluates those, and its sync fails with the error afterwards.
type KeyLister interface {
	KMSKeys(ctx context.Context) (Keys, error)
}

// IncompleteKeysError says that a KeyLister could not read one of its sources (What), for example a store that
// the failing KMS itself encrypts. The keys returned with it are those of the sources it could read.
type IncompleteKeysError struct {
	What string
	Err  error
}

func (e *IncompleteKeysError) Error() string {
	return fmt.Sprintf("the KMS keys of %s are not known, evaluating the others: %v", e.What, e.Err)
}

func (e *IncompleteKeysError) Unwrap() error { return e.Err }

// Keys are the KMS keys in use: encryptionconfig.KMSKeysOf of each config in use, merged. IDs are the key ids
// (the <id> of kms-<id>.sock, encryptionconfig.KMSKeyID); Providers maps KMS provider names to key ids.
type Keys = encryptionconfig.KMSKeys

// RunningKeyLister lists, per node, the KMS keys of the revision that node's kube-apiserver runs
// (Observation.Running): the plugins that exist there.
type RunningKeyLister interface {
	RunningKMSKeys(ctx context.Context) (map[string][]string, error)
}

// RunningKeyListerFunc adapts a function to RunningKeyLister.
type RunningKeyListerFunc func(ctx context.Context) (map[string][]string, error)

// RunningKMSKeys calls f.
func (f RunningKeyListerFunc) RunningKMSKeys(ctx context.Context) (map[string][]string, error) {
	return f(ctx)
}

// APIServerProber asks every kube-apiserver for its own view of KMS (pkg/kmsstate/apiserverprobe). The
// controller calls it from a loop of its own, once per report interval, never from a sync: see
// probeAPIServers.
type APIServerProber interface {
	Probe(ctx context.Context) []APIServerView
}

// Options configure a Controller. OperatorClient, StatusProvider, Nodes, Keys and Recorder are required.
type Options struct {
	Config
	// OperatorClient applies the conditions to the operator resource.
	OperatorClient v1helpers.OperatorClient
	// StatusProvider reads the health reports and removes orphaned ones.
	StatusProvider kms.EncryptionStatusProvider
	Nodes          NodeLister
	Keys           KeyLister
	// Running is optional: with it, a key is expected only on the nodes whose running revision has it, and is
	// pending elsewhere (KMSPluginsProgressing, never Degraded). Without it every key is expected on every node.
	Running RunningKeyLister
	// APIServers is optional: without it the state comes from the plugins' health reports alone. With it, the
	// controller asks the apiservers every report interval from a loop of its own, started by Run.
	APIServers APIServerProber
	// Availability is optional: with it, a node that is down on purpose (a drain, a reboot, its operand pod
	// replaced) has its missing or stale reports in KMSPluginsProgressing (NodeUnavailable), not Degraded. Without
	// it every node is taken as available.
	Availability AvailabilityLister
	// Informers are the informers the listers of Availability read (StaticPodAvailability's nodes and pods): the
	// controller waits for them before its first sync, and syncs when they change.
	Informers []factory.Informer
	Recorder  events.Recorder
	// Memory is optional: with it, the KEK ids the nodes agreed on and the rotations in progress or
	// completed survive an operator restart (AnnotationMemory). Without it, a rotation that completes while
	// no operator runs is never reported.
	Memory MemoryStore
	// Publisher is optional: with it, each evaluation is published (ConfigMapPublisher) for
	// `kmsguard status` to show the operator's own verdict instead of evaluating again.
	Publisher StatePublisher
	// MaxStateAge bounds the age of the verdict the Reader methods answer with: an older evaluation is not
	// healthy (ReasonStateStale). Default: Config.StaleAfter(), 4 report intervals, the bound a health report
	// itself is held to: the controller evaluates at least every report interval (its resync), so missing four
	// in a row means its syncs fail or stopped, while one slow sync (apiserver probes time out) is no alarm.
	MaxStateAge time.Duration
	// Clock is for tests; the real clock by default.
	Clock clock.PassiveClock
}

// Controller turns health reports, the apiservers' own view and the active probes into the
// KMSPluginsDegraded and KMSKeyRotationProgressing conditions, events and metrics, and keeps the latest State
// for other packages to read.
//
// The conditions it sets, their reasons and when, are the package documentation's table (# Conditions).
type Controller struct {
	factory.Controller

	name    string
	options Options
	metrics *componentMetrics

	mu       sync.RWMutex
	memory   Memory
	state    *State
	failures map[failureKey]Failure
	// memoryLoaded says whether options.Memory has been read; saved is what was last written to it.
	memoryLoaded bool
	// memoryErr is why the stored Memory could not be read at the last sync (guarded by mu); the rotation
	// history waits for it (LatestRotation).
	memoryErr error
	saved     Memory
	// published is what was last given to options.Publisher.
	published *State

	// apiservers is the latest answer of options.APIServers; nil before the first.
	apiservers []APIServerView
	// kmsInUse says whether the last sync found a KMS key in use: the apiservers are asked only then.
	kmsInUse atomic.Bool
	// probeNow wakes runAPIServerProbes when a sync finds KMS in use and no answer of the apiservers yet.
	probeNow chan struct{}
}

// NewController builds the controller; run it with Run(ctx, 1) as any library-go controller. It fails when a
// required option is missing.
func NewController(instanceName string, opts Options) (*Controller, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	opts.Config = opts.Config.withDefaults()
	if opts.MaxStateAge <= 0 {
		opts.MaxStateAge = opts.Config.StaleAfter()
	}
	c := &Controller{
		name:     factory.ControllerInstanceName(instanceName, "KMSState"),
		options:  opts,
		metrics:  newComponentMetrics(instanceName),
		probeNow: make(chan struct{}, 1),
	}
	f := factory.New().
		WithSync(c.sync).
		WithControllerInstanceName(c.name).
		// Reporters write every interval and each write is an informer event; the resync covers
		// staleness, which no write announces.
		ResyncEvery(opts.ReportInterval).
		WithInformers(append([]factory.Informer{opts.OperatorClient.Informer()}, opts.Informers...)...)
	if opts.APIServers != nil {
		f = f.WithPostStartHooks(c.runAPIServerProbes)
	}
	c.Controller = f.ToController(c.name, opts.Recorder.WithComponentSuffix("kms-state-controller"))
	return c, nil
}

// runAPIServerProbes asks the apiservers every report interval, while a KMS key is in use, and queues a sync
// after each answer, until ctx ends.
//
// The apiservers are asked here rather than in sync because their answer can take as long as their own KMS
// calls: kube-apiserver's /healthz/kms-providers calls Status with the provider's timeout (10 s as library-go
// writes it) when the plugin hangs or the KMS is slow. Asked from sync, that delayed every verdict, those of
// the health reports included: the tour's kms-slow story was detected 14.3 s after the fault at a 5 s report
// interval. Now a sync takes the latest answer, however old, and an answer that comes late is a sync of its own.
func (c *Controller) runAPIServerProbes(ctx context.Context, syncCtx factory.SyncContext) error {
	ticker := time.NewTicker(c.options.ReportInterval)
	defer ticker.Stop()
	for {
		if c.kmsInUse.Load() {
			c.probeAPIServers(ctx)
			syncCtx.Queue().Add(syncCtx.QueueKey())
		}
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
		case <-c.probeNow:
		}
	}
}

// probeAPIServers asks the apiservers once and keeps their answer for the next sync.
func (c *Controller) probeAPIServers(ctx context.Context) {
	views := c.options.APIServers.Probe(ctx)
	c.mu.Lock()
	c.apiservers = views
	c.mu.Unlock()
}

func (o Options) validate() error {
	return required.Options("kmsstate", map[string]bool{
		"OperatorClient": o.OperatorClient == nil, "StatusProvider": o.StatusProvider == nil, "Nodes": o.Nodes == nil,
		"Keys": o.Keys == nil, "Recorder": o.Recorder == nil,
	})
}

// State returns the latest evaluation, or false before the first one finished.
func (c *Controller) State() (State, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.state == nil {
		return State{}, false
	}
	return *c.state, true
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) (err error) {
	defer conditions.ReportSync(ctx, c.options.OperatorClient, c.name, controllerName, &err)
	spec, _, _, err := c.options.OperatorClient.GetOperatorState()
	if err != nil {
		return fmt.Errorf("reading the operator state: %w", err)
	}
	// As library-go's encryption controllers: nothing but the conditions is written while the admin manages the
	// operand; the verdict is still evaluated and reported.
	managed := management.IsOperatorManaged(spec.ManagementState)
	obs, err := c.observe(ctx)
	var incomplete *IncompleteKeysError
	if err != nil && !errors.As(err, &incomplete) {
		return err
	}
	// Keys that could not be listed hold nothing up: the health of the others is evaluated and applied, and the
	// sync fails afterwards with what could not be read (KMSStateControllerDegraded).
	keysErr := err
	if len(obs.KeyIDs) == 0 {
		// Nothing to watch is a verdict too: keep it fresh, so that the Reader methods do not call it stale.
		empty := State{EvaluatedAt: obs.Now, Nodes: sets.List(sets.New(obs.Nodes...))}
		c.mu.Lock()
		c.state, c.memoryErr = &empty, nil
		c.mu.Unlock()
		// The plugin series of the keys that were in use go: KMS switched off must not leave an unhealthy
		// plugin, and its alert, behind.
		c.metrics.update(&empty, obs.Now)
		if managed {
			if err := c.publish(ctx, empty); err != nil {
				return errors.Join(keysErr, err)
			}
		}
		return errors.Join(keysErr, c.applyConditions(ctx,
			condition(ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, ReasonKMSNotConfigured, "no KMS key is in use"),
			condition(ConditionKMSPluginsProgressing, operatorv1.ConditionFalse, ReasonKMSNotConfigured, "no KMS key is in use"),
			condition(ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, ReasonKMSNotConfigured, "no KMS key is in use")))
	}

	// The memory is kept out of the KMS's reach (AnnotationMemory), but any store can fail to answer, and the
	// verdict matters most exactly when the apiservers struggle. So a memory that cannot be read does not hold
	// the verdict: plugin health does not depend on it, and is evaluated, reported and read as always. The memory is never
	// saved over, and is read again on the next sync, which replaces what was learnt meanwhile by the stored
	// memory; until then no rotation is reported as completed (events, metrics, LatestRotation), since this
	// process cannot know where it came from.
	memoryErr := c.loadMemory(ctx, syncCtx.Recorder())
	c.mu.Lock()
	state, memory := Evaluate(c.options.Config, c.memory, obs)
	c.memory, c.state, c.memoryErr = memory, &state, memoryErr
	previous := c.failures
	c.failures = failureSet(state.Failures)
	c.mu.Unlock()
	reported := state
	if memoryErr != nil {
		// A rotation seen to complete without the memory is reported once the memory is read, from where the
		// memory left it: reporting it now too would count it twice, once from an unknown KEK id.
		reported.Completed = nil
	}

	for _, ignored := range state.Ignored {
		klog.V(2).InfoS("kmsstate ignored an input", "controller", c.name, "input", ignored.What, "reason", ignored.Why)
	}
	c.emitEvents(syncCtx.Recorder(), previous, c.failures, reported)
	c.metrics.update(&reported, obs.Now)
	degraded := condition(ConditionKMSPluginsDegraded, operatorv1.ConditionFalse, ReasonAsExpected, "")
	if isDegraded, reason, message := state.Degraded(); isDegraded {
		degraded = condition(ConditionKMSPluginsDegraded, operatorv1.ConditionTrue, string(reason), message)
	}
	pending := condition(ConditionKMSPluginsProgressing, operatorv1.ConditionFalse, ReasonAsExpected, "")
	if isPending, reason, message := state.Progressing(); isPending {
		pending = condition(ConditionKMSPluginsProgressing, operatorv1.ConditionTrue, reason, message)
	}
	rotating := condition(ConditionKMSKeyRotationProgressing, operatorv1.ConditionFalse, ReasonAsExpected, lastRotationMessage(state))
	if len(state.Rotations) > 0 {
		rotating = condition(ConditionKMSKeyRotationProgressing, operatorv1.ConditionTrue, ReasonKeyRotationInProgress, rotationMessage(state.Rotations))
	}
	// The conditions first: they depend on nothing written below, and the published State is a ConfigMap the
	// KMS encrypts, which may take its time to fail.
	if err := c.applyConditions(ctx, degraded, pending, rotating); err != nil {
		return errors.Join(keysErr, memoryErr, err)
	}
	var cleanupErr, saveErr error
	if managed {
		cleanupErr = c.removeOrphans(ctx, syncCtx.Recorder(), obs.Reports, state.Orphans)
		if memoryErr == nil {
			saveErr = c.saveMemory(ctx, memory)
		}
		saveErr = errors.Join(saveErr, c.publish(ctx, state))
	} else if len(state.Orphans) > 0 {
		klog.V(2).InfoS("kmsstate left orphaned health reports: the operator is not Managed", "controller", c.name, "managementState", spec.ManagementState, "orphans", len(state.Orphans))
	}
	return errors.Join(keysErr, memoryErr, cleanupErr, saveErr)
}

// memoryDiscardedMessage is the message of EventMemoryDiscarded for err, the load of a stored Memory that cannot
// be decoded (a *CorruptMemoryError).
func memoryDiscardedMessage(err error) string {
	return fmt.Sprintf("%v; starting afresh: a KEK id rotation completed while no operator ran will not be reported", err)
}

// loadMemory reads the stored Memory until it has been read once. A store that cannot be read is tried again
// on the next sync (see sync); one that cannot be decoded is replaced by a fresh start, with a warning: a zero
// Memory only forgets where a rotation came from (it reports one from an unknown KEK id), and refusing would
// stop every KMS condition for the sake of a lost KEK id.
func (c *Controller) loadMemory(ctx context.Context, recorder events.Recorder) error {
	if c.memoryLoaded || c.options.Memory == nil {
		return nil
	}
	memory, err := c.options.Memory.Load(ctx)
	var corrupt *CorruptMemoryError
	switch {
	case errors.As(err, &corrupt):
		recorder.Warningf(EventMemoryDiscarded, "%s", memoryDiscardedMessage(err))
		memory = Memory{}
	case err != nil:
		return fmt.Errorf("loading the KMS KEK id memory: %w", err)
	}
	c.mu.Lock()
	c.memory, c.saved, c.memoryLoaded = memory, memory, true
	c.mu.Unlock()
	return nil
}

// saveMemory writes memory when what a MemoryStore keeps of it changed; a failed write is tried again on the
// next sync.
func (c *Controller) saveMemory(ctx context.Context, memory Memory) error {
	if c.options.Memory == nil || sameStored(memory, c.saved) {
		return nil
	}
	if err := c.options.Memory.Save(ctx, memory); err != nil {
		return fmt.Errorf("saving the KMS KEK id memory: %w", err)
	}
	c.saved = memory
	return nil
}

// observe gathers an Observation. With an *IncompleteKeysError it still returns the observation of the keys that
// were listed.
func (c *Controller) observe(ctx context.Context) (Observation, error) {
	obs := Observation{Now: c.options.Clock.Now()}
	nodes, err := c.options.Nodes.Nodes(ctx)
	if err != nil {
		return obs, fmt.Errorf("listing nodes: %w", err)
	}
	keys, keysErr := c.options.Keys.KMSKeys(ctx)
	var incomplete *IncompleteKeysError
	if keysErr != nil && !errors.As(keysErr, &incomplete) {
		return obs, fmt.Errorf("listing KMS keys: %w", keysErr)
	}
	status, err := c.options.StatusProvider.GetKMSEncryptionStatus(ctx)
	if err != nil {
		return obs, fmt.Errorf("reading KMS health reports: %w", err)
	}
	obs.Nodes, obs.KeyIDs, obs.Providers = nodes, keys.IDs, keys.Providers
	if c.options.Running != nil && len(keys.IDs) > 0 {
		if obs.Running, err = c.options.Running.RunningKMSKeys(ctx); err != nil {
			return obs, fmt.Errorf("listing the KMS keys each node runs: %w", err)
		}
		if obs.Running == nil {
			// Nil would expect every key everywhere; the lister answered, and no node runs a key.
			obs.Running = map[string][]string{}
		}
	}
	if status != nil {
		obs.Reports = status.HealthReports
	}
	if c.options.Availability != nil && len(keys.IDs) > 0 {
		if obs.Availability, err = c.options.Availability.NodeAvailability(ctx); err != nil {
			return obs, fmt.Errorf("reading whether the nodes are available: %w", err)
		}
	}
	inUse := len(keys.IDs) > 0
	c.kmsInUse.Store(inUse)
	c.mu.Lock()
	if !inUse {
		// Views of an earlier KMS must not judge the next one.
		c.apiservers = nil
	}
	obs.APIServers = c.apiservers
	c.mu.Unlock()
	if inUse && obs.APIServers == nil && c.options.APIServers != nil {
		// KMS has just come into use, or the controller has just started: ask now, not an interval later.
		select {
		case c.probeNow <- struct{}{}:
		default:
		}
	}
	// An incomplete key list comes back with the observation of the keys that were listed.
	return obs, keysErr
}

func condition(conditionType string, status operatorv1.ConditionStatus, reason, message string) *applyoperatorv1.OperatorConditionApplyConfiguration {
	return conditions.ToApply(conditions.New(conditionType, status, reason, message))
}

func (c *Controller) applyConditions(ctx context.Context, conditions ...*applyoperatorv1.OperatorConditionApplyConfiguration) error {
	return c.options.OperatorClient.ApplyOperatorStatus(ctx, c.name, applyoperatorv1.OperatorStatus().WithConditions(conditions...))
}

func rotationMessage(rotations []Rotation) string {
	parts := make([]string, 0, len(rotations))
	for _, r := range rotations {
		s := r.String()
		if len(r.Pending) > 0 {
			s += fmt.Sprintf(" (waiting for %s)", strings.Join(r.Pending, ", "))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func lastRotationMessage(state State) string {
	var parts []string
	for _, key := range state.KeyIDs {
		if r, ok := state.LastCompleted[key]; ok {
			parts = append(parts, fmt.Sprintf("%s, completed %s", r, r.Completed.UTC().Format(time.RFC3339)))
		}
	}
	return strings.Join(parts, "; ")
}
