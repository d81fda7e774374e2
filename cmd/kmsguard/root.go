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
	root.AddCommand(cli.Logs(newHealthReporterCommand()))
	root.AddCommand(newStatusCommand())
	root.AddCommand(newVerifyCommand())
	root.AddCommand(newRecoverCommand())
	root.AddCommand(newMigrateCommand())
	for _, cmd := range root.Commands() {
		documentCommand(cmd)
	}
	return root
}

// examples are the Example sections of the commands defined elsewhere.
var examples = map[string]string{
	"health-reporter": `  # The sidecar next to KMS plugin kms-1 on node master-0, reporting to the KubeAPIServer resource
  kmsguard health-reporter --kms-sockets unix:///var/run/kmsplugin/kms-1.sock --node-name master-0`,
}

// documentCommand adds the exit codes to a command's --help, and its example where the command has none.
func documentCommand(cmd *cobra.Command) {
	if codes, ok := commandExitCodes[cmd.Name()]; ok {
		long := cmd.Long
		if long == "" {
			long = cmd.Short + "."
		}
		cmd.Long = long + "\n\n" + cli.ExitCodesHelp(codes)
	}
	if cmd.Example == "" {
		cmd.Example = examples[cmd.Name()]
	}
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
	return cmd
}
