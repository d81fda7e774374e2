package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	kmshealth "github.com/openshift/library-go/pkg/operator/encryption/kms/health"
	kmspreflight "github.com/openshift/library-go/pkg/operator/encryption/kms/preflight"
	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
)

// containerEnv carries a container's spec from the lab's kubelet to the process it starts for it.
const containerEnv = "KMSGUARD_LAB_CONTAINER"

// containerSpec is what the kubelet hands the process it starts for a container: the command and its arguments
// (environment references already expanded, as a kubelet does), and the container's volume mounts over an empty
// root of its own.
type containerSpec struct {
	Name    string           `json:"name"`
	Command []string         `json:"command"`
	Args    []string         `json:"args"`
	Root    string           `json:"root"`
	Mounts  []containerMount `json:"mounts"`
	// Env is what the kubelet adds to the container's environment besides the spec's: the kubernetes Service's
	// address (serviceEnv).
	Env map[string]string `json:"env,omitempty"`
}

// containerMount is one volume mount: the node's directory Source at Target inside the container.
type containerMount struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	ReadOnly bool   `json:"readOnly"`
}

// ContainerMain runs the container the lab's kubelet started this process for, and exits with its status. In any
// other process it returns at once. Every executable that starts a lab calls it first (kmsguard-lab's main, the
// e2e tests' TestMain): the kubelet runs a container's command as a new process of the same executable, in a
// mount namespace of its own whose root holds only the container's volumes, so that the command finds its files
// where the pod spec mounts them (/var/run/kmsplugin, /etc/kubernetes/static-pod-resources) on a machine that
// runs several nodes at once.
//
// The only image the lab has is kube-apiserver-operator's, with two of its commands: the kms-health-reporter
// (library-go's kms/health.NewCommand, built with the operator's KubeAPIServer status provider, as the operator's
// main builds it) and the kms-preflight checker (library-go's kms/preflight.NewCommand).
func ContainerMain() {
	raw, ok := os.LookupEnv(containerEnv)
	if !ok {
		return
	}
	if err := runContainer(raw); err != nil {
		fmt.Fprintf(os.Stderr, "container: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runContainer(raw string) error {
	var spec containerSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		return fmt.Errorf("$%s: %w", containerEnv, err)
	}
	var cmd *cobra.Command
	switch {
	case slices.Equal(spec.Command, reporterCommand):
		cmd = kmshealth.NewCommand(context.Background(), func(client operatorclient.Interface) (kms.EncryptionStatusProvider, error) {
			return encryptionstatus.NewKubeAPIServer(client.OperatorV1().KubeAPIServers()), nil
		})
	case slices.Equal(spec.Command, preflightCommand):
		cmd = kmspreflight.NewCommand(context.Background())
	default:
		return fmt.Errorf("container %s: the lab has no image for the command %q (only %q and %q)", spec.Name, spec.Command, reporterCommand, preflightCommand)
	}
	if err := enterRoot(spec); err != nil {
		return fmt.Errorf("container %s: %w", spec.Name, err)
	}
	for name, value := range spec.Env {
		if err := os.Setenv(name, value); err != nil {
			return fmt.Errorf("container %s: %w", spec.Name, err)
		}
	}
	cmd.SetArgs(spec.Args)
	return cmd.Execute()
}

// reporterCommand is the command of library-go's kms-health-reporter sidecar as kube-apiserver-operator has the
// builder write it: the operator's binary and the subcommand.
var reporterCommand = []string{operatorBinary, kmshealth.Subcommand}

// enterRoot gives the process the container's file system: a tmpfs at spec.Root with each mount bound at its
// target, then chroot into it. The process is already in a mount namespace of its own (startContainer), so
// nothing of this is seen outside it.
func enterRoot(spec containerSpec) error {
	// Mounts made here must not propagate back to the node's namespace.
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making / private: %w", err)
	}
	if err := syscall.Mount("tmpfs", spec.Root, "tmpfs", 0, "mode=0755"); err != nil {
		return fmt.Errorf("mounting the root: %w", err)
	}
	for _, m := range spec.Mounts {
		target := filepath.Join(spec.Root, m.Target)
		if err := os.MkdirAll(target, 0o755); err != nil {
			return err
		}
		if err := syscall.Mount(m.Source, target, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
			return fmt.Errorf("mounting %s at %s: %w", m.Source, m.Target, err)
		}
		if m.ReadOnly {
			if err := syscall.Mount("", target, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
				return fmt.Errorf("mounting %s read-only: %w", m.Target, err)
			}
		}
	}
	if err := syscall.Chroot(spec.Root); err != nil {
		return fmt.Errorf("chroot: %w", err)
	}
	return os.Chdir("/")
}

