package lab

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/operator/encryption/secrets"
	"github.com/openshift/library-go/pkg/operator/encryption/state"
	"github.com/openshift/library-go/pkg/operator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/kmsguard/kmsguard/internal/conflictretry"
	"github.com/kmsguard/kmsguard/pkg/etcdclient"
	"github.com/kmsguard/kmsguard/pkg/evidence"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
	"github.com/kmsguard/kmsguard/pkg/kmsrollback"
	"github.com/kmsguard/kmsguard/pkg/kmsstate"
	"github.com/kmsguard/kmsguard/test/kmsenv"
	"github.com/kmsguard/kmsguard/test/openshift"
)

// Reporter names the program that runs as the static pod's kms-health-reporter sidecar.
type Reporter string

const (
	// ReporterLibraryGo is library-go's kms-health-reporter at its defaults, the command both operators ship:
	// Status only, every 30 s. The lab's default.
	ReporterLibraryGo Reporter = "library-go"
	// ReporterKMSGuard is kmsguard's reporter (pluginprobe.Reporter, `kmsguard health-reporter`) in its place:
	// Status every 5 s in the lab, and an Encrypt/Decrypt round trip every 15 s, which sees a key that fails while
	// Status says ok.
	ReporterKMSGuard Reporter = "kmsguard"
)

// Reporters are the reporters a lab can run, the default first.
var Reporters = []Reporter{ReporterLibraryGo, ReporterKMSGuard}

// String says what the reporter does, as a header line reads it.
func (r Reporter) String() string {
	if r == ReporterKMSGuard {
		return fmt.Sprintf("kmsguard's health reporter: Status every %s, Encrypt/Decrypt every %s", kmsguardReportInterval, roundTripInterval)
	}
	return fmt.Sprintf("library-go's kms-health-reporter: Status every %s", kmsstate.DefaultReportInterval)
}

// libraryGoProviderTimeout is the timeout library-go's key controller writes for each KMS provider of the
// encryption config (state.KMSState's Encryption.Timeout).
const libraryGoProviderTimeout = 10 * time.Second

// kmsguardReportInterval is how often kmsguard's reporter probes its plugins in the lab. A cluster would run it
// at library-go's 30 s; the lab is quicker so that a reader sees what a shorter interval buys.
const kmsguardReportInterval = 5 * time.Second

// reportInterval is how often the reporter probes its plugins: kmsguard tells kmsstate so (reports older than
// four intervals are stale), and kmsstate asks the apiservers as often.
func (r Reporter) reportInterval() time.Duration {
	if r == ReporterKMSGuard {
		return kmsguardReportInterval
	}
	return kmsstate.DefaultReportInterval // library-go's --interval default
}

// Preflight names the KMS preflight deployer the lab's operator gives library-go's encryption controllers.
type Preflight string

const (
	// PreflightAlwaysSucceed is library-go's NewAlwaysSucceedKMSPreflightDeployer, what both operators wire: every
	// KMS configuration is recorded as preflighted without running its plugin. The lab's default.
	PreflightAlwaysSucceed Preflight = "always-succeed"
	// PreflightPod is library-go's pod deployer (NewStaticPodPreflightDeployer), given the configuration to check by
	// kmsprecondition.PreflightConfiguration: one kms-preflight pod, scheduled on one node and run by its node
	// agent like any pod, runs the configuration's plugin and checks Status, Encrypt and Decrypt through it before
	// library-go's key controller makes a key. The rollout gate then holds a key no preflight verified.
	PreflightPod Preflight = "pod"
)

// Preflights are the preflight deployers a lab can run, the default first.
var Preflights = []Preflight{PreflightAlwaysSucceed, PreflightPod}

