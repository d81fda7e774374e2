package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kmsguard/kmsguard/internal/cli"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
)

// recoverReport is the "report" line of `kmsguard recover -o json`: the scan, the consent and the deletion.
// With -o json every line is one JSON object whose "kind" says what it is: "deletion" per object as it is
// tried, then "report", then "end" with the exit code (and, after a deletion, what the scan after found).
type recoverReport struct {
	Kind    string                `json:"kind"`
	Skipped []kmsrecovery.Skipped `json:"skipped,omitempty"`
	// Found is the first scan.
	Found []kmsrecovery.ResourceFindings `json:"found"`
	// ConsentIDs are the keys undecryptable objects are stored under, as a consent names them.
	ConsentIDs []string `json:"consentIDs"`
	Consent    string   `json:"consent,omitempty"`
	DryRun     bool     `json:"dryRun"`
	// Refusal says why the consent was refused, when it was.
	Refusal  *refusalReport              `json:"refusal,omitempty"`
	Deletion *kmsrecovery.DeletionReport `json:"deletion,omitempty"`
	// NotExpectedBack are the deleted objects no operator is expected to recreate (kmsrecovery.ExpectRecreated).
	NotExpectedBack []kmsrecovery.ObjectRef `json:"notExpectedBack,omitempty"`
}

type refusalReport struct {
	Reason  kmsrecovery.Reason `json:"reason"`
	Message string             `json:"message"`
}

// deletionLine is one object tried, printed as it happens.
type deletionLine struct {
	Kind string `json:"kind"`
	kmsrecovery.Result
}

// endLine is the last line.
type endLine struct {
	Kind string `json:"kind"`
	// Remaining is the number of undecryptable objects the scan after the deletion found.
	Remaining *int   `json:"remaining,omitempty"`
	Error     string `json:"error,omitempty"`
	ExitCode  int    `json:"cli.ExitCode"`
}

// recoverPrinter writes the output of one run as it goes, text or JSON lines.
type recoverPrinter struct {
	out     io.Writer
	format  cli.OutputFormat
	consent string
	report  *recoverReport
	printed bool
}

func (o *recoverOptions) newPrinter(out io.Writer) *recoverPrinter {
	return &recoverPrinter{out: out, format: o.output, consent: o.consent}
}

func (p *recoverPrinter) line(v any) error { return p.format.PrintStream(p.out, v) }

