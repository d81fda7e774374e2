package main

import (
	"fmt"

	"github.com/kmsguard/kmsguard/internal/cli"

	"github.com/spf13/cobra"

	"github.com/kmsguard/kmsguard/pkg/version"
)

// NewCommand is the kmsguard root command.
func NewCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "kmsguard",
		Short: "Keep a KMS-encrypted control plane alive and honest",
		Long: `kmsguard inspects and repairs KMS v2 encryption of an OpenShift (or any Kubernetes) control plane, with the
code kube-apiserver-operator vendors from kmsguard's packages.

The commands that talk to a cluster find it as kubectl does: --kubeconfig, $KUBECONFIG, ~/.kube/config or the
in-cluster config, with --context, --request-timeout and the other kubeconfig overrides. Errors are printed on
stderr as "error: ..."; -v=N shows client-go's diagnostics. -o json and -o yaml print structured output.

` + exitCodeSchemeHelp(),
	}
	cli.ConfigureRoot(root)
	root.AddCommand(newVersionCommand())
	root.AddCommand(newHealthReporterCommand())
	root.AddCommand(newStatusCommand())
	root.AddCommand(newVerifyCommand())
	root.AddCommand(newRecoverCommand())
	root.AddCommand(newMigrateCommand())
	return root
}

func newVersionCommand() *cobra.Command {
	var output cli.OutputFormat
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the kmsguard version",
		Example: `  kmsguard version
  kmsguard version -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			info := version.Get()
			if output.Structured() {
				return output.Print(cmd.OutOrStdout(), info)
			}
			_, err := fmt.Fprintln(cmd.OutOrStdout(), info.String())
			return err
		},
	}
	cli.AddOutputFlag(cmd.Flags(), &output, "the version fields")
	return cli.WithExitCodes(cmd, plainExitCodes)
}