// Timings are the periods and timeouts the lab runs kmsguard with, which bound how soon it can see a fault.
type Timings struct {
	// ReportInterval is how often each node's health reporter probes its plugins, and kmsstate asks the
	// apiservers; the reporter adds up to 10 % of jitter.
	ReportInterval time.Duration
	// CallTimeout bounds each call of the health reporter to a plugin: the longest a plugin that hangs is given.
	CallTimeout time.Duration
	// ReportsFailures says whether the reporter's reports of a failing plugin reach the API. library-go's do not:
	// the operator CRDs require remoteKeyID in every report and it writes one only for a healthy plugin, so the
	// API server rejects the node's whole apply while one of its plugins fails, and only the apiservers' own
	// view shows the failure.
	ReportsFailures bool
	// APIServerCallTimeout is the timeout of a kube-apiserver's calls to its plugins: the KMS provider's timeout
	// in the encryption config, which library-go writes as 10 s. kube-apiserver's /healthz/kms-providers calls
	// Status (at most every 20 s) and waits that long for a plugin that does not answer.
	APIServerCallTimeout time.Duration
	// RoundTripInterval is the least time between two Encrypt/Decrypt round trips to a plugin; zero when the
	// reporter makes none (library-go's: Status only).
	RoundTripInterval time.Duration
	// RecoveryInterval is how often lost-key recovery scans the encrypted objects.
	RecoveryInterval time.Duration
}

// DetectionTimings returns the Timings of the lab's reporter and controllers.
func (l *Lab) DetectionTimings() Timings {
	t := Timings{ReportInterval: l.reporter.reportInterval(), CallTimeout: reporterCallTimeout, RecoveryInterval: recoveryInterval,
		APIServerCallTimeout: libraryGoProviderTimeout}
	if l.reporter == ReporterKMSGuard {
		t.RoundTripInterval, t.ReportsFailures = roundTripInterval, true
	}
	return t
}

// Reporter is the program the lab runs as each pod's kms-health-reporter sidecar.
func (l *Lab) Reporter() Reporter { return l.reporter }

// Preflight is the KMS preflight deployer of the lab's operator.
func (l *Lab) Preflight() Preflight { return l.preflight }

// Options configure a lab.
type Options struct {
	// Dir holds everything: etcd's data, the apiservers' certificates and logs, the nodes' directories and the
	// kubeconfig. It must be short enough for unix socket paths below it (about 50 bytes at most). Required.
	Dir string
	// Nodes is the number of control-plane nodes, master-0..N-1, each with its own kube-apiserver; 1 is a
	// single-node OpenShift. Default 3.
	Nodes int
	// Log receives one line per step of the lab (node agents, start, stop). Nil discards them.
	Log io.Writer
	// ControllerLog, when set, receives the log of the controllers (klog, process-wide: library-go logs
	// through it). Nil leaves klog as it is.
	ControllerLog io.Writer
	// Timings are the operator's timeouts; a zero field is what the operator uses on a cluster.
	Timings OperatorTimings
	// Reporter runs as each pod's kms-health-reporter sidecar; empty is ReporterLibraryGo.
	Reporter Reporter
	// Preflight is the KMS preflight deployer of the lab's operator; empty is PreflightAlwaysSucceed.
	Preflight Preflight
	// OperatorBinary is kube-apiserver-operator's binary, built from the carried source with hack/integration's
	// patch: the executable of the operator's image, which the containers of the operator's pods run with their own
	// arguments (the kms-health-reporter sidecar, the kms-preflight check). Empty is openshift.OperatorBinary().
	OperatorBinary string
}

// OperatorTimings are the operator's timeouts that decide how long a rollout and a revert take, set through
// the options kube-apiserver-operator and kmsguard would set. The lab may shorten them (ShortOperatorTimings) so
// that `make test` stays within its time; `make run` uses the cluster's (a zero field).
type OperatorTimings struct {
	// MinReadyDuration is library-go's installer controller's WithMinReadyDuration: how long every updated
	// apiserver must have been ready before the next node's turn. Zero is kube-apiserver-operator's 30 s.
	MinReadyDuration time.Duration
	// NotReadyAfter is kmsguard.Intervals.NotReadyAfter: how long a new revision's apiserver may stay not
	// ready before kmsrollback counts the revision failed there. Zero is kmsrollback.DefaultNotReadyAfter.
	NotReadyAfter time.Duration
}

