package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
	"github.com/kmsguard/kmsguard/pkg/kmsmigration/evidence"
)

// Exit codes of kmsguard verify. cli.Run maps every error to 1, which here means "not verified", so the
// command ends the process itself.
const (
	exitVerified    = 0
	exitNotVerified = 1
	exitError       = 2
)

// exit ends the process; tests replace it.
var exit = os.Exit

type verifyOptions struct {
	etcd             etcdclient.Config
	etcdPrefix       string
	resources        []string
	writeProvider    string
	encryptionConfig string
	kmsKeyID         string
	output           string
	maxListed        int
	pageSize         int64
	timeout          time.Duration
	kubeconfig       string
	sample           int
}

// newVerifyCommand is `kmsguard verify`: the evidence that a migration to the write key is complete, read
// from etcd.
//
// It needs an etcd client certificate, which only the control plane holds. On OpenShift, the kube-apiserver's
// own client identity is the secret etcd-client (tls.crt, tls.key) and the CA the configmap etcd-serving-ca
// (ca-bundle.crt), both synced from openshift-config into the operand namespaces (openshift-kube-apiserver,
// openshift-apiserver, ...); library-go's config defaults mount them at /var/run/secrets/etcd-client and
// /var/run/configmaps/etcd-serving-ca. An operator vendoring pkg/kmsmigration/evidence builds its
// clientv3.Client from those two objects, read with its own client, and the etcd endpoints from the
// etcd-endpoints configmap of openshift-etcd, and must not cache the key material beyond the scan. Only the
// mount paths are in sources kmsguard vendors; the object names and namespaces come from OpenShift
// deployments and should be confirmed against the cluster-kube-apiserver-operator in use. From a workstation:
//
//	oc -n openshift-config get secret etcd-client -o jsonpath='{.data.tls\.crt}' | base64 -d > etcd.crt
//	oc -n openshift-config get secret etcd-client -o jsonpath='{.data.tls\.key}' | base64 -d > etcd.key
//	oc -n openshift-config get configmap etcd-serving-ca -o jsonpath='{.data.ca-bundle\.crt}' > etcd-ca.crt
//	kmsguard verify --etcd-endpoints=https://<member>:2379 --etcd-cacert=etcd-ca.crt \
//	  --etcd-cert=etcd.crt --etcd-key=etcd.key --etcd-prefix=/kubernetes.io \
//	  --resources=secrets,configmaps --write-provider=kms-v2:<provider>:<key id>
func newVerifyCommand() *cobra.Command {
	o := &verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Prove from etcd that every object of the encrypted resources is stored under the write key",
		Long: `verify reads every key of the given resources from etcd, at one revision and in pages, and counts the
stored values per encryption provider and KMS key id without decrypting anything. It lists the first objects
that are not under the write key (keys only, never values) and the values it could not classify.

The write key is --write-provider: identity, <kind>:<name> (aescbc, aesgcm, secretbox, kms-v1) or
kms-v2:<provider>:<key id>. Alternatively --encryption-config names the kube-apiserver EncryptionConfiguration
whose first provider writes; a KMS v2 provider then needs --kms-key-id, the key id its plugin's Status returns
(kmsguard status shows it), because the config does not contain it.

With --sample N it also reads N random objects per resource through the API (--kubeconfig): stored bytes
prove the key an object is under, a read proves that the apiserver can still decrypt it.

Exit code: 0 when verified, 1 when not, 2 on errors.`,
		Args: cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			code, err := o.run(cmd.Context(), cmd.OutOrStdout())
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "Error:", err)
			}
			if code != exitVerified {
				exit(code)
			}
		},
	}
	f := cmd.Flags()
	addEtcdFlags(f, &o.etcd, []string{"https://localhost:2379"}, "")
	f.StringVar(&o.etcdPrefix, "etcd-prefix", evidence.DefaultEtcdPrefix, "the apiserver's --etcd-prefix (OpenShift's kube-apiserver: /kubernetes.io)")
	f.StringSliceVar(&o.resources, "resources", []string{"secrets"}, "built-in resources to verify, as resource or resource.group")
	f.StringVar(&o.writeProvider, "write-provider", "", "the write key: identity, <kind>:<name> or kms-v2:<provider>:<key id>")
	f.StringVar(&o.encryptionConfig, "encryption-config", "", "EncryptionConfiguration file whose first provider is the write key")
	f.StringVar(&o.kmsKeyID, "kms-key-id", "", "with --encryption-config: the key id of a KMS v2 write provider")
	f.StringVarP(&o.output, "output", "o", "", "output format: json")
	f.IntVar(&o.maxListed, "max-listed", evidence.DefaultMaxListed, "how many offending etcd keys to list per resource")
	f.Int64Var(&o.pageSize, "page-size", evidence.DefaultPageSize, "keys per etcd range read")
	f.DurationVar(&o.timeout, "timeout", 30*time.Minute, "bound on the whole scan")
	f.IntVar(&o.sample, "sample", 0, "also read this many random objects per resource through the API, to confirm they decrypt (needs --kubeconfig or in-cluster config)")
	f.StringVar(&o.kubeconfig, "kubeconfig", "", "with --sample: path to a kubeconfig; empty uses in-cluster config")
	return cmd
}

