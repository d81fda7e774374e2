package lab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/clock"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
)

const (
	// kmsSocketMountPath is where library-go's sidecar builder mounts the pod's kms-plugin-socket emptyDir in
	// the apiserver, plugin and reporter containers; the providers' endpoints are unix://<it>/kms-<key id>.sock.
	kmsSocketMountPath = "/var/run/kmsplugin"
	// staticPodResourcesPath is where a static pod's resource-dir volume (the node's
	// static-pod-resources/kube-apiserver-pod-<revision> directory) is mounted; the plugin sidecars read their
	// credentials from there.
	staticPodResourcesPath = "/etc/kubernetes/static-pod-resources"
	// vaultPluginPrefix names library-go's Vault plugin sidecars, vault-kms-plugin-<key id>.
	vaultPluginPrefix = "vault-kms-plugin-"
	// healthReporterContainer is library-go's health reporter sidecar.
	healthReporterContainer = "kms-health-reporter"
)

// The lab's Vault: the one address its simulated KMS answers at, and the AppRole credentials it accepts, which
// createClusterObjects puts in the Secret the APIServer resource names.
const (
	labVaultRoleID   = "kmsguard-lab-role"
	labVaultSecretID = "kmsguard-lab-secret"
)

// pluginSidecar is one KMS plugin sidecar of a static pod manifest, as library-go's Vault builder writes its
// arguments (kms/pluginlifecycle/vault.go).
type pluginSidecar struct {
	// Container is the sidecar's name, vault-kms-plugin-<key id>.
	Container string
	// Listen is -listen-address, the unix:// endpoint inside the pod.
	Listen       string
	VaultAddress string
	KeyPath      string
	RoleID       string
	// SecretIDPath is -approle-secret-id-path, a file under staticPodResourcesPath.
	SecretIDPath string
}

// podSidecars are the KMS containers of a static pod manifest.
type podSidecars struct {
	Plugins []pluginSidecar
	// ReporterSockets are the --kms-sockets of the kms-health-reporter sidecar; nil when the pod has none.
	ReporterSockets []string
	// Reporter is the kms-health-reporter sidecar; nil when the pod has none.
	Reporter *corev1.Container
}

// sidecarsOf reads the KMS sidecars of a static pod manifest: the init containers (native sidecars) library-go's
// builder injects. A plugin sidecar without -listen-address is an error: a kubelet would start it, and it would
// exit at once.
func sidecarsOf(pod *corev1.Pod) (podSidecars, error) {
	var out podSidecars
	for _, c := range pod.Spec.InitContainers {
		switch {
		case strings.HasPrefix(c.Name, vaultPluginPrefix):
			p := pluginSidecar{Container: c.Name}
			for _, arg := range c.Args {
				name, value, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
				switch name {
				case "listen-address":
					p.Listen = value
				case "vault-address":
					p.VaultAddress = value
				case "vault-key-path":
					p.KeyPath = value
				case "approle-role-id":
					p.RoleID = value
				case "approle-secret-id-path":
					p.SecretIDPath = value
				}
			}
			if p.Listen == "" {
				return podSidecars{}, fmt.Errorf("sidecar %s has no -listen-address", c.Name)
			}
			out.Plugins = append(out.Plugins, p)
		case c.Name == healthReporterContainer:
			out.Reporter = c.DeepCopy()
			for _, arg := range c.Args {
				if v, ok := strings.CutPrefix(arg, "--kms-sockets="); ok {
					out.ReporterSockets = strings.Split(v, ",")
				}
			}
			if len(out.ReporterSockets) == 0 {
				return podSidecars{}, fmt.Errorf("sidecar %s has no --kms-sockets", c.Name)
			}
		}
	}
	return out, nil
}

// podPaths maps the paths a static pod's containers see to the node's directories: the pod's socket emptyDir
// and the revision's resource directory.
type podPaths struct {
	socketDir   string
	resourceDir string
	// resourceMount is where resourceDir is mounted in the pod's containers; empty is staticPodResourcesPath,
	// where a static pod mounts its revision's resource directory. A pod that is not a static pod has its plugins'
	// credentials in a Secret volume instead (workload).
	resourceMount string
	// serviceAccountDir holds the pod's API credentials (serviceAccountMountPath); empty when it has none.
	serviceAccountDir string
	// hostMounts are the node's directories behind the pod's hostPath volumes, by mount path.
	hostMounts map[string]string
}

// resourceMountPath is where the pod mounts resourceDir.
func (p podPaths) resourceMountPath() string {
	if p.resourceMount == "" {
		return staticPodResourcesPath
	}
	return p.resourceMount
}

