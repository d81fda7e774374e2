package openshift

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// OperatorBinaryEnv names the kube-apiserver-operator binary to run; make sets it to what `make
// kube-apiserver-operator` built.
const OperatorBinaryEnv = "KMSGUARD_KUBE_APISERVER_OPERATOR"

// OperatorBinary is the kube-apiserver-operator binary built from third_party/cluster-kube-apiserver-operator with
// hack/integration's patch: $KMSGUARD_KUBE_APISERVER_OPERATOR, or _output/bin/cluster-kube-apiserver-operator of
// the kmsguard checkout.
func OperatorBinary() (string, error) {
	path := os.Getenv(OperatorBinaryEnv)
	if path == "" {
		root, err := kmsenv.ModuleRoot()
		if err != nil {
			return "", err
		}
		path = filepath.Join(root, "_output", "bin", "cluster-kube-apiserver-operator")
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("the kube-apiserver-operator binary: %w (make kube-apiserver-operator builds it)", err)
	}
	return path, nil
}

// OperatorOptions are how the operator's Deployment runs it.
type OperatorOptions struct {
	// Binary is the operator binary (OperatorBinary).
	Binary string
	// KubeConfig is the kubeconfig file it reaches the API with; its pod would use its service account.
	KubeConfig string
	// Dir receives its log, operator.log.
	Dir string
	// Version is OPERATOR_IMAGE_VERSION, the release version (Cluster.Version); OperandVersion is
	// OPERAND_IMAGE_VERSION, the Kubernetes version of its operand ("1.36.3").
	Version, OperandVersion string
	// Image and OperatorImage are IMAGE (the operand's image, hyperkube) and OPERATOR_IMAGE (its own, which the
	// installer, pruner, kms-preflight and sidecar containers it creates run).
	Image, OperatorImage string
	// PodName is POD_NAME, the name of its pod: leader election's identity.
	PodName string
}

// Operator is a running `cluster-kube-apiserver-operator operator` process.
type Operator struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error
	log  string
}

// StartOperator starts `cluster-kube-apiserver-operator operator`, with leader election on, in the environment its
// Deployment gives it.
func StartOperator(opts OperatorOptions) (*Operator, error) {
	if opts.Binary == "" || opts.KubeConfig == "" || opts.Dir == "" || opts.Version == "" || opts.OperandVersion == "" {
		return nil, errors.New("OperatorOptions: Binary, KubeConfig, Dir, Version and OperandVersion are required")
	}
	port, err := kmsenv.FreePort()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, err
	}
	logPath := filepath.Join(opts.Dir, "operator.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(opts.Binary, "operator",
		"--kubeconfig="+opts.KubeConfig,
		"--namespace="+OperatorNamespace,
		"--listen=127.0.0.1:"+port,
		"-v=2")
	cmd.Dir = opts.Dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = append(os.Environ(),
		"IMAGE="+opts.Image,
		"OPERATOR_IMAGE="+opts.OperatorImage,
		"OPERAND_IMAGE_VERSION="+opts.OperandVersion,
		"OPERATOR_IMAGE_VERSION="+opts.Version,
		"POD_NAME="+opts.PodName,
	)
	// Its own process group: stopping it stops what it started, and a Ctrl-C of the caller reaches it only through
	// Stop, as a pod's process is stopped by its kubelet.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	o := &Operator{cmd: cmd, done: make(chan struct{}), log: logPath}
	go func() {
		o.err = cmd.Wait()
		close(o.done)
	}()
	return o, nil
}

// LogPath is the operator's log file.
func (o *Operator) LogPath() string { return o.log }

// Exited is closed once the process has exited.
func (o *Operator) Exited() <-chan struct{} { return o.done }

// Stop stops the operator as a kubelet stops its container: SIGTERM, then SIGKILL after the 30 s grace period.
func (o *Operator) Stop() error {
	select {
	case <-o.done:
		return nil
	default:
	}
	_ = syscall.Kill(-o.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-o.done:
		return nil
	case <-time.After(30 * time.Second):
		_ = syscall.Kill(-o.cmd.Process.Pid, syscall.SIGKILL)
		<-o.done
		return fmt.Errorf("kube-apiserver-operator did not stop within 30 s of SIGTERM: killed")
	}
}
