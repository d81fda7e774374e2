package lab

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/test/kmsenv"
)

// Fault is a failure the lab can put into the KMS path, from `kmsguard-lab inject` or a test.
type Fault string

const (
	// FaultPluginStop stops the KMS plugins of a node (every node when none is named), as if their sidecars died:
	// their sockets go away.
	FaultPluginStop Fault = "plugin-stop"
	// FaultPluginStart serves them again.
	FaultPluginStart Fault = "plugin-start"
	// FaultKMSLatency makes every call of a node's plugins (every node's when none is named) take Latency
	// longer, as a slow KMS does; a plugin that starts later gets it too. Zero clears it.
	FaultKMSLatency Fault = "kms-latency"
	// FaultKeyDisable makes the simulated KMS refuse Encrypt and Decrypt under a KEK (KEKID, or the current
	// one) while Status still answers ok, as a disabled cloud KMS key does.
	FaultKeyDisable Fault = "key-disable"
	// FaultKeyRestore enables that KEK again.
	FaultKeyRestore Fault = "key-restore"
	// FaultKeyRotate makes the simulated KMS write with a new KEK; the old one still decrypts.
	FaultKeyRotate Fault = "key-rotate"
	// FaultKeyDestroy destroys a KEK (KEKID, or the current one) for good: what was encrypted under it is lost.
	FaultKeyDestroy Fault = "key-destroy"
	// FaultAPIServerRestart restarts the kube-apiserver of a node with the config it runs, as the kubelet
	// restarts a container, and returns once the process serves HTTPS: with its KMS plugin down it has no DEK
	// cached, cannot read or write encrypted data, and does not even become live (its post-start hooks write
	// ConfigMaps) until the plugin is back.
	FaultAPIServerRestart Fault = "apiserver-restart"
	// FaultBadKMSConfig sets the APIServer resource to KMS at a Vault address the simulated KMS is not at, as a
	// typo would: library-go makes a new key for it, whose plugins cannot reach their KMS.
	FaultBadKMSConfig Fault = "bad-kms-config"
	// FaultMigrationHold makes kmsguard's migration stand still: every request of the migrator's API client
	// waits. It stands in for a migration that has not reached most objects yet, as on a cluster with a million
	// of them, so that a key fault can strike while old values are still in etcd.
	FaultMigrationHold Fault = "migration-hold"
	// FaultMigrationRelease lets the migration go on from where it stood.
	FaultMigrationRelease Fault = "migration-release"
	// FaultOperatorStop stops the lab's operator (library-go's controllers and kmsguard's), as a deleted
	// kube-apiserver-operator pod does while it is rescheduled: nothing acts or reports until FaultOperatorStart.
	FaultOperatorStop Fault = "operator-stop"
	// FaultOperatorStart starts a new operator, built afresh from the cluster as a new pod's is.
	FaultOperatorStart Fault = "operator-start"
	// FaultNodeReboot drains a node and reboots it for Down, as the machine-config operator does to every
	// control-plane node in every upgrade (Node.reboot): cordoned, its static pod gone with the machine, NotReady
	// once the node lifecycle controller sees it, then back with the static pod of the revision it installed last.
	// Inject returns once the reboot has begun; Node.Rebooting says when it is over.
	FaultNodeReboot Fault = "node-reboot"
)

// DefaultRebootDown is how long FaultNodeReboot keeps a node down when Injection.Down is zero: a control-plane
// machine's reboot takes minutes.
const DefaultRebootDown = 3 * time.Minute

// Faults are every Fault, in the order `kmsguard-lab inject --help` lists them, with the usage it shows.
var Faults = []Fault{FaultPluginStop, FaultPluginStart, FaultKMSLatency, FaultAPIServerRestart, FaultNodeReboot, FaultKeyDisable, FaultKeyRestore, FaultKeyRotate, FaultKeyDestroy, FaultBadKMSConfig, FaultMigrationHold, FaultMigrationRelease, FaultOperatorStop, FaultOperatorStart}

// FaultUsage is how `kmsguard-lab inject` takes a fault: its arguments and what it does.
type FaultUsage struct {
	Args, Help string
}

var faultUsage = map[Fault]FaultUsage{
	FaultPluginStop: {"[NODE]", "the KMS plugins of NODE's running pod (every node's without one) stop, as if their sidecars died; " +
		"a new revision's pod starts its own"},
	FaultPluginStart:      {"[NODE]", "they serve again"},
	FaultKMSLatency:       {"[NODE]", "every KMS call of their plugins takes --latency longer (0 clears it)"},
	FaultAPIServerRestart: {"NODE", "NODE's kube-apiserver restarts (as the kubelet restarts it), counted up once serving"},
	FaultNodeReboot: {"NODE", "NODE is drained and rebooted as in an upgrade: cordoned, its pod gone for --down (default 3m), " +
		"NotReady after 40s, then back with its installed revision and uncordoned"},
	FaultKeyDisable: {"", "the simulated KMS refuses Encrypt and Decrypt under a KEK (--kek-id, default the current one) " +
		"while Status still says ok"},
	FaultKeyRestore:       {"", "the KEK works again"},
	FaultKeyRotate:        {"", "the simulated KMS writes with a new KEK; the old one still decrypts"},
	FaultKeyDestroy:       {"", "the KEK is destroyed for good: what was encrypted under it is lost"},
	FaultBadKMSConfig:     {"", "the APIServer resource names a KMS address where no KMS is"},
	FaultMigrationHold:    {"", "kmsguard's migration stands still: its API requests wait (a migration far from done)"},
	FaultMigrationRelease: {"", "the migration goes on from its checkpoint"},
	FaultOperatorStop:     {"", "the operator stops (library-go's controllers and kmsguard's), as while its pod is rescheduled"},
	FaultOperatorStart:    {"", "a new operator starts, built afresh from the cluster"},
}

