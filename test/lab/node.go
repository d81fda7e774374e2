package lab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/staticpod/startupmonitor/annotations"
	"google.golang.org/grpc/codes"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
	"sigs.k8s.io/yaml"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/encryptionstatus"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/pluginprobe"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

const (
	// librarygoKMSSocketDir is where library-go's key controller points KMS providers
	// (unix:///var/run/kmsplugin/kms-<key id>.sock). In a cluster the kubelet mounts the host's directory into the
	// kube-apiserver and plugin containers; here each node's kmsplugin/ directory plays that host directory.
	librarygoKMSSocketDir = "/var/run/kmsplugin/"
	// podManifestKey is the key of the static pod manifest in the "kube-apiserver-pod" ConfigMap.
	podManifestKey = "pod.yaml"
	// revisionLabel is the label the static-pod controllers read a mirror pod's revision from.
	revisionLabel = "revision"
	// mirrorPodAnnotation marks a pod as the kubelet's mirror of a static pod.
	mirrorPodAnnotation = "kubernetes.io/config.mirror"
	// fallbackReasonStartFailed is the startup monitor's reason when the new revision did not become ready.
	fallbackReasonStartFailed = "StartupMonitorTimeout"
)

// Node is one control-plane node's agent: the kubelet, the installer and the startup monitor of the node's
// kube-apiserver static pod, and the node's KMS plugin sidecars.
//
// How it maps to what runs on a cluster node:
//
//   - installer: library-go's installer controller creates a pod installer-<revision>-<node> (or
//     installer-<revision>-retry-<n>-<node>) with --revision=<revision>. The agent carries it out as the
//     installer binary would: it copies revision <revision> of the static pod manifest (ConfigMap
//     kube-apiserver-pod-<revision>) and of the encryption config (Secret encryption-config-<revision>, optional)
//     into resources/kube-apiserver-pod-<revision>/ of the node's directory, and sets the pod's phase to
//     Succeeded, or to Failed with the error as its termination message.
//   - kubelet: the new manifest restarts the node's kube-apiserver with that revision's files, and the agent
//     keeps the mirror pod kube-apiserver-<node> in openshift-kube-apiserver in step with the process: recreated
//     with the new revision label when the new process starts, Ready once it answers /healthz.
//   - startup monitor: when the new revision does not become healthy, the agent starts the last revision that
//     did, and marks the mirror pod with the startup monitor's fallback-for-revision, fallback-reason and
//     fallback-message annotations, from which the installer controller records the fallback
//     (NodeStatus.LastFallbackCount).
//   - KMS plugin sidecars: before the apiserver starts, a fake KMS v2 plugin serves every KMS provider of the
//     revision's config at kmsplugin/kms-<key id>.sock of the node's directory, all backed by the lab's one
//     simulated KMS (a key whose secret names another Vault address gets a plugin that cannot reach its KMS);
//     plugins of keys neither the running nor the candidate config has are stopped, and kmsguard's health
//     reporter probes the others.
//
// Installer pods are carried out one at a time per node, in the order the installer controller creates them;
// across nodes nothing is serialized here: one node at a time is the installer controller's job.
type Node struct {
	name      string
	dir       string
	apiServer *kmsenv.APIServer
	kms       *fake.KMS
	client    kubernetes.Interface
	logf      func(format string, args ...any)

	// running is the revision whose files the apiserver runs with (0: the bootstrap config); lastGood the
	// newest one that became healthy, which the startup monitor falls back to.
	mu       sync.Mutex
	running  int32
	lastGood int32
	plugins  map[string]*fake.Plugin // socket path -> plugin
	handled  map[string]bool         // installer pods carried out, by name
	latency  time.Duration           // FaultKMSLatency of the node's plugins

	// The health reporter sidecar: restarted with the plugin sockets whenever they change, as the sidecar is
	// with its --kms-sockets.
	operatorClient operatorclient.Interface
	reporterKeys   string
	reporterStop   context.CancelFunc
	reporterDone   chan struct{}
}

