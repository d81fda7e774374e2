// Command kmsguard-lab runs kmsguard's lab: a local OpenShift-style control plane with kube-apiserver-operator's
// library-go controllers and kmsguard's, the faults to inject into it, and the tour of the user stories on it
// (make lab, make run). It lives in the test module: the product binary, cmd/kmsguard, links none of it.
package main

import (
	"context"
	"os"

	"github.com/kmsguard/kmsguard/internal/cli"
)

func main() {
	root := newLabCommand()
	cli.ConfigureRoot(root)
	os.Exit(cli.Execute(context.Background(), root, os.Args[1:], os.Stdout, os.Stderr))
}
