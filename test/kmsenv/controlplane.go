package kmsenv

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/kmsguard/kmsguard/pkg/etcdclient"
)

// assetsEnv is where envtest, and so this package, finds the kube-apiserver and etcd binaries.
const assetsEnv = "KUBEBUILDER_ASSETS"

// Options describe the first kube-apiserver of a ControlPlane. Later ones (AddAPIServer) take their own.
type Options struct {
	APIServerOptions

	// Dir holds etcd's data, certificates, encryption configs and process logs. Defaults to a new temporary
	// directory that Stop removes.
	Dir string
	// EtcdTLS serves etcd's clients over TLS with client certificates, as OpenShift's etcd does: EtcdEndpoint
	// is then https, EtcdTLSFiles names the certificates, and the apiservers use them. Without it etcd
	// serves plain HTTP on loopback.
	EtcdTLS bool
}

// APIServerOptions configure one kube-apiserver.
type APIServerOptions struct {
	// EncryptionConfig is written to a file and passed as --encryption-provider-config. Nil means no encryption.
	EncryptionConfig *apiserverv1.EncryptionConfiguration
	// EncryptionConfigFile is passed as --encryption-provider-config as it is, for a caller that installs the
	// file itself (the lab's node agent installs one per static-pod revision, as the installer does). It
	// excludes EncryptionConfig.
	EncryptionConfigFile string
	// AutomaticReload sets --encryption-provider-config-automatic-reload: the apiserver re-reads the file
	// every minute instead of only at start.
	AutomaticReload bool
	// FeatureGates are passed as --feature-gates, e.g. "AllowUnsafeMalformedObjectDeletion=true".
	FeatureGates []string
	// Wait says when the apiserver counts as started.
	Wait WaitFor
	// Args are further kube-apiserver flags, without the leading "--", e.g. {"shutdown-send-retry-after": "true"}.
	Args map[string]string
	// ServiceAccountAdmission turns on the ServiceAccount admission plugin, which envtest turns off: every pod
	// then needs its service account to exist and gets the projected volume of its API credentials, as on a
	// cluster. The caller creates the service accounts its pods name (kube-controller-manager creates "default").
	ServiceAccountAdmission bool
	// StartTimeout bounds the start: an apiserver not healthy (or live) by then is stopped and the start fails.
	// Zero means 90 s, room for a loaded CI machine; the lab's startup-monitor stand-in gives up sooner, as
	// the startup monitor does.
	StartTimeout time.Duration
	// Abort, when not nil, ends a WaitHealthy start that is still waiting once it is closed, as the timeout
	// does: the process is stopped and the start fails. A kubelet stands in for it when the pod's manifest
	// changes while a container restarts.
	Abort <-chan struct{}
}

// WaitFor is the health endpoint that must answer 200 before Start returns.
type WaitFor string

const (
	// WaitHealthy waits for /healthz, which includes the KMS check: the normal case.
	WaitHealthy WaitFor = "healthz"
	// WaitLive waits for /livez only, which does not include the KMS check (since Kubernetes 1.29): use it to
	// start an apiserver whose KMS plugin is down or whose key is unusable, as a failed KMS rollout would.
	WaitLive WaitFor = "livez"
	// WaitServing waits until the apiserver answers HTTPS at all, as a kubelet counts a container started:
	// use it to restart an apiserver that may never become live, such as one whose KMS plugin is down while
	// ConfigMaps are KMS-encrypted (its post-start hooks write ConfigMaps).
	WaitServing WaitFor = "serving"
)

// startTimeout bounds a kube-apiserver or etcd start. A healthy start takes about 4 s on 2 cores; the rest is
// room for a loaded CI machine.
const startTimeout = 90 * time.Second

// ControlPlane is one etcd and the kube-apiservers that share it.
type ControlPlane struct {
	dir     string
	ownsDir bool
	etcd    *envtest.Etcd
	// etcdURL is etcd's client URL: etcd.URL, or with EtcdTLS an https URL (etcd.URL is then its plain health
	// listener).
	etcdURL  *url.URL
	etcdTLS  *EtcdTLSFiles
	assets   string
	etcdOnce sync.Once
	etcdCli  *clientv3.Client
	etcdErr  error

	mu         sync.Mutex
	apiServers []*APIServer
}