func newNode(l *Lab, index int, client kubernetes.Interface) (*Node, error) {
	operatorClient, err := operatorclient.NewForConfig(l.restConfig)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("master-%d", index)
	n := &Node{
		name:           name,
		dir:            filepath.Join(l.dir, "nodes", name),
		apiServer:      l.cp.APIServer(index),
		kms:            l.kms,
		client:         client,
		logf:           l.logf,
		plugins:        map[string]*fake.Plugin{},
		handled:        map[string]bool{},
		operatorClient: operatorClient,
	}
	// Revision 0 is the bootstrap control plane's manifest, the one the startup monitor falls back to when the
	// first revision fails.
	manifest, err := yaml.Marshal(podManifest())
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(n.revisionDir(0), 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(n.revisionDir(0), "kube-apiserver-pod.yaml"), manifest, 0o600); err != nil {
		return nil, err
	}
	if len(n.socketPath("123456789")) > 100 {
		return nil, fmt.Errorf("lab directory %s is too long for unix socket paths below it", l.dir)
	}
	return n, nil
}

// Name is the node's name, master-<i>.
func (n *Node) Name() string { return n.name }

// Dir is the node's directory: its KMS plugin sockets (kmsplugin/) and installed revisions (resources/).
func (n *Node) Dir() string { return n.dir }

// APIServer is the node's kube-apiserver.
func (n *Node) APIServer() *kmsenv.APIServer { return n.apiServer }

// Revision is the revision the node's kube-apiserver runs with (0 before the first installation).
func (n *Node) Revision() int32 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.running
}

// Plugin returns the fake plugin serving KMS key keyID on this node, if the node runs one.
func (n *Node) Plugin(keyID string) (*fake.Plugin, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	p, ok := n.plugins[n.socketPath(keyID)]
	return p, ok
}

func (n *Node) socketPath(keyID string) string {
	return filepath.Join(n.dir, "kmsplugin", "kms-"+keyID+".sock")
}

func (n *Node) revisionDir(revision int32) string {
	return filepath.Join(n.dir, "resources", fmt.Sprintf("kube-apiserver-pod-%d", revision))
}

// EncryptionConfigPath is the node's copy of revision's encryption config, the file its kube-apiserver is
// started with: the revision's Secret with the KMS endpoints pointing into the node's kmsplugin/ directory.
// It does not exist for a revision without encryption.
func (n *Node) EncryptionConfigPath(revision int32) string {
	return filepath.Join(n.revisionDir(revision), "encryption-config.yaml")
}

// register creates the Node object, Ready, with the control-plane role labels library-go's node controller
// selects on.
func (n *Node) register(ctx context.Context) error {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.name, Labels: map[string]string{
		"node-role.kubernetes.io/master":        "",
		"node-role.kubernetes.io/control-plane": "",
		"kubernetes.io/hostname":                n.name,
	}}}
	created, err := n.client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("registering node %s: %w", n.name, err)
	}
	now := metav1.Now()
	created.Status.Conditions = []corev1.NodeCondition{{
		Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", Message: "lab node agent is running",
		LastHeartbeatTime: now, LastTransitionTime: now,
	}}
	if _, err := n.client.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("setting node %s ready: %w", n.name, err)
	}
	return nil
}

