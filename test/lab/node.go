package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/yaml"

	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

const (
	// podManifestKey is the key of the static pod manifest in the "kube-apiserver-pod" ConfigMap.
	podManifestKey = "pod.yaml"
	// revisionLabel is the label the static-pod controllers read a mirror pod's revision from.
	revisionLabel = "revision"
	// mirrorPodAnnotation marks a pod as the kubelet's mirror of a static pod.
	mirrorPodAnnotation = "kubernetes.io/config.mirror"
	// fallbackReasonStartFailed is the startup monitor's reason when the new revision did not become ready.
	fallbackReasonStartFailed = "StartupMonitorTimeout"
)

// Node is one control-plane node's agent: the kubelet, the installer and, on a single-node lab, the startup
// monitor of the node's kube-apiserver static pod.
//
// How it maps to what runs on a cluster node:
//
//   - installer: library-go's installer controller creates a pod installer-<revision>-<node> (or
//     installer-<revision>-retry-<n>-<node>) with --revision=<revision>. The agent carries it out as the
//     installer binary would: it copies revision <revision> of the static pod manifest (ConfigMap
//     kube-apiserver-pod-<revision>) and every key of the encryption config (Secret encryption-config-<revision>,
//     optional: the config and the plugins' credentials) into /etc/kubernetes/static-pod-resources/kube-apiserver-pod-<revision>/
//     of the node's file system (root/ of its directory, hostPath), and sets the pod's phase to Succeeded, or to
//     Failed with the error as its termination message.
//   - pruner: library-go's prune controller's pods revision-pruner-<revision>-<node> run as any pod (workload.go):
//     the operator binary's prune command, with the node's /etc/kubernetes as its hostPath volume.
//   - kubelet: the new manifest replaces the node's pod: the old pod's containers stop, and the new pod's run,
//     its native sidecars first. Each KMS plugin sidecar library-go's builder put in the manifest
//     (vault-kms-plugin-<key id>) becomes a fake KMS v2 plugin configured from that sidecar's arguments and the
//     files they name, serving in the pod's own socket directory (pods/<n>/, its kms-plugin-socket emptyDir),
//     all backed by the lab's one simulated KMS; the kms-health-reporter sidecar probes the sockets its
//     --kms-sockets names. Then the kube-apiserver restarts with the revision's files. The agent keeps the
//     mirror pod kube-apiserver-<node> in openshift-kube-apiserver in step: recreated with the new revision label
//     when the new pod starts, Ready once the apiserver answers /healthz. An apiserver that does not become
//     healthy is restarted with the kubelet's back-off (10 s doubling to 5 minutes) while its pod stays Running
//     and not ready, until a new installer comes.
//   - startup monitor: only where kube-apiserver-operator enables it, on a SingleReplica control plane
//     (Infrastructure status, read at start): when the new revision does not become healthy, the agent starts
//     the last revision that did, and marks the mirror pod with the startup monitor's fallback-for-revision,
//     fallback-reason and fallback-message annotations, from which the installer controller records the
//     fallback (NodeStatus.LastFallbackCount).
//
// Installer pods are carried out one at a time per node, in the order the installer controller creates them;
// across nodes nothing is serialized here: one node at a time is the installer controller's job.
type Node struct {
	name           string
	dir            string
	apiServer      *kmsenv.APIServer
	kms            *fake.KMS
	client         kubernetes.Interface
	operatorClient operatorclient.Interface
	logf           func(format string, args ...any)
	// startupMonitor: the control plane is SingleReplica, where kube-apiserver-operator runs the startup
	// monitor.
	startupMonitor bool
	// reporter runs as each pod's kms-health-reporter sidecar.
	reporter Reporter
	// images are the container images the kubelet can run, by name.
	images map[string]image

	// running is the revision whose pod the kubelet runs (0: the bootstrap manifest); lastGood the newest one
	// that became healthy, which the startup monitor falls back to.
	mu       sync.Mutex
	running  int32
	lastGood int32
	pod      *podRun         // the running pod's sidecars; nil before the first
	pods     int             // pods started, which names each pod's socket directory
	handled  map[string]bool // installer pods carried out, by name
	// workloads are the pods the kubelet runs besides the static pod (library-go's kms-preflight pod), by UID;
	// workloadRuns counts those started, which names each one's directory.
	workloads    map[types.UID]*workload
	workloadRuns int
	latency      time.Duration // FaultKMSLatency of the node's plugins
	// crashLoop is the kubelet restarting an apiserver container that did not become healthy; nil when the
	// node's apiserver is healthy or a fallback ran.
	crashLoop *crashLoop
	// abortRestarting, closed, ends a crash-loop restart that waits for the apiserver: a new installer came, and
	// the kubelet replaces the pod at once.
	abortRestarting chan struct{}
	// rebooting: the node is down for a reboot (reboot.go); its kubelet neither carries out installers nor
	// starts pods until it is back.
	rebooting bool

	// kubelet is held by the kubelet's work on the static pod (an installation, a crash-loop restart) and by a
	// reboot while it stops the machine and while it starts the pod again, so that neither cuts the other short.
	kubelet sync.Mutex
}

