package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"github.com/spf13/cobra"

	"github.com/kmsguard/kmsguard/internal/cli"
	"github.com/kmsguard/kmsguard/test/lab"
)

// labOptions are the flags of `kmsguard-lab`.
type labOptions struct {
	nodes        int
	dir          string
	keep         bool
	encryption   []string
	viewInterval time.Duration
	shortTimings bool
	reporter     string
	preflight    string
}

// labExitCodes are the exit codes of `kmsguard-lab`: it runs until a signal stops it, which ends a ready lab as
// asked and interrupts one that is not ready yet.
var labExitCodes = []cli.ExitCode{
	{Code: cli.ExitOK, Meaning: "stopped by Ctrl-C or SIGTERM once ready (and, with --encryption, switched and proven)"},
	{Code: cli.ExitError, Meaning: "error: bad flags, or the lab could not start or switch its encryption"},
	{Code: cli.ExitInterrupted, Meaning: "interrupted (Ctrl-C, SIGTERM) before the lab was ready"},
}

// labInjectExitCodes are the exit codes of `kmsguard-lab inject`.
var labInjectExitCodes = []cli.ExitCode{
	{Code: cli.ExitOK, Meaning: "the lab injected the fault, or found it in place already"},
	{Code: cli.ExitError, Meaning: "error: bad flags, no lab runs in --dir, or the lab refused or failed the injection"},
	{Code: cli.ExitInterrupted, Meaning: "interrupted (Ctrl-C, SIGTERM) before the lab answered"},
}

