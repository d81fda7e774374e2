// Command kmsguard inspects and repairs KMS v2 encryption of an OpenShift (or any Kubernetes) control plane.
// Its subcommands run the same code that kube-apiserver-operator vendors from kmsguard's packages.
package main

import (
	"context"
	"os"

	"github.com/kmsguard/kmsguard/internal/cli"
)

func main() {
	os.Exit(cli.Execute(context.Background(), NewCommand(), os.Args[1:], os.Stdout, os.Stderr))
}