// newNode builds the agent of node index; startupMonitor says whether it plays the startup monitor.
func newNode(l *Lab, index int, client kubernetes.Interface, startupMonitor bool) (*Node, error) {
	operatorClient, err := operatorclient.NewForConfig(l.restConfig)
	if err != nil {
		return nil, err
	}
	name := nodeName(index)
	n := &Node{
		name:           name,
		dir:            filepath.Join(l.dir, "nodes", name),
		apiServer:      l.cp.APIServer(index),
		kms:            l.kms,
		client:         client,
		logf:           l.logf,
		handled:        map[string]bool{},
		workloads:      map[types.UID]*workload{},
		operatorClient: operatorClient,
		startupMonitor: startupMonitor,
		reporter:       l.reporter,
		images:         operatorImages(l.operatorBinary),
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
	if len(filepath.Join(n.podDir(999), "kms-123456789.sock")) > 100 {
		return nil, fmt.Errorf("lab directory %s is too long for unix socket paths below it", l.dir)
	}
	return n, nil
}

// Name is the node's name, master-<i>.
func (n *Node) Name() string { return n.name }

// Dir is the node's directory: its pods' KMS plugin sockets (pods/<n>/) and its file system (root/), which holds
// the installed revisions.
func (n *Node) Dir() string { return n.dir }

// APIServer is the node's kube-apiserver.
func (n *Node) APIServer() *kmsenv.APIServer { return n.apiServer }

// Revision is the revision the node's kube-apiserver runs with (0 before the first installation).
func (n *Node) Revision() int32 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.running
}

// Plugin returns the fake plugin serving KMS key keyID in the node's running pod, if it has one.
func (n *Node) Plugin(keyID string) (*fake.Plugin, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.pod == nil {
		return nil, false
	}
	p, ok := n.pod.plugins[keyID]
	return p, ok
}

// podDir is the socket directory of the node's pod number i: its kms-plugin-socket emptyDir.
func (n *Node) podDir(i int) string {
	return filepath.Join(n.dir, "pods", strconv.Itoa(i))
}

// hostPath is the node's file at path: the node's own file system is the directory root/ of the node's
// directory. A hostPath volume, and every file the lab's kubelet and installer read or write on the node, is
// rewritten here and nowhere else.
func (n *Node) hostPath(path string) string {
	return filepath.Join(n.dir, "root", path)
}

// revisionDir is revision's resource directory, where the installer puts its files and the pod mounts them.
func (n *Node) revisionDir(revision int32) string {
	return n.hostPath(filepath.Join(staticPodResourcesPath, fmt.Sprintf("%s-%d", podConfigMapName, revision)))
}

// EncryptionConfigPath is the encryption config the node's kube-apiserver runs revision with: the revision's
// Secret with the KMS endpoints pointing into the socket directory of the pod that runs it. It does not exist for a
// revision without encryption, or before a pod has run the revision.
func (n *Node) EncryptionConfigPath(revision int32) string {
	return filepath.Join(n.revisionDir(revision), "encryption-config.yaml")
}

