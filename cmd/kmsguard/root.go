package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kmsguard/kmsguard/pkg/version"
)

// NewCommand is the kmsguard root command.
func NewCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "kmsguard",
		Short:         "Keep a KMS-encrypted control plane alive and honest",
		SilenceUsage:  true,
		SilenceErrors: false,
	}
	root.AddCommand(newVersionCommand())
	root.AddCommand(newHealthReporterCommand())
	root.AddCommand(newStatusCommand())
	root.AddCommand(newVerifyCommand())
	root.AddCommand(newRecoverCommand())
	root.AddCommand(newMigrateCommand())
	root.AddCommand(newLabCommand())
	return root
}

func newVersionCommand() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the kmsguard version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			info := version.Get()
			switch output {
			case "":
				_, err := fmt.Fprintln(cmd.OutOrStdout(), info.String())
				return err
			case "json":
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(info)
			default:
				return fmt.Errorf("unknown output format %q: want json or nothing", output)
			}
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "output format: json")
	return cmd
}