// run verifies and prints the report; it returns the exit code and the error behind exitError.
func (o *verifyOptions) run(ctx context.Context, out io.Writer) (int, error) {
	if o.output != "" && o.output != "json" {
		return exitError, fmt.Errorf("unknown output format %q: want json or nothing", o.output)
	}
	resources, err := o.parseResources()
	if err != nil {
		return exitError, err
	}
	want, err := o.resolveWriteKey(resources)
	if err != nil {
		return exitError, err
	}
	client, err := etcdclient.Connect(ctx, o.etcd)
	if err != nil {
		return exitError, err
	}
	defer client.Close()

	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	opts := evidence.Options{PageSize: o.pageSize, MaxListed: o.maxListed}
	if o.sample > 0 {
		if opts.Sampler, err = o.apiSampler(resources); err != nil {
			return exitError, err
		}
		opts.SampleSize = o.sample
	}
	report, err := evidence.NewVerifier(client, opts).Verify(ctx, resources, want)
	if err != nil {
		return exitError, err
	}
	if err := printVerifyReport(out, o.output, report); err != nil {
		return exitError, err
	}
	if !report.Verified() {
		return exitNotVerified, nil
	}
	return exitVerified, nil
}

// apiSampler reads sampled objects with a dynamic client from --kubeconfig, at the version discovery prefers.
func (o *verifyOptions) apiSampler(resources []evidence.Resource) (*evidence.DynamicSampler, error) {
	config, err := clientcmd.BuildConfigFromFlags("", o.kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("loading kubeconfig for --sample: %w", err)
	}
	disc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return nil, err
	}
	return samplerFor(dynamic.NewForConfigOrDie(config), restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc)), resources)
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

func (o *verifyOptions) parseResources() ([]evidence.Resource, error) {
	if len(o.resources) == 0 {
		return nil, errors.New("--resources is empty")
	}
	var resources []evidence.Resource
	for _, r := range o.resources {
		resources = append(resources, evidence.BuiltInResource(o.etcdPrefix, schema.ParseGroupResource(strings.TrimSpace(r))))
	}
	return resources, nil
}