func newLabCommand() *cobra.Command {
	o := &labOptions{}
	cmd := &cobra.Command{
		Use:   "kmsguard-lab",
		Short: "Run a local OpenShift-style control plane with library-go's and kmsguard's controllers until Ctrl-C",
		Long: `lab starts etcd, one real kube-apiserver per control-plane node (master-0..N-1), a node agent per node
that plays the kubelet (which runs the pruner pods with the operator binary), the installer and, on a single node only (as kube-apiserver-operator
decides), the startup monitor, and kube-apiserver-operator's library-go static-pod and encryption controllers
with kmsguard's controllers. The static pod carries library-go's KMS plugin sidecars; each node runs those of
the revision it installed (fake KMS v2 plugins on one simulated KMS, configured from the sidecars' arguments).
The KMS preflight is library-go's always-succeed deployer, as both operators wire it; with --preflight pod it
is library-go's pod deployer, whose kms-preflight pod the lab schedules on a node and that node's agent runs
as a kubelet would: its plugin sidecar, then its checker against the node's kube-apiserver. It prints a kubeconfig and the etcd endpoint and runs until interrupted.

It runs with kube-apiserver-operator's timings (a 30 s minimum ready time, kmsguard's 5 minutes before a
not-ready revision is reverted); --short-timings shortens them as make test does. A kube-apiserver that is not
healthy 45 s after its start counts as failed (the startup monitor waits minutes on a cluster).

With --encryption it then sets spec.encryption.type of the APIServer resource to each given type in turn and
waits until library-go's controllers have rolled it out to every node and migrated the encrypted resources,
e.g. --encryption aescbc,KMS, and until kmsguard's census proves them from etcd under the last one.

While it runs it shows a live view (redrawn in place on a terminal, printed when it changes otherwise): each
node's revisions and apiserver readiness, each node's KMS plugins with their KEK ids, the operator's encryption
and KMS conditions, migrations and the census of etcd. From another terminal, kmsguard-lab inject puts faults
into it.`,
		Example: `  # the lab make run starts: three nodes, switched to aescbc and on to KMS v2
  kmsguard-lab --encryption aescbc,KMS

  # from another terminal: stop the KMS plugin on one node, then start it again
  kmsguard-lab inject plugin-stop master-1
  kmsguard-lab inject plugin-start master-1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().IntVar(&o.nodes, "nodes", 3, "control-plane nodes: 3, or 1 for single-node OpenShift")
	cmd.Flags().StringVar(&o.dir, "dir", "_output/lab", "directory for etcd's data, the nodes, the kubeconfig and the logs (emptied at start); short, as KMS plugin sockets live below it")
	cmd.Flags().BoolVar(&o.keep, "keep", false, "keep the directory after Ctrl-C (default: remove it)")
	cmd.Flags().StringSliceVar(&o.encryption, "encryption", nil, "encryption types to switch to in turn once the lab runs: aescbc, aesgcm, identity, KMS")
	cmd.Flags().DurationVar(&o.viewInterval, "view-interval", 2*time.Second, "how often the live view is refreshed")
	addShortTimingsFlag(cmd, &o.shortTimings)
	cmd.Flags().StringVar(&o.reporter, "reporter", string(lab.ReporterLibraryGo), reporterFlagUsage)
	cmd.Flags().StringVar(&o.preflight, "preflight", string(lab.PreflightAlwaysSucceed), preflightFlagUsage)
	cmd.AddCommand(newLabInjectCommand(), newLabTourCommand())
	// The lab's output is a log, as any Kubernetes component's; the controllers' own lines go to operator.log.
	return cli.Logs(cli.WithExitCodes(cmd, labExitCodes))
}

// labInjectOptions are the flags of `kmsguard-lab inject`.
type labInjectOptions struct {
	dir     string
	latency time.Duration
	kekID   string
	down    time.Duration
}

// faultList is the faults inject takes, one to a line with its arguments and what it does.
func faultList() string {
	terms := make([]cli.Term, 0, len(lab.Faults))
	for _, f := range lab.Faults {
		u := f.Usage()
		terms = append(terms, cli.Term{Name: strings.TrimSpace(string(f) + " " + u.Args), Text: u.Help})
	}
	return cli.TermList(25, terms)
}

func newLabInjectCommand() *cobra.Command {
	o := &labInjectOptions{}
	faults := make([]string, 0, len(lab.Faults))
	for _, f := range lab.Faults {
		faults = append(faults, string(f))
	}
	cmd := &cobra.Command{
		Use:   "inject FAULT [NODE]",
		Short: "Inject a fault into a running lab",
		Long: `inject puts a fault into the lab running in --dir (kmsguard-lab, in another terminal):

` + faultList() + `

The lab's live view shows how kmsguard sees it; kmsguard status --kubeconfig <the lab's> explains it.`,
		Example: `  kmsguard-lab inject plugin-stop master-1
  kmsguard-lab inject kms-latency --latency 5s
  kmsguard-lab inject key-disable`,
		Args:      cobra.RangeArgs(1, 2),
		ValidArgs: faults,
		RunE: func(cmd *cobra.Command, args []string) error {
			in := lab.Injection{Fault: lab.Fault(args[0]), Latency: o.latency, KEKID: o.kekID, Down: o.down}
			if len(args) == 2 {
				in.Node = args[1]
			}
			dir, err := filepath.Abs(o.dir)
			if err != nil {
				return err
			}
			did, err := lab.InjectInto(cmd.Context(), dir, in)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), did)
			return nil
		},
	}
	cmd.Flags().StringVar(&o.dir, "dir", "_output/lab", "the directory of the running lab")
	cmd.Flags().DurationVar(&o.latency, "latency", 0, "kms-latency: the added latency of every KMS call")
	cmd.Flags().StringVar(&o.kekID, "kek-id", "", "key-disable, key-restore, key-destroy: the KEK (default: the simulated KMS's current one)")
	cmd.Flags().DurationVar(&o.down, "down", 0, "node-reboot: how long the node is down (default "+lab.DefaultRebootDown.String()+")")
	return cli.WithExitCodes(cmd, labInjectExitCodes)
}

func (o *labOptions) run(ctx context.Context, out io.Writer) error {
	if o.nodes != 1 && o.nodes != 3 {
		return fmt.Errorf("--nodes must be 1 or 3, not %d", o.nodes)
	}
	modes := make([]configv1.EncryptionType, 0, len(o.encryption))
	for _, e := range o.encryption {
		mode, ok := encryptionTypes[strings.ToLower(e)]
		if !ok {
			return fmt.Errorf("--encryption %q: want aescbc, aesgcm, identity or KMS", e)
		}
		modes = append(modes, mode)
	}
	dir, controllerLog, cleanup, err := newLabDir(o.dir, o.keep)
	if err != nil {
		return err
	}
	defer cleanup()

	fmt.Fprintf(out, "lab: starting etcd, %d kube-apiservers, the node agents and the operator in %s (%s; %s; KMS preflight %s) ...\n", o.nodes, dir, timings(o.shortTimings), lab.Reporter(o.reporter), o.preflight)
	started := time.Now()
	l, err := lab.Start(ctx, lab.Options{Dir: dir, Nodes: o.nodes, Log: out, ControllerLog: controllerLog, Timings: timings(o.shortTimings), Reporter: lab.Reporter(o.reporter),
		Preflight: lab.Preflight(o.preflight)})
	if err != nil {
		return err
	}
	defer func() {
		fmt.Fprintln(out, "lab: stopping")
		if err := l.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "lab:", err)
		}
	}()
	etcd := l.EtcdConfig()
	fmt.Fprintf(out, `lab: ready after %s
  kubeconfig:      %s
  etcd:            %s (raw values: etcdctl --endpoints %s --cacert %s --cert %s --key %s get /registry/secrets --prefix)
  nodes:           %s/nodes/<node> (installed revisions with their etcd client credentials, KMS plugin sockets)
  controller log:  %s
Try:  kmsguard status --kubeconfig %s
`, time.Since(started).Round(time.Second), l.KubeConfigPath(), etcd.Endpoints[0], etcd.Endpoints[0], etcd.CAFile, etcd.CertFile, etcd.KeyFile,
		dir, controllerLog.Name(), l.KubeConfigPath())

	var keyID string
	for _, mode := range modes {
		if keyID, err = switchEncryption(ctx, l, mode, out); err != nil {
			return err
		}
	}
	if len(modes) > 0 && modes[len(modes)-1] != configv1.EncryptionTypeIdentity {
		fmt.Fprintln(out, "lab: waiting for kmsguard's census to prove it from etcd")
		started := time.Now()
		kekID := "" // for KMS, the proof must be under the KEK its plugins serve
		if modes[len(modes)-1] == configv1.EncryptionTypeKMS {
			kekID = l.KMS().CurrentKEKID()
		}
		reports, err := l.WaitForVerified(ctx, keyID, kekID)
		if err != nil {
			return err
		}
		for _, report := range reports {
			for _, r := range report.Resources {
				fmt.Fprintf(out, "lab: %s: %d of %d values in etcd under %s\n", r.Resource, r.UnderWriteKey, r.Total, report.WriteKey)
			}
		}
		fmt.Fprintf(out, "lab: proven after %s\n", time.Since(started).Round(time.Second))
	}
	fmt.Fprintln(out, "lab: live view follows; Ctrl-C stops the lab")
	l.Watch(ctx, out, lab.WatchOptions{Interval: o.viewInterval, Terminal: cli.IsTerminal(out), Title: "kmsguard-lab; Ctrl-C stops the lab"})
	return nil
}

// switchEncryption sets the APIServer's encryption type, waits until it is rolled out and migrated, and returns the
// id of library-go's key that encrypts with it.
func switchEncryption(ctx context.Context, l *lab.Lab, mode configv1.EncryptionType, out io.Writer) (string, error) {
	fmt.Fprintf(out, "lab: setting spec.encryption.type of APIServer cluster to %q\n", mode)
	started := time.Now()
	if err := l.SetEncryption(ctx, mode); err != nil {
		return "", err
	}
	keyID, err := l.WaitForEncryption(ctx, state.Mode(mode))
	if err != nil {
		return "", err
	}
	fmt.Fprintf(out, "lab: %s (key %s) rolled out to every node and migrated after %s\n", mode, keyID, time.Since(started).Round(time.Second))
	return keyID, nil
}

// encryptionTypes are the --encryption values, lower-cased.
var encryptionTypes = map[string]configv1.EncryptionType{
	"aescbc":   configv1.EncryptionTypeAESCBC,
	"aesgcm":   configv1.EncryptionTypeAESGCM,
	"identity": configv1.EncryptionTypeIdentity,
	"kms":      configv1.EncryptionTypeKMS,
}

// newLabDir empties dir (made absolute) for a new lab and creates its operator.log, which cleanup closes; cleanup
// also removes the directory unless keep.
func newLabDir(dir string, keep bool) (string, *os.File, func(), error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, nil, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", nil, nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, nil, err
	}
	controllerLog, err := os.Create(filepath.Join(dir, "operator.log"))
	if err != nil {
		return "", nil, nil, err
	}
	return dir, controllerLog, func() {
		controllerLog.Close()
		if !keep {
			os.RemoveAll(dir)
		}
	}, nil
}

// addShortTimingsFlag adds --short-timings, which `make test` sets.
func addShortTimingsFlag(cmd *cobra.Command, short *bool) {
	cmd.Flags().BoolVar(short, "short-timings", false, "shorten the operator's timeouts as make test does: "+lab.ShortOperatorTimings().String()+
		" (default: the operator's own)")
}

// preflightFlagUsage says what --preflight chooses.
const preflightFlagUsage = "the KMS preflight deployer the operator gives library-go: always-succeed (what both operators wire: " +
	"no plugin runs before a key is made) or pod (library-go's pod deployer: a kms-preflight pod, run by one node's kubelet, " +
	"checks the configuration's plugin before library-go makes a key, and the rollout gate holds keys no preflight verified)"

// reporterFlagUsage says what --reporter chooses.
var reporterFlagUsage = func() string {
	names := make([]string, 0, len(lab.Reporters))
	for _, r := range lab.Reporters {
		names = append(names, fmt.Sprintf("%s (%s)", string(r), r))
	}
	return "what runs as each apiserver pod's kms-health-reporter sidecar: " + strings.Join(names, ", or ") + "; the first is what both operators ship"
}()

func timings(short bool) lab.OperatorTimings {
	if short {
		return lab.ShortOperatorTimings()
	}
	return lab.OperatorTimings{}
}
