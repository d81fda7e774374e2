package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc/grpclog"

	"github.com/kmsguard/kmsguard/internal/cli"
	"github.com/kmsguard/kmsguard/internal/cli/clitest"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// TestMain runs kmsguard itself when KMSGUARD_TEST_MAIN is set, so that a test can run the command as a
// process: with its own environment ($HOME is read once, when client-go starts) and its own exit code.
func TestMain(m *testing.M) {
	if os.Getenv("KMSGUARD_TEST_MAIN") == "1" {
		os.Exit(cli.Execute(context.Background(), NewCommand(), os.Args[1:], os.Stdout, os.Stderr))
	}
	// Many commands run in this one process, and each sets klog's logger in its PersistentPreRun, which klog allows
	// only while nothing logs; the kmsguard binary does it once, before any goroutine. k8s.io/apiserver routes grpc-go's
	// log into klog, and the gRPC connections of the reporter tests go on logging from their own goroutines as they
	// close: the race detector reported the next command's klog.ClearLogger against them. grpc-go logs elsewhere
	// here, set before any gRPC call as grpclog requires.
	grpclog.SetLoggerV2(grpclog.NewLoggerV2(io.Discard, io.Discard, os.Stderr))
	os.Exit(m.Run())
}

// runKmsguard runs `kmsguard args...` as a process with env on top of a clean environment.
func runKmsguard(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append([]string{"KMSGUARD_TEST_MAIN=1", "PATH=" + os.Getenv("PATH")}, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// fakeOperatorAPI answers what `kmsguard status` reads of a cluster without KMS (the operator resource and
// the evaluation its kmsstate controller published) and records the requests.
type fakeOperatorAPI struct {
	lock     sync.Mutex
	requests []string
}

func (f *fakeOperatorAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.lock.Lock()
	f.requests = append(f.requests, r.URL.Path)
	f.lock.Unlock()
	w.Header().Set("Content-Type", "application/json")
	// The first path segment names the kubeconfig the request came from.
	_, path, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	switch "/" + path {
	case "/apis/operator.openshift.io/v1/kubeapiservers/cluster":
		fmt.Fprint(w, `{"apiVersion":"operator.openshift.io/v1","kind":"KubeAPIServer","metadata":{"name":"cluster"}}`)
	case "/api/v1/namespaces/openshift-kube-apiserver-operator/configmaps/kmsguard-kms-state":
		// The operator's kmsstate controller published, just now, an evaluation of a config without KMS keys.
		state, err := json.Marshal(kmsstate.State{EvaluatedAt: time.Now(), Nodes: []string{"master-0"}})
		if err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		cm, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]string{"namespace": "openshift-kube-apiserver-operator", "name": "kmsguard-kms-state"}, "data": map[string]string{kmsstate.StateDataKey: string(state)}})
		_, _ = w.Write(cm)
	case "/api/v1/nodes":
		fmt.Fprint(w, `{"apiVersion":"v1","kind":"NodeList","metadata":{},"items":[{"metadata":{"name":"master-0"}}]}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"apiVersion":"v1","kind":"Status","status":"Failure","reason":"NotFound","code":404}`)
	}
}

func (f *fakeOperatorAPI) seen() string {
	f.lock.Lock()
	defer f.lock.Unlock()
	return strings.Join(f.requests, "\n")
}

