package kmsrecovery

import (
	"context"
	"fmt"
	"time"

	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/utils/ptr"
)

// Outcome is what happened to one undecryptable object.
type Outcome string

const (
	// OutcomeDeleted: deleted with ignoreStoreReadErrorWithClusterBreakingPotential.
	OutcomeDeleted Outcome = "Deleted"
	// OutcomeWouldDelete: a dry run; the object is still undecryptable and would be deleted.
	OutcomeWouldDelete Outcome = "WouldDelete"
	// OutcomeReadable: the object reads again (its key came back, or it was replaced): recovered, not deleted.
	OutcomeReadable Outcome = "SkippedReadable"
	// OutcomeGone: the object no longer exists.
	OutcomeGone Outcome = "SkippedGone"
	// OutcomeOtherKey: the stored value is no longer under the consented key (it was rewritten since the scan).
	OutcomeOtherKey Outcome = "SkippedOtherKey"
	// OutcomeFailed: the delete failed (Error says why: RBAC, the feature gate, ...).
	OutcomeFailed Outcome = "Failed"
)

// Result is the outcome for one object.
type Result struct {
	Object
	Outcome Outcome `json:"outcome"`
	Error   string  `json:"error,omitempty"`
}

// DeletionReport is the final report of one deletion run.
type DeletionReport struct {
	// ConsentID is the consent id (Object.ConsentID) the run deleted under.
	ConsentID string    `json:"consentID"`
	DryRun    bool      `json:"dryRun"`
	Time      time.Time `json:"time"`
	Results   []Result  `json:"results"`
	// Stopped says why the run ended before trying every object (its context ended: Ctrl-C, a timeout), and
	// NotTried how many it left; the Results are exactly what was done.
	Stopped  string `json:"stopped,omitempty"`
	NotTried int    `json:"notTried,omitempty"`
}

// Count returns the number of results with outcome o.
func (r *DeletionReport) Count(o Outcome) int {
	n := 0
	for _, res := range r.Results {
		if res.Outcome == o {
			n++
		}
	}
	return n
}

// NotExpectedBack returns the deleted objects no operator is expected to recreate (ExpectRecreated).
func (r *DeletionReport) NotExpectedBack() []ObjectRef {
	var refs []ObjectRef
	for _, res := range r.Results {
		if res.Outcome == OutcomeDeleted && !res.OperatorManaged {
			refs = append(refs, res.ObjectRef)
		}
	}
	return refs
}

// String is the one-line summary of the run.
func (r *DeletionReport) String() string {
	verb := "deleted"
	n := r.Count(OutcomeDeleted)
	if r.DryRun {
		verb, n = "would delete", r.Count(OutcomeWouldDelete)
	}
	s := fmt.Sprintf("%s %d undecryptable objects stored under key %s (skipped: %d readable again, %d gone, %d under another key; failed: %d)",
		verb, n, r.ConsentID, r.Count(OutcomeReadable), r.Count(OutcomeGone), r.Count(OutcomeOtherKey), r.Count(OutcomeFailed))
	if r.Stopped != "" {
		s += fmt.Sprintf("; stopped (%s) with %d objects not tried", r.Stopped, r.NotTried)
	}
	return s
}

// Events of a deletion run: one per object, and the final report.
const (
	EventObjectDeleted        = "UndecryptableObjectDeleted"
	EventObjectSkipped        = "UndecryptableObjectSkipped"
	EventObjectDeletionFailed = "UndecryptableObjectDeletionFailed"
	EventDeletionFinished     = "UndecryptableObjectsDeleted"
)

// Deleter deletes undecryptable objects with KEP-3926's unsafe delete, one at a time. Its caller needs the
// verbs delete and unsafe-delete-ignore-read-errors on each resource (bindata.RecoveryClusterRole).
type Deleter struct {
	Client dynamic.Interface
	// Raw, when set, re-reads each stored value right before the delete and skips it unless it is still
	// stored under the consented key.
	Raw RawValueReader
	// Resources resolve an object's GroupResource to the version the dynamic client talks.
	Resources []Resource
	// Recorder, when set, gets an event per object and one for the final report.
	Recorder events.Recorder
	// OnResult, when set, is called with each result as soon as it is known, before the next object is tried:
	// `kmsguard recover` prints and records each deletion as it happens.
	OnResult func(Result)
	Now      func() time.Time
}

// objectTimeout bounds the requests for one object. They run without the caller's cancellation, so that a
// run stopped (Ctrl-C) while a DELETE is in flight knows whether that DELETE happened.
const objectTimeout = time.Minute