// run carries out this node's installer pods until ctx ends.
func (n *Node) run(ctx context.Context) {
	factory := informers.NewSharedInformerFactoryWithOptions(n.client, 10*time.Minute,
		informers.WithNamespace(TargetNamespace),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("spec.nodeName", n.name).String()
		}))
	pods := factory.Core().V1().Pods()
	kick := make(chan struct{}, 1)
	notify := func(any) {
		select {
		case kick <- struct{}{}:
		default:
		}
	}
	_, _ = pods.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: notify, UpdateFunc: func(_, obj any) { notify(obj) }, DeleteFunc: notify,
	})
	// The candidate encryption config, which the next revision will carry: the plugins of its KMS keys run
	// before that revision does (see reconcileSidecars).
	candidateFactory := informers.NewSharedInformerFactoryWithOptions(n.client, 10*time.Minute,
		informers.WithNamespace(TargetNamespace),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("metadata.name", encryptiondata.EncryptionConfSecretName).String()
		}))
	candidates := candidateFactory.Core().V1().Secrets()
	_, _ = candidates.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: notify, UpdateFunc: func(_, obj any) { notify(obj) }, DeleteFunc: notify,
	})
	factory.Start(ctx.Done())
	candidateFactory.Start(ctx.Done())
	defer func() {
		factory.Shutdown()
		candidateFactory.Shutdown()
		n.stopReporter()
	}()
	if !cache.WaitForCacheSync(ctx.Done(), pods.Informer().HasSynced, candidates.Informer().HasSynced) {
		return
	}
	for {
		n.reconcileSidecars(ctx, candidates.Lister())
		for _, pod := range n.pendingInstallers(pods.Lister().Pods(TargetNamespace)) {
			if ctx.Err() != nil {
				return
			}
			n.carryOut(ctx, pod)
			n.reconcileSidecars(ctx, candidates.Lister())
		}
		select {
		case <-ctx.Done():
			return
		case <-kick:
		case <-time.After(5 * time.Second):
		}
	}
}

// pendingInstallers returns the installer pods of this node not yet carried out, oldest revision first.
func (n *Node) pendingInstallers(lister corelisters.PodNamespaceLister) []*corev1.Pod {
	all, err := lister.List(labels.Everything())
	if err != nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	var pending []*corev1.Pod
	for _, pod := range all {
		if !strings.HasPrefix(pod.Name, "installer-") || n.handled[pod.Name] ||
			pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
			continue
		}
		pending = append(pending, pod)
	}
	sort.Slice(pending, func(i, j int) bool {
		ri, _ := installerRevision(pending[i])
		rj, _ := installerRevision(pending[j])
		return ri < rj
	})
	return pending
}

// carryOut runs one installer pod: install the revision's files, then restart the apiserver with them.
func (n *Node) carryOut(ctx context.Context, pod *corev1.Pod) {
	n.mu.Lock()
	n.handled[pod.Name] = true
	n.mu.Unlock()

	revision, err := installerRevision(pod)
	if err == nil {
		err = n.install(ctx, revision)
	}
	if err != nil {
		n.logf("%s: installer %s failed: %v", n.name, pod.Name, err)
		n.finishInstaller(ctx, pod, err)
		return
	}
	n.finishInstaller(ctx, pod, nil)
	n.logf("%s: installed revision %d (%s)", n.name, revision, pod.Name)
	n.startRevision(ctx, revision)
}

// install is the installer binary: it copies revision's manifest and encryption config into the node's
// resources/kube-apiserver-pod-<revision>/ directory.
func (n *Node) install(ctx context.Context, revision int32) error {
	dir := n.revisionDir(revision)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	var manifest *corev1.ConfigMap
	var secret *corev1.Secret
	err := retryAPI(ctx, func() error {
		var err error
		manifest, err = n.client.CoreV1().ConfigMaps(TargetNamespace).Get(ctx, fmt.Sprintf("%s-%d", podConfigMapName, revision), metav1.GetOptions{})
		if err != nil {
			return err
		}
		secret, err = n.client.CoreV1().Secrets(TargetNamespace).Get(ctx, fmt.Sprintf("%s-%d", encryptiondata.EncryptionConfSecretName, revision), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			secret, err = nil, nil // optional: no encryption at this revision
		}
		return err
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "kube-apiserver-pod.yaml"), []byte(manifest.Data[podManifestKey]), 0o600); err != nil {
		return err
	}
	if secret == nil {
		return nil
	}
	raw := secret.Data[encryptiondata.EncryptionConfSecretKey]
	secretDir := filepath.Join(dir, "secrets", encryptiondata.EncryptionConfSecretName)
	if err := os.MkdirAll(secretDir, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(secretDir, encryptiondata.EncryptionConfSecretKey), raw, 0o600); err != nil {
		return err
	}
	config, err := encryptionconfig.Decode(raw)
	if err != nil {
		return fmt.Errorf("encryption-config-%d: %w", revision, err)
	}
	return kmsenv.WriteEncryptionConfig(n.EncryptionConfigPath(revision), n.nodeView(config))
}

