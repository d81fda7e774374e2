// Command kmsguard inspects and repairs KMS v2 encryption of an OpenShift (or any Kubernetes) control plane.
// Its subcommands run the same code that kube-apiserver-operator vendors from kmsguard's packages.
package main

import (
	"os"

	"k8s.io/component-base/cli"
)

func main() {
	os.Exit(cli.Run(NewCommand()))
}