// operatorMinReadyDuration is kube-apiserver-operator's WithMinReadyDuration (starter.go at c813e820).
const operatorMinReadyDuration = 30 * time.Second

// ShortOperatorTimings are the timings `make test` runs the lab with: a 5 s minimum ready time instead of 30 s
// (the tour rolls out a dozen revisions to three nodes), and a revert from a not-ready apiserver after 90 s
// instead of 5 minutes (a lab apiserver that can start does so in under 10 s).
func ShortOperatorTimings() OperatorTimings {
	return OperatorTimings{MinReadyDuration: 5 * time.Second, NotReadyAfter: 90 * time.Second}
}

// withDefaults fills the zero fields with the cluster's values.
func (t OperatorTimings) withDefaults() OperatorTimings {
	if t.MinReadyDuration == 0 {
		t.MinReadyDuration = operatorMinReadyDuration
	}
	if t.NotReadyAfter == 0 {
		t.NotReadyAfter = kmsrollback.DefaultNotReadyAfter
	}
	return t
}

// String says the timings as a header line reads them.
func (t OperatorTimings) String() string {
	t = t.withDefaults()
	return fmt.Sprintf("minimum ready time %s (the operator's %s), revert after not ready for %s (kmsguard's default %s)",
		t.MinReadyDuration, operatorMinReadyDuration, t.NotReadyAfter, kmsrollback.DefaultNotReadyAfter)
}

