package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	svmv1beta1 "k8s.io/api/storagemigration/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
)

// kcmControllers are the only controllers the in-tree run starts: the storage version migrator reads the
// objects to migrate from the garbage collector's metadata informers (its GraphBuilder), and refuses to start
// without the garbage collector.
var kcmControllers = []string{"garbage-collector-controller", "storage-version-migrator-controller"}

const (
	// kcmSyncTimeout bounds the controller manager's start until its garbage collector's caches are synced.
	kcmSyncTimeout = 3 * time.Minute
	// kcmSyncedLines are the garbage collector's log lines once its initial sync ended.
	kcmSynced    = "Garbage collector: all resource monitors have synced"
	kcmNotSynced = "Garbage collector: not all resource monitors could be synced"
	// svmPollInterval is how often the StorageVersionMigration is read while it runs.
	svmPollInterval = 100 * time.Millisecond
)

func kcmPath() string {
	return filepath.Join(os.Getenv("KUBEBUILDER_ASSETS"), "kube-controller-manager")
}

func kcmVersion() string {
	out, err := exec.Command(kcmPath(), "--version").Output()
	if err != nil {
		return "(not runnable: " + err.Error() + "; build it with hack/build-envtest-assets.sh --kube-controller-manager)"
	}
	return strings.TrimSpace(string(out))
}

// inTreeRun is one run of kube-controller-manager's storage version migrator: a controller manager started
// for it, the Secrets' resourceVersions before it, and its StorageVersionMigration.
type inTreeRun struct {
	b       *bench
	cmd     *exec.Cmd
	exited  chan struct{}
	exitErr error
	logPath string
	client  kubernetes.Interface
	meta    metadata.Interface
	before  map[string]string
	name    string
	// touched is the Secret written once the migration's resourceVersion is set (see run).
	touched string
}

// prepareInTree snapshots the Secrets' resourceVersions and starts a controller manager, and returns once its
// garbage collector has synced its caches: the run then times the migration, not the controller manager's
// start.
func (b *bench) prepareInTree(ctx context.Context) (*inTreeRun, error) {
	path := kcmPath()
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no kube-controller-manager in KUBEBUILDER_ASSETS (build it with hack/build-envtest-assets.sh --kube-controller-manager): %w", err)
	}
	config := b.adminConfig()
	r := &inTreeRun{b: b, exited: make(chan struct{})}
	var err error
	if r.client, err = kubernetes.NewForConfig(config); err != nil {
		return nil, err
	}
	if r.meta, err = metadata.NewForConfig(config); err != nil {
		return nil, err
	}
	if r.before, err = r.resourceVersions(ctx); err != nil {
		return nil, err
	}

	kubeconfig := filepath.Join(b.dir, "kube-controller-manager.kubeconfig")
	data, err := b.cp.APIServer(0).KubeConfig()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(kubeconfig, data, 0o600); err != nil {
		return nil, err
	}
	b.kcmRuns++
	r.name = fmt.Sprintf("bench-secrets-%d", b.kcmRuns)
	r.logPath = filepath.Join(b.dir, fmt.Sprintf("kube-controller-manager-%d.log", b.kcmRuns))
	logFile, err := os.Create(r.logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	r.cmd = exec.Command(path,
		"--kubeconfig="+kubeconfig,
		"--controllers="+strings.Join(kcmControllers, ","),
		"--feature-gates=StorageVersionMigrator=true",
		// The admin user of the bench (system:masters) for every controller: no service accounts to provision.
		"--use-service-account-credentials=false",
		"--leader-elect=false",
		// No serving: nothing scrapes it, and serving would need delegated authentication.
		"--secure-port=0",
	)
	r.cmd.Stdout, r.cmd.Stderr = logFile, logFile
	if err := r.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		r.exitErr = r.cmd.Wait()
		close(r.exited)
	}()
	if err := r.waitSynced(ctx); err != nil {
		r.stop()
		return nil, err
	}
	return r, nil
}

// waitSynced waits for the garbage collector's log line that ends its initial sync.
func (r *inTreeRun) waitSynced(ctx context.Context) error {
	deadline := time.Now().Add(kcmSyncTimeout)
	for {
		data, _ := os.ReadFile(r.logPath)
		switch {
		case bytes.Contains(data, []byte(kcmSynced)):
			return nil
		case bytes.Contains(data, []byte(kcmNotSynced)):
			return fmt.Errorf("kube-controller-manager's garbage collector did not sync its caches (%s): %s", r.logPath, r.logTail())
		}
		select {
		case <-r.exited:
			return fmt.Errorf("kube-controller-manager exited (%w) before its garbage collector synced: %s", r.exitErr, r.logTail())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("kube-controller-manager's garbage collector did not sync in %s: %s", kcmSyncTimeout, r.logTail())
		}
	}
}

