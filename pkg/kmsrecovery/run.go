package kmsrecovery

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
)

// RunOutcome is how a run of the lost-key recovery flow (Run) ended.
type RunOutcome string

const (
	// RunClean: nothing is undecryptable (any more).
	RunClean RunOutcome = "Clean"
	// RunUndecryptableRemain: undecryptable objects remain: no consent, a dry run, or objects under keys the
	// consent does not name.
	RunUndecryptableRemain RunOutcome = "UndecryptableRemain"
	// RunRefused: the consent was refused (RunReport.Refusal says why) and nothing was deleted.
	RunRefused RunOutcome = "Refused"
	// RunFailed: a scan or a delete failed, or the run was stopped (RunReport.Err).
	RunFailed RunOutcome = "Failed"
)

// RunOptions are one run of the flow `kmsguard recover` runs: scan, check the consent, delete, scan again.
type RunOptions struct {
	Discovery discovery.DiscoveryInterface
	Dynamic   dynamic.Interface
	// Raw reads the stored values, to tell each object's key; nil leaves every key "unknown", which no consent
	// can name.
	Raw RawValueReader
	// KMS is what a consent is checked against (CheckConsent).
	KMS KMSView
	// Recorder, when set, gets one UndecryptableObjectsDeletedBatch event per batch of deletions.
	Recorder events.Recorder
	// Resources are scanned; those the server does not serve are skipped.
	Resources []schema.GroupResource
	// Consent names the lost key whose objects may be deleted, as Object.ConsentID lists it; empty for none.
	Consent  string
	DryRun   bool
	PageSize int64
	// Progress is the scans' progress callback (Scanner.Progress).
	Progress func(resource schema.GroupResource, readable, unreadable int)

	// OnFindings is called with the first scan's report before anything is deleted; OnResult with each
	// object as soon as it was tried; OnDeletion with the deletion's report before the scan after it, so that
	// the record of what was deleted is shown even when that scan fails or the process ends.
	OnFindings func(*RunReport)
	OnResult   func(Result)
	OnDeletion func(*RunReport)
}

// RunReport is what Run found and did.
type RunReport struct {
	Skipped []Skipped
	// Findings is the first scan.
	Findings *Findings
	// Refusal says why the consent was refused, when it was.
	Refusal *ConsentError
	// Deletion is what the deletion did; nil when nothing was tried.
	Deletion *DeletionReport
	// Remaining is the number of undecryptable objects the scan after a deletion found; nil without one.
	Remaining *int
	Outcome   RunOutcome
	// Err is why the outcome is RunFailed.
	Err error
}

// Run is the lost-key recovery flow outside the controller: it scans the resources for undecryptable objects,
// checks the consent by the rule the controller applies (CheckConsent), deletes the consented objects one at a
// time (Deleter), records them in batches, and scans again to count what is left. Each step's result reaches
// the callbacks as it happens; the report holds them all. An error before the first scan (discovery, no
// resource served) is returned; later errors are RunFailed with the report of what was done.
func Run(ctx context.Context, o RunOptions) (*RunReport, error) {
	resources, skipped, err := Resolve(o.Discovery, o.Resources)
	if err != nil {
		return nil, err
	}
	if len(resources) == 0 {
		names := make([]string, 0, len(o.Resources))
		for _, gr := range o.Resources {
			names = append(names, gr.String())
		}
		return nil, fmt.Errorf("the server serves none of %s", strings.Join(names, ", "))
	}
	report := &RunReport{Skipped: skipped}
	scanner := &Scanner{Client: o.Dynamic, Raw: o.Raw, PageSize: o.PageSize, Progress: o.Progress}
	findings, err := scanner.Scan(ctx, resources, nil)
	if err != nil {
		return nil, err
	}
	report.Findings = findings
	if o.OnFindings != nil {
		o.OnFindings(report)
	}
	if findings.Count() == 0 {
		report.Outcome = RunClean
		return report, nil
	}

	consented, err := CheckConsent(ctx, findings, o.Consent, o.KMS)
	if errors.As(err, &report.Refusal) {
		report.Outcome = RunRefused
		return report, nil
	}
	if err != nil {
		return report.failed(err), nil
	}

	batch := &BatchRecorder{Recorder: o.Recorder}
	deleter := &Deleter{Client: o.Dynamic, Raw: o.Raw, Resources: resources, OnResult: func(r Result) {
		if o.OnResult != nil {
			o.OnResult(r)
		}
		if !o.DryRun && o.Recorder != nil {
			batch.Add(r)
		}
	}}
	report.Deletion = deleter.Delete(ctx, consented.Objects, consented.ConsentID, o.DryRun)
	if o.Recorder != nil {
		batch.Flush()
	}
	if o.OnDeletion != nil {
		o.OnDeletion(report)
	}
	switch d := report.Deletion; {
	case d.Stopped != "":
		return report.failed(fmt.Errorf("stopped (%s): %d objects not tried", d.Stopped, d.NotTried)), nil
	case d.Count(OutcomeFailed) > 0:
		return report.failed(fmt.Errorf("%d deletes failed", d.Count(OutcomeFailed))), nil
	case o.DryRun:
		report.Outcome = RunUndecryptableRemain
		return report, nil
	}
	after, err := scanner.Scan(ctx, resources, nil)
	if err != nil {
		return report.failed(fmt.Errorf("scanning after the deletion (what was deleted is reported): %w", err)), nil
	}
	remaining := after.Count()
	report.Remaining = &remaining
	report.Outcome = RunClean
	if remaining > 0 {
		report.Outcome = RunUndecryptableRemain
	}
	return report, nil
}

func (r *RunReport) failed(err error) *RunReport {
	r.Outcome, r.Err = RunFailed, err
	return r
}