// Lab is a running lab. Its methods are safe for concurrent use.
type Lab struct {
	dir        string
	cp         *kmsenv.ControlPlane
	kms        *fake.KMS
	nodes      []*Node
	restConfig *rest.Config
	// kube and operators reach whichever apiserver is up; built once, for the view that reads every few seconds.
	kube      kubernetes.Interface
	operators operatorclient.Interface
	// operatorMu guards operator and operatorRunning: FaultOperatorStop and FaultOperatorStart replace them.
	operatorMu      sync.Mutex
	operator        *Operator
	operatorRunning bool
	operatorDeps    operatorDeps
	timings         OperatorTimings
	reporter        Reporter
	preflight       Preflight
	operatorBinary  string
	logMu           sync.Mutex
	log             io.Writer

	// runCtx lives as long as the lab runs: the node agents, the operator and what faults leave running.
	runCtx context.Context
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// Start starts a lab and returns once every node runs the operator's first revision. ctx bounds the start only.
func Start(ctx context.Context, opts Options) (_ *Lab, err error) {
	if opts.Dir == "" {
		return nil, errors.New("lab: Options.Dir is required")
	}
	if opts.Nodes == 0 {
		opts.Nodes = 3
	}
	if opts.Nodes < 1 {
		return nil, fmt.Errorf("lab: %d nodes", opts.Nodes)
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if opts.ControllerLog != nil {
		redirectKlog(opts.ControllerLog)
	}
	l := &Lab{dir: dir, kms: fake.NewKMS(), log: opts.Log, timings: opts.Timings.withDefaults(), reporter: opts.Reporter}
	if l.reporter == "" {
		l.reporter = ReporterLibraryGo
	}
	if !slices.Contains(Reporters, l.reporter) {
		return nil, fmt.Errorf("unknown reporter %q (one of %v)", opts.Reporter, Reporters)
	}
	l.preflight = opts.Preflight
	if l.preflight == "" {
		l.preflight = PreflightAlwaysSucceed
	}
	if !slices.Contains(Preflights, l.preflight) {
		return nil, fmt.Errorf("unknown preflight %q (one of %v)", opts.Preflight, Preflights)
	}
	if l.operatorBinary = opts.OperatorBinary; l.operatorBinary == "" {
		if l.operatorBinary, err = openshift.OperatorBinary(); err != nil {
			return nil, fmt.Errorf("lab: %w", err)
		}
	}
	if l.log == nil {
		l.log = io.Discard
	}
	defer func() {
		if err != nil {
			_ = l.Stop()
		}
	}()

	// etcd and one kube-apiserver per node. They start as the bootstrap control plane does, without encryption;
	// the operator's first revision then replaces each, one node at a time.
	started := time.Now()
	apiServerOpts := apiServerOptions("")
	if err := os.MkdirAll(filepath.Join(dir, "controlplane"), 0o700); err != nil {
		return nil, err
	}
	l.cp, err = kmsenv.Start(kmsenv.Options{Dir: filepath.Join(dir, "controlplane"), APIServerOptions: apiServerOpts, EtcdTLS: true})
	if err != nil {
		return nil, err
	}
	for i := 1; i < opts.Nodes; i++ {
		if _, err := l.cp.AddAPIServer(apiServerOpts); err != nil {
			return nil, err
		}
	}
	l.logf("lab: etcd and %d kube-apiservers started in %s", opts.Nodes, time.Since(started).Round(time.Millisecond))

	if l.restConfig, err = l.cp.FailoverRESTConfig(); err != nil {
		return nil, err
	}
	kubeClient, err := kubernetes.NewForConfig(l.restConfig)
	if err != nil {
		return nil, err
	}
	l.kube = kubeClient
	if l.operators, err = operatorclient.NewForConfig(l.restConfig); err != nil {
		return nil, err
	}
	configClient, err := configclient.NewForConfig(l.restConfig)
	if err != nil {
		return nil, err
	}
	if err := openshift.InstallCRDs(l.restConfig, filepath.Join(dir, "crds")); err != nil {
		return nil, err
	}
	etcdFiles, _ := l.cp.EtcdTLSFiles()
	if err := publishCluster(ctx, l.restConfig, opts.Nodes, etcdFiles); err != nil {
		return nil, err
	}
	if err := createClusterObjects(ctx, kubeClient); err != nil {
		return nil, err
	}
	if err := l.writeKubeConfig(); err != nil {
		return nil, err
	}

	// The startup monitor runs only where kube-apiserver-operator enables it: a SingleReplica control plane, as it
	// reads the Infrastructure (startupmonitorreadiness).
	infra, err := configClient.ConfigV1().Infrastructures().Get(ctx, "cluster", metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading the control plane topology: %w", err)
	}
	startupMonitor := infra.Status.ControlPlaneTopology == configv1.SingleReplicaTopologyMode

	runCtx, cancel := context.WithCancel(context.Background())
	l.runCtx, l.cancel = runCtx, cancel
	for i := 0; i < opts.Nodes; i++ {
		node, err := newNode(l, i, kubeClient, startupMonitor)
		if err != nil {
			return nil, err
		}
		if err := node.register(ctx); err != nil {
			return nil, err
		}
		l.nodes = append(l.nodes, node)
		l.done.Add(1)
		go func() {
			defer l.done.Done()
			node.run(runCtx)
		}()
	}

	l.done.Add(1)
	go func() {
		defer l.done.Done()
		l.schedule(runCtx)
	}()

	apiservers, err := apiServerProber(l.nodes, l.reporter.reportInterval())
	if err != nil {
		return nil, err
	}
	l.operatorDeps = operatorDeps{cfg: l.restConfig, etcdEndpoint: l.cp.EtcdEndpoint(), apiservers: apiservers, timings: l.timings,
		reportInterval: l.reporter.reportInterval(), preflight: l.preflight, hold: newMigrationHold()}
	if err := l.startOperator(); err != nil {
		return nil, err
	}
	if err := l.WaitForRevision(ctx, 1); err != nil {
		return nil, err
	}
	if err := l.serveControl(runCtx); err != nil {
		return nil, err
	}
	l.logf("lab: ready after %s", time.Since(started).Round(time.Millisecond))
	return l, nil
}

// Stop stops the operator, the node agents and their plugins, the apiservers and etcd. The directory stays.
func (l *Lab) Stop() error {
	if l.cancel != nil {
		l.cancel()
	}
	l.stopOperator()
	l.done.Wait()
	for _, n := range l.nodes {
		n.stopPod()
	}
	if l.cp == nil {
		return nil
	}
	return l.cp.Stop()
}

func (l *Lab) logf(format string, args ...any) {
	l.logMu.Lock()
	defer l.logMu.Unlock()
	fmt.Fprintf(l.log, "%s %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, args...))
}

// Dir is the lab's directory.
func (l *Lab) Dir() string { return l.dir }

// KubeConfigPath is a kubeconfig for kubectl and kmsguard with cluster-admin credentials for master-0's
// kube-apiserver.
func (l *Lab) KubeConfigPath() string { return filepath.Join(l.dir, "kubeconfig") }

// EtcdEndpoint is etcd's client URL, https on loopback; EtcdConfig adds the client certificate it asks for.
func (l *Lab) EtcdEndpoint() string { return l.cp.EtcdEndpoint() }

// EtcdConfig is how kmsguard's commands reach the lab's etcd: the endpoint and the files of their --etcd-* flags.
func (l *Lab) EtcdConfig() etcdclient.Config { return l.cp.EtcdConfig() }

// ControlPlane is the lab's etcd and kube-apiservers.
func (l *Lab) ControlPlane() *kmsenv.ControlPlane { return l.cp }

// RESTConfig is an admin client config that reaches whichever apiserver is up.
func (l *Lab) RESTConfig() *rest.Config { return rest.CopyConfig(l.restConfig) }

// KMS is the simulated KMS every node's plugins use.
func (l *Lab) KMS() *fake.KMS { return l.kms }

// Timings are the operator timeouts the lab runs with.
func (l *Lab) Timings() OperatorTimings { return l.timings }

// StartupMonitor says whether the node agents run the startup monitor and its fallback: only on a SingleReplica
// control plane, as kube-apiserver-operator decides (each agent reads the Infrastructure at start).
func (l *Lab) StartupMonitor() bool { return len(l.nodes) > 0 && l.nodes[0].startupMonitor }

// Nodes are the node agents, master-0 first.
func (l *Lab) Nodes() []*Node { return append([]*Node(nil), l.nodes...) }

// startOperator starts the lab's operator, built afresh from the cluster; errOperatorRunning when it runs already.
func (l *Lab) startOperator() error {
	l.operatorMu.Lock()
	defer l.operatorMu.Unlock()
	if l.operatorRunning {
		return errOperatorRunning
	}
	o, err := startOperator(l.runCtx, l.operatorDeps)
	if err != nil {
		return err
	}
	l.operator, l.operatorRunning = o, true
	return nil
}

// stopOperator stops the lab's operator, as a deleted operator pod stops, and returns once its controllers have
// stopped; false when it was not running.
func (l *Lab) stopOperator() bool {
	l.operatorMu.Lock()
	defer l.operatorMu.Unlock()
	if !l.operatorRunning {
		return false
	}
	stopOperator(l.operator)
	l.operatorRunning = false
	return true
}

var errOperatorRunning = errors.New("the operator runs already")

func (l *Lab) writeKubeConfig() error {
	data, err := l.cp.APIServer(0).KubeConfig()
	if err != nil {
		return err
	}
	return os.WriteFile(l.KubeConfigPath(), data, 0o600)
}

// SetEncryption sets spec.encryption of the APIServer resource, as an admin does: "aescbc", "aesgcm",
// "identity" or "KMS" (with the Vault provider the simulated KMS plays).
func (l *Lab) SetEncryption(ctx context.Context, encryptionType configv1.EncryptionType) error {
	encryption := configv1.APIServerEncryption{Type: encryptionType}
	if encryptionType == configv1.EncryptionTypeKMS {
		var err error
		if encryption, err = kmsEncryption(SimulatedKMSAddress); err != nil {
			return err
		}
	}
	return l.SetAPIServerEncryption(ctx, encryption)
}

// APIServerEncryption is spec.encryption of the APIServer resource.
func (l *Lab) APIServerEncryption(ctx context.Context) (configv1.APIServerEncryption, error) {
	client, err := configclient.NewForConfig(l.restConfig)
	if err != nil {
		return configv1.APIServerEncryption{}, err
	}
	apiServer, err := client.ConfigV1().APIServers().Get(ctx, "cluster", metav1.GetOptions{})
	if err != nil {
		return configv1.APIServerEncryption{}, err
	}
	return apiServer.Spec.Encryption, nil
}

// SetAPIServerEncryption sets spec.encryption of the APIServer resource, as an admin edits it.
func (l *Lab) SetAPIServerEncryption(ctx context.Context, encryption configv1.APIServerEncryption) error {
	client, err := configclient.NewForConfig(l.restConfig)
	if err != nil {
		return err
	}
	return conflictretry.Do(func() error {
		apiServer, err := client.ConfigV1().APIServers().Get(ctx, "cluster", metav1.GetOptions{})
		if err != nil {
			return err
		}
		apiServer.Spec.Encryption = encryption
		_, err = client.ConfigV1().APIServers().Update(ctx, apiServer, metav1.UpdateOptions{})
		return err
	})
}

// WaitForRevision waits until every node's current revision is the latest available one and at least min, with
// no installation in progress.
func (l *Lab) WaitForRevision(ctx context.Context, min int32) error {
	var last string
	err := wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, 10*time.Minute, true, func(ctx context.Context) (bool, error) {
		status, err := l.OperatorStatus(ctx)
		if err != nil {
			return false, nil
		}
		last = describeRollout(status)
		return converged(status, min, len(l.nodes)), nil
	})
	if err != nil {
		return fmt.Errorf("waiting for every node to run revision %d or later (%s): %w", min, last, err)
	}
	return nil
}

// converged says whether the rollout has converged (kmsrollback.ConvergedRevision) on revision min or later,
// with a node status for each of the lab's nodes.
func converged(status *operatorv1.StaticPodOperatorStatus, min int32, nodes int) bool {
	revision := kmsrollback.ConvergedRevision(status)
	return revision != 0 && revision >= min && len(status.NodeStatuses) == nodes
}

func describeRollout(status *operatorv1.StaticPodOperatorStatus) string {
	parts := []string{fmt.Sprintf("latest available revision %d", status.LatestAvailableRevision)}
	for _, n := range status.NodeStatuses {
		parts = append(parts, fmt.Sprintf("%s current %d target %d", n.NodeName, n.CurrentRevision, n.TargetRevision))
	}
	return strings.Join(parts, ", ")
}

// WaitForEncryption waits until library-go's controllers have made a key of mode (state.KMS, state.AESCBC, ...)
// the write key of every encrypted resource on every node and migrated them to it: the newest key secret has that
// mode, records every encrypted resource as migrated, and every node runs the latest revision. It returns the
// key's id (the n of encryption-key-openshift-kube-apiserver-<n>).
func (l *Lab) WaitForEncryption(ctx context.Context, mode state.Mode) (string, error) {
	selector := metav1.ListOptions{LabelSelector: secrets.EncryptionKeySecretsLabel + "=" + TargetNamespace}
	var keyID, last string
	err := wait.PollUntilContextTimeout(ctx, time.Second, 15*time.Minute, true, func(ctx context.Context) (bool, error) {
		keySecrets, err := secrets.ListKeySecrets(ctx, l.kube.CoreV1(), selector)
		if err != nil {
			return false, nil
		}
		var keys []state.KeyState
		for _, s := range keySecrets {
			if k, err := secrets.ToKeyState(s); err == nil {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			last = "no encryption key yet"
			return false, nil
		}
		newest := state.SortRecentFirst(keys)[0]
		keyID = newest.Key.Name
		if newest.Mode != mode {
			last = fmt.Sprintf("newest key %s has mode %s", newest.Key.Name, newest.Mode)
			return false, nil
		}
		if ok, missing, _ := state.MigratedFor(EncryptedResources, newest); !ok {
			last = fmt.Sprintf("key %s: %v not migrated yet", newest.Key.Name, missing)
			return false, nil
		}
		status, err := l.OperatorStatus(ctx)
		if err != nil {
			return false, nil
		}
		last = describeRollout(status)
		return converged(status, 1, len(l.nodes)), nil
	})
	if err != nil {
		return "", fmt.Errorf("waiting for %s encryption (%s): %w", mode, last, err)
	}
	return keyID, nil
}

// redirectKlog sends klog's output to w only.
func redirectKlog(w io.Writer) {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	// By severity, INFO only: klog writes each line to its own severity's output and every lower one.
	klog.SetOutputBySeverity("INFO", w)
}

// WaitForVerified waits until kmsguard's census of etcd proves every encrypted resource under a write key of
// library-go's key keyID and, for KMS v2, at KEK id kekID (KMSEncryptionVerified True, its message naming those write
// keys), then proves it again with the lab's own census of etcd (Census) and returns the lab's reports. At least one
// of keyID and kekID is required: the condition stays True from one write key to the next, and only the write key
// it names tells a census after the change from one before. The lab's simulated KMS gives every key the same KEK
// ids, so after a new key the KEK id alone does not tell them apart; after a rotation the key id does not.
func (l *Lab) WaitForVerified(ctx context.Context, keyID, kekID string) ([]*evidence.Report, error) {
	if keyID == "" && kekID == "" {
		return nil, errors.New("WaitForVerified: a key id or a KEK id is required")
	}
	var last string
	err := wait.PollUntilContextTimeout(ctx, time.Second, 10*time.Minute, true, func(ctx context.Context) (bool, error) {
		status, err := l.OperatorStatus(ctx)
		if err != nil {
			return false, nil
		}
		cond := v1helpers.FindOperatorCondition(status.Conditions, evidence.ConditionVerified)
		if cond == nil {
			last = "no " + evidence.ConditionVerified + " condition yet"
			return false, nil
		}
		last = fmt.Sprintf("%s %s %s: %s", cond.Type, cond.Status, cond.Reason, cond.Message)
		return cond.Status == operatorv1.ConditionTrue && verifiedUnder(cond.Message, keyID, kekID), nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for the census to prove every encrypted resource under key %q at KEK id %q (%s): %w", keyID, kekID, last, err)
	}
	if kekID == "" {
		kekID = l.kms.CurrentKEKID()
	}
	reports, err := l.Census(ctx, kekID)
	if err != nil {
		return nil, fmt.Errorf("the lab's own census of etcd: %w", err)
	}
	for _, report := range reports {
		if report.Verified() && writeKeyOf(report.WriteKey.Name, keyID) {
			continue
		}
		var counts []string
		for _, r := range report.Resources {
			counts = append(counts, fmt.Sprintf("%s: %d/%d under it, %d under other keys, %d corrupt: %s", r.Resource, r.UnderWriteKey, r.Total, r.NotUnderWriteKey, r.Corrupt, r.Verdict().Message))
		}
		return reports, fmt.Errorf("KMSEncryptionVerified is True, but the lab's own census of etcd does not prove it under %s: %s", report.WriteKey, strings.Join(counts, "; "))
	}
	return reports, nil
}

// verifiedUnder says whether every line of a KMSEncryptionVerified message ("secrets: 362/362 under
// kms-v2:3_secrets:kek-1") names a write key of library-go's key keyID at KEK id kekID; an empty one matches any.
func verifiedUnder(message, keyID, kekID string) bool {
	lines := strings.Split(message, "\n")
	for _, line := range lines {
		_, key, found := strings.Cut(line, " under ")
		if !found {
			return false
		}
		key, _, _ = strings.Cut(key, ",")
		parts := strings.Split(key, ":")
		if len(parts) < 2 || !writeKeyOf(parts[1], keyID) {
			return false
		}
		if kekID != "" && (len(parts) != 3 || parts[2] != kekID) {
			return false
		}
	}
	return len(lines) > 0
}

// writeKeyOf says whether a write key's name is of library-go's key keyID: the key itself (aescbc, aesgcm: "3") or
// one of its KMS providers ("3_secrets"); any when keyID is empty.
func writeKeyOf(name, keyID string) bool {
	return keyID == "" || name == keyID || strings.HasPrefix(name, keyID+"_")
}
