package evidence

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/v1helpers"

	"github.com/kmsguard/kmsguard/internal/conditions"
	"github.com/kmsguard/kmsguard/internal/required"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// ConditionVerified is True only when a census of etcd found every object of
// every encrypted resource stored under its current write key.
const ConditionVerified = "KMSEncryptionVerified"

// Verified condition reasons.
const (
	ReasonVerified        = "AllUnderWriteKey"
	ReasonNotVerified     = "NotAllUnderWriteKey"
	ReasonCensusFailed    = "CensusFailed"
	ReasonNothingToVerify = "NoEncryptedResources"
	// ReasonCensusDeadlineExceeded: the census did not finish within CensusControllerOptions.Timeout (etcd hangs or
	// is too slow): nothing is known.
	ReasonCensusDeadlineExceeded = "CensusDeadlineExceeded"
)

// censusControllerName names ConditionCensusControllerDegraded.
const censusControllerName = "KMSEncryptionCensus"

// ConditionCensusControllerDegraded is True with the error while a sync fails (the write keys or etcd
// cannot be read, the census times out, the condition cannot be applied), as library-go's encryption controllers
// report theirs; False once a sync succeeds.
var ConditionCensusControllerDegraded = conditions.ControllerDegradedType(censusControllerName)

// DefaultCensusInterval is how often a census is taken when nothing happens.
// A census reads every key and value of the encrypted resources (tens of
// thousands of keys per second), so it runs rarely, and in addition each
// time a migration finishes.
const DefaultCensusInterval = 30 * time.Minute

// DefaultCensusTimeout bounds one census, the write keys and every resource. etcd is read at tens of thousands of
// keys per second, so a census of a million objects takes about a minute; ten minutes means etcd hangs or the
// connection is gone, and the condition must say so instead of keeping the last answer forever.
const DefaultCensusTimeout = 10 * time.Minute

// Target is one group of resources a census counts, with the write key they
// must be stored under.
type Target struct {
	Resources []Resource
	WriteKey  WriteKey
}

// TargetsFunc returns what to count now: the encrypted resources and
// their write keys. For KMS v2 the write key's KeyID is the KEK id its
// plugin reports (kmsstate's settled KEK id), which is what the apiserver
// records in each value. TargetsFromConfig builds it from the deployed
// encryption config.
type TargetsFunc func(ctx context.Context) ([]Target, error)

// CensusControllerOptions configure NewCensusController. Census, Targets,
// OperatorClient and Recorder are required.
type CensusControllerOptions struct {
	Census *Census
	// Targets is TargetsFromConfig in an operator.
	Targets        TargetsFunc
	OperatorClient v1helpers.OperatorClient
	Recorder       events.Recorder
	// Migrator (*kmsmigration.Migrator), when set, triggers a census each
	// time a migration finishes, and is where MigrationFinished is read when
	// that is nil.
	Migrator MigrationSource
	// MigrationFinished says when the latest migration of a resource
	// finished, for the rollout gate's rollback window
	// (ReadKeyEvidence); MigratedTimestamps reads library-go's record.
	MigrationFinished MigrationFinishedFunc
	Interval          time.Duration
	// Timeout bounds each census; DefaultCensusTimeout when zero.
	Timeout time.Duration
}

// CensusController takes a census of etcd with its Census and publishes
// KMSEncryptionVerified:
//
//	situation                                      KMSEncryptionVerified
//	every value under its resource's write key     True  AllUnderWriteKey
//	values under other keys, plaintext or corrupt  False NotAllUnderWriteKey (counts and first keys)
//	etcd or the write keys cannot be read          Unknown CensusFailed (the error)
//	the census did not finish within Timeout       Unknown CensusDeadlineExceeded
//	nothing encrypted                              False NoEncryptedResources
//	kmsstate has not evaluated yet (the operator   unchanged: a wait, not a failure; the census
//	  just started), so no KEK id is known           is taken again a few seconds later
//
// The controller syncs only once the operator resource's informer has synced: it reads the latest available
// revision there, and a cache that has not filled yet would read as a resource that does not exist. It is not
// triggered by the operator resource's changes, only by its interval and the migrations that finish: a census
// reads all of etcd.
//
// A sync that fails also sets KMSEncryptionCensusControllerDegraded
// True with the error (reason Error), as library-go's encryption
// controllers report theirs; the next successful sync sets it False
// AsExpected. KMSEncryptionVerified Unknown says what is not known; the
// ControllerDegraded condition makes a failing census count in the
// ClusterOperator's Degraded.
//
// The reports of the last successful census are kept for the pruning rule
// (CanDropReadKey): the rollout gate reads them through
// ReadKeyEvidence. A failed census keeps the previous reports: they still
// describe etcd at the time they were made, and the rule only accepts a
// report made after the migration finished.
//
// The controller does not look at spec.managementState: it only reads etcd
// and the write keys, and writes nothing but its own conditions, which
// library-go's controllers report whatever the management state. An
// Unmanaged operator still wants to know whether its data is where it
// should be.
type CensusController struct {
	factory.Controller

	name    string
	options CensusControllerOptions
	metrics *componentMetrics

	lock   sync.Mutex
	report []*Report
}

// NewCensusController returns the controller. It fails when a
// required option is missing.
func NewCensusController(instanceName string, options CensusControllerOptions) (*CensusController, error) {
	if err := options.validate(); err != nil {
		return nil, err
	}
	if options.Interval <= 0 {
		options.Interval = DefaultCensusInterval
	}
	if options.Timeout <= 0 {
		options.Timeout = DefaultCensusTimeout
	}
	if options.MigrationFinished == nil && options.Migrator != nil {
		options.MigrationFinished = options.Migrator.LastFinished
	}
	c := &CensusController{name: factory.ControllerInstanceName(instanceName, "KMSEncryptionCensus"), options: options, metrics: newComponentMetrics(instanceName)}
	f := factory.New().
		WithSync(c.sync).
		WithControllerInstanceName(c.name).
		ResyncEvery(options.Interval)
	if options.Migrator != nil {
		f = f.WithInformers(options.Migrator)
	}
	f = f.WithBareInformers(options.OperatorClient.Informer())
	c.Controller = f.ToController(c.name, options.Recorder.WithComponentSuffix("kms-encryption-census-controller"))
	return c, nil
}