// socket is the host path of a unix:// endpoint in the pod's socket volume.
func (p podPaths) socket(endpoint string) (string, error) {
	rest, ok := strings.CutPrefix(endpoint, "unix://"+kmsSocketMountPath+"/")
	if !ok || rest == "" || strings.Contains(rest, "/") {
		return "", fmt.Errorf("endpoint %q is not a socket in the pod's %s", endpoint, kmsSocketMountPath)
	}
	return filepath.Join(p.socketDir, rest), nil
}

// resource is the host path of a file under the pod's resource mount.
func (p podPaths) resource(path string) (string, error) {
	rest, ok := strings.CutPrefix(path, p.resourceMountPath()+"/")
	if !ok || rest == "" || filepath.Clean(rest) != rest || strings.HasPrefix(rest, "..") {
		return "", fmt.Errorf("path %q is not in the pod's %s", path, p.resourceMountPath())
	}
	return filepath.Join(p.resourceDir, rest), nil
}

// podRun is one incarnation of the node's kube-apiserver static pod: the plugin sidecars serving in the pod's
// own socket directory (its kms-plugin-socket emptyDir) and the health reporter sidecar. A new revision, or the
// startup monitor's fallback, is a new pod with fresh sidecars, as on a cluster.
type podRun struct {
	revision int32
	paths    podPaths
	sidecars podSidecars
	// plugins are the sidecars that started, by key id.
	plugins map[string]*fake.Plugin

	// reporter is the running kms-health-reporter sidecar; nil when the pod has none or it did not start.
	reporter *containerRun
}

// startPlugins starts the pod's plugin sidecars. A sidecar that cannot start (its socket outside the pod's socket
// volume, its credentials file missing) is an error, and the pod does not get past its init containers: the
// kubelet would not start the apiserver container.
func (n *Node) startPlugins(pod *podRun) error {
	if err := os.MkdirAll(pod.paths.socketDir, 0o700); err != nil {
		return err
	}
	for _, sidecar := range pod.sidecars.Plugins {
		plugin, err := n.newSidecarPlugin(pod.paths, sidecar)
		if err != nil {
			return fmt.Errorf("sidecar %s: %w", sidecar.Container, err)
		}
		if err := plugin.Start(); err != nil {
			return fmt.Errorf("sidecar %s: serving %s: %w", sidecar.Container, sidecar.Listen, err)
		}
		// The plugin of a key is found by its key id (Node.Plugin, the faults), the <id> of library-go's
		// kms-<id>.sock; a sidecar listening elsewhere is found by its container's name, as no key names it.
		pod.plugins[encryptionconfig.KMSKeyID(sidecar.Container, sidecar.Listen)] = plugin
	}
	return nil
}

// newSidecarPlugin is the fake plugin a Vault plugin sidecar runs as: configured from the sidecar's arguments and
// the files they name, as the real plugin is. A plugin whose Vault address is not the lab's runs but cannot reach
// its KMS (every call Unavailable, as a Vault plugin pointed at a wrong address); one whose AppRole credentials
// are not the lab Vault's fails every call with PermissionDenied, as Vault refuses the login; one whose
// credentials file cannot be read does not start.
func (n *Node) newSidecarPlugin(paths podPaths, sidecar pluginSidecar) (*fake.Plugin, error) {
	socket, err := paths.socket(sidecar.Listen)
	if err != nil {
		return nil, err
	}
	if sidecar.SecretIDPath == "" {
		return nil, errors.New("no -approle-secret-id-path")
	}
	secretIDFile, err := paths.resource(sidecar.SecretIDPath)
	if err != nil {
		return nil, err
	}
	secretID, err := os.ReadFile(secretIDFile)
	if err != nil {
		return nil, fmt.Errorf("reading the AppRole secret id: %w", err)
	}
	plugin := n.newPlugin(socket)
	var failure codes.Code
	var message string
	switch {
	case sidecar.VaultAddress != SimulatedKMSAddress:
		failure, message = codes.Unavailable, fmt.Sprintf("cannot reach the KMS at %s (the lab's KMS is %s)", sidecar.VaultAddress, SimulatedKMSAddress)
	case sidecar.RoleID != labVaultRoleID || strings.TrimSpace(string(secretID)) != labVaultSecretID:
		failure, message = codes.PermissionDenied, "Vault AppRole login refused: invalid role or secret ID"
	}
	if message != "" {
		for _, m := range []fake.Method{fake.MethodStatus, fake.MethodEncrypt, fake.MethodDecrypt} {
			plugin.FailMethodWith(m, failure, message)
		}
		n.logf("%s: %s on %s: %s", n.name, sidecar.Container, socket, message)
	}
	return plugin, nil
}

