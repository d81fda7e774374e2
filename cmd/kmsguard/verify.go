package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kmsguard/kmsguard/internal/cli"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsprecondition"
)

type verifyOptions struct {
	etcd             etcdclient.Config
	etcdPrefix       string
	resources        []string
	writeProvider    string
	encryptionConfig string
	kekID            string
	output           cli.OutputFormat
	maxListed        int
	pageSize         int64
	timeout          time.Duration
	kube             *kubeFlags
	sample           int
	// canDrop are the read keys --can-drop asks about; migrationFinished (--migration-finished), component and
	// rollbackWindow are what the pruning rule judges them with.
	canDrop           []string
	migrationFinished string
	component         string
	rollbackWindow    time.Duration

	// terminal forces redrawn progress (true) or plain lines (false); nil detects it from stderr.
	terminal *bool
	// progressInterval overrides the progress interval, and now the clock, for tests.
	progressInterval time.Duration
	now              func() time.Time
}

// newVerifyCommand is `kmsguard verify`: the evidence that a migration to the write key is complete, read
// from etcd.
//
// It needs an etcd client certificate, which only the control plane holds. On OpenShift, the kube-apiserver's
// own client identity is the secret etcd-client (tls.crt, tls.key) and the CA the configmap etcd-serving-ca
// (ca-bundle.crt), both synced from openshift-config into the operand namespaces (openshift-kube-apiserver,
// openshift-apiserver, ...); library-go's config defaults mount them at /var/run/secrets/etcd-client and
// /var/run/configmaps/etcd-serving-ca. An operator vendoring pkg/evidence builds its
// clientv3.Client from those two objects, read with its own client, and the etcd endpoints from the
// etcd-endpoints configmap of openshift-etcd, and must not cache the key material beyond the scan. Only the
// mount paths are in sources kmsguard vendors; the object names and namespaces come from OpenShift
// deployments and should be confirmed against the cluster-kube-apiserver-operator in use. From a workstation:
//
//	oc -n openshift-config get secret etcd-client -o jsonpath='{.data.tls\.crt}' | base64 -d > etcd.crt
//	oc -n openshift-config get secret etcd-client -o jsonpath='{.data.tls\.key}' | base64 -d > etcd.key
//	oc -n openshift-config get configmap etcd-serving-ca -o jsonpath='{.data.ca-bundle\.crt}' > etcd-ca.crt
//	kmsguard verify --etcd-endpoints=https://<member>:2379 --etcd-cacert=etcd-ca.crt \
//	  --etcd-cert=etcd.crt --etcd-key=etcd.key \
//	  --resources=secrets --write-provider=kms-v2:<provider>:<KEK id>
func newVerifyCommand() *cobra.Command {
	o := &verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Prove from etcd that every object of the encrypted resources is stored under the write key",
		Long: `verify reads every key of the given resources from etcd, at one revision and in pages, and counts the
stored values per encryption provider and KEK id without decrypting anything. It lists the first objects
that are not under the write key (keys only, never values) and the values it could not classify.

A scan that finds no keys has proved nothing, so verify also counts every resource's objects through the API
(a paged metadata LIST, at the scan's etcd revision when the apiserver still has it) and verifies a resource
only when the counts agree: exactly at the same revision, or else within the writes between the two counts.
Zero keys verify only when the API lists zero objects too ("verified empty"). The API is reached the way
kubectl does: --kubeconfig, $KUBECONFIG, ~/.kube/config or the in-cluster config, and --context.

Each resource's etcd path is resolved through the API: kube-apiserver's own resources (with its special paths),
custom resources (<prefix>/<group>/<resource>/, when a CustomResourceDefinition defines them) and the resources
of openshift-apiserver and oauth-apiserver (routes, OAuth tokens, ...). Without --etcd-prefix the prefix is
detected per resource among /kubernetes.io and /registry (kube-apiserver, custom resources) and /openshift.io
(OpenShift's apiservers), and printed on stderr. An explicit --etcd-prefix under which no resource has any key
is an error.

The write key is --write-provider: identity, <kind>:<name> (aescbc, aesgcm, secretbox, kms-v1) or
kms-v2:<provider>:<KEK id>. Alternatively --encryption-config names the kube-apiserver EncryptionConfiguration
whose first provider for the resource writes (resolving "*.<group>" and "*.*" as kube-apiserver does); a KMS v2
provider then needs --kek-id, the KEK id its plugin's Status returns (kmsguard status shows it), because
the config does not contain it.

With --sample N it also reads N random objects per resource through the API: stored bytes prove the key an
object is under, a read proves that the apiserver can still decrypt it.

--can-drop asks whether a read key may leave the encryption config, by the rule the rollout gate applies
(evidence.CanDropReadKey): only when this scan, started after the migration away from the key finished and
confirmed by the API's count, finds no value under it, and --rollback-window has passed since that migration
finished. The finish is --migration-finished, or else library-go's record in the cluster: the
migrated-timestamp of the newest encryption key secret of --component in openshift-config-managed that lists
the resource as migrated. The report says per read key and resource whether it may be dropped, and why not.
Read keys: identity, aescbc:<key name> (also aesgcm, secretbox, kms-v1), kms-v2:<provider> (the whole
provider) or kms-v2:<provider>:<KEK id> (one KMS key of it).

Progress of long scans goes to stderr: redrawn in place on a terminal, a line every few seconds otherwise.`,
		Example: `  # On OpenShift, with etcd's client certificate (see above) and the current kubeconfig context
  kmsguard verify --etcd-endpoints https://10.0.0.2:2379 --etcd-cacert etcd-ca.crt --etcd-cert etcd.crt --etcd-key etcd.key \
      --resources secrets,configmaps --write-provider kms-v2:1_secrets:<KEK id>

  # May the aescbc key 3 leave the config? (exit 7 and the reason when not yet)
  kmsguard verify --etcd-endpoints ... --resources secrets --write-provider kms-v2:4_secrets:<KEK id> --can-drop aescbc:3

  # The write key from an EncryptionConfiguration, the report as JSON
  kmsguard verify --etcd-endpoints ... --encryption-config encryption-config.yaml --kek-id <KEK id> -o json`,
		Args: cobra.NoArgs,
		// The flags are checked before anything is read, so that a wrong command fails the same way wherever it
		// runs (the runbooks' commands are checked so in a test).
		PreRunE: func(*cobra.Command, []string) error { return o.validate() },
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cli.ExitWith(o.run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()))
		},
	}
	f := cmd.Flags()
	addEtcdFlags(f, &o.etcd, []string{"https://localhost:2379"}, "")
	f.StringVar(&o.etcdPrefix, "etcd-prefix", "", "the apiserver's --etcd-prefix; empty detects it per resource among /kubernetes.io, /registry and /openshift.io")
	f.StringSliceVar(&o.resources, "resources", []string{"secrets"}, "resources to verify, as resource or resource.group (built-in, custom or OpenShift's)")
	f.StringVar(&o.writeProvider, "write-provider", "", "the write key: identity, <kind>:<name> or kms-v2:<provider>:<KEK id>")
	f.StringVar(&o.encryptionConfig, "encryption-config", "", "EncryptionConfiguration file whose first provider for the resources (\"*.<group>\", \"*.*\" resolved as kube-apiserver does) is the write key")
	f.StringVar(&o.kekID, "kek-id", "", "with --encryption-config: the KEK id of a KMS v2 write provider")
	cli.AddOutputFlag(f, &o.output, "the report, with \"verified\" at top level and per resource")
	f.IntVar(&o.maxListed, "max-listed", evidence.DefaultMaxListed, "how many offending etcd keys to list per resource")
	f.Int64Var(&o.pageSize, "page-size", evidence.DefaultPageSize, "keys per etcd range read")
	f.DurationVar(&o.timeout, "timeout", 30*time.Minute, "bound on the whole scan")
	f.IntVar(&o.sample, "sample", 0, "also read this many random objects per resource through the API, to confirm they decrypt")
	f.StringArrayVar(&o.canDrop, "can-drop", nil, "a read key to judge by the pruning rule (repeatable): identity, <kind>:<name> or kms-v2:<provider>[:<KEK id>]")
	f.StringVar(&o.migrationFinished, "migration-finished", "", "with --can-drop: when the migration away from the read keys finished (RFC 3339); empty reads library-go's migrated-timestamp from the cluster")
	f.StringVar(&o.component, "component", defaultKeySecretComponent, "with --can-drop: the component of library-go's encryption key secrets (encryption-key-<component>-<id>)")
	f.DurationVar(&o.rollbackWindow, "rollback-window", kmsprecondition.DefaultRollbackWindow, "with --can-drop: how long a read key stays after the migration away from it finished")
	o.kube = addKubeFlags(f)
	return cli.WithExitCodes(cmd, verifyExitCodes)
}

