// Command lab runs a local KMS-encrypted control plane for trying kmsguard by hand (`make run`): etcd and a
// kube-apiserver that encrypt with the EncryptionConfiguration embedded in bindata/, through fake KMS v2
// plugins served on that config's endpoints. It prints a kubeconfig and runs until interrupted.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"

	"github.com/kmsguard/kmsguard/bindata"
	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

func main() {
	outDir := flag.String("dir", "_output/lab", "directory for the kubeconfig, etcd data and logs (emptied at start)")
	flag.Parse()
	if err := run(*outDir); err != nil {
		fmt.Fprintln(os.Stderr, "lab:", err)
		os.Exit(1)
	}
}

func run(outDir string) error {
	config, err := encryptionconfig.Decode(bindata.MustAsset(bindata.LabEncryptionConfig))
	if err != nil {
		return fmt.Errorf("the embedded %s: %w", bindata.LabEncryptionConfig, err)
	}
	outDir, err = filepath.Abs(outDir)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(outDir); err != nil {
		return err
	}
	if err := os.MkdirAll(outDir, 0o700); err != nil {
		return err
	}

	kms := fake.NewKMS()
	plugins, err := startPlugins(kms, config)
	defer func() {
		for _, p := range plugins {
			p.Stop()
		}
	}()
	if err != nil {
		return err
	}

	fmt.Println("lab: starting etcd and kube-apiserver ...")
	cp, err := kmsenv.Start(kmsenv.Options{Dir: outDir, APIServerOptions: kmsenv.APIServerOptions{EncryptionConfig: config}})
	if err != nil {
		return err
	}
	defer func() {
		fmt.Println("lab: stopping")
		if err := cp.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "lab:", err)
		}
	}()

	a := cp.APIServer(0)
	kubeconfig, err := a.KubeConfig()
	if err != nil {
		return err
	}
	kubeconfigPath := filepath.Join(outDir, "kubeconfig")
	if err := os.WriteFile(kubeconfigPath, kubeconfig, 0o600); err != nil {
		return err
	}
	fmt.Printf(`lab: ready
  kubeconfig:      %s
  etcd:            %s (raw values: etcdctl --endpoints %s get /registry/secrets --prefix)
  encryption:      %s
  apiserver log:   %s
  KMS key id:      %s
Try:  kubectl --kubeconfig %s create secret generic demo --from-literal=k=v
Press Ctrl-C to stop.
`, kubeconfigPath, cp.EtcdEndpoint(), cp.EtcdEndpoint(), a.EncryptionConfigPath(), a.LogPath(), kms.CurrentKeyID(), kubeconfigPath)

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	<-signals
	return nil
}

// startPlugins serves one fake plugin, all sharing kms, on every KMS v2 endpoint of config.
func startPlugins(kms *fake.KMS, config *apiserverv1.EncryptionConfiguration) ([]*fake.Plugin, error) {
	var plugins []*fake.Plugin
	seen := map[string]bool{}
	for _, r := range config.Resources {
		for _, p := range r.Providers {
			if p.KMS == nil || p.KMS.APIVersion != "v2" || seen[p.KMS.Endpoint] {
				continue
			}
			seen[p.KMS.Endpoint] = true
			socket := strings.TrimPrefix(p.KMS.Endpoint, "unix://")
			if err := os.MkdirAll(filepath.Dir(socket), 0o700); err != nil {
				return plugins, err
			}
			plugin := fake.NewPlugin(kms, socket)
			if err := plugin.Start(); err != nil {
				return plugins, fmt.Errorf("serving the fake plugin %q on %s (is another lab running?): %w", p.KMS.Name, socket, err)
			}
			plugins = append(plugins, plugin)
		}
	}
	return plugins, nil
}