// Start starts etcd and one kube-apiserver configured by opts.
func Start(opts Options) (_ *ControlPlane, err error) {
	assets := os.Getenv(assetsEnv)
	if assets == "" {
		return nil, fmt.Errorf("%s is not set: run `make test`, or `export %s=$(hack/build-envtest-assets.sh)`", assetsEnv, assetsEnv)
	}
	for _, bin := range []string{"etcd", "kube-apiserver"} {
		if _, err := os.Stat(filepath.Join(assets, bin)); err != nil {
			return nil, fmt.Errorf("%s=%s has no %s binary (build it with hack/build-envtest-assets.sh): %w", assetsEnv, assets, bin, err)
		}
	}

	cp := &ControlPlane{dir: opts.Dir, assets: assets}
	if cp.dir == "" {
		if cp.dir, err = os.MkdirTemp("", "kmsenv-"); err != nil {
			return nil, err
		}
		cp.ownsDir = true
	}
	defer func() {
		if err != nil {
			_ = cp.Stop()
		}
	}()

	etcdLog, err := os.Create(filepath.Join(cp.dir, "etcd.log"))
	if err != nil {
		return nil, err
	}
	cp.etcd = &envtest.Etcd{
		Path:         filepath.Join(assets, "etcd"),
		DataDir:      filepath.Join(cp.dir, "etcd"),
		StartTimeout: startTimeout,
		StopTimeout:  30 * time.Second,
		Out:          etcdLog,
		Err:          etcdLog,
	}
	if err := os.MkdirAll(cp.etcd.DataDir, 0o700); err != nil {
		return nil, err
	}
	if opts.EtcdTLS {
		clientURL, files, err := configureEtcdTLS(cp.etcd, filepath.Join(cp.dir, "etcd-pki"))
		if err != nil {
			return nil, err
		}
		cp.etcdURL, cp.etcdTLS = clientURL, &files
	}
	if err := cp.etcd.Start(); err != nil {
		return nil, fmt.Errorf("starting etcd (log: %s): %w", etcdLog.Name(), err)
	}
	if cp.etcdURL == nil {
		cp.etcdURL = cp.etcd.URL
	}
	if _, err := cp.AddAPIServer(opts.APIServerOptions); err != nil {
		return nil, err
	}
	return cp, nil
}

// StartForTest starts a ControlPlane that is stopped when t ends. On failure the tail of each process log is
// written to the test log, since that is where a KMS misconfiguration shows.
func StartForTest(t testing.TB, opts Options) *ControlPlane {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	cp, err := Start(opts)
	if err != nil {
		logTails(t, opts.Dir)
		t.Fatalf("starting control plane: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			logTails(t, opts.Dir)
		}
		if err := cp.Stop(); err != nil {
			t.Errorf("stopping control plane: %v", err)
		}
	})
	return cp
}

// Dir is the directory that holds the control plane's data, configs and logs.
func (cp *ControlPlane) Dir() string { return cp.dir }

// APIServer returns the i-th kube-apiserver, in the order they were added.
func (cp *ControlPlane) APIServer(i int) *APIServer {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	return cp.apiServers[i]
}

// AddAPIServer starts one more kube-apiserver on the same etcd, as in an HA control plane.
func (cp *ControlPlane) AddAPIServer(opts APIServerOptions) (*APIServer, error) {
	cp.mu.Lock()
	index := len(cp.apiServers)
	a := newAPIServer(cp, index)
	cp.apiServers = append(cp.apiServers, a)
	cp.mu.Unlock()
	if err := a.start(opts); err != nil {
		return nil, err
	}
	return a, nil
}

// EtcdEndpoint is the client URL of etcd: plain HTTP on loopback, or https with Options.EtcdTLS.
func (cp *ControlPlane) EtcdEndpoint() string { return cp.etcdURL.String() }

// EtcdTLSFiles are the certificates of an etcd started with Options.EtcdTLS; ok is false without it.
func (cp *ControlPlane) EtcdTLSFiles() (files EtcdTLSFiles, ok bool) {
	if cp.etcdTLS == nil {
		return EtcdTLSFiles{}, false
	}
	return *cp.etcdTLS, true
}

// EtcdConfig is how kmsguard's commands reach this etcd (their --etcd-* flags).
func (cp *ControlPlane) EtcdConfig() etcdclient.Config {
	c := etcdclient.Config{Endpoints: []string{cp.EtcdEndpoint()}}
	if files, ok := cp.EtcdTLSFiles(); ok {
		c.CAFile, c.CertFile, c.KeyFile = files.CA, files.ClientCert, files.ClientKey
	}
	return c
}

// EtcdClient is a raw etcd client, for reading what kube-apiserver stored. It is closed by Stop.
func (cp *ControlPlane) EtcdClient() (*clientv3.Client, error) {
	cp.etcdOnce.Do(func() {
		tlsConfig, err := cp.EtcdConfig().TLSConfig()
		if err != nil {
			cp.etcdErr = err
			return
		}
		cp.etcdCli, cp.etcdErr = clientv3.New(clientv3.Config{
			Endpoints:   []string{cp.EtcdEndpoint()},
			TLS:         tlsConfig,
			DialTimeout: 10 * time.Second,
		})
	})
	return cp.etcdCli, cp.etcdErr
}

// RawValue reads the bytes kube-apiserver stored under key (for example /registry/secrets/default/foo).
func (cp *ControlPlane) RawValue(ctx context.Context, key string) ([]byte, error) {
	cli, err := cp.EtcdClient()
	if err != nil {
		return nil, err
	}
	resp, err := cli.Get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("reading %s from etcd: %w", key, err)
	}
	if len(resp.Kvs) == 0 {
		return nil, fmt.Errorf("%s: not found in etcd", key)
	}
	return resp.Kvs[0].Value, nil
}

// Stop stops every kube-apiserver, then etcd, and removes the directory if Start created it.
func (cp *ControlPlane) Stop() error {
	var errs []error
	cp.mu.Lock()
	apiServers := cp.apiServers
	cp.mu.Unlock()
	for _, a := range apiServers {
		errs = append(errs, a.Stop())
	}
	if cp.etcdCli != nil {
		errs = append(errs, cp.etcdCli.Close())
	}
	if cp.etcd != nil {
		errs = append(errs, cp.etcd.Stop())
	}
	if cp.ownsDir {
		errs = append(errs, os.RemoveAll(cp.dir))
	}
	return errors.Join(errs...)
}
