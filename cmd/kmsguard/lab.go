package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"github.com/spf13/cobra"

	"github.com/kmsguard/kmsguard/pkg/lab"
)

// labOptions are the flags of `kmsguard lab`.
type labOptions struct {
	nodes      int
	dir        string
	keep       bool
	encryption []string
}

func newLabCommand() *cobra.Command {
	o := &labOptions{}
	cmd := &cobra.Command{
		Use:   "lab",
		Short: "Run a local OpenShift-style control plane with library-go's and kmsguard's controllers until Ctrl-C",
		Long: `lab starts etcd, one real kube-apiserver per control-plane node (master-0..N-1), a node agent per node
that plays the kubelet, the installer, the startup monitor and the KMS plugin sidecars (fake KMS v2 plugins on
one simulated KMS), and kube-apiserver-operator's library-go static-pod and encryption controllers with
kmsguard's controllers. It prints a kubeconfig and the etcd endpoint and runs until interrupted.

With --encryption it then sets spec.encryption.type of the APIServer resource to each given type in turn and
waits until library-go's controllers have rolled it out to every node and migrated the encrypted resources,
e.g. --encryption aescbc,KMS.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return o.run(ctx, cmd.OutOrStdout())
		},
	}
	cmd.Flags().IntVar(&o.nodes, "nodes", 3, "control-plane nodes: 3, or 1 for single-node OpenShift")
	cmd.Flags().StringVar(&o.dir, "dir", "_output/lab", "directory for etcd's data, the nodes, the kubeconfig and the logs (emptied at start); short, as KMS plugin sockets live below it")
	cmd.Flags().BoolVar(&o.keep, "keep", false, "keep the directory after Ctrl-C (default: remove it)")
	cmd.Flags().StringSliceVar(&o.encryption, "encryption", nil, "encryption types to switch to in turn once the lab runs: aescbc, aesgcm, identity, KMS")
	return cmd
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
	dir, err := filepath.Abs(o.dir)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if !o.keep {
		defer os.RemoveAll(dir)
	}
	controllerLog, err := os.Create(filepath.Join(dir, "operator.log"))
	if err != nil {
		return err
	}
	defer controllerLog.Close()

	fmt.Fprintf(out, "lab: starting etcd, %d kube-apiservers, the node agents and the operator in %s ...\n", o.nodes, dir)
	started := time.Now()
	l, err := lab.Start(ctx, lab.Options{Dir: dir, Nodes: o.nodes, Log: out, ControllerLog: controllerLog})
	if err != nil {
		return err
	}
	defer func() {
		fmt.Fprintln(out, "lab: stopping")
		if err := l.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "lab:", err)
		}
	}()
	fmt.Fprintf(out, `lab: ready after %s
  kubeconfig:      %s
  etcd:            %s (raw values: etcdctl --endpoints %s get /registry/secrets --prefix)
  nodes:           %s/nodes/<node> (installed revisions, KMS plugin sockets)
  controller log:  %s
Try:  kmsguard status --kubeconfig %s
`, time.Since(started).Round(time.Second), l.KubeConfigPath(), l.EtcdEndpoint(), l.EtcdEndpoint(), dir, controllerLog.Name(), l.KubeConfigPath())

	for _, mode := range modes {
		if err := switchEncryption(ctx, l, mode, out); err != nil {
			return err
		}
	}
	if len(modes) > 0 {
		if err := l.PrintStatus(ctx, out); err != nil {
			return err
		}
	}
	fmt.Fprintln(out, "Press Ctrl-C to stop.")
	<-ctx.Done()
	return nil
}

// switchEncryption sets the APIServer's encryption type and waits until it is rolled out and migrated.
func switchEncryption(ctx context.Context, l *lab.Lab, mode configv1.EncryptionType, out io.Writer) error {
	fmt.Fprintf(out, "lab: setting spec.encryption.type of APIServer cluster to %q\n", mode)
	started := time.Now()
	if err := l.SetEncryption(ctx, mode); err != nil {
		return err
	}
	keyID, err := l.WaitForEncryption(ctx, state.Mode(mode))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "lab: %s (key %s) rolled out to every node and migrated after %s\n", mode, keyID, time.Since(started).Round(time.Second))
	return nil
}

// encryptionTypes are the --encryption values, lower-cased.
var encryptionTypes = map[string]configv1.EncryptionType{
	"aescbc":   configv1.EncryptionTypeAESCBC,
	"aesgcm":   configv1.EncryptionTypeAESGCM,
	"identity": configv1.EncryptionTypeIdentity,
	"kms":      configv1.EncryptionTypeKMS,
}