// resolveWriteKey reads the write key from --write-provider, or from the first provider that
// --encryption-config lists for every one of the resources.
func (o *verifyOptions) resolveWriteKey(resources []evidence.Resource) (evidence.WriteKey, error) {
	switch {
	case o.writeProvider != "" && o.encryptionConfig != "":
		return evidence.WriteKey{}, errors.New("give --write-provider or --encryption-config, not both")
	case o.writeProvider != "":
		if o.kmsKeyID != "" {
			return evidence.WriteKey{}, errors.New("--kms-key-id goes with --encryption-config; --write-provider carries the key id")
		}
		return evidence.ParseWriteKey(o.writeProvider)
	case o.encryptionConfig == "":
		return evidence.WriteKey{}, errors.New("the write key is required: --write-provider, or --encryption-config")
	}
	data, err := os.ReadFile(o.encryptionConfig)
	if err != nil {
		return evidence.WriteKey{}, err
	}
	config, err := encryptionconfig.Decode(data)
	if err != nil {
		return evidence.WriteKey{}, fmt.Errorf("%s: %w", o.encryptionConfig, err)
	}
	var want *evidence.WriteKey
	for _, r := range resources {
		provider, ok := writeProviderOf(config, r.GroupResource)
		if !ok {
			return evidence.WriteKey{}, fmt.Errorf("%s does not encrypt %s", o.encryptionConfig, r.GroupResource)
		}
		w, err := writeKeyOf(provider, o.kmsKeyID)
		if err != nil {
			return evidence.WriteKey{}, fmt.Errorf("%s: %w", r.GroupResource, err)
		}
		if want != nil && *want != w {
			return evidence.WriteKey{}, fmt.Errorf("the resources have different write providers (%s, %s): verify them one at a time", *want, w)
		}
		want = &w
	}
	if o.kmsKeyID != "" && want.Kind != etcdvalue.KindKMSv2 {
		return evidence.WriteKey{}, fmt.Errorf("--kms-key-id given, but the write provider is %s", want)
	}
	return *want, nil
}

// writeProviderOf returns the first provider of the config's first resource entry naming gr, as kube-apiserver
// matches them (exact names first; "*.<group>" and "*.*" wildcards are not resolved here).
func writeProviderOf(config *apiserverv1.EncryptionConfiguration, gr schema.GroupResource) (apiserverv1.ProviderConfiguration, bool) {
	for _, rc := range config.Resources {
		for _, name := range rc.Resources {
			if schema.ParseGroupResource(name) == gr && len(rc.Providers) > 0 {
				return rc.Providers[0], true
			}
		}
	}
	return apiserverv1.ProviderConfiguration{}, false
}

// writeKeyOf turns a provider stanza into the key its values are stored under. For aescbc, aesgcm and
// secretbox the first key of the provider writes.
func writeKeyOf(p apiserverv1.ProviderConfiguration, kmsKeyID string) (evidence.WriteKey, error) {
	w := evidence.WriteKey{}
	switch {
	case p.Identity != nil:
		w.Kind = etcdvalue.KindIdentity
	case p.AESCBC != nil && len(p.AESCBC.Keys) > 0:
		w.Kind, w.Name = etcdvalue.KindAESCBC, p.AESCBC.Keys[0].Name
	case p.AESGCM != nil && len(p.AESGCM.Keys) > 0:
		w.Kind, w.Name = etcdvalue.KindAESGCM, p.AESGCM.Keys[0].Name
	case p.Secretbox != nil && len(p.Secretbox.Keys) > 0:
		w.Kind, w.Name = etcdvalue.KindSecretbox, p.Secretbox.Keys[0].Name
	case p.KMS != nil && p.KMS.APIVersion == "v2":
		if kmsKeyID == "" {
			return w, fmt.Errorf("the write provider is KMS v2 %q: give its current key id with --kms-key-id (kmsguard status shows it)", p.KMS.Name)
		}
		w.Kind, w.Name, w.KeyID = etcdvalue.KindKMSv2, p.KMS.Name, kmsKeyID
	case p.KMS != nil:
		w.Kind, w.Name = etcdvalue.KindKMSv1, p.KMS.Name
	default:
		return w, errors.New("the first provider is of no known kind")
	}
	return w, w.Validate()
}

func printVerifyReport(out io.Writer, format string, report *evidence.Report) error {
	if format == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(report)
	}
	fmt.Fprintf(out, "Write key: %s\n", report.WriteKey)
	for _, r := range report.Resources {
		fmt.Fprintf(out, "\n%s (%s): %d objects, %d under the write key, %d not, %d unparsable; %.0f keys/s, revisions %v\n",
			r.Resource, r.Prefix, r.Total, r.UnderWriteKey, r.NotUnderWriteKey, r.Corrupt, r.KeysPerSecond, r.Revisions)
		if r.Total == 0 {
			fmt.Fprintf(out, "  warning: no keys under %s; is --etcd-prefix right?\n", r.Prefix)
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
	return nil
}
