package kmsenv

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	apiserverv1 "k8s.io/apiserver/pkg/apis/apiserver/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// APIServer is one kube-apiserver of a ControlPlane. Its certificates, port and client credentials stay the same
// across restarts, so clients built from RESTConfig keep working after Restart.
type APIServer struct {
	cp    *ControlPlane
	index int
	dir   string

	mu         sync.Mutex
	server     *envtest.APIServer
	restConfig *rest.Config
	// pendingStart receives the result of envtest's Start when it was left running in the background
	// (WaitLive): see start.
	pendingStart chan error
	// events is the process's lifecycle, oldest first: see Events.
	events []Event
}

// EventKind is a step in the life of a kube-apiserver process.
type EventKind string

const (
	// EventStarting: the process is about to be started with the recorded encryption config.
	EventStarting EventKind = "Starting"
	// EventStarted: the health endpoint the start waited for answered 200.
	EventStarted EventKind = "Started"
	// EventServing: the process serves HTTPS, whatever its health (WaitServing).
	EventServing EventKind = "Serving"
	// EventStartFailed: the process did not become healthy (or live) in time and was stopped.
	EventStartFailed EventKind = "StartFailed"
	// EventStopping: the process is about to be asked to stop.
	EventStopping EventKind = "Stopping"
	// EventStopped: the process has exited.
	EventStopped EventKind = "Stopped"
)

// Event is one step of a kube-apiserver process's life, as its supervisor (here: kmsenv, in a cluster: the
// kubelet) saw it. EncryptionConfigPath is the --encryption-provider-config the process was started with
// ("" for none), and EncryptionConfig that file's content when it started: the file is the caller's, and may be
// gone since (a pruned revision).
type Event struct {
	Kind                 EventKind
	Time                 time.Time
	EncryptionConfigPath string
	EncryptionConfig     []byte
}

// Events returns the lifecycle of this apiserver's processes so far, oldest first. Tests read from it when
// each apiserver was down and which encryption config each process was started with; the same lines are in
// the log (LogPath).
func (a *APIServer) Events() []Event {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Event(nil), a.events...)
}

func (a *APIServer) record(kind EventKind, configPath string) {
	event := Event{Kind: kind, Time: time.Now(), EncryptionConfigPath: configPath}
	if kind == EventStarting && configPath != "" {
		// What the process reads; unreadable, it fails to start (EventStartFailed).
		event.EncryptionConfig, _ = os.ReadFile(configPath)
	}
	a.mu.Lock()
	if kind != EventStarting && configPath != "" {
		event.EncryptionConfig = a.lastStartingLocked().EncryptionConfig
	}
	a.events = append(a.events, event)
	a.mu.Unlock()
	if f, err := os.OpenFile(a.LogPath(), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
		fmt.Fprintf(f, "===== kmsenv: kube-apiserver-%d %s at %s (encryption config %q) =====\n", a.index, kind, event.Time.Format(time.RFC3339Nano), configPath)
		f.Close()
	}
}

// lastStartingLocked is the last Starting event: the running (or last) process's start, with the config it read.
func (a *APIServer) lastStartingLocked() Event {
	for i := len(a.events) - 1; i >= 0; i-- {
		if a.events[i].Kind == EventStarting {
			return a.events[i]
		}
	}
	return Event{}
}

// currentConfigPath is the --encryption-provider-config of the running process, from the last Starting event.
func (a *APIServer) currentConfigPath() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lastStartingLocked().EncryptionConfigPath
}

func newAPIServer(cp *ControlPlane, index int) *APIServer {
	return &APIServer{cp: cp, index: index, dir: filepath.Join(cp.dir, fmt.Sprintf("kube-apiserver-%d", index))}
}

// EncryptionConfigPath is the file passed as --encryption-provider-config. With AutomaticReload, rewriting it
// (WriteEncryptionConfig) is how a test changes the config without a restart.
func (a *APIServer) EncryptionConfigPath() string {
	return filepath.Join(a.dir, "encryption-config.yaml")
}

// LogPath is the file that holds the apiserver's stdout and stderr, across restarts.
func (a *APIServer) LogPath() string { return filepath.Join(a.dir, "kube-apiserver.log") }

// RESTConfig authenticates as a cluster admin (system:masters). It is a copy: callers may change it.
func (a *APIServer) RESTConfig() *rest.Config {
	a.mu.Lock()
	defer a.mu.Unlock()
	return rest.CopyConfig(a.restConfig)
}

// Client is an admin clientset for this apiserver.
func (a *APIServer) Client() kubernetes.Interface {
	return kubernetes.NewForConfigOrDie(a.RESTConfig())
}

