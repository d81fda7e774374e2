package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback/recovery"
)

// Exit codes of kmsguard recover, for scripts.
const (
	// recoverExitOK: nothing is undecryptable (any more).
	recoverExitOK = 0
	// recoverExitError: the scan or a delete failed.
	recoverExitError = 1
	// recoverExitUndecryptable: undecryptable objects remain: no consent, a dry run, or objects under keys the
	// consent does not name.
	recoverExitUndecryptable = 2
	// recoverExitConsentMismatch: --confirm-data-loss names a key id no undecryptable object is stored under.
	recoverExitConsentMismatch = 3
)

type recoverOptions struct {
	kubeconfig string
	resources  []string
	consent    string
	dryRun     bool
	output     string
	pageSize   int64
	timeout    time.Duration
	etcd       etcdclient.Config
}

// recoverReport is what `kmsguard recover -o json` prints.
type recoverReport struct {
	Skipped []recovery.Skipped `json:"skipped,omitempty"`
	// Found is the first scan.
	Found []recovery.ResourceFindings `json:"found"`
	// KeyIDs are the keys undecryptable objects are stored under.
	KeyIDs   []string                 `json:"keyIDs"`
	Consent  string                   `json:"consent,omitempty"`
	DryRun   bool                     `json:"dryRun"`
	Deletion *recovery.DeletionReport `json:"deletion,omitempty"`
	// Remaining is the number of undecryptable objects after the deletion, from a second scan.
	Remaining *int `json:"remaining,omitempty"`
	// NotExpectedBack are the deleted objects no operator is expected to recreate (recovery.ExpectRecreated).
	NotExpectedBack []recovery.ObjectRef `json:"notExpectedBack,omitempty"`
	ExitCode        int                  `json:"exitCode"`
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
with the key each was written under when etcd is reachable (--etcd-* flags, as for kmsguard verify; without
them the key id is "unknown"). It needs kube-apiserver's feature gate AllowUnsafeMalformedObjectDeletion (on by
default from Kubernetes 1.37). Resources the server does not serve are skipped.

With --confirm-data-loss=<key id> --dry-run=false it deletes the undecryptable objects stored under that key,
and only those, one at a time with ignoreStoreReadErrorWithClusterBreakingPotential (KEP-3926; RBAC: the
ClusterRole in bindata/rbac). Each is re-checked right before its delete: an object that reads again is
skipped. The data of a deleted object is gone; objects in openshift-* and kube-* namespaces are expected to be
recreated by their operators, the report lists the others. --dry-run is the default.