// nodeView is config as the kube-apiserver container sees it on this node: library-go's KMS socket directory
// is the node's kmsplugin/ directory (the kubelet's hostPath mount, in a cluster).
func (n *Node) nodeView(config *apiserverv1.EncryptionConfiguration) *apiserverv1.EncryptionConfiguration {
	c := config.DeepCopy()
	for i := range c.Resources {
		for j := range c.Resources[i].Providers {
			if kms := c.Resources[i].Providers[j].KMS; kms != nil {
				if rest, ok := strings.CutPrefix(kms.Endpoint, "unix://"+librarygoKMSSocketDir); ok {
					kms.Endpoint = "unix://" + filepath.Join(n.dir, "kmsplugin", rest)
				}
			}
		}
	}
	return c
}

// finishInstaller sets the installer pod's terminal phase, as the installer container's exit would.
func (n *Node) finishInstaller(ctx context.Context, pod *corev1.Pod, installErr error) {
	now := metav1.Now()
	terminated := &corev1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: now, FinishedAt: now}
	phase := corev1.PodSucceeded
	if installErr != nil {
		phase = corev1.PodFailed
		terminated.ExitCode, terminated.Reason, terminated.Message = 1, "Error", installErr.Error()
	}
	err := retryAPI(ctx, func() error {
		current, err := n.client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		current.Status.Phase = phase
		current.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "installer", State: corev1.ContainerState{Terminated: terminated}}}
		_, err = n.client.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, current, metav1.UpdateOptions{})
		return err
	})
	if err != nil && !apierrors.IsNotFound(err) {
		n.logf("%s: setting %s to %s: %v", n.name, pod.Name, phase, err)
	}
}

// startRevision is the kubelet and the startup monitor: run the apiserver with revision's files, and fall back
// to the last good revision when it does not become healthy.
func (n *Node) startRevision(ctx context.Context, revision int32) {
	n.mu.Lock()
	previous := n.lastGood
	n.mu.Unlock()

	started := time.Now()
	err := n.restart(ctx, revision, nil)
	if err == nil {
		n.mu.Lock()
		n.running, n.lastGood = revision, revision
		n.mu.Unlock()
		n.logf("%s: kube-apiserver runs revision %d (restart took %s)", n.name, revision, time.Since(started).Round(time.Millisecond))
		return
	}
	n.logf("%s: revision %d did not start: %v; falling back to revision %d", n.name, revision, err, previous)
	fallback := map[string]string{
		annotations.FallbackForRevision: strconv.Itoa(int(revision)),
		annotations.FallbackReason:      fallbackReasonStartFailed,
		annotations.FallbackMessage:     err.Error(),
	}
	if err := n.restart(ctx, previous, fallback); err != nil {
		n.logf("%s: falling back to revision %d failed too: %v", n.name, previous, err)
		n.setMirrorPodStatus(ctx, corev1.PodFailed, false, err.Error())
		return
	}
	n.mu.Lock()
	n.running = previous
	n.mu.Unlock()
}

