package kmsmigration

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/management"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/kmsguard/kmsguard/internal/conditions"
	"github.com/kmsguard/kmsguard/internal/required"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// Conditions owned by the migration controller. The suffixes make
// library-go's status controllers roll them into the ClusterOperator.
const (
	ConditionProgressing = "KMSMigrationProgressing"
	ConditionDegraded    = "KMSMigrationDegraded"
)

// Condition reasons.
const (
	ReasonAsExpected    = conditions.ReasonAsExpected
	ReasonMigrating     = "Migrating"
	ReasonUndecryptable = "UndecryptableObjects"
	ReasonFailed        = "MigrationFailed"
	// PausedKMSUnhealthy and ErrorThresholdExceeded are the PauseReasons.
)

// Events.
const (
	EventRotationMigration = "KMSRotationMigrationStarted"
	EventPaused            = "KMSMigrationPaused"
	EventResumed           = "KMSMigrationResumed"
	EventFinished          = "KMSMigrationFinished"
	EventFailed            = "KMSMigrationFailed"
)

// controllerName names ConditionControllerDegraded.
const controllerName = "KMSMigration"

// ConditionControllerDegraded is True with the error while a sync fails (the operator state or the write keys
// cannot be read, a rotation migration cannot be started, the conditions cannot be applied), as library-go's
// encryption controllers report theirs; False once a sync succeeds. KMSMigrationDegraded says how the migrations
// went; this one says that the controller itself fails.
var ConditionControllerDegraded = conditions.ControllerDegradedType(controllerName)

// DefaultResync is how often the controller publishes progress.
const DefaultResync = 10 * time.Second

// RotationReader gives the latest completed KEK id rotation of a library-go KMS key;
// *kmsstate.Controller implements it (kmsstate.Reader).
type RotationReader interface {
	LatestRotation(keyID string) (kmsstate.Rotation, bool)
}

var _ RotationReader = (*kmsstate.Controller)(nil)

// ControllerOptions configure NewController. Migrator, OperatorClient and
// Recorder are required; without WriteKeys or Rotations no rotation
// migration is started.
type ControllerOptions struct {
	Migrator       *Migrator
	OperatorClient v1helpers.OperatorClient
	Recorder       events.Recorder
	WriteKeys      WriteKeysFunc
	// Rotations is kmsstate's controller.
	Rotations RotationReader
	Resync    time.Duration
}

