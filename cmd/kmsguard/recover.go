package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kmsguard/kmsguard/internal/cli"

	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/kmsrecovery"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// exitCodes maps the consent refusals to exit codes.
var exitCodes = map[kmsrecovery.Reason]int{
	kmsrecovery.ReasonUndecryptableObjects:   cli.ExitIncomplete,
	kmsrecovery.ReasonConsentMismatch:        exitConsentMismatch,
	kmsrecovery.ReasonConsentAmbiguous:       exitConsentMismatch,
	kmsrecovery.ReasonConsentUnprovable:      exitConsentUnprovable,
	kmsrecovery.ReasonConsentNamesCurrentKey: exitConsentNamesCurrentKey,
	kmsrecovery.ReasonKMSUnhealthy:           exitKMSUnhealthy,
}

type recoverOptions struct {
	kube           *kubeFlags
	operator       string
	resources      []string
	consent        string
	dryRun         bool
	output         cli.OutputFormat
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
	raw       kmsrecovery.RawValueReader
	kms       kmsrecovery.KMSView
	recorder  events.Recorder
}

func newRecoverCommand() *cobra.Command {
	o := &recoverOptions{}
	defaults := make([]string, 0, len(kmsrecovery.DefaultResources))
	for _, gr := range kmsrecovery.DefaultResources {
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
    it as the current one (the operator's published kmsstate evaluation): the key is not lost;
  - the plugins of the current keys are not healthy on every node in the evaluation the operator's kmsstate
    controller published, or it published none, or a stale one: an outage makes objects unreadable that are
    not lost.
The same rule is the recovery controller's.

Each deletion is printed as it happens (a JSON line with -o json) and recorded in the cluster as one event
per batch of 20 objects (UndecryptableObjectsDeletedBatch) in the operator's namespace, on the operator
resource. Each object is re-checked right before its delete: an object that reads again is skipped. Ctrl-C
stops after the delete in flight; the summary counts what was done. After a deletion a second scan reports
what is left; if it fails, the record above stands. With -o json every line is one JSON object whose "kind"
says what it is ("deletion" per object, then "report", then "end" with the exit code); -o yaml prints the
same records as YAML documents.`,
		Example: `  # Which objects are undecryptable, and under which key (dry run; etcd flags as for kmsguard verify)
  kmsguard recover --etcd-endpoints https://10.0.0.2:2379 --etcd-cacert etcd-ca.crt --etcd-cert etcd.crt --etcd-key etcd.key

  # Delete the objects of the lost KMS key, and only those
  kmsguard recover --etcd-endpoints ... --confirm-data-loss=1_secrets:<KEK id> --dry-run=false

  # Each deletion as a JSON line, for a script
  kmsguard recover --etcd-endpoints ... --confirm-data-loss=1_secrets:<KEK id> --dry-run=false -o json`,
		Args: cobra.NoArgs,
		// The flags are checked before anything is read (the runbooks' commands are checked so in a test).
		PreRunE: func(*cobra.Command, []string) error { return o.validate() },
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cli.ExitWith(o.runWithClients(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()))
		},
	}
	f := cmd.Flags()
	o.kube = addKubeFlags(f)
	f.StringVar(&o.operator, "operator", "kubeapiserver", "operator resource whose KMS health reports a consent is checked against, and on which events are recorded: "+strings.Join(operatorNames(), ", "))
	f.StringSliceVar(&o.resources, "resources", defaults, "encrypted resources to scan, as resource or resource.group")
	f.StringVar(&o.consent, "confirm-data-loss", "", "the lost key whose undecryptable objects may be deleted: <provider>:<KEK id> as listed")
	f.BoolVar(&o.dryRun, "dry-run", true, "report what would be deleted and delete nothing")
	cli.AddOutputFlag(f, &o.output, "a record per object as it is tried, then the report and the end: JSON lines or YAML documents")
	f.Int64Var(&o.pageSize, "page-size", kmsrecovery.DefaultPageSize, "objects per LIST page")
	f.DurationVar(&o.timeout, "timeout", 30*time.Minute, "bound on the whole run")
	f.DurationVar(&o.reportInterval, "report-interval", kmsstate.DefaultReportInterval, "the health reporters' --interval; a published KMS state older than 4 intervals is stale")
	addEtcdFlags(f, &o.etcd, nil, ", to tell the key of each undecryptable object (needed to delete any)")
	return cli.WithExitCodes(cmd, recoverExitCodes)
}

// runWithClients builds the clients from the flags and runs.
func (o *recoverOptions) runWithClients(ctx context.Context, out, errOut io.Writer) (int, error) {
	if err := o.validate(); err != nil {
		return cli.ExitError, err
	}
	o.kube.userAgent = "kmsguard-recover"
	config, err := o.kube.restConfig()
	if err != nil {
		return cli.ExitError, err
	}
	var c recoverClients
	if c.discovery, err = discovery.NewDiscoveryClientForConfig(config); err != nil {
		return cli.ExitError, err
	}
	if c.dynamic, err = dynamic.NewForConfig(config); err != nil {
		return cli.ExitError, err
	}
	kube, err := kubernetes.NewForConfig(config)
	if err != nil {
		return cli.ExitError, err
	}
	operators, err := operatorclient.NewForConfig(config)
	if err != nil {
		return cli.ExitError, err
	}
	if len(o.etcd.Endpoints) > 0 {
		client, err := etcdclient.Connect(ctx, o.etcd)
		if err != nil {
			return cli.ExitError, err
		}
		defer client.Close()
		c.raw = kmsrecovery.EtcdValues(client)
	}
	c.kms = operatorKMSView(kube, operators, o.operator, o.reportInterval)
	c.recorder = operatorRecorder(kube, o.operator)
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	return o.run(ctx, out, errOut, c)
}

// operatorKMSView is the KMS view of the CLI: the evaluation the operator's kmsstate controller published (the
// one its conditions and its own recovery controller go by), held to the freshness bound of --report-interval,
// plus the KEK id of every health report of the operator resource whatever its health or key. Nothing
// published, or a stale evaluation, is an error: nothing is known healthy, and the consent is refused
// (KMSUnhealthy). A published evaluation that cannot be read is replaced by snapshotFromOperatorResource.
func operatorKMSView(kube kubernetes.Interface, operators operatorclient.Interface, operator string, reportInterval time.Duration) kmsrecovery.KMSView {
	return kmsrecovery.KMSViewFunc(func(ctx context.Context) (kmsrecovery.KMSSnapshot, error) {
		resource, err := operands[operator].read(ctx, operators)
		if err != nil {
			return kmsrecovery.KMSSnapshot{}, fmt.Errorf("reading the %s operator resource: %w", operator, err)
		}
		now := time.Now()
		state, err := publishedState(ctx, kube, operator, reportInterval, now)
		if unreadable := (*unreadablePublishedError)(nil); errors.As(err, &unreadable) {
			// The published evaluation's ConfigMap may itself be among the objects the lost KEK took: refusing
			// here would leave recover unable to delete what blocks it.
			return snapshotFromOperatorResource(ctx, operators, operator, resource, reportInterval, now)
		}
		if err != nil {
			return kmsrecovery.KMSSnapshot{}, err
		}
		snapshot := kmsrecovery.SnapshotFromKMSState(state)
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
	if err := o.output.Validate(); err != nil {
		return err
	}
	if len(o.resources) == 0 {
		return errors.New("--resources is empty")
	}
	if _, ok := operands[o.operator]; !ok {
		return fmt.Errorf("--operator must be one of %s", strings.Join(operatorNames(), ", "))
	}
	return nil
}

// run runs the recovery flow (kmsrecovery.Run), prints as it goes, and returns the exit code and the error behind
// it.
func (o *recoverOptions) run(ctx context.Context, out, errOut io.Writer, c recoverClients) (int, error) {
	if err := o.validate(); err != nil {
		return cli.ExitError, err
	}
	grs := make([]schema.GroupResource, 0, len(o.resources))
	for _, r := range o.resources {
		grs = append(grs, schema.ParseGroupResource(strings.TrimSpace(r)))
	}
	p := o.newPrinter(out)
	var printErr error
	run, err := kmsrecovery.Run(ctx, kmsrecovery.RunOptions{
		Discovery: c.discovery, Dynamic: c.dynamic, Raw: c.raw, KMS: c.kms, Recorder: c.recorder,
		Resources: grs, Consent: o.consent, DryRun: o.dryRun, PageSize: o.pageSize,
		Progress: o.newScanProgress(errOut).report,
		OnFindings: func(r *kmsrecovery.RunReport) {
			printErr = errors.Join(printErr, p.findings(o.reportOf(r), r.Findings))
		},
		OnResult: p.result,
		OnDeletion: func(r *kmsrecovery.RunReport) {
			report := p.report
			report.Deletion, report.NotExpectedBack = r.Deletion, r.Deletion.NotExpectedBack()
			printErr = errors.Join(printErr, p.deletion(report))
		},
	})
	if err != nil {
		return cli.ExitError, err
	}
	if printErr != nil {
		return cli.ExitError, printErr
	}
	switch run.Outcome {
	case kmsrecovery.RunClean:
		return p.end(cli.ExitOK, run.Remaining, nil)
	case kmsrecovery.RunUndecryptableRemain:
		return p.end(cli.ExitIncomplete, run.Remaining, nil)
	case kmsrecovery.RunRefused:
		p.report.Refusal = &refusalReport{Reason: run.Refusal.Reason(), Message: run.Refusal.Error()}
		if err := p.refused(p.report, run.Refusal); err != nil {
			return cli.ExitError, err
		}
		return p.end(exitCodes[run.Refusal.Reason()], nil, nil)
	}
	if run.Deletion != nil && run.Deletion.Stopped != "" && cli.Interrupted(ctx) {
		return p.end(cli.ExitInterrupted, nil, fmt.Errorf("interrupted: %d objects not tried", run.Deletion.NotTried))
	}
	return p.end(cli.ExitError, nil, run.Err)
}

// reportOf is the printed report of the first scan.
func (o *recoverOptions) reportOf(r *kmsrecovery.RunReport) *recoverReport {
	return &recoverReport{Kind: "report", Skipped: r.Skipped, Found: r.Findings.Resources, ConsentIDs: r.Findings.ConsentIDs(), Consent: o.consent, DryRun: o.dryRun}
}