// EtcdCredentials are the installer's copies of revision's etcd client credentials on this node, where
// kube-apiserver-operator's installer puts them and its kube-apiserver reads them
// (/etc/kubernetes/static-pod-resources/kube-apiserver-pod-<revision>/): what an admin gives `kmsguard recover`
// from the node when the KEK that encrypted their Secret is lost.
func (n *Node) EtcdCredentials(revision int32) kmsenv.EtcdTLSFiles {
	dir := n.revisionDir(revision)
	secret := filepath.Join(dir, "secrets", etcdclient.DefaultClientSecretName)
	return kmsenv.EtcdTLSFiles{
		CA:         filepath.Join(dir, "configmaps", etcdclient.DefaultCABundleName, "ca-bundle.crt"),
		ClientCert: filepath.Join(secret, corev1.TLSCertKey),
		ClientKey:  filepath.Join(secret, corev1.TLSPrivateKeyKey),
	}
}

// installedConfigPath is the installer's copy of revision's encryption-config Secret, as the pod mounts it.
func (n *Node) installedConfigPath(revision int32) string {
	return filepath.Join(n.revisionDir(revision), "secrets", encryptiondata.EncryptionConfSecretName, encryptiondata.EncryptionConfSecretKey)
}

// register is the kubelet registering its node: it finds the Node the cluster's installation registered (or
// creates it) and reports it Ready.
func (n *Node) register(ctx context.Context) error {
	return retryAPI(ctx, func() error {
		node, err := n.client.CoreV1().Nodes().Get(ctx, n.name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			node, err = n.client.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.name, Labels: nodeLabels(n.name)}}, metav1.CreateOptions{})
		}
		if err != nil {
			return fmt.Errorf("registering node %s: %w", n.name, err)
		}
		now := metav1.Now()
		setNodeReady(node, corev1.NodeCondition{Status: corev1.ConditionTrue, Reason: "KubeletReady", Message: "lab node agent is running",
			LastHeartbeatTime: now, LastTransitionTime: now})
		_, err = n.client.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{})
		return err
	})
}

// setNodeReady puts ready in place of node's Ready condition, keeping the old one's transition time when the status
// does not change.
func setNodeReady(node *corev1.Node, ready corev1.NodeCondition) {
	ready.Type = corev1.NodeReady
	conditions := []corev1.NodeCondition{}
	for _, c := range node.Status.Conditions {
		if c.Type == corev1.NodeReady {
			if c.Status == ready.Status {
				ready.LastTransitionTime = c.LastTransitionTime
			}
			continue
		}
		conditions = append(conditions, c)
	}
	node.Status.Conditions = append(conditions, ready)
}

// run carries out this node's installer pods, runs its workload pods, and restarts a crash-looping apiserver,
// until ctx ends.
func (n *Node) run(ctx context.Context) {
	factory := informers.NewSharedInformerFactoryWithOptions(n.client, 10*time.Minute,
		informers.WithNamespace(TargetNamespace),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("spec.nodeName", n.name).String()
		}))
	pods := factory.Core().V1().Pods()
	// The installer and the kubelet's pod workers run side by side, as on a node: a workload pod does not wait
	// for an installation, nor an installation for a workload.
	kick, workloadKick := make(chan struct{}, 1), make(chan struct{}, 1)
	notify := func(any) {
		for _, k := range []chan struct{}{kick, workloadKick} {
			select {
			case k <- struct{}{}:
			default:
			}
		}
	}
	_, _ = pods.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if pod, ok := obj.(*corev1.Pod); ok && strings.HasPrefix(pod.Name, "installer-") {
				n.abortRestart()
			}
			notify(obj)
		},
		UpdateFunc: func(_, obj any) { notify(obj) }, DeleteFunc: notify,
	})
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	if !cache.WaitForCacheSync(ctx.Done(), pods.Informer().HasSynced) {
		return
	}
	go func() {
		for {
			if !n.Rebooting() {
				n.syncWorkloads(ctx, pods.Lister().Pods(TargetNamespace))
			}
			select {
			case <-ctx.Done():
				return
			case <-workloadKick:
			case <-time.After(5 * time.Second):
			}
		}
	}()
	for {
		wait := 5 * time.Second
		n.kubelet.Lock()
		if !n.Rebooting() {
			for _, pod := range n.pendingInstallers(pods.Lister().Pods(TargetNamespace)) {
				if ctx.Err() != nil {
					n.kubelet.Unlock()
					return
				}
				n.carryOut(ctx, pod)
			}
			if next, due := n.crashLoopDue(); due {
				n.restartCrashLooping(ctx)
			} else if !next.IsZero() {
				wait = min(wait, time.Until(next))
			}
		}
		n.kubelet.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-kick:
		case <-time.After(wait):
		}
	}
}