// restart stops the apiserver and starts it with revision's files, mirroring it as a new mirror pod of that
// revision (with the startup monitor's annotations when fallback is set).
func (n *Node) restart(ctx context.Context, revision int32, fallback map[string]string) error {
	configPath := n.EncryptionConfigPath(revision)
	var config *apiserverv1.EncryptionConfiguration
	if data, err := os.ReadFile(configPath); err == nil {
		if config, err = encryptionconfig.Decode(data); err != nil {
			return err
		}
	} else if errors.Is(err, os.ErrNotExist) {
		configPath = ""
	} else {
		return err
	}
	if err := n.startPlugins(ctx, config); err != nil {
		return err
	}
	// The kubelet runs a static pod from its manifest whether the API answers or not, and mirrors it once it
	// does. On a single node the API is this very apiserver: down while it restarts, and down for good after a
	// revision that failed to start, so the mirror pod cannot come first there, or the startup monitor's
	// fallback could never run.
	mirrorCtx, cancel := context.WithTimeout(ctx, mirrorBeforeStartTimeout)
	mirrorErr := n.recreateMirrorPod(mirrorCtx, revision, fallback)
	cancel()
	if err := n.apiServer.Restart(apiServerOptions(configPath)); err != nil {
		// A static pod whose container does not come up is Running and not ready (the kubelet restarts the
		// container), never Failed: library-go's installer takes a Failed operand pod for a failure without
		// fallback and retries at once, and would not record the startup monitor's fallback that follows.
		// Bounded: on a single node nothing answers now, and the startup monitor's fallback must not wait.
		if mirrorErr == nil {
			statusCtx, cancel := context.WithTimeout(ctx, mirrorBeforeStartTimeout)
			defer cancel()
			n.setMirrorPodStatus(statusCtx, corev1.PodRunning, false, err.Error())
		}
		return err
	}
	if mirrorErr != nil {
		n.logf("%s: the API did not answer before the restart (%v); mirroring revision %d after it", n.name, mirrorErr, revision)
		if err := n.recreateMirrorPod(ctx, revision, fallback); err != nil {
			return err
		}
	}
	n.setMirrorPodStatus(ctx, corev1.PodRunning, true, "")
	return nil
}

// mirrorBeforeStartTimeout is how long restart tries to mirror the new revision before it starts the apiserver:
// long enough for an API that answers, short enough that a single node whose only apiserver is down is not held.
const mirrorBeforeStartTimeout = 5 * time.Second

// startPlugins serves a fake plugin on every KMS v2 endpoint of config that has none yet. The apiserver checks
// its plugins before it reports healthy, so they must listen before it starts.
//
// Each plugin is the sidecar of one library-go KMS key, configured from that key's secret: a plugin whose key
// names the simulated KMS's address (SimulatedKMSAddress) reaches it; one whose key names any other address
// runs but cannot reach its KMS, and fails every call with Unavailable, as a Vault plugin pointed at an
// unreachable Vault does.
func (n *Node) startPlugins(ctx context.Context, config *apiserverv1.EncryptionConfiguration) error {
	for _, socket := range kmsSockets(config) {
		n.mu.Lock()
		_, running := n.plugins[socket]
		n.mu.Unlock()
		if running {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(socket), 0o700); err != nil {
			return err
		}
		plugin := n.newPlugin(socket)
		if address := n.kmsAddress(ctx, keyIDOfSocket(socket)); address != "" && address != SimulatedKMSAddress {
			for _, m := range []fake.Method{fake.MethodStatus, fake.MethodEncrypt, fake.MethodDecrypt} {
				plugin.FailMethodWith(m, codes.Unavailable, fmt.Sprintf("cannot reach the KMS at %s (the lab's KMS is %s)", address, SimulatedKMSAddress))
			}
			n.logf("%s: the plugin on %s cannot reach its KMS at %s", n.name, socket, address)
		}
		if err := plugin.Start(); err != nil {
			return fmt.Errorf("%s: serving the KMS plugin on %s: %w", n.name, socket, err)
		}
		n.mu.Lock()
		n.plugins[socket] = plugin
		n.mu.Unlock()
	}
	return nil
}

// kmsAddress is the Vault address library-go's key controller recorded in the secret of KMS key keyID
// (encryption-key-openshift-kube-apiserver-<keyID>), or "" when there is no such key: a hand-written config's
// plugin reaches the simulated KMS.
func (n *Node) kmsAddress(ctx context.Context, keyID string) string {
	var secret *corev1.Secret
	err := retryAPI(ctx, func() error {
		var err error
		secret, err = n.client.CoreV1().Secrets("openshift-config-managed").Get(ctx, fmt.Sprintf("encryption-key-%s-%s", TargetNamespace, keyID), metav1.GetOptions{})
		return err
	})
	if err != nil {
		if !apierrors.IsNotFound(err) {
			n.logf("%s: reading KMS key %s: %v", n.name, keyID, err)
		}
		return ""
	}
	key, err := secrets.ToKeyState(secret)
	if err != nil || key.KMS == nil {
		return ""
	}
	return key.KMS.Plugin.Vault.VaultAddress
}

