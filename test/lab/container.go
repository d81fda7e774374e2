package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// containerEnv carries a container's spec from the lab's kubelet to the process it starts for it.
const containerEnv = "KMSGUARD_LAB_CONTAINER"

// containerSpec is what the kubelet hands the process it starts for a container: the image's executable the
// command names, its arguments (environment references already expanded, as a kubelet does) and environment, and
// the container's volume mounts over an empty root of its own.
type containerSpec struct {
	Name    string   `json:"name"`
	Command []string `json:"command"`
	Args    []string `json:"args"`
	// Exec is the executable the command names, as a path in the container's root.
	Exec   string           `json:"exec"`
	Root   string           `json:"root"`
	Mounts []containerMount `json:"mounts"`
	// Links are the symbolic links of the root, their targets by path: the machine's /lib -> usr/lib, where
	// it has one.
	Links map[string]string `json:"links,omitempty"`
	// Env is the container's whole environment: the image's PATH, the spec's variables and the kubernetes
	// Service's address (serviceEnv). Nothing of the lab's own environment reaches the container.
	Env map[string]string `json:"env,omitempty"`
}

// containerMount is one mount: the node's directory or file Source at Target inside the container.
type containerMount struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	ReadOnly bool   `json:"readOnly"`
}

// image is a container image as the lab's kubelet runs it: its executables by their path in the image, each a
// file of the machine, over the machine's shared libraries (machineLibraryDirs).
type image map[string]string

// imagePath is the image's PATH, where a command that is not a path is looked up.
const imagePath = "/usr/local/bin:/usr/bin:/bin"

// machineLibraryDirs are the machine's directories of shared libraries, which every container's root has
// read-only: the lab's images are executables built on the machine, and a Go binary built with cgo, as the
// operator's is, needs the machine's loader and libc.
var machineLibraryDirs = []string{"/lib", "/lib64", "/usr/lib", "/usr/lib64"}

// operatorImages are the images of the lab: kube-apiserver-operator's, whose one executable is the operator binary
// (the one the operator's pods and sidecars run: the kms-health-reporter, the kms-preflight check).
func operatorImages(binary string) map[string]image {
	return map[string]image{operatorImage: {"/usr/bin/" + operatorBinary: binary}}
}

// ContainerMain runs the container the lab's kubelet started this process for: it never returns there. In any
// other process it returns at once. Every executable that starts a lab calls it first (kmsguard-lab's main, the
// e2e tests' TestMain): the kubelet starts a container as a new process of the same executable, in a mount
// namespace of its own, which makes the container's root (its volumes, its image's executable, the machine's
// shared libraries) and then executes the image's executable in it, so that the command finds its files where the
// pod spec mounts them (/var/run/kmsplugin, /etc/kubernetes/static-pod-resources) on a machine that runs several
// nodes at once.
func ContainerMain() {
	raw, ok := os.LookupEnv(containerEnv)
	if !ok {
		return
	}
	err := runContainer(raw)
	fmt.Fprintf(os.Stderr, "container: %v\n", err)
	os.Exit(128)
}

// runContainer enters the container's root and executes its command; it returns only when it could not.
func runContainer(raw string) error {
	var spec containerSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		return fmt.Errorf("$%s: %w", containerEnv, err)
	}
	if spec.Exec == "" || len(spec.Command) == 0 {
		return fmt.Errorf("container %s: no command", spec.Name)
	}
	if err := enterRoot(spec); err != nil {
		return fmt.Errorf("container %s: %w", spec.Name, err)
	}
	env := make([]string, 0, len(spec.Env))
	for name, value := range spec.Env {
		env = append(env, name+"="+value)
	}
	sort.Strings(env)
	argv := append(slices.Clone(spec.Command), spec.Args...)
	return fmt.Errorf("container %s: %w", spec.Name, syscall.Exec(spec.Exec, argv, env))
}