// Delete deletes those objects whose ConsentID is keyID, and only those: the caller has the admin's consent for
// keyID (CheckConsent). Objects under "unknown" or "identity" are never deleted, and without a RawValueReader
// nothing is: the stored key is re-read from etcd right before each delete. Each is re-checked right before its delete: an object that reads again is
// skipped (kube-apiserver would refuse the option for it anyway, and that refusal is handled the same way), an
// object that is gone is skipped, and with a RawValueReader an object whose value is no longer under keyID is
// skipped. A dry run re-checks and deletes nothing: kube-apiserver refuses dryRun together with
// ignoreStoreReadErrorWithClusterBreakingPotential, so no server-side dry run is possible.
//
// Delete stops early only when ctx ends, and then after the object in progress, whose requests run to their
// end (bounded by objectTimeout) so that the report says exactly what was deleted. A failed delete is
// recorded and the next object is tried.
func (d *Deleter) Delete(ctx context.Context, objects []Object, keyID string, dryRun bool) *DeletionReport {
	now := time.Now
	if d.Now != nil {
		now = d.Now
	}
	report := &DeletionReport{ConsentID: keyID, DryRun: dryRun, Time: now().UTC(), Results: []Result{}}
	versions := map[schema.GroupResource]schema.GroupVersionResource{}
	for _, r := range d.Resources {
		versions[r.GroupResource()] = r.GroupVersionResource
	}
	var mine []Object
	for _, o := range objects {
		if _, never := unprovable[o.ConsentID]; o.ConsentID == keyID && !never {
			mine = append(mine, o)
		}
	}
	for i, o := range mine {
		if ctx.Err() != nil {
			report.Stopped, report.NotTried = context.Cause(ctx).Error(), len(mine)-i
			break
		}
		result := Result{Object: o}
		objectCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), objectTimeout)
		result.Outcome, result.Error = d.deleteOne(objectCtx, versions, o, keyID, dryRun)
		cancel()
		d.record(result)
		report.Results = append(report.Results, result)
		if d.OnResult != nil {
			d.OnResult(result)
		}
	}
	if d.Recorder != nil && !dryRun {
		if report.Count(OutcomeFailed) > 0 {
			d.Recorder.Warningf(EventDeletionFinished, "%s", report)
		} else {
			d.Recorder.Eventf(EventDeletionFinished, "%s", report)
		}
	}
	return report
}

func (d *Deleter) deleteOne(ctx context.Context, versions map[schema.GroupResource]schema.GroupVersionResource, o Object, keyID string, dryRun bool) (Outcome, string) {
	gvr, ok := versions[o.Resource]
	if !ok {
		return OutcomeFailed, fmt.Sprintf("resource %s is not one of the deleter's resources", o.Resource)
	}
	client := d.Client.Resource(gvr).Namespace(o.Namespace)

	// A GET of an undecryptable object fails with a 500; one that succeeds means the object reads again.
	_, err := client.Get(ctx, o.Name, metav1.GetOptions{})
	switch {
	case err == nil:
		return OutcomeReadable, ""
	case apierrors.IsNotFound(err):
		return OutcomeGone, ""
	}
	if d.Raw == nil {
		return OutcomeFailed, "no etcd access to re-read the key the object is stored under"
	}
	stored, err := classify(ctx, d.Raw, o.EtcdKey)
	switch {
	case err != nil:
		return OutcomeFailed, err.Error()
	case stored.missing:
		return OutcomeGone, ""
	case stored.consentID() != keyID:
		return OutcomeOtherKey, fmt.Sprintf("now stored under key %s", stored.consentID())
	}
	if dryRun {
		return OutcomeWouldDelete, ""
	}
	// No precondition, grace period or propagation policy: kube-apiserver refuses each of them with the option.
	err = client.Delete(ctx, o.Name, metav1.DeleteOptions{IgnoreStoreReadErrorWithClusterBreakingPotential: ptr.To(true)})
	switch {
	case err == nil:
		return OutcomeDeleted, ""
	case apierrors.IsNotFound(err):
		return OutcomeGone, ""
	case isReadableRefusal(err):
		return OutcomeReadable, ""
	default:
		return OutcomeFailed, err.Error()
	}
}

// isReadableRefusal is kube-apiserver's 422 for the option on an object it can read
// (registry.corruptObjectDeleter): "is exclusively used to delete corrupt object(s)".
func isReadableRefusal(err error) bool {
	if !apierrors.IsInvalid(err) {
		return false
	}
	status, ok := err.(apierrors.APIStatus)
	if !ok || status.Status().Details == nil {
		return false
	}
	for _, c := range status.Status().Details.Causes {
		if c.Field == "ignoreStoreReadErrorWithClusterBreakingPotential" {
			return true
		}
	}
	return false
}

func (d *Deleter) record(r Result) {
	if d.Recorder == nil {
		return
	}
	switch r.Outcome {
	case OutcomeDeleted:
		d.Recorder.Warningf(EventObjectDeleted, "deleted undecryptable %s (etcd key %s, stored under key %s) with ignoreStoreReadErrorWithClusterBreakingPotential; its data was lost with the key",
			r.ObjectRef, r.EtcdKey, r.KEKID)
	case OutcomeFailed:
		d.Recorder.Warningf(EventObjectDeletionFailed, "deleting undecryptable %s (etcd key %s): %s", r.ObjectRef, r.EtcdKey, r.Error)
	case OutcomeWouldDelete:
		// A dry run writes nothing, events included.
	default:
		d.Recorder.Eventf(EventObjectSkipped, "not deleting %s (etcd key %s): %s %s", r.ObjectRef, r.EtcdKey, r.Outcome, r.Error)
	}
}