// Get sends an authenticated GET for path (e.g. /healthz/kms-providers or /metrics) and returns the status code
// and body. A non-2xx status is not an error: health checks are judged by their code.
func (a *APIServer) Get(ctx context.Context, path string) (int, []byte, error) {
	cfg := a.RESTConfig()
	httpClient, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(cfg.Host, "/")+path, nil)
	if err != nil {
		return 0, nil, err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

// Restart stops the apiserver and starts it again with opts; etcd and its data stay. This is what a new
// static-pod revision does to one node.
func (a *APIServer) Restart(opts APIServerOptions) error {
	if err := a.Stop(); err != nil {
		return fmt.Errorf("stopping kube-apiserver-%d: %w", a.index, err)
	}
	return a.start(opts)
}

// Stop stops the apiserver process. It is safe to call on a stopped apiserver.
func (a *APIServer) Stop() error {
	a.mu.Lock()
	server, pending := a.server, a.pendingStart
	a.pendingStart = nil
	a.mu.Unlock()
	if server == nil {
		return nil
	}
	configPath := a.currentConfigPath()
	a.record(EventStopping, configPath)
	err := server.Stop()
	if pending != nil {
		// envtest's Start returns once the process it waits for has exited; its error says only that, and the
		// stop's own error is the one returned.
		startErr := <-pending
		_ = startErr
	}
	a.record(EventStopped, configPath)
	return err
}

func (a *APIServer) start(opts APIServerOptions) error {
	if err := os.MkdirAll(filepath.Join(a.dir, "certs"), 0o700); err != nil {
		return err
	}
	logFile, err := os.OpenFile(a.LogPath(), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	fmt.Fprintf(logFile, "\n===== kmsenv: starting kube-apiserver-%d at %s =====\n", a.index, time.Now().Format(time.RFC3339))

	a.mu.Lock()
	server := a.server
	if server == nil {
		// The same envtest.APIServer is reused for every restart: it keeps its port, serving certificates and
		// client CA, so clients built before a restart keep working.
		port, err := FreePort()
		if err != nil {
			a.mu.Unlock()
			return err
		}
		server = &envtest.APIServer{
			Path:        filepath.Join(a.cp.assets, "kube-apiserver"),
			CertDir:     filepath.Join(a.dir, "certs"),
			EtcdURL:     a.cp.etcdURL,
			StopTimeout: 60 * time.Second,
			// Chosen here rather than by envtest so that startInBackground can read it while envtest's Start runs.
			SecureServing: envtest.SecureServing{ListenAddr: envtest.ListenAddr{Address: "127.0.0.1", Port: port}},
		}
		a.server = server
	}
	a.mu.Unlock()
	server.Out, server.Err = logFile, logFile
	if err := a.configure(server.Configure(), opts); err != nil {
		return err
	}
	configPath := ""
	if opts.EncryptionConfig != nil {
		configPath = a.EncryptionConfigPath()
	} else if opts.EncryptionConfigFile != "" {
		configPath = opts.EncryptionConfigFile
	}
	a.record(EventStarting, configPath)

	wait := opts.Wait
	if wait == "" {
		wait = WaitHealthy
	}
	switch wait {
	case WaitHealthy:
		if opts.Abort != nil {
			// envtest's Start cannot be ended early: wait for /healthz here instead.
			if err := a.startInBackground(server, opts.startTimeout(), "/healthz", opts.Abort, func(code int) bool { return code == http.StatusOK }); err != nil {
				a.record(EventStartFailed, configPath)
				return err
			}
			break
		}
		server.StartTimeout = opts.startTimeout()
		if err := server.Start(); err != nil {
			a.record(EventStartFailed, configPath)
			return fmt.Errorf("starting kube-apiserver-%d (log: %s): %w", a.index, a.LogPath(), err)
		}
	case WaitLive:
		if err := a.startInBackground(server, opts.startTimeout(), "/livez", nil, func(code int) bool { return code == http.StatusOK }); err != nil {
			a.record(EventStartFailed, configPath)
			return err
		}
	case WaitServing:
		if err := a.startInBackground(server, opts.startTimeout(), "/livez", nil, func(int) bool { return true }); err != nil {
			a.record(EventStartFailed, configPath)
			return err
		}
		a.record(EventServing, configPath)
		return a.provisionAdmin(server)
	default:
		return fmt.Errorf("unknown WaitFor %q", wait)
	}
	a.record(EventStarted, configPath)
	return a.provisionAdmin(server)
}

// startInBackground starts server and returns once path answers with a status accept takes: /livez 200 for
// WaitLive, whatever /healthz says; /livez with any answer for WaitServing; /healthz 200 for a WaitHealthy start
// that abort may end.
//
// envtest waits for /healthz only and kills the process when that does not pass in time, but an apiserver
// whose KMS plugin is down never passes /healthz. So envtest's Start runs in the background with a timeout
// longer than any test, and this waits for /livez itself; Stop ends the process and collects that Start.
// An option in envtest to choose the health endpoint (controlplane.APIServer's processState.HealthCheck is
// not exported) would remove this adapter.
func (a *APIServer) startInBackground(server *envtest.APIServer, timeout time.Duration, path string, abort <-chan struct{}, accept func(code int) bool) error {
	server.StartTimeout = 24 * time.Hour
	pending := make(chan error, 1)
	go func() { pending <- server.Start() }()
	a.mu.Lock()
	a.pendingStart = pending
	a.mu.Unlock()

	// The serving certificate is self-signed for the test and the port is only known after envtest picks it,
	// so the poll does not verify TLS: /livez carries no secrets.
	probe := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // a local test apiserver's self-signed /livez, see above
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if abort != nil {
		go func() {
			select {
			case <-abort:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	err := wait.PollUntilContextCancel(ctx, 200*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		select {
		case err := <-pending:
			pending <- err // keep it for Stop
			if err == nil {
				// envtest's own check (/healthz) passed first, which it does when every check turns healthy at
				// once (kube-apiserver's storage readiness wait ending, for one): started, not exited.
				return true, nil
			}
			return false, fmt.Errorf("kube-apiserver-%d exited before %s passed: %w", a.index, path, err)
		default:
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, server.SecureServing.URL("https", path).String(), nil)
		if err != nil {
			return false, err
		}
		resp, err := probe.Do(req)
		if err != nil {
			return false, nil
		}
		resp.Body.Close()
		return accept(resp.StatusCode), nil
	})
	if err != nil {
		_ = a.Stop()
		return fmt.Errorf("waiting for %s of kube-apiserver-%d (log: %s): %w", path, a.index, a.LogPath(), err)
	}
	return nil
}

func (a *APIServer) configure(args *envtest.Arguments, opts APIServerOptions) error {
	switch {
	case opts.EncryptionConfig != nil && opts.EncryptionConfigFile != "":
		return fmt.Errorf("kube-apiserver-%d: EncryptionConfig and EncryptionConfigFile are exclusive", a.index)
	case opts.EncryptionConfig != nil:
		if err := WriteEncryptionConfig(a.EncryptionConfigPath(), opts.EncryptionConfig); err != nil {
			return err
		}
		args.Set("encryption-provider-config", a.EncryptionConfigPath())
	case opts.EncryptionConfigFile != "":
		args.Set("encryption-provider-config", opts.EncryptionConfigFile)
	default:
		args.Disable("encryption-provider-config")
	}
	if opts.AutomaticReload {
		args.Set("encryption-provider-config-automatic-reload", "true")
	} else {
		args.Disable("encryption-provider-config-automatic-reload")
	}
	if opts.ServiceAccountAdmission {
		args.Disable("disable-admission-plugins")
	}
	if files, ok := a.cp.EtcdTLSFiles(); ok {
		args.Set("etcd-cafile", files.CA).Set("etcd-certfile", files.ClientCert).Set("etcd-keyfile", files.ClientKey)
	}
	for flag, value := range opts.Args {
		args.Set(flag, value)
	}
	if len(opts.FeatureGates) > 0 {
		args.Set("feature-gates", strings.Join(opts.FeatureGates, ","))
	} else {
		args.Disable("feature-gates")
	}
	return nil
}

func (a *APIServer) provisionAdmin(server *envtest.APIServer) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.restConfig != nil {
		return nil
	}
	plane := &envtest.ControlPlane{Etcd: a.cp.etcd, APIServer: server}
	user, err := plane.AddUser(envtest.User{Name: "kmsenv-admin", Groups: []string{"system:masters"}},
		// Tests drive thousands of requests (migration); client-side throttling would measure the client.
		&rest.Config{QPS: 1000, Burst: 2000})
	if err != nil {
		return fmt.Errorf("provisioning an admin user for kube-apiserver-%d: %w", a.index, err)
	}
	a.restConfig = user.Config()
	return nil
}

// UpdateEncryptionConfig rewrites the config file in place, for an apiserver started with AutomaticReload.
func (a *APIServer) UpdateEncryptionConfig(config *apiserverv1.EncryptionConfiguration) error {
	return WriteEncryptionConfig(a.EncryptionConfigPath(), config)
}

// FreePort asks the kernel for an unused loopback port. Another process may take it before the process it is
// for binds it; the start then fails with a clear bind error in the log.
func FreePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}

// KubeConfig is a kubeconfig with the admin credentials of RESTConfig, for kubectl and `kmsguard --kubeconfig`.
func (a *APIServer) KubeConfig() ([]byte, error) {
	cfg := a.RESTConfig()
	const name = "kmsenv"
	kubeconfig := clientcmdapi.NewConfig()
	kubeconfig.Clusters[name] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	kubeconfig.AuthInfos[name] = &clientcmdapi.AuthInfo{ClientCertificateData: cfg.CertData, ClientKeyData: cfg.KeyData}
	kubeconfig.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name}
	kubeconfig.CurrentContext = name
	return clientcmd.Write(*kubeconfig)
}

func (o APIServerOptions) startTimeout() time.Duration {
	if o.StartTimeout > 0 {
		return o.StartTimeout
	}
	return startTimeout
}
