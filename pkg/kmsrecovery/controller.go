package kmsrecovery

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/management"
	"github.com/openshift/library-go/pkg/operator/resource/resourceapply"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/dynamic"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/internal/conditions"
	"github.com/kmsguard/kmsguard/internal/configmapdata"
	"github.com/kmsguard/kmsguard/internal/required"
	"github.com/kmsguard/kmsguard/pkg/etcdclient"
)

// DefaultInterval is how often the controller scans: each scan LISTs every object of every encrypted resource
// (in pages of DefaultPageSize), so it is not run on every operator status change.
const DefaultInterval = 10 * time.Minute

// EtcdProbeInterval is how often, after a scan that could read no stored value (Findings.EtcdUnreadable), the
// controller reads one again: a single etcd GET, which costs nothing while the credentials are unreadable. The
// first read that works brings the next scan forward, so that the condition follows an admin's deletion from a
// node (which also lets the credentials be written again) within seconds instead of an Interval.
const EtcdProbeInterval = 10 * time.Second

// Options configure a Controller. Raw, Interval and Clock are optional.
type Options struct {
	// OperatorClient carries the condition and spec.unsupportedConfigOverrides.kmsguard.confirmDataLoss.
	OperatorClient v1helpers.OperatorClient
	// Dynamic lists and deletes the encrypted resources; it needs list, get, delete and
	// unsafe-delete-ignore-read-errors on them (bindata.RecoveryClusterRole).
	Dynamic dynamic.Interface
	// Resources are the encrypted resources, as Resolve returns them.
	Resources []Resource
	// Raw tells the key each undecryptable object was written under (EtcdValues). Without it every
	// undecryptable object is under UnknownConsentID and is reported, never deleted: no consent can name it.
	Raw RawValueReader
	// KMS is what the plugins say now (KMSStateView of the operator's kmsstate controller). Without it a consent
	// is refused (KMSUnhealthy): nothing tells a lost key from an outage.
	KMS KMSView
	// ConfigMaps and Namespace say where the ConfigMap ConfigMapName goes (the operator's namespace). It is the
	// whole list, and a cache: the KMS encrypts it.
	ConfigMaps corev1client.ConfigMapsGetter
	Namespace  string
	// Record keeps the counts, the consent ids and the last deletion out of the KMS's reach (NewRecordStore on the
	// operator resource).
	Record *RecordStore
	// Caches are the names of kmsguard's own caches, ConfigMaps in Namespace (kmsguard.CacheConfigMapNames). They
	// hold no user data: one found undecryptable is deleted without a consent, and its owner starts it over.
	Caches   []string
	Recorder events.Recorder
	// Interval between scans; DefaultInterval when zero. A change of the consent scans at once.
	Interval time.Duration
	Clock    clock.PassiveClock
}

// Controller finds undecryptable objects, reports them, and deletes those of a key the admin declared lost.
// See the package documentation for its conditions and events.
type Controller struct {
	factory.Controller

	name    string
	options Options
	scanner *Scanner
	deleter *Deleter
	metrics *componentMetrics

	mu          sync.Mutex
	lastScan    time.Time
	lastConsent string
	lastManaged bool
	// probeKey is the etcd key of one object listed by a scan that could not read etcd; "" when the last scan
	// could, or listed nothing.
	probeKey string
	// deletion is the last deletion run of this process, deletionConsent the consent it ran with; recreated are
	// its deleted objects seen again since.
	deletion        *DeletionReport
	deletionConsent string
	recreated       sets.Set[ObjectRef]
	// recorded is the Record last stored (or read back), nil until one is known.
	recorded *Record
	// last is the verdict of the last condition the controller rendered.
	last verdict
}