// writeKubeconfig writes a kubeconfig for server/<name>: the requests through it carry the name.
func writeKubeconfig(t *testing.T, path, server, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: %q}}]
users: [{name: u, user: {}}]
contexts: [{name: ctx, context: {cluster: c, user: u}}]
current-context: ctx
`, server+"/"+name)
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestStatusFindsTheClusterAsKubectlDoes: `kmsguard status` without flags talks to the cluster of $KUBECONFIG,
// else of ~/.kube/config; without either, outside a pod, it says so in one error line and nothing else (no
// klog lines).
func TestStatusFindsTheClusterAsKubectlDoes(t *testing.T) {
	api := &fakeOperatorAPI{}
	server := httptest.NewServer(api)
	defer server.Close()

	home := t.TempDir()
	writeKubeconfig(t, filepath.Join(home, ".kube", "config"), server.URL, "from-home")
	explicit := filepath.Join(t.TempDir(), "kubeconfig")
	writeKubeconfig(t, explicit, server.URL, "from-env")

	scenarios := []struct {
		name      string
		env       []string
		args      []string
		wantToken string
	}{
		{name: "$KUBECONFIG", env: []string{"HOME=" + home, "KUBECONFIG=" + explicit}, wantToken: "from-env"},
		{name: "~/.kube/config", env: []string{"HOME=" + home}, wantToken: "from-home"},
		{name: "--kubeconfig wins", env: []string{"HOME=" + home}, args: []string{"--kubeconfig", explicit}, wantToken: "from-env"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			api.lock.Lock()
			api.requests = nil
			api.lock.Unlock()
			stdout, stderr, code := runKmsguard(t, s.env, append([]string{"status"}, s.args...)...)
			if code != cli.ExitOK || stderr != "" {
				t.Fatalf("exit code %d, stderr %q; want 0 and nothing", code, stderr)
			}
			if !strings.Contains(stdout, "kubeapiserver: no KMS key in the encryption config") {
				t.Errorf("stdout %q", stdout)
			}
			if want := "/" + s.wantToken + "/apis/operator.openshift.io/v1/kubeapiservers/cluster"; !strings.Contains(api.seen(), want) {
				t.Errorf("requests:\n%s\nwant %q", api.seen(), want)
			}
		})
	}

	t.Run("no kubeconfig outside a pod", func(t *testing.T) {
		stdout, stderr, code := runKmsguard(t, []string{"HOME=" + t.TempDir()}, "status")
		want := "error: no cluster to talk to: give --kubeconfig, set $KUBECONFIG, write ~/.kube/config, or run in a pod\n"
		if code != cli.ExitError || stderr != want || stdout != "" {
			t.Errorf("exit code %d, stderr %q, stdout %q; want %d and only %q", code, stderr, stdout, cli.ExitError, want)
		}
	})
	t.Run("an unreachable cluster: one error line, no klog", func(t *testing.T) {
		dead := httptest.NewServer(http.NotFoundHandler())
		dead.Close()
		kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
		writeKubeconfig(t, kubeconfig, dead.URL, "x")
		_, stderr, code := runKmsguard(t, []string{"HOME=" + t.TempDir()}, "status", "--kubeconfig", kubeconfig, "--request-timeout", "5s")
		if code != cli.ExitError || !strings.HasPrefix(stderr, "error: reading the kubeapiserver operator resource: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("exit code %d, stderr %q; want %d and one error line", code, stderr, cli.ExitError)
		}
	})
	t.Run("a bad flag", func(t *testing.T) {
		_, stderr, code := runKmsguard(t, nil, "status", "--no-such-flag")
		if code != cli.ExitError || stderr != "error: unknown flag: --no-such-flag\nSee 'kmsguard status --help' for usage\n" {
			t.Errorf("exit code %d, stderr %q", code, stderr)
		}
	})
}

// TestExitCodesDocumented: every command's --help, subcommands at any depth included, has examples and lists the
// exit codes it may return, all of them codes of the scheme; every code of the scheme is some command's; the root
// --help lists the scheme, and docs/cli.md lists it as exitCodeScheme says it.
func TestExitCodesDocumented(t *testing.T) {
	commandCodes := clitest.CheckCommandsDocumented(t, NewCommand)
	var scheme []int
	for _, c := range exitCodeScheme {
		scheme = append(scheme, c.Code)
	}
	returned := map[int]bool{}
	for path, codes := range commandCodes {
		for _, code := range codes {
			returned[code] = true
			if !slices.Contains(scheme, code) {
				t.Errorf("%s exits %d, which the scheme does not define", path, code)
			}
		}
	}
	for _, code := range scheme {
		if !returned[code] {
			t.Errorf("the scheme defines %d, which no command returns", code)
		}
	}

	var help bytes.Buffer
	root := NewCommand()
	root.SetOut(&help)
	root.SetArgs([]string{"--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if listed, sections := clitest.ListedUnder(help.String(), exitCodeSchemeHeading); sections != 1 || !slices.Equal(listed, scheme) {
		t.Errorf("kmsguard --help lists the exit codes %v in %d sections, want the scheme's %v in one:\n%s", listed, sections, scheme, help.String())
	}

	page, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), exitCodeSchemeMarkdown()) {
		t.Errorf("docs/cli.md does not list the exit codes as the code does; want:\n%s", exitCodeSchemeMarkdown())
	}
}

// TestRecoverExitCodesDocumented: every consent refusal exits with a code recover's --help lists, none with
// success or error.
func TestRecoverExitCodesDocumented(t *testing.T) {
	listed := map[int]bool{}
	for _, c := range recoverExitCodes {
		listed[c.Code] = true
	}
	for reason, code := range exitCodes {
		if code == cli.ExitOK || code == cli.ExitError || !listed[code] {
			t.Errorf("refusal %s exits %d", reason, code)
		}
	}
}

// TestHealthReporterStopsOnSIGTERM: the sidecar, stopped with SIGTERM as the kubelet stops a container, ends its loop
// and exits 0 with no error: cli.Execute's one signal handler ends the command's context.
func TestHealthReporterStopsOnSIGTERM(t *testing.T) {
	api := httptest.NewServer(http.NotFoundHandler())
	defer api.Close()
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	writeKubeconfig(t, kubeconfig, api.URL, "reporter")

	cmd := exec.Command(os.Args[0], "health-reporter", "--kubeconfig", kubeconfig, "--node-name", "master-0",
		"--kms-sockets", "unix:///var/run/kmsplugin/kms-1.sock")
	cmd.Env = []string{"KMSGUARD_TEST_MAIN=1", "HOME=" + t.TempDir()}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	started := make(chan struct{})
	var logged strings.Builder
	go func() {
		// Read stderr to its end before Wait, which closes the pipe.
		lines := bufio.NewScanner(stderr)
		for lines.Scan() {
			logged.WriteString(lines.Text() + "\n")
			if strings.Contains(lines.Text(), "Starting KMS plugin health reporter") {
				close(started)
			}
		}
		exited <- cmd.Wait()
	}()
	select {
	case <-started:
	case err := <-exited:
		t.Fatalf("health-reporter exited before it started reporting: %v\n%s", err, logged.String())
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("health-reporter did not start reporting within 30s")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil || strings.Contains("\n"+logged.String(), "\nerror: ") {
			t.Errorf("health-reporter stopped with %v, want exit code 0 and no error line:\n%s", err, logged.String())
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("health-reporter did not exit within 30s of SIGTERM")
	}
}