// enterRoot gives the process the container's file system: a tmpfs at spec.Root with the links made and each
// mount bound at its target, then chroot into it. The process is already in a mount namespace of its own
// (startContainer), so nothing of this is seen outside it.
func enterRoot(spec containerSpec) error {
	// Mounts made here must not propagate back to the node's namespace.
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making / private: %w", err)
	}
	if err := syscall.Mount("tmpfs", spec.Root, "tmpfs", 0, "mode=0755"); err != nil {
		return fmt.Errorf("mounting the root: %w", err)
	}
	for path, target := range spec.Links {
		link := filepath.Join(spec.Root, path)
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			return err
		}
		if err := os.Symlink(target, link); err != nil {
			return err
		}
	}
	for _, m := range spec.Mounts {
		target := filepath.Join(spec.Root, m.Target)
		if err := mountPoint(m.Source, target); err != nil {
			return fmt.Errorf("mounting %s at %s: %w", m.Source, m.Target, err)
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

// mountPoint makes target what a bind mount of source needs: a directory for a directory, an empty file for a
// file.
func mountPoint(source, target string) error {
	info, err := os.Stat(source)
	if err != nil {
		return err
	}
	if info.IsDir() {
		return os.MkdirAll(target, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	return f.Close()
}

// imageRoot is what the root of a container of img gets besides its volumes: the image's executables and the
// machine's shared libraries, read-only, and the executable that command names.
func imageRoot(img image, command []string) (exec string, mounts []containerMount, links map[string]string, err error) {
	if len(command) == 0 {
		return "", nil, nil, errors.New("no command: the lab's images have no entrypoint")
	}
	exec = command[0]
	if !filepath.IsAbs(exec) {
		exec = ""
		for _, dir := range filepath.SplitList(imagePath) {
			if _, ok := img[filepath.Join(dir, command[0])]; ok {
				exec = filepath.Join(dir, command[0])
				break
			}
		}
	}
	if _, ok := img[exec]; !ok {
		return "", nil, nil, fmt.Errorf("the image has no executable %q (it has %v)", command[0], slices.Sorted(maps.Keys(img)))
	}
	for _, path := range slices.Sorted(maps.Keys(img)) {
		mounts = append(mounts, containerMount{Source: img[path], Target: path, ReadOnly: true})
	}
	links = map[string]string{}
	for _, dir := range machineLibraryDirs {
		info, err := os.Lstat(dir)
		switch {
		case err != nil:
			continue // the machine has no such directory
		case info.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(dir)
			if err != nil {
				return "", nil, nil, err
			}
			links[dir] = target
		case info.IsDir():
			mounts = append(mounts, containerMount{Source: dir, Target: dir, ReadOnly: true})
		}
	}
	return exec, mounts, links, nil
}

// containerSpecFor is the spec the kubelet hands the process of container c of pod: its image's executable
// (from images), its volume mounts on the node's directories (the pod's socket emptyDir, the revision's resource
// directory or the Secret volume of the plugins' credentials, the service account's credentials, the node's
// directories of hostPath volumes: the only volumes the lab's pods have), its arguments with the environment references expanded and its environment; fields are
// the downward API's values by field path. An image the lab does not have, or a mount of any other volume, is an
// error: the container could not start.
func containerSpecFor(c corev1.Container, images map[string]image, pod *podRun, fields map[string]string, root string) (containerSpec, error) {
	img, ok := images[c.Image]
	if !ok {
		return containerSpec{}, fmt.Errorf("image %q: the lab has no such image (it has %v)", c.Image, slices.Sorted(maps.Keys(images)))
	}
	exec, mounts, links, err := imageRoot(img, c.Command)
	if err != nil {
		return containerSpec{}, fmt.Errorf("image %q: %w", c.Image, err)
	}
	spec := containerSpec{Name: c.Name, Command: c.Command, Exec: exec, Root: root, Mounts: mounts, Links: links}
	for _, vm := range c.VolumeMounts {
		var source string
		switch {
		case vm.MountPath == kmsSocketMountPath:
			source = pod.paths.socketDir
		case vm.MountPath == pod.paths.resourceMountPath() && pod.paths.resourceDir != "":
			source = pod.paths.resourceDir
		case vm.MountPath == serviceAccountMountPath && pod.paths.serviceAccountDir != "":
			source = pod.paths.serviceAccountDir
		case pod.paths.hostMounts[vm.MountPath] != "":
			source = pod.paths.hostMounts[vm.MountPath]
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
	if _, ok := env["PATH"]; !ok {
		env["PATH"] = imagePath
	}
	spec.Env = env
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
