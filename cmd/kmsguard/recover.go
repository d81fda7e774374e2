package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback/recovery"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// Exit codes of kmsguard recover, for scripts. 0-3 keep their meaning from earlier releases.
const (
	// recoverExitOK: nothing is undecryptable (any more).
	recoverExitOK = 0
	// recoverExitError: the scan, a delete or the scan after the deletion failed, or the run timed out.
	recoverExitError = 1
	// recoverExitUndecryptable: undecryptable objects remain: no consent, a dry run, or objects under keys the
	// consent does not name.
	recoverExitUndecryptable = 2
	// recoverExitConsentMismatch: --confirm-data-loss names no key of the undecryptable objects, or a bare KEK
	// id that several KMS providers have (name <provider>:<KEK id>).
	recoverExitConsentMismatch = 3
	// recoverExitConsentUnprovable: --confirm-data-loss names "unknown" or "identity": etcd shows no lost key.
	recoverExitConsentUnprovable = 4
	// recoverExitConsentNamesCurrentKey: --confirm-data-loss names a KEK id a plugin serves or kmsstate knows as
	// current.
	recoverExitConsentNamesCurrentKey = 5
	// recoverExitKMSUnhealthy: the plugins of the current keys are not healthy, or their health cannot be read.
	recoverExitKMSUnhealthy = 6
	// recoverExitInterrupted: stopped by Ctrl-C (SIGINT) or SIGTERM after the delete in flight; what was
	// deleted is printed.
	recoverExitInterrupted = 130
)

// exitCodes maps the consent refusals to exit codes.
var exitCodes = map[recovery.Reason]int{
	recovery.ReasonUndecryptableObjects:   recoverExitUndecryptable,
	recovery.ReasonConsentMismatch:        recoverExitConsentMismatch,
	recovery.ReasonConsentAmbiguous:       recoverExitConsentMismatch,
	recovery.ReasonConsentUnprovable:      recoverExitConsentUnprovable,
	recovery.ReasonConsentNamesCurrentKey: recoverExitConsentNamesCurrentKey,
	recovery.ReasonKMSUnhealthy:           recoverExitKMSUnhealthy,
}

// errInterrupted is the cause of the run's context when a signal stops it.
var errInterrupted = errors.New("interrupted")

type recoverOptions struct {
	kubeconfig     string
	operator       string
	resources      []string
	consent        string
	dryRun         bool
	output         string
	pageSize       int64
	timeout        time.Duration
	reportInterval time.Duration
	etcd           etcdclient.Config
	// progressInterval is how often a scan reports progress on stderr, plainProgressInterval when zero;
	// progressNow is the clock it reads, time.Now when nil (tests step it).
	progressInterval time.Duration
	progressNow      func() time.Time
}

// recoverClients are what run talks to. kms and recorder are used only once a consent has to be checked and
// objects deleted.
type recoverClients struct {
	discovery discovery.DiscoveryInterface
	dynamic   dynamic.Interface
	raw       recovery.RawValueReader
	kms       recovery.KMSView
	recorder  events.Recorder
}