// keyIDOfSocket is the key id of a plugin socket kms-<key id>.sock.
func keyIDOfSocket(socket string) string {
	return strings.TrimSuffix(strings.TrimPrefix(filepath.Base(socket), "kms-"), ".sock")
}

// reconcileSidecars runs a plugin for every KMS key of the running revision's config and of the candidate
// config, stops the others, and restarts the health reporter when the set changed.
//
// Serving the candidate's keys before their revision is the lab's stand-in for the KMS plugin lifecycle
// (library-go's kms/pluginlifecycle injects a plugin sidecar per key into the static pod): kmsguard's rollout
// gate admits a revision with a new KMS key only once that key is healthy on every node, which needs the
// key's plugin up before the revision that adds it. With sidecars that only come with the revision, the gate
// needs library-go's KMS preflight instead (kmsprecondition.Options.Preflight).
func (n *Node) reconcileSidecars(ctx context.Context, candidates corelisters.SecretLister) {
	n.mu.Lock()
	running := n.running
	n.mu.Unlock()
	var configs []*apiserverv1.EncryptionConfiguration
	if data, err := os.ReadFile(n.EncryptionConfigPath(running)); err == nil {
		if config, err := encryptionconfig.Decode(data); err == nil {
			configs = append(configs, config)
		}
	}
	if secret, err := candidates.Secrets(TargetNamespace).Get(encryptiondata.EncryptionConfSecretName); err == nil {
		if config, err := encryptionconfig.Decode(secret.Data[encryptiondata.EncryptionConfSecretKey]); err == nil {
			configs = append(configs, n.nodeView(config))
		}
	}
	want := map[string]bool{}
	for _, config := range configs {
		if err := n.startPlugins(ctx, config); err != nil {
			n.logf("%s: %v", n.name, err)
		}
		for _, socket := range kmsSockets(config) {
			want[socket] = true
		}
	}
	n.mu.Lock()
	for socket, plugin := range n.plugins {
		if !want[socket] {
			plugin.Stop()
			delete(n.plugins, socket)
		}
	}
	sockets := make([]string, 0, len(n.plugins))
	for socket := range n.plugins {
		sockets = append(sockets, socket)
	}
	n.mu.Unlock()
	sort.Strings(sockets)
	if key := strings.Join(sockets, ","); key != n.reporterKeys {
		n.reporterKeys = key
		n.startReporter(ctx, sockets)
	}
}

// startReporter replaces the node's health reporter by one for sockets: kmsguard's health-reporter sidecar
// (pluginprobe.Reporter), which publishes into status.encryptionStatus.healthReports of the KubeAPIServer.
func (n *Node) startReporter(ctx context.Context, sockets []string) {
	n.stopReporter()
	if len(sockets) == 0 {
		return
	}
	reporterCtx, cancel := context.WithCancel(ctx)
	var plugins []pluginprobe.Plugin
	for _, socket := range sockets {
		plugin, err := pluginprobe.NewGRPCPlugin(reporterCtx, keyIDOfSocket(socket), "unix://"+socket, reporterCallTimeout)
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
		Interval:     reportInterval,
		WriteTimeout: 10 * time.Second,
	}
	done := make(chan struct{})
	n.reporterStop, n.reporterDone = cancel, done
	go func() {
		defer close(done)
		reporter.Run(reporterCtx)
	}()
}

func (n *Node) stopReporter() {
	if n.reporterStop != nil {
		n.reporterStop()
		<-n.reporterDone
		n.reporterStop, n.reporterDone = nil, nil
	}
}

// reporterCallTimeout bounds each call of the health reporter to a plugin.
const reporterCallTimeout = 5 * time.Second

// roundTripInterval is how often the health reporter has each plugin encrypt and decrypt through the KMS,
// which is what notices a disabled key while Status still says ok. A cluster uses
// pluginprobe.DefaultRoundTripInterval (5 minutes), to spare the KMS; the lab's KMS is free.
const roundTripInterval = 15 * time.Second