// Controller publishes the Migrator's progress as conditions, events and
// metrics, and starts a migration after a KEK rotation.
//
// The rotation migration exists because library-go takes a key as migrated for
// good once its migrated-resources annotation lists every resource, and a KEK
// rotation keeps the key. hack/upstream/library-go/0007 (LG-7) makes library-go's
// migration controller migrate again under a new KEK id and record it on the key
// secret; with it, Rotations becomes a kms.KEKIDReader of the Deployer and this
// controller only publishes progress.
//
// # Conditions
//
//	situation                                   KMSMigrationProgressing        KMSMigrationDegraded
//	nothing running, last results clean         False AsExpected               False AsExpected
//	a migration running                         True  Migrating                False AsExpected
//	  ... paused, write key's plugin unhealthy  True  PausedKMSUnhealthy       False AsExpected
//	  ... paused, too many errors               True  ErrorThresholdExceeded   False AsExpected
//	finished or running with undecryptable      (as above)                     True  UndecryptableObjects
//	finished with objects not rewritten         (as above)                     True  MigrationFailed
//
// Degraded means an admin must act. A pause is not that: it ends by itself when the plugin is healthy again or
// the errors stop, and what made it is reported where an admin acts on it (kmsstate's KMSPluginsDegraded for the
// plugin; the apiserver's own conditions for its errors). Objects that cannot be decrypted and a migration that
// ended with objects not rewritten are.
//
// Progressing's message has one line per migration, e.g. "secrets
// 41200/50000 migrated (41000 rewritten, ...), 3 undecryptable".
//
// A sync that fails sets KMSMigrationControllerDegraded True with the error
// (reason Error), as library-go's encryption controllers report theirs, and
// leaves the conditions above as they were; the next successful sync sets
// it False AsExpected.
//
// # Management state
//
// As library-go's encryption controllers, the controller starts no
// migration unless spec.managementState is Managed
// (management.IsOperatorManaged): while Unmanaged or Removed it starts no
// rotation migration and keeps publishing the progress of those running
// (library-go's migration controller, which starts the others, stops on
// its own). Managed again, the next sync starts what a completed rotation
// still needs.
//
// # Key rotation
//
// A KMS key rotation changes the KEK id behind a library-go key
// without changing the key: library-go has already recorded its resources
// as migrated and never migrates them again, yet every object is still
// encrypted with a DEK from the old KEK id. When kmsstate reports a rotation
// completed (every plugin and every apiserver on the new KEK id) for the
// write key of a resource, and no migration of that resource started after
// the rotation completed, the controller starts one to Target{WriteKey,
// KEKID}. It never interrupts a running migration: one that started
// after the rotation covers it, one that started before is followed by a
// new one. After an operator restart kmsstate (with a ConfigMapMemory) still
// reports the last completed rotation; Ensure then finds the finished
// migration in its checkpoint, and nothing starts or is announced.
//
// A repeat migration is cheap: kube-apiserver marks a value stale only when
// it was written under another key or KEK id, and skips the write of a
// no-op update of a value that is not stale. Objects already under the new
// KEK id cost one PUT each and no etcd write.
type Controller struct {
	factory.Controller

	name    string
	options ControllerOptions
	// announced are the finished migrations an event was emitted for.
	announced map[schema.GroupResource]finishedMigration
	// rotationsMigrated are, per resource, the rotation targets this process has started (or found finished)
	// a migration for. The Migrator forgets a migration when library-go's migration controller prunes it (it
	// does when the desired write key changes, even to a key not rolled out yet), so its progress alone would
	// start the same rotation's migration again after every prune.
	rotationsMigrated map[schema.GroupResource]Target
}

// NewController returns the controller, to be run with library-go's
// factory.Controller Run. It fails when a required option is missing.
func NewController(instanceName string, options ControllerOptions) (*Controller, error) {
	if err := options.validate(); err != nil {
		return nil, err
	}
	if options.Resync <= 0 {
		options.Resync = DefaultResync
	}
	c := &Controller{
		name:      factory.ControllerInstanceName(instanceName, "KMSMigration"),
		options:   options,
		announced: map[schema.GroupResource]finishedMigration{},

		rotationsMigrated: map[schema.GroupResource]Target{},
	}
	c.Controller = factory.New().
		WithSync(c.sync).
		WithControllerInstanceName(c.name).
		// The Migrator wakes the controller when a migration finishes; the
		// resync publishes progress while one runs.
		WithInformers(options.OperatorClient.Informer(), options.Migrator).
		ResyncEvery(options.Resync).
		ToController(c.name, options.Recorder.WithComponentSuffix("kms-migration-controller"))
	return c, nil
}

func (o ControllerOptions) validate() error {
	return required.Options("kmsmigration", map[string]bool{
		"Migrator": o.Migrator == nil, "OperatorClient": o.OperatorClient == nil, "Recorder": o.Recorder == nil,
	})
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) (err error) {
	defer conditions.ReportSync(ctx, c.options.OperatorClient, c.name, controllerName, &err)
	spec, status, _, err := c.options.OperatorClient.GetOperatorState()
	if err != nil {
		return fmt.Errorf("reading the operator state: %w", err)
	}
	var rotationErr error
	if management.IsOperatorManaged(spec.ManagementState) {
		rotationErr = c.startRotationMigrations(ctx, syncCtx.Recorder())
	} else {
		klog.V(4).InfoS("no KMS key rotation migration is started: the operator is not Managed", "controller", c.name, "managementState", spec.ManagementState)
	}

	progress := c.options.Migrator.Progress()
	for _, p := range progress {
		if p.Running() {
			c.options.Migrator.metrics.update(p)
		}
	}
	conds := conditionsFor(progress)
	c.emitEvents(syncCtx.Recorder(), progress, status.Conditions, conds)
	applyErr := c.apply(ctx, conds)
	return errors.Join(rotationErr, applyErr)
}