// containerSpecFor is the spec the kubelet hands the process of container c of pod: its volume mounts on the
// node's directories (the pod's socket emptyDir, the revision's resource directory or the Secret volume of the
// plugins' credentials, the service account's credentials: the only volumes the lab's pods have), its arguments
// with the environment references expanded; fields are the downward API's values by field path. A mount of any
// other volume is an error: the container could not start.
func containerSpecFor(c corev1.Container, pod *podRun, fields map[string]string, root string) (containerSpec, error) {
	spec := containerSpec{Name: c.Name, Command: c.Command, Root: root}
	for _, vm := range c.VolumeMounts {
		var source string
		switch {
		case vm.MountPath == kmsSocketMountPath:
			source = pod.paths.socketDir
		case vm.MountPath == pod.paths.resourceMountPath() && pod.paths.resourceDir != "":
			source = pod.paths.resourceDir
		case vm.MountPath == serviceAccountMountPath && pod.paths.serviceAccountDir != "":
			source = pod.paths.serviceAccountDir
		default:
			return containerSpec{}, fmt.Errorf("volume %s at %s: the lab's pod has no such volume", vm.Name, vm.MountPath)
		}
		spec.Mounts = append(spec.Mounts, containerMount{Source: source, Target: vm.MountPath, ReadOnly: vm.ReadOnly})
	}
	env, err := containerEnvOf(c, fields)
	if err != nil {
		return containerSpec{}, err
	}
	for _, arg := range c.Args {
		spec.Args = append(spec.Args, expandEnv(arg, env))
	}
	return spec, nil
}

// containerEnvOf is the container's environment: literal values and the downward API's fields (spec.nodeName,
// and a workload's metadata.name and metadata.namespace: all the lab's containers read).
func containerEnvOf(c corev1.Container, fields map[string]string) (map[string]string, error) {
	env := map[string]string{}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = expandEnv(e.Value, env)
		case e.ValueFrom.FieldRef != nil:
			v, ok := fields[e.ValueFrom.FieldRef.FieldPath]
			if !ok {
				return nil, fmt.Errorf("env %s: the lab's kubelet does not resolve %s", e.Name, e.ValueFrom.FieldRef.FieldPath)
			}
			env[e.Name] = v
		default:
			return nil, fmt.Errorf("env %s: the lab's kubelet resolves only literal values and field references", e.Name)
		}
	}
	return env, nil
}

// expandEnv replaces $(NAME) with the value of NAME, as a kubelet expands a container's arguments; a reference to
// a variable that is not set stays as it is, and $$ is a literal $.
func expandEnv(s string, env map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
			continue
		case '(':
			if end := strings.IndexByte(s[i+2:], ')'); end >= 0 {
				name := s[i+2 : i+2+end]
				if v, ok := env[name]; ok {
					b.WriteString(v)
					i += 2 + end
					continue
				}
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// containerRun is a container the kubelet keeps running: its process restarted with the kubelet's back-off when
// it exits, until stop.
type containerRun struct {
	stop context.CancelFunc
	done chan struct{}
}

// startContainer runs spec's process until ctx ends or the returned run is stopped, restarting it with the
// kubelet's crash-loop back-off when it exits on its own. Its output goes to logPath.
func (n *Node) startContainer(ctx context.Context, spec containerSpec, logPath string) (*containerRun, error) {
	self, raw, log, err := prepareContainer(spec, logPath)
	if err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	run := &containerRun{stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(run.done)
		defer log.Close()
		for restarts := int32(0); ; restarts++ {
			started := time.Now()
			err := runProcess(runCtx, self, raw, log)
			if runCtx.Err() != nil {
				return
			}
			// A container that ran for a while starts over at the shortest back-off, as a kubelet's does.
			if time.Since(started) > 10*time.Minute {
				restarts = 0
			}
			backOff := crashLoopBackOff(restarts + 1)
			n.logf("%s: container %s exited (%v); restarting in %s", n.name, spec.Name, err, backOff)
			select {
			case <-runCtx.Done():
				return
			case <-time.After(backOff):
			}
		}
	}()
	return run, nil
}

// runContainerOnce runs spec's process once, as the kubelet runs the container of a pod whose restartPolicy is
// Never, and returns its exit code. Its output goes to logPath.
func (n *Node) runContainerOnce(ctx context.Context, spec containerSpec, logPath string) (int, error) {
	self, raw, log, err := prepareContainer(spec, logPath)
	if err != nil {
		return 128, err
	}
	defer log.Close()
	err = runProcess(ctx, self, raw, log)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode(), nil
	default:
		return 128, err
	}
}

// prepareContainer is what the kubelet does before it starts a container's process: the executable to start,
// the spec it is handed, the container's root and its log file.
func prepareContainer(spec containerSpec, logPath string) (string, []byte, *os.File, error) {
	raw, err := json.Marshal(spec)
	if err != nil {
		return "", nil, nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return "", nil, nil, err
	}
	if err := os.MkdirAll(spec.Root, 0o700); err != nil {
		return "", nil, nil, err
	}
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return "", nil, nil, err
	}
	return self, raw, log, nil
}

// runProcess runs the container's process once, until it exits or ctx ends: then it is sent SIGTERM, and
// SIGKILL 10 s later, as a kubelet stops a container.
func runProcess(ctx context.Context, self string, spec []byte, log *os.File) error {
	cmd := exec.CommandContext(ctx, self)
	cmd.Env = append(os.Environ(), containerEnv+"="+string(spec))
	cmd.Stdout, cmd.Stderr = log, log
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	cmd.SysProcAttr = containerProcAttr()
	err := cmd.Run()
	if errors.Is(err, exec.ErrWaitDelay) {
		return nil
	}
	return err
}

// containerProcAttr starts the process in a mount namespace of its own (and, without root, a user namespace that
// maps the caller to root, so that it may mount there), killed if the lab dies first.
func containerProcAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if os.Geteuid() == 0 {
		attr.Unshareflags = syscall.CLONE_NEWNS
		return attr
	}
	attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
	attr.GidMappingsEnableSetgroups = false
	return attr
}