// Usage is how `kmsguard-lab inject` takes f.
func (f Fault) Usage() FaultUsage { return faultUsage[f] }

// UnreachableKMSAddress is the Vault address FaultBadKMSConfig names.
const UnreachableKMSAddress = "https://vault.typo.kmsguard-lab.local:8200"

// Injection is one fault to inject.
type Injection struct {
	Fault Fault `json:"fault"`
	// Node limits a plugin fault to one node; empty means every node. Other faults take no node: they act on
	// the simulated KMS or the cluster's config.
	Node string `json:"node,omitempty"`
	// Latency is the added latency of FaultKMSLatency.
	Latency time.Duration `json:"latency,omitempty"`
	// KEKID is the KEK a key fault acts on; empty means the simulated KMS's current one.
	KEKID string `json:"kekID,omitempty"`
	// Down is how long FaultNodeReboot keeps the node down; zero is DefaultRebootDown.
	Down time.Duration `json:"down,omitempty"`
}

// Inject injects a fault and says what it did.
func (l *Lab) Inject(ctx context.Context, in Injection) (string, error) {
	nodes, err := l.nodesNamed(in)
	if err != nil {
		return "", err
	}
	kekID := in.KEKID
	if kekID == "" {
		kekID = l.kms.CurrentKEKID()
	}
	switch in.Fault {
	case FaultPluginStop, FaultPluginStart:
		var done []string
		for _, n := range nodes {
			for _, keyID := range n.setPluginsRunning(in.Fault == FaultPluginStart) {
				done = append(done, n.Name()+" key "+keyID)
			}
		}
		if len(done) == 0 {
			return "", fmt.Errorf("%s: no KMS plugin runs on %s", in.Fault, names(nodes))
		}
		verb := "stopped"
		if in.Fault == FaultPluginStart {
			verb = "started"
		}
		return fmt.Sprintf("%s the KMS plugins of %s", verb, strings.Join(done, ", ")), nil
	case FaultKMSLatency:
		if in.Latency < 0 {
			return "", fmt.Errorf("%s: negative latency %s", in.Fault, in.Latency)
		}
		for _, n := range nodes {
			n.setPluginLatency(in.Latency)
		}
		return fmt.Sprintf("every KMS call of the plugins on %s now takes %s longer", names(nodes), in.Latency), nil
	case FaultNodeReboot:
		if in.Node == "" {
			return "", fmt.Errorf("%s needs a node", in.Fault)
		}
		down := in.Down
		if down == 0 {
			down = DefaultRebootDown
		}
		if down < 0 {
			return "", fmt.Errorf("%s: negative --down %s", in.Fault, down)
		}
		node := nodes[0]
		if err := node.beginReboot(); err != nil {
			return "", fmt.Errorf("%s: %s: %w", in.Fault, node.Name(), err)
		}
		l.done.Add(1)
		go func() {
			defer l.done.Done()
			if err := node.reboot(l.runCtx, down); err != nil && l.runCtx.Err() == nil {
				l.logf("%s: reboot: %v", node.Name(), err)
			}
		}()
		return fmt.Sprintf("draining and rebooting %s: down for %s", in.Node, down), nil
	case FaultAPIServerRestart:
		if in.Node == "" {
			return "", fmt.Errorf("%s needs a node", in.Fault)
		}
		if err := nodes[0].restartAPIServer(ctx, l.runCtx); err != nil {
			return "", err
		}
		return "restarted the kube-apiserver of " + in.Node + " (serving; ready once its KMS checks pass)", nil
	case FaultKeyDisable:
		if err := l.kms.Disable(kekID); err != nil {
			return "", err
		}
		return "disabled KEK " + kekID + " in the simulated KMS (Status still answers ok)", nil
	case FaultKeyRestore:
		if err := l.kms.Restore(kekID); err != nil {
			return "", err
		}
		return "restored KEK " + kekID + " in the simulated KMS", nil
	case FaultKeyDestroy:
		if err := l.kms.Destroy(kekID); err != nil {
			return "", err
		}
		return "destroyed KEK " + kekID + " in the simulated KMS: what was encrypted under it is lost", nil
	case FaultKeyRotate:
		newKEKID := l.kms.Rotate()
		return fmt.Sprintf("rotated the simulated KMS from KEK %s to %s", kekID, newKEKID), nil
	case FaultBadKMSConfig:
		encryption, err := kmsEncryption(UnreachableKMSAddress)
		if err != nil {
			return "", err
		}
		if err := l.SetAPIServerEncryption(ctx, encryption); err != nil {
			return "", err
		}
		return "set the APIServer resource to KMS at " + UnreachableKMSAddress + ", where no KMS is", nil
	case FaultMigrationHold:
		if !l.operatorDeps.hold.set(true) {
			return "kmsguard's migration was held already", nil
		}
		return "held kmsguard's migration: its API requests wait until migration-release", nil
	case FaultMigrationRelease:
		if !l.operatorDeps.hold.set(false) {
			return "kmsguard's migration was not held", nil
		}
		return "released kmsguard's migration: it goes on from its checkpoint", nil
	case FaultOperatorStop:
		if !l.stopOperator() {
			return "the operator was stopped already", nil
		}
		return "stopped the operator: no controller runs until operator-start", nil
	case FaultOperatorStart:
		if err := l.startOperator(); errors.Is(err, errOperatorRunning) {
			return "the operator runs already", nil
		} else if err != nil {
			return "", err
		}
		return "started a new operator", nil
	default:
		return "", fmt.Errorf("unknown fault %q (want one of %s)", in.Fault, faultList())
	}
}