// startRotationMigrations starts a migration for every resource whose write
// key's KEK id rotated after its last migration started.
func (c *Controller) startRotationMigrations(ctx context.Context, recorder events.Recorder) error {
	if c.options.WriteKeys == nil || c.options.Rotations == nil {
		return nil
	}
	writeKeys, err := c.options.WriteKeys(ctx)
	if err != nil {
		return fmt.Errorf("reading the write keys: %w", err)
	}
	latest := map[schema.GroupResource]Progress{}
	for _, p := range c.options.Migrator.Progress() {
		latest[p.Resource] = p
	}
	var errs []error
	for gr, keyID := range writeKeys {
		rotation, ok := c.options.Rotations.LatestRotation(keyID)
		if !ok || rotation.Completed.IsZero() {
			continue
		}
		p, known := latest[gr]
		if known && p.Running() {
			continue
		}
		target := Target{WriteKey: keyID, KEKID: rotation.To}
		if c.rotationsMigrated[gr] == target {
			continue
		}
		if known && (p.Target == target || (p.Target.WriteKey == keyID && !p.Started.Before(rotation.Completed))) {
			// Started for this rotation, or after it completed: either
			// wrote with the new KEK id, whatever its result. Failures
			// are retried by library-go or an admin's prune, not here,
			// so that two triggers never take turns stopping each other.
			continue
		}
		finished, _, _, err := c.options.Migrator.Ensure(gr, target)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.rotationsMigrated[gr] = target
		if !finished {
			// Finished means a previous process ran it: its checkpoint
			// says so, and kmsstate remembered the rotation.
			recorder.Eventf(EventRotationMigration, "migrating %s to %s: %s", gr, target, rotation)
		}
	}
	return errors.Join(errs...)
}

type migrationConditions struct {
	progressing, degraded operatorv1.OperatorCondition
}

// conditionsFor derives both conditions from the migrations. Each branch
// sets both on purpose.
func conditionsFor(progress []Progress) migrationConditions {
	c := migrationConditions{
		progressing: operatorv1.OperatorCondition{Type: ConditionProgressing, Status: operatorv1.ConditionFalse, Reason: ReasonAsExpected},
		degraded:    operatorv1.OperatorCondition{Type: ConditionDegraded, Status: operatorv1.ConditionFalse, Reason: ReasonAsExpected},
	}
	var running, finished, degraded []string
	degradedReason, pauseReason := "", ""
	setDegraded := func(reason, msg string) {
		// The first reason by severity wins; every message is kept.
		if degradedReason == "" || severity.MoreSevere(reason, degradedReason) {
			degradedReason = reason
		}
		degraded = append(degraded, msg)
	}
	for _, p := range progress {
		if p.Running() {
			running = append(running, fmt.Sprintf("%s to %s", p, p.Target))
			if p.Paused == PausedKMSUnhealthy || p.Paused == PausedErrorThreshold {
				if pauseReason == "" || pauseSeverity.MoreSevere(string(p.Paused), pauseReason) {
					pauseReason = string(p.Paused)
				}
			}
			if p.Counts.Undecryptable > 0 {
				setDegraded(ReasonUndecryptable, fmt.Sprintf("%s: %d objects cannot be decrypted (first: %s); they are not rewritten and keep the old read key in use", p.Resource, p.Counts.Undecryptable, strings.Join(p.UndecryptableKeys, ", ")))
			}
			continue
		}
		finished = append(finished, fmt.Sprintf("%s to %s finished %s", p, p.Target, p.Finished.UTC().Format(time.RFC3339)))
		var undecryptable *UndecryptableError
		var failed *FailedError
		if errors.As(p.Result, &undecryptable) {
			setDegraded(ReasonUndecryptable, fmt.Sprintf("%v; restore the key they were written under, or delete them with kmsguard recover", undecryptable))
		}
		if errors.As(p.Result, &failed) {
			setDegraded(ReasonFailed, fmt.Sprintf("%v; library-go retries the migration", failed))
		} else if p.Result != nil && undecryptable == nil && !errors.Is(p.Result, context.Canceled) {
			setDegraded(ReasonFailed, fmt.Sprintf("%s: %v", p.Resource, p.Result))
		}
	}
	if len(running) > 0 {
		c.progressing.Status, c.progressing.Reason = operatorv1.ConditionTrue, ReasonMigrating
		if pauseReason != "" {
			// Each paused line says why (Progress.String); the reason is the pause an admin may look into.
			c.progressing.Reason = pauseReason
		}
		c.progressing.Message = strings.Join(running, "\n")
	} else {
		c.progressing.Message = strings.Join(finished, "\n")
	}
	if degradedReason != "" {
		c.degraded.Status, c.degraded.Reason, c.degraded.Message = operatorv1.ConditionTrue, degradedReason, strings.Join(degraded, "\n")
	}
	return c
}