func (o CensusControllerOptions) validate() error {
	return required.Options("evidence: CensusController", map[string]bool{
		"Census": o.Census == nil, "Targets": o.Targets == nil, "OperatorClient": o.OperatorClient == nil,
		"Recorder": o.Recorder == nil,
	})
}

// Reports returns the reports of the last successful census, one per target.
func (c *CensusController) Reports() []*Report {
	c.lock.Lock()
	defer c.lock.Unlock()
	return append([]*Report(nil), c.report...)
}

// notEvaluatedRetry is how soon a census is tried again when kmsstate had not evaluated yet (it does within seconds
// of the operator's start).
var notEvaluatedRetry = 5 * time.Second

func (c *CensusController) sync(ctx context.Context, syncCtx factory.SyncContext) (err error) {
	defer conditions.ReportSync(ctx, c.options.OperatorClient, c.name, censusControllerName, &err)
	cond, reports, censusErr := c.takeCensus(ctx)
	if notEvaluatedYet(censusErr) {
		// A restarted operator: the previous process's KMSEncryptionVerified still says what it proved, and the
		// KEK id to count against is known as soon as kmsstate has evaluated once.
		syncCtx.Queue().AddAfter(syncCtx.QueueKey(), notEvaluatedRetry)
		return nil
	}
	if censusErr == nil {
		c.lock.Lock()
		c.report = reports
		c.lock.Unlock()
	}
	c.metrics.verified(cond.Reason, censusErr == nil, reports)
	_, status, _, err := c.options.OperatorClient.GetOperatorState()
	if err != nil {
		return err
	}
	if prev := v1helpers.FindOperatorCondition(status.Conditions, ConditionVerified); prev == nil || prev.Status != cond.Status {
		if cond.Status == operatorv1.ConditionTrue {
			syncCtx.Recorder().Eventf("KMSEncryptionVerified", "%s", cond.Message)
		} else {
			syncCtx.Recorder().Warningf("KMSEncryptionNotVerified", "%s", cond.Message)
		}
	}
	applyErr := conditions.Apply(ctx, c.options.OperatorClient, c.name, cond)
	return errors.Join(censusErr, applyErr)
}

func (c *CensusController) takeCensus(ctx context.Context) (operatorv1.OperatorCondition, []*Report, error) {
	ctx, cancel := context.WithTimeout(ctx, c.options.Timeout)
	defer cancel()
	cond := operatorv1.OperatorCondition{Type: ConditionVerified}
	unknown := func(what string, err error) (operatorv1.OperatorCondition, []*Report, error) {
		cond.Status, cond.Reason, cond.Message = operatorv1.ConditionUnknown, ReasonCensusFailed, fmt.Sprintf("%s: %v", what, err)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			cond.Reason = ReasonCensusDeadlineExceeded
			cond.Message = fmt.Sprintf("the census did not finish within %s: %s: %v", c.options.Timeout, what, err)
		}
		return cond, nil, err
	}
	targets, err := c.options.Targets(ctx)
	if err != nil {
		return unknown("reading the write keys", err)
	}
	if len(targets) == 0 {
		cond.Status, cond.Reason, cond.Message = operatorv1.ConditionFalse, ReasonNothingToVerify, "no resource is encrypted"
		return cond, nil, nil
	}
	var reports []*Report
	var lines []string
	verified := true
	for _, target := range targets {
		report, err := c.options.Census.Take(ctx, target.Resources, target.WriteKey)
		if err != nil {
			return unknown("taking the census of etcd", err)
		}
		reports = append(reports, report)
		verified = verified && report.Verified()
		for i := range report.Resources {
			lines = append(lines, describeResource(&report.Resources[i], target.WriteKey))
		}
	}
	cond.Message = strings.Join(lines, "\n")
	if verified {
		cond.Status, cond.Reason = operatorv1.ConditionTrue, ReasonVerified
	} else {
		cond.Status, cond.Reason = operatorv1.ConditionFalse, ReasonNotVerified
	}
	return cond, reports, nil
}

// notEvaluatedYet says whether err is only kmsstate not having evaluated yet, which the census waits out.
func notEvaluatedYet(err error) bool {
	var unhealthy *kmsstate.UnhealthyError
	if !errors.As(err, &unhealthy) {
		return false
	}
	for _, f := range unhealthy.Failures {
		if f.Reason != kmsstate.ReasonStateNotEvaluated {
			return false
		}
	}
	return len(unhealthy.Failures) > 0
}

func describeResource(r *ResourceReport, want WriteKey) string {
	msg := fmt.Sprintf("%s: %d/%d under %s", r.Resource, r.UnderWriteKey, r.Total, want)
	if r.NotUnderWriteKey > 0 {
		msg += fmt.Sprintf(", %d under other keys (first: %s)", r.NotUnderWriteKey, strings.Join(r.NotUnderWriteKeyListed[:min(len(r.NotUnderWriteKeyListed), 5)], ", "))
	}
	if r.Corrupt > 0 {
		msg += fmt.Sprintf(", %d unparsable", r.Corrupt)
	}
	if n := r.SampleFailures(); n > 0 {
		msg += fmt.Sprintf(", %d of %d sampled objects failed to read through the API", n, len(r.Samples))
	}
	return msg
}