func newRecoverCommand() *cobra.Command {
	o := &recoverOptions{}
	defaults := make([]string, 0, len(recovery.DefaultResources))
	for _, gr := range recovery.DefaultResources {
		defaults = append(defaults, gr.String())
	}
	cmd := &cobra.Command{
		Use:   "recover",
		Short: "Find the objects a lost KMS key made undecryptable and, with consent, delete them",
		Long: `recover lists every object of the encrypted resources and reports the ones kube-apiserver cannot decrypt,
with the key each was written under, read from etcd (--etcd-* flags, as for kmsguard verify). It needs
kube-apiserver's feature gate AllowUnsafeMalformedObjectDeletion (on by default from Kubernetes 1.37).
Resources the server does not serve are skipped. Scan progress goes to stderr.

With --confirm-data-loss=<provider>:<KEK id> --dry-run=false it deletes the undecryptable objects stored
under that KMS v2 key, and only those, one at a time with ignoreStoreReadErrorWithClusterBreakingPotential
(KEP-3926; RBAC: the ClusterRole in bindata/rbac). The bare KEK id is accepted when a single provider has
undecryptable objects under it; other providers' keys are named as listed ("aescbc:<key name>"). The data of
a deleted object is gone; objects in openshift-* and kube-* namespaces are expected to be recreated by their
operators, the report lists the others. --dry-run is the default.

A consent is refused, and nothing deleted, when:
  - it names "unknown" or "identity": without etcd access, or for a value etcd cannot classify, nothing shows
    a lost key (a KMS outage looks the same); plaintext that does not decode is corruption;
  - a KMS plugin serves that KEK id (the health reports of the --operator resource), or every node agreed on
    it as the current one: the key is not lost;
  - the plugins of the current keys are not healthy on every node, or their reports cannot be read: an
    outage makes objects unreadable that are not lost.
The same rule is the recovery controller's.

Each deletion is printed as it happens (a JSON line with -o json) and recorded in the cluster as one event
per batch of 20 objects (UndecryptableObjectsDeletedBatch) in the operator's namespace, on the operator
resource. Each object is re-checked right before its delete: an object that reads again is skipped. Ctrl-C
stops after the delete in flight; the summary counts what was done. After a deletion a second scan reports
what is left; if it fails, the record above stands.

Exit codes:
  0    nothing is undecryptable (any more)
  1    error: a scan, a delete or the scan after the deletion failed, or --timeout passed
  2    undecryptable objects remain (no consent, dry run, or objects under other keys)
  3    --confirm-data-loss names no key of the undecryptable objects, or a KEK id of several providers
  4    --confirm-data-loss names "unknown" or "identity": no etcd evidence of a lost key
  5    --confirm-data-loss names a KEK id a KMS plugin serves or that is current
  6    the KMS plugins of the current keys are not healthy, or their health cannot be read
  130  interrupted (Ctrl-C, SIGTERM) after the delete in flight`,
		Args: cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			ctx, stop := interruptible(cmd.Context())
			defer stop()
			code, err := o.runWithClients(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr())
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "Error:", err)
			}
			if code != recoverExitOK {
				exit(code)
			}
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.kubeconfig, "kubeconfig", "", "path to a kubeconfig; empty uses in-cluster config")
	f.StringVar(&o.operator, "operator", "kubeapiserver", "operator resource whose KMS health reports a consent is checked against, and on which events are recorded: "+strings.Join(operatorNames(), ", "))
	f.StringSliceVar(&o.resources, "resources", defaults, "encrypted resources to scan, as resource or resource.group")
	f.StringVar(&o.consent, "confirm-data-loss", "", "the lost key whose undecryptable objects may be deleted: <provider>:<KEK id> as listed")
	f.BoolVar(&o.dryRun, "dry-run", true, "report what would be deleted and delete nothing")
	f.StringVarP(&o.output, "output", "o", "", "output format: json (JSON lines)")
	f.Int64Var(&o.pageSize, "page-size", recovery.DefaultPageSize, "objects per LIST page")
	f.DurationVar(&o.timeout, "timeout", 30*time.Minute, "bound on the whole run")
	f.DurationVar(&o.reportInterval, "report-interval", kmsstate.DefaultReportInterval, "the health reporters' --interval; reports older than 4 intervals are stale")
	addEtcdFlags(f, &o.etcd, nil, ", to tell the key of each undecryptable object (needed to delete any)")
	return cmd
}

// interruptible ends ctx with errInterrupted on the first SIGINT or SIGTERM; a second one kills the process
// as usual.
func interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-signals:
			signal.Stop(signals)
			cancel(errInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		signal.Stop(signals)
		cancel(nil)
	}
}

// runWithClients builds the clients from the flags and runs.
func (o *recoverOptions) runWithClients(ctx context.Context, out, errOut io.Writer) (int, error) {
	if err := o.validate(); err != nil {
		return recoverExitError, err
	}
	config, err := clientcmd.BuildConfigFromFlags("", o.kubeconfig)
	if err != nil {
		return recoverExitError, fmt.Errorf("loading kubeconfig: %w", err)
	}
	var c recoverClients
	if c.discovery, err = discovery.NewDiscoveryClientForConfig(config); err != nil {
		return recoverExitError, err
	}
	if c.dynamic, err = dynamic.NewForConfig(config); err != nil {
		return recoverExitError, err
	}
	kube, err := kubernetes.NewForConfig(config)
	if err != nil {
		return recoverExitError, err
	}
	operators, err := operatorclient.NewForConfig(config)
	if err != nil {
		return recoverExitError, err
	}
	if len(o.etcd.Endpoints) > 0 {
		client, err := etcdclient.Connect(ctx, o.etcd)
		if err != nil {
			return recoverExitError, err
		}
		defer client.Close()
		c.raw = recovery.EtcdValues(client)
	}
	c.kms = operatorKMSView(kube, operators, o.operator, o.reportInterval)
	c.recorder = operatorRecorder(kube, o.operator)
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	return o.run(ctx, out, errOut, c)
}

// operatorKMSView is the KMS view of the CLI: the operator resource's health reports evaluated with kmsstate's
// code, plus the KEK id of every report whatever its health or key.
func operatorKMSView(kube kubernetes.Interface, operators operatorclient.Interface, operator string, reportInterval time.Duration) recovery.KMSView {
	return recovery.KMSViewFunc(func(ctx context.Context) (recovery.KMSSnapshot, error) {
		state, resource, err := evaluateOperand(ctx, kube, operators, operator, reportInterval, time.Now())
		if err != nil {
			return recovery.KMSSnapshot{}, err
		}
		snapshot := recovery.SnapshotFromKMSState(state)
		snapshot.AddReports(resource.encryptionStatus.HealthReports)
		return snapshot, nil
	})
}