// severity orders the Degraded reasons: the one that needs the admin most
// urgently names the condition.
var severity = conditions.NewSeverity(ReasonUndecryptable, ReasonFailed)

// pauseSeverity orders the pauses that name KMSMigrationProgressing: the KMS before the apiserver's errors.
var pauseSeverity = conditions.NewSeverity(string(PausedKMSUnhealthy), string(PausedErrorThreshold))

// finishedMigration tells one finished migration of a resource from the
// next. The finish time alone does not: two migrations can end within one
// tick of a coarse clock, and a key rotation's migration follows the one
// before it at once.
type finishedMigration struct {
	target            Target
	started, finished time.Time
}

func (f finishedMigration) is(p Progress) bool {
	return f.target == p.Target && f.started.Equal(p.Started) && f.finished.Equal(p.Finished)
}

// pausedLines keeps the lines of a Progressing message that say a migration is paused.
func pausedLines(message string) string {
	var paused []string
	for _, line := range strings.Split(message, "\n") {
		if strings.Contains(line, "paused") {
			paused = append(paused, line)
		}
	}
	return strings.Join(paused, "\n")
}

func (c *Controller) emitEvents(recorder events.Recorder, progress []Progress, previous []operatorv1.OperatorCondition, conds migrationConditions) {
	prev := v1helpers.FindOperatorCondition(previous, ConditionProgressing)
	wasPaused := prev != nil && prev.Status == operatorv1.ConditionTrue && (prev.Reason == string(PausedKMSUnhealthy) || prev.Reason == string(PausedErrorThreshold))
	isPaused := conds.progressing.Reason == string(PausedKMSUnhealthy) || conds.progressing.Reason == string(PausedErrorThreshold)
	switch {
	case isPaused && (!wasPaused || prev.Reason != conds.progressing.Reason):
		recorder.Warningf(EventPaused, "%s", pausedLines(conds.progressing.Message))
	case wasPaused && !isPaused:
		recorder.Eventf(EventResumed, "KMS migration resumed")
	}
	for _, p := range progress {
		if p.Running() || p.Finished.IsZero() || c.announced[p.Resource].is(p) {
			continue
		}
		c.announced[p.Resource] = finishedMigration{target: p.Target, started: p.Started, finished: p.Finished}
		if p.Result != nil {
			recorder.Warningf(EventFailed, "migration of %s to %s finished with errors: %v", p.Resource, p.Target, p.Result)
		} else {
			recorder.Eventf(EventFinished, "migration of %s to %s finished: %s", p.Resource, p.Target, p.Counts)
		}
	}
}

func (c *Controller) apply(ctx context.Context, conds migrationConditions) error {
	if err := conditions.Apply(ctx, c.options.OperatorClient, c.name, conds.progressing, conds.degraded); err != nil {
		klog.Warningf("%s: applying conditions: %v", c.name, err)
		return err
	}
	return nil
}