// NewController builds the controller; run it with Run(ctx, 1) as any library-go controller. instanceName is
// the operator's controller instance name; conditions are applied with the field manager
// "<instanceName>-KMSRecovery". It fails when a required option is missing.
func NewController(instanceName string, opts Options) (*Controller, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if opts.Interval == 0 {
		opts.Interval = DefaultInterval
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	c := &Controller{
		name:      factory.ControllerInstanceName(instanceName, "KMSRecovery"),
		options:   opts,
		scanner:   &Scanner{Client: opts.Dynamic, Raw: opts.Raw},
		metrics:   newComponentMetrics(instanceName),
		recreated: sets.New[ObjectRef](),
	}
	c.deleter = &Deleter{Client: opts.Dynamic, Raw: opts.Raw, Resources: opts.Resources, Now: opts.Clock.Now}
	c.Controller = factory.New().
		WithSync(c.sync).
		WithControllerInstanceName(c.name).
		// Operator events bring a new consent in at once; the resync is cheap when no scan is due.
		WithInformers(opts.OperatorClient.Informer()).
		ResyncEvery(time.Minute).
		ToController(c.name, opts.Recorder.WithComponentSuffix("kms-recovery-controller"))
	return c, nil
}

// validate names the missing required options. No resource is refused too: a scan of nothing would report
// "no undecryptable objects" without having looked.
func (o Options) validate() error {
	return required.Options("recovery", map[string]bool{
		"OperatorClient": o.OperatorClient == nil, "Dynamic": o.Dynamic == nil, "Resources": len(o.Resources) == 0,
		"ConfigMaps": o.ConfigMaps == nil, "Namespace": o.Namespace == "", "Record": o.Record == nil, "Recorder": o.Recorder == nil,
	})
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) (err error) {
	defer conditions.ReportSync(ctx, c.options.OperatorClient, c.name, controllerName, &err)
	spec, status, _, err := c.options.OperatorClient.GetOperatorState()
	if err != nil {
		return fmt.Errorf("reading the operator state: %w", err)
	}
	consent, overrideErr := ConsentFromSpec(spec)
	if overrideErr != nil {
		klog.Warningf("%s: ignoring the override: %v", c.name, overrideErr)
	}

	// As library-go's encryption controllers: nothing is written or deleted unless the operator is Managed; the
	// scan and the condition go on.
	managed := management.IsOperatorManaged(spec.ManagementState)

	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.options.Clock.Now()
	if !c.lastScan.IsZero() && now.Sub(c.lastScan) < c.options.Interval && consent == c.lastConsent && managed == c.lastManaged &&
		!c.etcdReadsAgain(ctx, syncCtx) {
		return nil
	}
	// A failed sync is retried at once, not an Interval later: until one succeeds, KMSRecoveryControllerDegraded
	// must not be cleared by a sync that skips the scan.
	defer func() {
		if err != nil {
			c.lastScan = time.Time{}
		}
	}()

	// The condition is applied once, whatever happens below; nil leaves it as it is (a failed scan says
	// nothing new about the objects, and the error is returned to the factory, which logs and retries).
	var cond *operatorv1.OperatorCondition
	defer func() {
		if cond == nil {
			return
		}
		c.emitEvents(syncCtx.Recorder(), status.Conditions, *cond)
		if applyErr := c.applyCondition(ctx, *cond); applyErr != nil {
			err = errors.Join(err, applyErr)
		}
	}()

	findings, err := c.scan(ctx)
	if err != nil {
		return err
	}
	c.lastScan, c.lastConsent, c.lastManaged = now, consent, managed
	c.watchEtcdAccess(syncCtx, findings)
	if managed {
		findings = c.clearCaches(ctx, syncCtx.Recorder(), findings)
	}

	consented, consentErr := CheckConsent(ctx, findings, consent, c.options.KMS)
	if !managed && consentErr == nil && len(consented.Objects) > 0 {
		consentErr = &ConsentError{Why: ReasonNotManaged, Consent: consent, Found: findings.ConsentIDs(), Count: len(consented.Objects),
			Detail: fmt.Sprintf("spec.managementState is %s", spec.ManagementState)}
	}
	deletedNow := false
	if consentErr == nil && len(consented.Objects) > 0 {
		c.deleter.Recorder = syncCtx.Recorder()
		report := c.deleter.Delete(ctx, consented.Objects, consented.ConsentID, false)
		c.deletion, c.deletionConsent, c.recreated, deletedNow = report, consent, sets.New[ObjectRef](), true
		// The record first: a scan that fails next must not lose what was deleted. A record that cannot be
		// written (the KMS it is encrypted with is the one that failed) does not stop the condition, which
		// reports the deletion too, nor the events, one per deleted object.
		left := findings.Without(deletedRefs(report))
		deletionRecordErr := errors.Join(c.writeRecord(ctx, left, now), c.writeReport(ctx, syncCtx, left))
		// What is left, and proof that the LIST works again.
		if findings, err = c.scan(ctx); err != nil {
			// Scan again on the factory's retry, not an Interval later.
			c.lastScan = time.Time{}
			if deletionRecordErr != nil {
				return fmt.Errorf("scanning after deleting %d objects (not recorded in %s: %w; see the events): %w", report.Count(OutcomeDeleted), c.configMapRef(), deletionRecordErr, err)
			}
			return fmt.Errorf("scanning after deleting %d objects (recorded in %s): %w", report.Count(OutcomeDeleted), c.configMapRef(), err)
		}
		c.watchEtcdAccess(syncCtx, findings)
		_, consentErr = CheckConsent(ctx, findings, consent, c.options.KMS)
	}
	// What is left after any deletion: the count an alert sees is the one the condition reports.
	c.metrics.scanned(findings)
	var refusal *ConsentError
	if errors.As(consentErr, &refusal) && refusal.Why == ReasonConsentMismatch && c.deletion != nil && c.deletionConsent == consent {
		// The consent was used up by this process's deletion; what is left is under keys nobody consented to.
		refusal.Why, refusal.Consent = ReasonUndecryptableObjects, ""
	}
	if !managed {
		// Only reported: the ConfigMap waits for Managed too.
		c.last = verdict{Findings: findings, Consent: consent, ConsentErr: consentErr, Deletion: c.deletion, Recreated: c.recreated}
		result := c.condition(c.last)
		cond = &result
		return nil
	}
	// The condition depends on neither the Record nor the ConfigMap: it is applied whether they are written or not.
	lastingErr := c.writeRecord(ctx, findings, now)
	recordErr := c.writeReport(ctx, syncCtx, findings)
	c.last = verdict{Findings: findings, Consent: consent, ConsentErr: consentErr, Deletion: c.deletion, DeletedNow: deletedNow, Recreated: c.recreated, RecordErr: recordErr}
	result := c.condition(c.last)
	cond = &result
	if recordErr != nil {
		return errors.Join(lastingErr, fmt.Errorf("writing %s: %w", c.configMapRef(), recordErr))
	}
	return lastingErr
}

// watchEtcdAccess keeps one key of findings to probe when the scan could read no stored value, and schedules the
// first probe.
func (c *Controller) watchEtcdAccess(syncCtx factory.SyncContext, findings *Findings) {
	c.probeKey = ""
	objects := findings.Objects()
	if findings.EtcdUnreadable == "" || len(objects) == 0 {
		return
	}
	c.probeKey = objects[0].EtcdKey
	syncCtx.Queue().AddAfter(syncCtx.QueueKey(), EtcdProbeInterval)
}

// etcdReadsAgain says whether etcd can be read again after a scan that could not read it: any answer to the
// probe but a CredentialsError (the value, or NotFound once the admin deleted the object from a node). While it
// cannot, the probe is scheduled again.
func (c *Controller) etcdReadsAgain(ctx context.Context, syncCtx factory.SyncContext) bool {
	if c.probeKey == "" {
		return false
	}
	var credentials *etcdclient.CredentialsError
	if _, err := c.options.Raw.RawValue(ctx, c.probeKey); errors.As(err, &credentials) {
		syncCtx.Queue().AddAfter(syncCtx.QueueKey(), EtcdProbeInterval)
		return false
	}
	klog.V(2).Infof("%s: etcd reads again (probed %s); scanning now", c.name, c.probeKey)
	return true
}

// clearCaches deletes the undecryptable objects among findings that are kmsguard's own caches, and returns the
// findings without those it deleted. No consent is asked and the KMS is not consulted: a cache holds nothing that
// is not computed again, and during a mere outage deleting it loses only work.
func (c *Controller) clearCaches(ctx context.Context, recorder events.Recorder, findings *Findings) *Findings {
	caches := sets.New(c.options.Caches...)
	cleared := sets.New[ObjectRef]()
	for _, o := range findings.Objects() {
		if o.Resource != (schema.GroupResource{Resource: "configmaps"}) || o.Namespace != c.options.Namespace || !caches.Has(o.Name) {
			continue
		}
		// Its owner may have replaced it since the scan: a readable one is left alone.
		if _, err := c.options.ConfigMaps.ConfigMaps(o.Namespace).Get(ctx, o.Name, metav1.GetOptions{}); !apierrors.IsInternalError(err) {
			continue
		}
		why := fmt.Errorf("etcd key %s is stored under key %s", o.EtcdKey, o.ConsentID)
		if err := configmapdata.DeleteUnreadable(ctx, c.options.ConfigMaps, o.Namespace, o.Name, recorder, why); err != nil {
			klog.Warningf("%s: %v", c.name, err)
			continue
		}
		cleared.Insert(o.ObjectRef)
	}
	if cleared.Len() == 0 {
		return findings
	}
	return findings.Without(cleared)
}

// writeRecord stores the Record of findings and the last deletion when it changed. A deletion run by an earlier
// process stays in it until this one runs its own; nothing is stored while there is nothing to record.
func (c *Controller) writeRecord(ctx context.Context, findings *Findings, now time.Time) error {
	noneStored := false
	if c.recorded == nil {
		stored, found, err := c.options.Record.Load(ctx)
		switch {
		case err != nil:
			klog.Warningf("%s: the recovery record cannot be read, writing it afresh: %v", c.name, err)
		case found:
			c.recorded = &stored
		default:
			noneStored = true
		}
	}
	record := recordOf(findings, c.deletion, now)
	if c.deletion == nil && c.recorded != nil {
		record.LastDeletion = c.recorded.LastDeletion
	}
	nothing := record.Undecryptable == 0 && record.LastDeletion == nil
	if noneStored && nothing || c.recorded != nil && sameRecord(*c.recorded, record) {
		return nil
	}
	if err := c.options.Record.Save(ctx, record); err != nil {
		return fmt.Errorf("writing the recovery record: %w", err)
	}
	c.recorded = &record
	return nil
}

// writeReport writes the ConfigMap with findings and the last deletion, when there is anything to report. Its
// error is the API's, without the ConfigMap's name.
func (c *Controller) writeReport(ctx context.Context, syncCtx factory.SyncContext, findings *Findings) error {
	if findings.Count() == 0 && c.deletion == nil {
		return nil
	}
	cm, err := reportConfigMap(c.options.Namespace, findings, c.deletion)
	if err != nil {
		return err
	}
	_, _, err = resourceapply.ApplyConfigMap(ctx, c.options.ConfigMaps, syncCtx.Recorder(), cm)
	if err == nil {
		return nil
	}
	// The list itself was written under the lost key. It is what scans find again and holds no user data: it is
	// deleted without a consent and written afresh.
	deleted, deleteErr := configmapdata.DeleteIfUnreadable(ctx, c.options.ConfigMaps, cm.Namespace, cm.Name, syncCtx.Recorder(), err)
	if deleteErr != nil {
		return deleteErr
	}
	if deleted {
		_, _, err = resourceapply.ApplyConfigMap(ctx, c.options.ConfigMaps, syncCtx.Recorder(), cm)
	}
	return err
}

func deletedRefs(report *DeletionReport) sets.Set[ObjectRef] {
	refs := sets.New[ObjectRef]()
	for _, r := range report.Results {
		if r.Outcome == OutcomeDeleted {
			refs.Insert(r.ObjectRef)
		}
	}
	return refs
}

// scan scans the resources, tracking the objects of the last deletion to learn which came back.
func (c *Controller) scan(ctx context.Context) (*Findings, error) {
	track := sets.New[ObjectRef]()
	if c.deletion != nil {
		for _, r := range c.deletion.Results {
			if r.Outcome == OutcomeDeleted {
				track.Insert(r.ObjectRef)
			}
		}
	}
	findings, err := c.scanner.Scan(ctx, c.options.Resources, track)
	if err != nil {
		return nil, err
	}
	c.recreated = c.recreated.Union(findings.Tracked)
	return findings, nil
}

// emitEvents records transitions of the condition.
func (c *Controller) emitEvents(recorder events.Recorder, previous []operatorv1.OperatorCondition, cond operatorv1.OperatorCondition) {
	prev := v1helpers.FindOperatorCondition(previous, ConditionDegraded)
	wasTrue := prev != nil && prev.Status == operatorv1.ConditionTrue
	switch {
	case cond.Status == operatorv1.ConditionTrue && (!wasTrue || prev.Reason != cond.Reason):
		recorder.Warningf(EventUndecryptableObjects, "%s", cond.Message)
	case cond.Status == operatorv1.ConditionFalse && wasTrue:
		recorder.Eventf(EventRecovered, "%s", cond.Message)
	}
}

func (c *Controller) applyCondition(ctx context.Context, cond operatorv1.OperatorCondition) error {
	return conditions.Apply(ctx, c.options.OperatorClient, c.name, cond)
}