// operatorRecorder records events in the operator's namespace, on the operator resource, where the recovery
// controller records its own: the objects' namespaces would scatter the record, and cluster-scoped objects
// have none. The recorder writes each event before returning (no broadcaster queue that a process exiting
// right after would drop, nor its rate limit).
func operatorRecorder(kube kubernetes.Interface, operator string) events.Recorder {
	operand := operands[operator]
	ref := &corev1.ObjectReference{APIVersion: "operator.openshift.io/v1", Kind: operand.kind, Name: "cluster", Namespace: operand.operatorNamespace}
	return events.NewRecorder(kube.CoreV1().Events(operand.operatorNamespace), "kmsguard-recover", ref, clock.RealClock{})
}

func (o *recoverOptions) validate() error {
	if o.output != "" && o.output != "json" {
		return fmt.Errorf("unknown output format %q: want json or nothing", o.output)
	}
	if len(o.resources) == 0 {
		return errors.New("--resources is empty")
	}
	if _, ok := operands[o.operator]; !ok {
		return fmt.Errorf("--operator must be one of %s", strings.Join(operatorNames(), ", "))
	}
	return nil
}

// run scans, checks the consent, deletes, prints as it goes, and scans again; it returns the exit code and the
// error behind recoverExitError.
func (o *recoverOptions) run(ctx context.Context, out, errOut io.Writer, c recoverClients) (int, error) {
	if err := o.validate(); err != nil {
		return recoverExitError, err
	}
	grs := make([]schema.GroupResource, 0, len(o.resources))
	for _, r := range o.resources {
		grs = append(grs, schema.ParseGroupResource(strings.TrimSpace(r)))
	}
	resources, skipped, err := recovery.Resolve(c.discovery, grs)
	if err != nil {
		return recoverExitError, err
	}
	if len(resources) == 0 {
		return recoverExitError, fmt.Errorf("the server serves none of %s", strings.Join(o.resources, ", "))
	}
	p := o.newPrinter(out)
	scanner := &recovery.Scanner{Client: c.dynamic, Raw: c.raw, PageSize: o.pageSize, Progress: o.newScanProgress(errOut).report}
	findings, err := scanner.Scan(ctx, resources, nil)
	if err != nil {
		return recoverExitError, err
	}
	report := &recoverReport{Kind: "report", Skipped: skipped, Found: findings.Resources, KeyIDs: findings.KeyIDs(), Consent: o.consent, DryRun: o.dryRun}
	if err := p.findings(report, findings); err != nil {
		return recoverExitError, err
	}
	if findings.Count() == 0 {
		return p.end(recoverExitOK, nil, nil)
	}

	consented, err := recovery.CheckConsent(ctx, findings, o.consent, c.kms)
	var refusal *recovery.ConsentError
	if errors.As(err, &refusal) {
		report.Refusal = &refusalReport{Reason: refusal.Reason(), Message: refusal.Error()}
		if err := p.refused(report, refusal); err != nil {
			return recoverExitError, err
		}
		return p.end(exitCodes[refusal.Reason()], nil, nil)
	}
	if err != nil {
		return recoverExitError, err
	}

	batch := &recovery.BatchRecorder{Recorder: c.recorder}
	deleter := &recovery.Deleter{Client: c.dynamic, Raw: c.raw, Resources: resources, OnResult: func(r recovery.Result) {
		p.result(r)
		if !o.dryRun && c.recorder != nil {
			batch.Add(r)
		}
	}}
	report.Deletion = deleter.Delete(ctx, consented.Objects, consented.ConsentID, o.dryRun)
	if c.recorder != nil {
		batch.Flush()
	}
	report.NotExpectedBack = report.Deletion.NotExpectedBack()
	if err := p.deletion(report); err != nil {
		return recoverExitError, err
	}

	// What the run did is printed; the exit code says how it ended.
	switch {
	case report.Deletion.Stopped != "" && errors.Is(context.Cause(ctx), errInterrupted):
		return p.end(recoverExitInterrupted, nil, fmt.Errorf("interrupted: %d objects not tried", report.Deletion.NotTried))
	case report.Deletion.Stopped != "":
		return p.end(recoverExitError, nil, fmt.Errorf("stopped (%s): %d objects not tried", report.Deletion.Stopped, report.Deletion.NotTried))
	case report.Deletion.Count(recovery.OutcomeFailed) > 0:
		return p.end(recoverExitError, nil, fmt.Errorf("%d deletes failed", report.Deletion.Count(recovery.OutcomeFailed)))
	case o.dryRun:
		return p.end(recoverExitUndecryptable, nil, nil)
	}
	after, err := scanner.Scan(ctx, resources, nil)
	if err != nil {
		return p.end(recoverExitError, nil, fmt.Errorf("scanning after the deletion (what was deleted is printed above): %w", err))
	}
	remaining := after.Count()
	if remaining == 0 {
		return p.end(recoverExitOK, &remaining, nil)
	}
	return p.end(recoverExitUndecryptable, &remaining, nil)
}
