package main

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// kubeFlags are the API connection flags of every command that talks to a cluster, loaded the way kubectl and
// oc load them: --kubeconfig, else $KUBECONFIG (a list of files, merged), else ~/.kube/config, else the
// in-cluster config of a pod; --context, --cluster, --user, --server, --token, --request-timeout and the other
// kubeconfig overrides on top.
type kubeFlags struct {
	rules     *clientcmd.ClientConfigLoadingRules
	overrides clientcmd.ConfigOverrides
	// userAgent, when set, names the command in the apiserver's audit log.
	userAgent string
}

// addKubeFlags registers the connection flags on fs. Namespace is left out: every command reads cluster-wide.
func addKubeFlags(fs *pflag.FlagSet) *kubeFlags {
	k := &kubeFlags{rules: clientcmd.NewDefaultClientConfigLoadingRules()}
	fs.StringVar(&k.rules.ExplicitPath, clientcmd.RecommendedConfigPathFlag, "", "path to the kubeconfig file; empty uses $KUBECONFIG, ~/.kube/config or the in-cluster config, as kubectl does")
	names := clientcmd.RecommendedConfigOverrideFlags("")
	names.ContextOverrideFlags.Namespace.LongName = ""
	names.Timeout.Default = "0"
	clientcmd.BindOverrideFlags(&k.overrides, fs, names)
	return k
}

// restConfig loads the client config.
func (k *kubeFlags) restConfig() (*rest.Config, error) {
	config, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(k.rules, &k.overrides).ClientConfig()
	if err != nil {
		if clientcmd.IsEmptyConfig(err) {
			return nil, errors.New("no cluster to talk to: give --kubeconfig, set $KUBECONFIG, write ~/.kube/config, or run in a pod")
		}
		return nil, fmt.Errorf("loading kubeconfig: %w", err)
	}
	if k.userAgent != "" {
		config = rest.AddUserAgent(config, k.userAgent)
	}
	return config, nil
}

// loadKubeconfig loads a client config with the same rules, for commands that take only --kubeconfig (the
// health reporter, whose flags are library-go's kms-health-reporter's): in a pod without a kubeconfig it is
// the in-cluster config.
func loadKubeconfig(path string) (*rest.Config, error) {
	k := &kubeFlags{rules: clientcmd.NewDefaultClientConfigLoadingRules()}
	k.rules.ExplicitPath = path
	return k.restConfig()
}