func (n *Node) stopAllPlugins() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for socket, plugin := range n.plugins {
		plugin.Stop()
		delete(n.plugins, socket)
	}
}

// kmsSockets lists the unix socket paths of config's KMS v2 providers.
func kmsSockets(config *apiserverv1.EncryptionConfiguration) []string {
	if config == nil {
		return nil
	}
	seen := map[string]bool{}
	var sockets []string
	for _, r := range config.Resources {
		for _, p := range r.Providers {
			if p.KMS == nil || p.KMS.APIVersion != "v2" {
				continue
			}
			socket := strings.TrimPrefix(p.KMS.Endpoint, "unix://")
			if !seen[socket] {
				seen[socket] = true
				sockets = append(sockets, socket)
			}
		}
	}
	return sockets
}

// recreateMirrorPod replaces the mirror pod by one for revision's manifest, Pending, as the kubelet does when a
// static pod's manifest changes.
func (n *Node) recreateMirrorPod(ctx context.Context, revision int32, fallback map[string]string) error {
	data, err := os.ReadFile(filepath.Join(n.revisionDir(revision), "kube-apiserver-pod.yaml"))
	if err != nil {
		return err
	}
	pod := &corev1.Pod{}
	if err := yaml.Unmarshal(data, pod); err != nil {
		return fmt.Errorf("the manifest of revision %d: %w", revision, err)
	}
	pod.Name = mirrorPodName(n.name)
	pod.Namespace = TargetNamespace
	pod.Spec.NodeName = n.name
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[revisionLabel] = strconv.Itoa(int(revision))
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations[mirrorPodAnnotation] = fmt.Sprintf("revision-%d", revision)
	for k, v := range fallback {
		pod.Annotations[k] = v
	}
	return retryAPI(ctx, func() error {
		err := n.client.CoreV1().Pods(TargetNamespace).Delete(ctx, pod.Name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		_, err = n.client.CoreV1().Pods(TargetNamespace).Create(ctx, pod, metav1.CreateOptions{})
		return err
	})
}

// setMirrorPodStatus reports the apiserver process as the kubelet reports the static pod's container.
func (n *Node) setMirrorPodStatus(ctx context.Context, phase corev1.PodPhase, ready bool, message string) {
	err := retryAPI(ctx, func() error {
		pod, err := n.client.CoreV1().Pods(TargetNamespace).Get(ctx, mirrorPodName(n.name), metav1.GetOptions{})
		if err != nil {
			return err
		}
		now := metav1.Now()
		status := corev1.ConditionFalse
		if ready {
			status = corev1.ConditionTrue
		}
		pod.Status.Phase = phase
		pod.Status.Message = message
		pod.Status.StartTime = &now
		pod.Status.Conditions = []corev1.PodCondition{
			{Type: corev1.PodReady, Status: status, LastTransitionTime: now},
			{Type: corev1.ContainersReady, Status: status, LastTransitionTime: now},
		}
		containerState := corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}}
		if phase == corev1.PodFailed {
			containerState = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error", Message: message, FinishedAt: now}}
		}
		pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "kube-apiserver", Ready: ready, State: containerState}}
		_, err = n.client.CoreV1().Pods(TargetNamespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		n.logf("%s: updating the mirror pod: %v", n.name, err)
	}
}

func mirrorPodName(node string) string { return staticPodName + "-" + node }

// installerRevision reads --revision from an installer pod's arguments, as the installer binary does.
func installerRevision(pod *corev1.Pod) (int32, error) {
	for _, c := range pod.Spec.Containers {
		for _, arg := range c.Args {
			if v, ok := strings.CutPrefix(arg, "--revision="); ok {
				r, err := strconv.ParseInt(v, 10, 32)
				if err != nil {
					return 0, fmt.Errorf("installer pod %s: bad --revision %q", pod.Name, v)
				}
				return int32(r), nil
			}
		}
	}
	return 0, fmt.Errorf("installer pod %s has no --revision", pod.Name)
}