// nodesNamed are the nodes a fault acts on: the one named, or all.
func (l *Lab) nodesNamed(in Injection) ([]*Node, error) {
	if in.Node == "" {
		return l.Nodes(), nil
	}
	switch in.Fault {
	case FaultPluginStop, FaultPluginStart, FaultKMSLatency, FaultAPIServerRestart, FaultNodeReboot:
	default:
		return nil, fmt.Errorf("%s acts on the simulated KMS or the cluster, not on node %s", in.Fault, in.Node)
	}
	for _, n := range l.nodes {
		if n.Name() == in.Node {
			return []*Node{n}, nil
		}
	}
	return nil, fmt.Errorf("no node %q (the lab has %s)", in.Node, names(l.nodes))
}

func names(nodes []*Node) string {
	out := make([]string, 0, len(nodes))
	for _, n := range nodes {
		out = append(out, n.Name())
	}
	return strings.Join(out, ", ")
}

func faultList() string {
	out := make([]string, 0, len(Faults))
	for _, f := range Faults {
		out = append(out, string(f))
	}
	return strings.Join(out, ", ")
}

// setPluginsRunning stops or starts every plugin of the node's running pod and returns their key ids.
func (n *Node) setPluginsRunning(running bool) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.pod == nil {
		return nil
	}
	var keyIDs []string
	for _, keyID := range n.pod.sortedKeys() {
		plugin := n.pod.plugins[keyID]
		if running {
			if err := plugin.Start(); err != nil {
				n.logf("%s: starting the KMS plugin of key %s: %v", n.name, keyID, err)
				continue
			}
		} else {
			plugin.Stop()
		}
		keyIDs = append(keyIDs, keyID)
	}
	return keyIDs
}

// setPluginLatency sets the added latency of the node's plugins, and of those it starts later.
func (n *Node) setPluginLatency(d time.Duration) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.latency = d
	if n.pod == nil {
		return
	}
	for _, plugin := range n.pod.plugins {
		plugin.SetLatency(d)
	}
}

// newPlugin is a plugin for socket with the node's faults applied.
func (n *Node) newPlugin(socket string) *fake.Plugin {
	plugin := fake.NewPlugin(n.kms, socket)
	n.mu.Lock()
	plugin.SetLatency(n.latency)
	n.mu.Unlock()
	return plugin
}

// restartAPIServer restarts the node's kube-apiserver with the revision it runs, waiting only until it serves,
// as the kubelet restarts a container; the mirror pod turns ready once /healthz passes, as the kubelet's readiness
// probe would, which the node watches until the lab stops (runCtx).
func (n *Node) restartAPIServer(ctx, runCtx context.Context) error {
	n.mu.Lock()
	revision := n.running
	n.mu.Unlock()
	configPath := n.EncryptionConfigPath(revision)
	if _, err := os.Stat(configPath); err != nil {
		configPath = ""
	}
	opts := apiServerOptions(configPath)
	opts.Wait = kmsenv.WaitServing
	n.setMirrorPodStatus(ctx, corev1.PodRunning, false, "restarting")
	if err := n.apiServer.Restart(opts); err != nil {
		return fmt.Errorf("%s: restarting kube-apiserver: %w", n.name, err)
	}
	n.logf("%s: kube-apiserver restarted with revision %d, serving", n.name, revision)
	go func() {
		for {
			if code, _, err := n.apiServer.Get(runCtx, "/healthz"); err == nil && code == http.StatusOK {
				n.setMirrorPodStatus(runCtx, corev1.PodRunning, true, "")
				n.logf("%s: kube-apiserver healthy again", n.name)
				return
			}
			select {
			case <-runCtx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}()
	return nil
}
