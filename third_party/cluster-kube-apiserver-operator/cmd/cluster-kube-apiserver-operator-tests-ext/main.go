/*
This command is used to run the Cluster Kube API Server Operator tests extension for OpenShift.
It registers the Cluster Kube API Server Operator tests with the OpenShift Tests Extension framework
and provides a command-line interface to execute them.
For further information, please refer to the documentation at:
https://github.com/openshift-eng/openshift-tests-extension/blob/main/cmd/example-tests/main.go
*/
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"k8s.io/component-base/cli"
	"k8s.io/klog/v2"

	otecmd "github.com/openshift-eng/openshift-tests-extension/pkg/cmd"
	oteextension "github.com/openshift-eng/openshift-tests-extension/pkg/extension"
	oteginkgo "github.com/openshift-eng/openshift-tests-extension/pkg/ginkgo"
	"github.com/openshift/cluster-kube-apiserver-operator/pkg/version"
)

func main() {
	cmd, err := newOperatorTestCommand()
	if err != nil {
		klog.Fatal(err)
	}

	code := cli.Run(cmd)
	os.Exit(code)
}

func newOperatorTestCommand() (*cobra.Command, error) {
	registry, err := prepareOperatorTestsRegistry()
	if err != nil {
		return nil, fmt.Errorf("failed to prepare test registry: %w", err)
	}

	cmd := &cobra.Command{
		Use:   "cluster-kube-apiserver-operator-tests",
		Short: "A binary used to run cluster-kube-apiserver-operator tests as part of OTE.",
		Run: func(cmd *cobra.Command, args []string) {
			// no-op, logic is provided by the OTE framework
			if err := cmd.Help(); err != nil {
				klog.Fatal(err)
			}
		},
	}

	if v := version.Get().String(); len(v) == 0 {
		cmd.Version = "<unknown>"
	} else {
		cmd.Version = v
	}

	cmd.AddCommand(otecmd.DefaultExtensionCommands(registry)...)

	return cmd, nil
}

// prepareOperatorTestsRegistry creates the OTE registry for this operator.
// This method must be called before adding the registry to the OTE framework.
func prepareOperatorTestsRegistry() (*oteextension.Registry, error) {
	registry := oteextension.NewRegistry()
	extension := oteextension.NewExtension("openshift", "payload", "cluster-kube-apiserver-operator")

	// The following suite runs tests that verify the operator's behaviour.
	// This suite is executed only on pull requests targeting this repository.
	// Tests tagged with both [Operator] and [Serial] are included in this suite.
	extension.AddSuite(oteextension.Suite{
		Name:        "openshift/cluster-kube-apiserver-operator/operator/serial",
		Parallelism: 1,
		Qualifiers: []string{
			`name.contains("[Operator]") && name.contains("[Serial]")`,
		},
	})

	extension.AddSuite(oteextension.Suite{
		Name:        "openshift/cluster-kube-apiserver-operator/event-ttl",
		Parallelism: 1,
		Qualifiers: []string{
			`name.contains("[Suite:event-ttl]")`,
		},
	})

	extension.AddSuite(oteextension.Suite{
		Name:        "openshift/cluster-kube-apiserver-operator/encryption-kms",
		Parents:     []string{"openshift/kms"},
		Parallelism: 1,
		Qualifiers: []string{
			`name.contains("KMSEncryption") && !name.contains("[Suite:encryption-kms-rotation]") && !name.contains("[Suite:encryption-kms-2]")`,
		},
	})

	extension.AddSuite(oteextension.Suite{
		Name:        "openshift/cluster-kube-apiserver-operator/encryption-kms-rotation",
		Parents:     []string{"openshift/kms"},
		Parallelism: 1,
		Qualifiers: []string{
			`name.contains("[Suite:encryption-kms-rotation]")`,
		},
	})

	extension.AddSuite(oteextension.Suite{
		Name:        "openshift/cluster-kube-apiserver-operator/encryption-kms-2",
		Parents:     []string{"openshift/kms"},
		Parallelism: 1,
		Qualifiers: []string{
			`name.contains("[Suite:encryption-kms-2]")`,
		},
	})

	extension.AddSuite(oteextension.Suite{
		Name:        "openshift/cluster-kube-apiserver-operator/encryption-perf",
		Parallelism: 1,
		Qualifiers: []string{
			`name.contains("[Suite:encryption-perf]")`,
		},
	})

	specs, err := oteginkgo.BuildExtensionTestSpecsFromOpenShiftGinkgoSuite()
	if err != nil {
		return nil, fmt.Errorf("couldn't build extension test specs from ginkgo: %w", err)
	}

	extension.AddSpecs(specs)
	registry.Register(extension)
	return registry, nil
}