// stopSidecars stops the pod's reporter and plugins.
func (pod *podRun) stopSidecars() {
	if pod.reporter != nil {
		pod.reporter.stop()
		<-pod.reporter.done
		pod.reporter = nil
	}
	for keyID, plugin := range pod.plugins {
		plugin.Stop()
		delete(pod.plugins, keyID)
	}
}

// startReporter starts the pod's kms-health-reporter sidecar: by default the operator binary's own command (library-go's
// kms/health, with kube-apiserver-operator's status provider), run as the kubelet runs the container (startContainer); with ReporterKMSGuard kmsguard's reporter (pluginprobe.Reporter)
// in its place, on the sockets the sidecar's --kms-sockets names. Either publishes into
// status.encryptionStatus.healthReports of the KubeAPIServer under this node's field manager.
func (n *Node) startReporter(ctx context.Context, pod *podRun) {
	if pod.sidecars.Reporter == nil {
		return
	}
	var err error
	switch n.reporter {
	case ReporterKMSGuard:
		pod.reporter = n.startKMSGuardReporter(ctx, pod)
	default:
		var spec containerSpec
		spec, err = containerSpecFor(*pod.sidecars.Reporter, n.images, pod, map[string]string{"spec.nodeName": n.name},
			filepath.Join(pod.paths.socketDir+"-containers", healthReporterContainer))
		if err == nil {
			pod.reporter, err = n.startContainer(ctx, spec, filepath.Join(pod.paths.socketDir+"-containers", healthReporterContainer+".log"))
		}
	}
	if err != nil {
		// A kubelet would leave the container waiting; the pod runs on without health reports.
		n.logf("%s: %s: %v", n.name, healthReporterContainer, err)
	}
}

// startKMSGuardReporter runs kmsguard's reporter in the place of the pod's kms-health-reporter sidecar.
func (n *Node) startKMSGuardReporter(ctx context.Context, pod *podRun) *containerRun {
	reporterCtx, cancel := context.WithCancel(ctx)
	var plugins []pluginprobe.Plugin
	for _, endpoint := range pod.sidecars.ReporterSockets {
		socket, err := pod.paths.socket(endpoint)
		if err != nil {
			n.logf("%s: health reporter: %v", n.name, err)
			continue
		}
		// library-go's reporter accepts only its own sockets, and reports under their key id.
		keyID, ok := encryptionconfig.KMSKeyIDFromEndpoint(endpoint)
		if !ok {
			n.logf("%s: health reporter: --kms-sockets entry %q is not library-go's kms-<key id>.sock", n.name, endpoint)
			continue
		}
		plugin, err := pluginprobe.NewGRPCPlugin(reporterCtx, keyID, "unix://"+socket, reporterCallTimeout)
		if err != nil {
			n.logf("%s: health reporter: %v", n.name, err)
			continue
		}
		plugins = append(plugins, plugin)
	}
	reporter := &pluginprobe.Reporter{
		Prober:       pluginprobe.NewProber(n.name, plugins, reporterCallTimeout, clock.RealClock{}, pluginprobe.WithRoundTripInterval(roundTripInterval)),
		Provider:     encryptionstatus.NewKubeAPIServer(n.operatorClient.OperatorV1().KubeAPIServers()),
		FieldManager: encryptionstatus.ReporterFieldManager(n.name),
		Interval:     kmsguardReportInterval,
		WriteTimeout: 10 * time.Second,
	}
	run := &containerRun{stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(run.done)
		reporter.Run(reporterCtx)
	}()
	return run
}

// reporterCallTimeout bounds each call of kmsguard's health reporter to a plugin, as library-go's --read-timeout
// default does its Status call.
const reporterCallTimeout = 5 * time.Second

// roundTripInterval is how often kmsguard's health reporter has each plugin encrypt and decrypt through the KMS,
// which is what notices a disabled key while Status still says ok. A cluster uses
// pluginprobe.DefaultRoundTripInterval (5 minutes), to spare the KMS; the lab's KMS is free.
const roundTripInterval = 15 * time.Second

// sortedKeys are the key ids of the pod's running plugins.
func (pod *podRun) sortedKeys() []string {
	keys := make([]string, 0, len(pod.plugins))
	for k := range pod.plugins {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