// run creates the StorageVersionMigration and waits for its Succeeded condition.
//
// The migrator reads the objects from the garbage collector's cache and starts only once that cache has seen
// the resourceVersion its resource version controller recorded in the status: in a cluster any write to a
// Secret advances it, but in the idle benchmark, by the controller's code, it would wait for the apiserver's next
// watch bookmark, up to a minute, plus its requeue backoff (not measured). So once the status has its
// resourceVersion, one Secret of the data set is written (PUT unchanged, which rewrites it under the new key):
// the in-tree migrator is measured at its best.
func (r *inTreeRun) run(ctx context.Context) (string, error) {
	svms := r.client.StoragemigrationV1beta1().StorageVersionMigrations()
	svm := &svmv1beta1.StorageVersionMigration{
		ObjectMeta: metav1.ObjectMeta{Name: r.name},
		Spec:       svmv1beta1.StorageVersionMigrationSpec{Resource: metav1.GroupResource{Resource: "secrets"}},
	}
	start := time.Now()
	if _, err := svms.Create(ctx, svm, metav1.CreateOptions{}); err != nil {
		return "", fmt.Errorf("creating the StorageVersionMigration: %w", err)
	}
	var running, rvSet time.Duration
	timeout := time.Now().Add(max(10*time.Minute, time.Duration(len(r.before))*10*time.Millisecond))
	for {
		got, err := svms.Get(ctx, r.name, metav1.GetOptions{})
		if err != nil {
			return "", fmt.Errorf("reading the StorageVersionMigration: %w", err)
		}
		conds := got.Status.Conditions
		if running == 0 && meta.IsStatusConditionTrue(conds, string(svmv1beta1.MigrationRunning)) {
			running = time.Since(start)
		}
		if rvSet == 0 && got.Status.ResourceVersion != "" {
			rvSet = time.Since(start)
			if err := r.touch(ctx); err != nil {
				return "", err
			}
		}
		if meta.IsStatusConditionTrue(conds, string(svmv1beta1.MigrationSucceeded)) {
			return fmt.Sprintf("StorageVersionMigration: MigrationRunning after %s, status.resourceVersion after %s, Succeeded after %s",
				running.Round(10*time.Millisecond), rvSet.Round(10*time.Millisecond), time.Since(start).Round(10*time.Millisecond)), nil
		}
		if c := meta.FindStatusCondition(conds, string(svmv1beta1.MigrationFailed)); c != nil && c.Status == metav1.ConditionTrue {
			return "", fmt.Errorf("the StorageVersionMigration failed: %s: %s", c.Reason, c.Message)
		}
		if time.Now().After(timeout) {
			return "", fmt.Errorf("the StorageVersionMigration did not succeed in %s (conditions %v, status.resourceVersion %q): %s",
				time.Since(start).Round(time.Second), conds, got.Status.ResourceVersion, r.logTail())
		}
		select {
		case <-r.exited:
			return "", fmt.Errorf("kube-controller-manager exited (%w) during the migration: %s", r.exitErr, r.logTail())
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(svmPollInterval):
		}
	}
}

// touch PUTs one Secret of the data set unchanged (see run).
func (r *inTreeRun) touch(ctx context.Context) error {
	secrets := r.client.CoreV1().Secrets("bench-0")
	s, err := secrets.Get(ctx, "secret-000000", metav1.GetOptions{})
	if err != nil {
		return err
	}
	if _, err := secrets.Update(ctx, s, metav1.UpdateOptions{}); err != nil {
		return err
	}
	r.touched = "bench-0/secret-000000"
	return nil
}

// rewritten counts the Secrets whose resourceVersion changed since prepareInTree.
func (r *inTreeRun) rewritten(ctx context.Context) (int64, error) {
	after, err := r.resourceVersions(ctx)
	if err != nil {
		return 0, err
	}
	var n int64
	for key, rv := range r.before {
		if after[key] != rv {
			n++
		}
	}
	return n, nil
}

func (r *inTreeRun) resourceVersions(ctx context.Context) (map[string]string, error) {
	rvs := map[string]string{}
	opts := metav1.ListOptions{Limit: listPageSize}
	for {
		list, err := r.meta.Resource(secretsGVR).List(ctx, opts)
		if err != nil {
			return nil, err
		}
		for _, item := range list.Items {
			rvs[item.Namespace+"/"+item.Name] = item.ResourceVersion
		}
		if opts.Continue = list.Continue; opts.Continue == "" {
			return rvs, nil
		}
	}
}

// stop deletes the StorageVersionMigration and stops the controller manager.
func (r *inTreeRun) stop() {
	if r.client != nil && r.name != "" {
		err := r.client.StoragemigrationV1beta1().StorageVersionMigrations().Delete(context.Background(), r.name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			fmt.Fprintf(os.Stderr, "bench-migration: deleting StorageVersionMigration %s: %v\n", r.name, err)
		}
	}
	if r.cmd == nil || r.cmd.Process == nil {
		return
	}
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.exited:
	case <-time.After(30 * time.Second):
		_ = r.cmd.Process.Kill()
		<-r.exited
	}
}

// logTail is the end of the controller manager's log, for errors.
func (r *inTreeRun) logTail() string {
	data, err := os.ReadFile(r.logPath)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 15 {
		lines = lines[len(lines)-15:]
	}
	return "kube-controller-manager log (" + r.logPath + "), last lines:\n" + strings.Join(lines, "\n")
}
