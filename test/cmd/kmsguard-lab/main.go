// Command kmsguard-lab runs kmsguard's lab: a local OpenShift-style control plane with kube-apiserver-operator's
// library-go controllers and kmsguard's, the faults to inject into it, and the tour of the user stories on it
// (make lab, make run). It lives in the test module: the product binary, cmd/kmsguard, links none of it.
package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/klog/v2"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/kmsguard/kmsguard/internal/cli"
	"github.com/kmsguard/kmsguard/test/lab"
)

func main() {
	// The lab's kubelet starts a pod's container (the kms-health-reporter sidecar, the kms-preflight check) as a
	// process of this binary, which enters the container's root and executes the image's binary there.
	lab.ContainerMain()
	// envtest, which starts the lab's control plane, logs through controller-runtime: into klog, where the lab
	// sends every controller's log, instead of controller-runtime's warning and stack trace on the terminal.
	ctrllog.SetLogger(klog.NewKlogr())
	os.Exit(cli.Execute(context.Background(), newRoot(), os.Args[1:], os.Stdout, os.Stderr))
}

// newRoot is kmsguard-lab's command tree, with the conventions every kmsguard command line keeps.
func newRoot() *cobra.Command {
	root := newLabCommand()
	cli.ConfigureRoot(root)
	return root
}