// findings prints the first scan.
func (p *recoverPrinter) findings(report *recoverReport, findings *kmsrecovery.Findings) error {
	p.report = report
	if p.format.Structured() {
		return nil
	}
	for _, s := range report.Skipped {
		fmt.Fprintf(p.out, "skipped %s: %s\n", s.Resource, s.Reason)
	}
	for _, r := range report.Found {
		fmt.Fprintf(p.out, "%s: %d undecryptable of %d\n", r.Resource, len(r.Unreadable), len(r.Unreadable)+r.Readable)
	}
	if findings.Count() == 0 {
		_, err := fmt.Fprintln(p.out, "\nNothing is undecryptable.")
		return err
	}
	fmt.Fprintln(p.out)
	w := tabwriter.NewWriter(p.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "KEY\tRESOURCE\tOBJECT\tETCD KEY\tEXPECTED BACK")
	for _, obj := range findings.Objects() {
		name := obj.Name
		if obj.Namespace != "" {
			name = obj.Namespace + "/" + obj.Name
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%v\n", obj.ConsentID, obj.Resource, name, obj.EtcdKey, obj.OperatorManaged)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(p.out)
	return err
}

// refused prints why nothing is deleted.
func (p *recoverPrinter) refused(report *recoverReport, refusal *kmsrecovery.ConsentError) error {
	if p.format.Structured() {
		return p.flushReport()
	}
	var msg string
	switch refusal.Reason() {
	case kmsrecovery.ReasonUndecryptableObjects:
		provable := kmsrecovery.ProvableConsentIDs(report.ConsentIDs)
		if len(provable) == 0 {
			msg = "Nothing was deleted. No undecryptable object can be deleted by a consent: the key of each is unknown (run with\n" +
				"--etcd-* so that it is read from etcd) or it is corrupt plaintext."
			break
		}
		msg = fmt.Sprintf("Nothing was deleted. Unless the key can be restored in the KMS, the data of these objects is lost; to delete\n"+
			"the objects of a lost key, run again with --confirm-data-loss=<key> --dry-run=false (keys: %s).", strings.Join(provable, ", "))
	case kmsrecovery.ReasonConsentMismatch:
		msg = fmt.Sprintf("--confirm-data-loss=%s matches no undecryptable object; they are stored under %s. Nothing was deleted.",
			p.consent, strings.Join(report.ConsentIDs, ", "))
	default:
		msg = fmt.Sprintf("--confirm-data-loss refused (%s): %s.", refusal.Reason(), refusal)
	}
	_, err := fmt.Fprintln(p.out, msg)
	return err
}

// result prints one object as soon as it was tried. A write error is not returned: the deletion goes on and
// the exit code and the events still tell.
func (p *recoverPrinter) result(r kmsrecovery.Result) {
	if p.format.Structured() {
		_ = p.line(deletionLine{Kind: "deletion", Result: r})
		return
	}
	where := fmt.Sprintf("(etcd key %s, key %s)", r.EtcdKey, r.ConsentID)
	switch r.Outcome {
	case kmsrecovery.OutcomeDeleted:
		fmt.Fprintf(p.out, "deleted %s %s\n", r.ObjectRef, where)
	case kmsrecovery.OutcomeWouldDelete:
		fmt.Fprintf(p.out, "would delete %s %s\n", r.ObjectRef, where)
	case kmsrecovery.OutcomeFailed:
		fmt.Fprintf(p.out, "failed to delete %s %s: %s\n", r.ObjectRef, where, r.Error)
	default:
		fmt.Fprintf(p.out, "not deleted %s %s: %s %s\n", r.ObjectRef, where, r.Outcome, r.Error)
	}
}

// deletion prints the summary of the deletion run, from what it did.
func (p *recoverPrinter) deletion(report *recoverReport) error {
	if p.format.Structured() {
		return p.flushReport()
	}
	if report.DryRun {
		_, err := fmt.Fprintf(p.out, "\nDry run: %s. Run again with --dry-run=false to delete them.\n", report.Deletion)
		return err
	}
	fmt.Fprintf(p.out, "\n%s.\n", report.Deletion)
	if len(report.NotExpectedBack) > 0 {
		fmt.Fprintf(p.out, "Deleted objects no operator is expected to recreate (restore them from a backup or recreate them):\n")
		for _, ref := range report.NotExpectedBack {
			fmt.Fprintf(p.out, "  %s\n", ref)
		}
	}
	return nil
}

// end prints the last line and passes the exit code and error through.
func (p *recoverPrinter) end(code int, remaining *int, err error) (int, error) {
	if p.format.Structured() {
		if printErr := p.flushReport(); printErr != nil {
			return cli.ExitError, printErr
		}
		line := endLine{Kind: "end", Remaining: remaining, ExitCode: code}
		if err != nil {
			line.Error = err.Error()
		}
		if printErr := p.line(line); printErr != nil {
			return cli.ExitError, printErr
		}
		return code, err
	}
	if remaining != nil {
		fmt.Fprintf(p.out, "Undecryptable objects left: %d\n", *remaining)
	}
	return code, err
}

func (p *recoverPrinter) flushReport() error {
	if p.printed || p.report == nil {
		return nil
	}
	p.printed = true
	return p.line(p.report)
}

// scanProgress prints a line on stderr every interval while a scan runs, so that a scan of a large resource
// does not look hung; a scan shorter than one interval prints nothing.
type scanProgress struct {
	out      io.Writer
	interval time.Duration
	now      func() time.Time
	last     time.Time
}

func (o *recoverOptions) newScanProgress(out io.Writer) *scanProgress {
	p := &scanProgress{out: out, interval: o.progressInterval, now: o.progressNow}
	if p.now == nil {
		p.now = time.Now
	}
	if p.interval <= 0 {
		p.interval = plainProgressInterval
	}
	p.last = p.now()
	return p
}

func (p *scanProgress) report(gr schema.GroupResource, readable, unreadable int) {
	now := p.now()
	if now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	fmt.Fprintf(p.out, "scanning %s: %d objects listed, %d undecryptable so far\n", gr, readable+unreadable, unreadable)
}