Exit codes:
  0  nothing is undecryptable (any more)
  1  error: the scan or a delete failed
  2  undecryptable objects remain (no consent, dry run, or objects under other keys)
  3  --confirm-data-loss names a key id no undecryptable object is stored under`,
		Args: cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			code, err := o.runWithClients(cmd.Context(), cmd.OutOrStdout())
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
	f.StringSliceVar(&o.resources, "resources", defaults, "encrypted resources to scan, as resource or resource.group")
	f.StringVar(&o.consent, "confirm-data-loss", "", "the id of the lost key whose undecryptable objects may be deleted")
	f.BoolVar(&o.dryRun, "dry-run", true, "report what would be deleted and delete nothing")
	f.StringVarP(&o.output, "output", "o", "", "output format: json")
	f.Int64Var(&o.pageSize, "page-size", recovery.DefaultPageSize, "objects per LIST page")
	f.DurationVar(&o.timeout, "timeout", 30*time.Minute, "bound on the whole run")
	addEtcdFlags(f, &o.etcd, nil, ", to tell the key of each undecryptable object")
	return cmd
}

// runWithClients builds the clients from the flags and runs.
func (o *recoverOptions) runWithClients(ctx context.Context, out io.Writer) (int, error) {
	if err := o.validate(); err != nil {
		return recoverExitError, err
	}
	config, err := clientcmd.BuildConfigFromFlags("", o.kubeconfig)
	if err != nil {
		return recoverExitError, fmt.Errorf("loading kubeconfig: %w", err)
	}
	disc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return recoverExitError, err
	}
	dyn, err := dynamic.NewForConfig(config)
	if err != nil {
		return recoverExitError, err
	}
	var raw recovery.RawValueReader
	if len(o.etcd.Endpoints) > 0 {
		client, err := etcdclient.Connect(ctx, o.etcd)
		if err != nil {
			return recoverExitError, err
		}
		defer client.Close()
		raw = recovery.EtcdValues(client)
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	return o.run(ctx, out, disc, dyn, raw)
}

func (o *recoverOptions) validate() error {
	if o.output != "" && o.output != "json" {
		return fmt.Errorf("unknown output format %q: want json or nothing", o.output)
	}
	if len(o.resources) == 0 {
		return errors.New("--resources is empty")
	}
	return nil
}

// run scans, checks the consent, deletes, and prints the report; it returns the exit code and the error behind
// recoverExitError.
func (o *recoverOptions) run(ctx context.Context, out io.Writer, disc discovery.DiscoveryInterface, dyn dynamic.Interface, raw recovery.RawValueReader) (int, error) {
	if err := o.validate(); err != nil {
		return recoverExitError, err
	}
	grs := make([]schema.GroupResource, 0, len(o.resources))
	for _, r := range o.resources {
		grs = append(grs, schema.ParseGroupResource(strings.TrimSpace(r)))
	}
	resources, skipped, err := recovery.Resolve(disc, grs)
	if err != nil {
		return recoverExitError, err
	}
	if len(resources) == 0 {
		return recoverExitError, fmt.Errorf("the server serves none of %s", strings.Join(o.resources, ", "))
	}
	scanner := &recovery.Scanner{Client: dyn, Raw: raw, PageSize: o.pageSize}
	findings, err := scanner.Scan(ctx, resources, nil)
	if err != nil {
		return recoverExitError, err
	}
	report := &recoverReport{Skipped: skipped, Found: findings.Resources, KeyIDs: findings.KeyIDs(), Consent: o.consent, DryRun: o.dryRun}

	var mismatch *recovery.ConsentError
	switch err := recovery.CheckConsent(findings, o.consent); {
	case findings.Count() == 0:
		report.ExitCode = recoverExitOK
	case errors.As(err, &mismatch) && mismatch.Reason() == recovery.ReasonConsentMismatch:
		report.ExitCode = recoverExitConsentMismatch
	case o.consent == "":
		report.ExitCode = recoverExitUndecryptable
	default:
		deleter := &recovery.Deleter{Client: dyn, Raw: raw, Resources: resources}
		report.Deletion = deleter.Delete(ctx, findings.Under(o.consent), o.consent, o.dryRun)
		report.ExitCode = recoverExitUndecryptable
		if !o.dryRun {
			report.NotExpectedBack = report.Deletion.NotExpectedBack()
			after, err := scanner.Scan(ctx, resources, nil)
			if err != nil {
				return recoverExitError, fmt.Errorf("scanning after the deletion: %w", err)
			}
			remaining := after.Count()
			report.Remaining = &remaining
			switch {
			case report.Deletion.Count(recovery.OutcomeFailed) > 0:
				report.ExitCode = recoverExitError
			case remaining == 0:
				report.ExitCode = recoverExitOK
			}
		}
	}
	if err := o.print(out, report, findings); err != nil {
		return recoverExitError, err
	}
	if report.ExitCode == recoverExitError {
		return recoverExitError, fmt.Errorf("%d deletes failed", report.Deletion.Count(recovery.OutcomeFailed))
	}
	return report.ExitCode, nil
}

func (o *recoverOptions) print(out io.Writer, report *recoverReport, findings *recovery.Findings) error {
	if o.output == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(report)
	}
	for _, s := range report.Skipped {
		fmt.Fprintf(out, "skipped %s: %s\n", s.Resource, s.Reason)
	}
	for _, r := range report.Found {
		fmt.Fprintf(out, "%s: %d undecryptable of %d\n", r.Resource, len(r.Unreadable), len(r.Unreadable)+r.Readable)
	}
	if findings.Count() == 0 {
		fmt.Fprintln(out, "\nNothing is undecryptable.")
		return nil
	}
	fmt.Fprintln(out)
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "KEY ID\tRESOURCE\tOBJECT\tETCD KEY\tEXPECTED BACK")
	for _, obj := range findings.Objects() {
		name := obj.Name
		if obj.Namespace != "" {
			name = obj.Namespace + "/" + obj.Name
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%v\n", obj.KeyID, obj.Resource, name, obj.EtcdKey, obj.OperatorManaged)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out)
	if report.ExitCode == recoverExitConsentMismatch {
		fmt.Fprintf(out, "--confirm-data-loss=%s matches no undecryptable object; they are stored under %s. Nothing was deleted.\n",
			o.consent, strings.Join(report.KeyIDs, ", "))
		return nil
	}
	if report.Deletion == nil {
		fmt.Fprintf(out, "Nothing was deleted. Unless the key can be restored in the KMS, the data of these objects is lost; to delete\n"+
			"the objects of a lost key, run again with --confirm-data-loss=<key id> --dry-run=false (key ids: %s).\n", strings.Join(report.KeyIDs, ", "))
		return nil
	}
	if report.DryRun {
		fmt.Fprintf(out, "Dry run: %s. Run again with --dry-run=false to delete them.\n", report.Deletion)
		return nil
	}
	fmt.Fprintf(out, "%s.\n", report.Deletion)
	for _, r := range report.Deletion.Results {
		if r.Outcome != recovery.OutcomeDeleted {
			fmt.Fprintf(out, "  %s: %s %s\n", r.ObjectRef, r.Outcome, r.Error)
		}
	}
	if len(report.NotExpectedBack) > 0 {
		fmt.Fprintf(out, "Deleted objects no operator is expected to recreate (restore them from a backup or recreate them):\n")
		for _, ref := range report.NotExpectedBack {
			fmt.Fprintf(out, "  %s\n", ref)
		}
	}
	if report.Remaining != nil {
		fmt.Fprintf(out, "Undecryptable objects left: %d\n", *report.Remaining)
	}
	return nil
}