// validate checks the flags without reading a file, etcd or the API.
func (o *verifyOptions) validate() error {
	if err := o.output.Validate(); err != nil {
		return err
	}
	if _, err := o.parseResources(); err != nil {
		return err
	}
	if err := o.checkWriteKeyFlags(); err != nil {
		return err
	}
	_, err := o.parseCanDrop()
	return err
}

// run verifies and prints the report; it returns the exit code and the error behind cli.ExitError.
func (o *verifyOptions) run(ctx context.Context, out, errOut io.Writer) (int, error) {
	if err := o.output.Validate(); err != nil {
		return cli.ExitError, err
	}
	grs, err := o.parseResources()
	if err != nil {
		return cli.ExitError, err
	}
	want, err := o.resolveWriteKey(grs)
	if err != nil {
		return cli.ExitError, err
	}
	drops, err := o.parseCanDrop()
	if err != nil {
		return cli.ExitError, err
	}
	etcd, err := etcdclient.Connect(ctx, o.etcd)
	if err != nil {
		return cli.ExitError, err
	}
	defer etcd.Close()
	config, err := o.kube.restConfig()
	if err != nil {
		return cli.ExitError, fmt.Errorf("%w (verify needs the API to count objects)", err)
	}
	clients, err := apiClients(config, etcd, o.pageSize)
	if err != nil {
		return cli.ExitError, err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if len(drops.keys) > 0 {
		if clients.migrationFinished, err = o.migrationFinishedFunc(ctx, config); err != nil {
			return cli.ExitError, err
		}
	}
	return o.verify(ctx, clients, grs, want, drops, out, errOut)
}

// verify locates the resources in etcd, scans and counts them, and prints the report.
func (o *verifyOptions) verify(ctx context.Context, c verifyClients, grs []schema.GroupResource, want evidence.WriteKey, drops canDropRequest, out, errOut io.Writer) (int, error) {
	resources, err := o.locate(ctx, c, grs, errOut)
	if err != nil {
		return cli.ExitError, err
	}
	progress := o.newProgress(errOut)
	opts := evidence.CensusOptions{PageSize: o.pageSize, MaxListed: o.maxListed, Counter: c.counter, Progress: progress.observe}
	if o.sample > 0 {
		if opts.Sampler, err = samplerFor(c.dynamic, c.mapper, resources); err != nil {
			return cli.ExitError, err
		}
		opts.SampleSize = o.sample
	}
	report, err := evidence.NewCensus(c.kv, opts).Take(ctx, resources, want)
	progress.done()
	if err != nil {
		return cli.ExitError, err
	}
	if err := o.checkExplicitPrefix(report); err != nil {
		return cli.ExitError, err
	}
	verdicts, err := judgeDrops(ctx, report, drops, c.migrationFinished, o.rollbackWindow, o.clock())
	if err != nil {
		return cli.ExitError, err
	}
	if err := printVerifyReport(out, o.output, report, verdicts); err != nil {
		return cli.ExitError, err
	}
	switch {
	case !allMayDrop(verdicts):
		return exitReadKeyInUse, nil
	case !report.Verified():
		return cli.ExitIncomplete, nil
	}
	return cli.ExitOK, nil
}

func (o *verifyOptions) clock() time.Time {
	if o.now != nil {
		return o.now()
	}
	return time.Now()
}

// locate resolves where each resource is stored: its path through the API, its etcd prefix from
// --etcd-prefix or detected in etcd. The prefix used is printed on errOut, never on stdout (which may carry
// JSON).
func (o *verifyOptions) locate(ctx context.Context, c verifyClients, grs []schema.GroupResource, errOut io.Writer) ([]evidence.Resource, error) {
	var resources []evidence.Resource
	for _, gr := range grs {
		path, err := evidence.ResolveStoragePath(ctx, c.lookup, gr)
		if err != nil {
			return nil, err
		}
		if o.etcdPrefix != "" {
			r := path.Under(o.etcdPrefix)
			fmt.Fprintf(errOut, "%s (%s): scanning %s, from --etcd-prefix\n", gr, path.Server, r.Prefix)
			resources = append(resources, r)
			continue
		}
		d, err := evidence.DetectRoot(ctx, c.kv, path)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(errOut, "%s (%s): scanning %s, etcd prefix %s detected: %s\n", gr, path.Server, d.Resource.Prefix, d.Root, d.Why)
		resources = append(resources, d.Resource)
	}
	return resources, nil
}

// checkExplicitPrefix fails when --etcd-prefix was given and no resource has a key under it: the prefix is
// wrong or every resource is empty, and a scan that found nothing under a prefix the admin chose proves
// nothing.
func (o *verifyOptions) checkExplicitPrefix(report *evidence.Report) error {
	if o.etcdPrefix == "" {
		return nil
	}
	var counts []string
	for _, r := range report.Resources {
		if r.Total > 0 {
			return nil
		}
		listed := "no API count"
		if r.APICount != nil {
			listed = fmt.Sprintf("the API lists %d objects", r.APICount.Objects)
		}
		counts = append(counts, fmt.Sprintf("%s: %s", r.Prefix, listed))
	}
	return fmt.Errorf("no resource has any key under --etcd-prefix=%s (%s): leave --etcd-prefix empty to detect the prefix", o.etcdPrefix, strings.Join(counts, "; "))
}

// samplerFor resolves the version every resource is read with.
func samplerFor(client dynamic.Interface, mapper meta.RESTMapper, resources []evidence.Resource) (*evidence.DynamicSampler, error) {
	sampler := &evidence.DynamicSampler{Client: client, Versions: map[schema.GroupResource]string{}}
	for _, r := range resources {
		gvr, err := mapper.ResourceFor(r.GroupResource.WithVersion(""))
		if err != nil {
			return nil, fmt.Errorf("resolving %s for --sample: %w", r.GroupResource, err)
		}
		sampler.Versions[r.GroupResource] = gvr.Version
	}
	return sampler, nil
}

func (o *verifyOptions) parseResources() ([]schema.GroupResource, error) {
	if len(o.resources) == 0 {
		return nil, errors.New("--resources is empty")
	}
	var grs []schema.GroupResource
	for _, r := range o.resources {
		gr := schema.ParseGroupResource(strings.TrimSpace(r))
		if gr.Resource == "" || gr.Resource == "*" {
			return nil, fmt.Errorf("--resources %q: name one resource, as resource or resource.group", r)
		}
		grs = append(grs, gr)
	}
	return grs, nil
}

// checkWriteKeyFlags says what is wrong with the flags that give the write key, without reading
// --encryption-config.
func (o *verifyOptions) checkWriteKeyFlags() error {
	switch {
	case o.writeProvider != "" && o.encryptionConfig != "":
		return errors.New("give --write-provider or --encryption-config, not both")
	case o.writeProvider != "" && o.kekID != "":
		return errors.New("--kek-id goes with --encryption-config; --write-provider carries the KEK id")
	case o.writeProvider != "":
		_, err := evidence.ParseWriteKey(o.writeProvider)
		return err
	case o.encryptionConfig == "":
		return errors.New("the write key is required: --write-provider, or --encryption-config")
	}
	return nil
}

// resolveWriteKey reads the write key from --write-provider, or from --encryption-config with --kek-id
// (evidence.WriteKeyFromConfig), and says what is wrong in terms of the flags.
func (o *verifyOptions) resolveWriteKey(grs []schema.GroupResource) (evidence.WriteKey, error) {
	if err := o.checkWriteKeyFlags(); err != nil {
		return evidence.WriteKey{}, err
	}
	if o.writeProvider != "" {
		return evidence.ParseWriteKey(o.writeProvider)
	}
	data, err := os.ReadFile(o.encryptionConfig)
	if err != nil {
		return evidence.WriteKey{}, err
	}
	config, err := encryptionconfig.Decode(data)
	if err != nil {
		return evidence.WriteKey{}, fmt.Errorf("%s: %w", o.encryptionConfig, err)
	}
	want, err := evidence.WriteKeyFromConfig(config, grs, o.kekID)
	var (
		notEncrypted *evidence.ResourceNotEncryptedError
		missingKEKID *evidence.MissingKEKIDError
		unusedKEKID  *evidence.UnusedKEKIDError
	)
	switch {
	case errors.As(err, &notEncrypted):
		return evidence.WriteKey{}, fmt.Errorf("%s does not encrypt %s", o.encryptionConfig, notEncrypted.Resource)
	case errors.As(err, &missingKEKID):
		return evidence.WriteKey{}, fmt.Errorf("%s (entry %q): the write provider is KMS v2 %q: give its current KEK id with --kek-id (kmsguard status shows it)",
			missingKEKID.Resource, missingKEKID.Entry, missingKEKID.Provider)
	case errors.As(err, &unusedKEKID):
		return evidence.WriteKey{}, fmt.Errorf("--kek-id given, but the write provider is %s", unusedKEKID.WriteKey)
	}
	return want, err
}

func printVerifyReport(out io.Writer, format cli.OutputFormat, report *evidence.Report, drops []dropVerdict) error {
	if format.Structured() {
		return format.Print(out, verifyOutput{report: report, canDrop: drops})
	}
	fmt.Fprintf(out, "Write key: %s\n", report.WriteKey)
	for _, r := range report.Resources {
		fmt.Fprintf(out, "\n%s (%s): %d objects, %d under the write key, %d not, %d unparsable; %.0f keys/s, revisions %v\n",
			r.Resource, r.Prefix, r.Total, r.UnderWriteKey, r.NotUnderWriteKey, r.Corrupt, r.KeysPerSecond, r.Revisions)
		if c := r.APICount; c != nil {
			fmt.Fprintf(out, "  the API lists %d objects", c.Objects)
			if c.Unreadable > 0 {
				fmt.Fprintf(out, " (%d unreadable)", c.Unreadable)
			}
			if c.Comparison == evidence.CompareExact {
				fmt.Fprintf(out, " at the scan's revision %d\n", c.Revision)
			} else {
				fmt.Fprintf(out, " at revision %d (%s); the counts may differ by %d writes\n", c.Revision, c.Note, c.AllowedDifference)
			}
		}
		if v := r.Verdict(); !v.Verified {
			fmt.Fprintf(out, "  not verified (%s): %s\n", v.Reason, v.Message)
		} else if v.Empty {
			fmt.Fprintln(out, "  verified empty: no keys, and the API lists no objects")
		}
		if r.SpansRevisions {
			fmt.Fprintln(out, "  note: etcd compacted the scan's revision; the counts span revisions")
		}
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "  KEY\tOBJECTS\tWRITE KEY")
		for _, k := range r.Keys {
			fmt.Fprintf(w, "  %s\t%d\t%v\n", k.Key, k.Count, k.WriteKey)
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if n := len(r.NotUnderWriteKeyListed); n > 0 {
			fmt.Fprintf(out, "  not under the write key (first %d of %d):\n", n, r.NotUnderWriteKey)
			for _, key := range r.NotUnderWriteKeyListed {
				fmt.Fprintf(out, "    %s\n", key)
			}
		}
		if n := len(r.CorruptListed); n > 0 {
			fmt.Fprintf(out, "  unparsable (first %d of %d):\n", n, r.Corrupt)
			for _, c := range r.CorruptListed {
				fmt.Fprintf(out, "    %s: %s\n", c.Key, c.Error)
			}
		}
	}
	fmt.Fprintf(out, "\nVerified: %v\n", report.Verified())
	printDropVerdicts(out, drops)
	return nil
}
