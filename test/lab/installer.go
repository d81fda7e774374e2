package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"

	"github.com/kmsguard/kmsguard/pkg/encryptionconfig"
	"github.com/kmsguard/kmsguard/pkg/etcdclient"
)

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

// install is the installer binary: it copies revision's manifest, its etcd client credentials and every key of
// its encryption config into the node's revision directory (revisionDir), with the cert-syncer
// kubeconfig beside them.
func (n *Node) install(ctx context.Context, revision int32) error {
	dir := n.revisionDir(revision)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := n.writeCertSyncerKubeconfig(dir); err != nil {
		return err
	}
	var manifest, etcdCA *corev1.ConfigMap
	var secret, etcdClient *corev1.Secret
	err := retryAPI(ctx, func() error {
		var err error
		manifest, err = n.client.CoreV1().ConfigMaps(TargetNamespace).Get(ctx, fmt.Sprintf("%s-%d", podConfigMapName, revision), metav1.GetOptions{})
		if err != nil {
			return err
		}
		if etcdCA, err = n.client.CoreV1().ConfigMaps(TargetNamespace).Get(ctx, fmt.Sprintf("%s-%d", etcdclient.DefaultCABundleName, revision), metav1.GetOptions{}); err != nil {
			return err
		}
		if etcdClient, err = n.client.CoreV1().Secrets(TargetNamespace).Get(ctx, fmt.Sprintf("%s-%d", etcdclient.DefaultClientSecretName, revision), metav1.GetOptions{}); err != nil {
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
	etcdFiles := n.EtcdCredentials(revision)
	if err := writeFiles(filepath.Dir(etcdFiles.ClientCert), etcdClient.Data); err != nil {
		return fmt.Errorf("%s: %w", etcdClient.Name, err)
	}
	if err := writeFiles(filepath.Dir(etcdFiles.CA), configMapFiles(etcdCA)); err != nil {
		return fmt.Errorf("%s: %w", etcdCA.Name, err)
	}
	if secret == nil {
		return nil
	}
	if _, err := encryptionconfig.Decode(secret.Data[encryptiondata.EncryptionConfSecretKey]); err != nil {
		return fmt.Errorf("encryption-config-%d: %w", revision, err)
	}
	if err := writeFiles(filepath.Dir(n.installedConfigPath(revision)), secret.Data); err != nil {
		return fmt.Errorf("encryption-config-%d: %w", revision, err)
	}
	return nil
}

// configMapFiles is a ConfigMap's data as the files the installer writes of it.
func configMapFiles(cm *corev1.ConfigMap) map[string][]byte {
	files := make(map[string][]byte, len(cm.Data))
	for name, data := range cm.Data {
		files[name] = []byte(data)
	}
	return files
}

// certSyncerKubeconfig is where kube-apiserver-operator's installer puts the revisioned ConfigMap
// kube-apiserver-cert-syncer-kubeconfig in a revision's resource directory; library-go's kms-health-reporter
// sidecar reads its --kubeconfig there.
const certSyncerKubeconfig = "configmaps/kube-apiserver-cert-syncer-kubeconfig/kubeconfig"

// writeCertSyncerKubeconfig writes the revision's cert-syncer kubeconfig: the node's own kube-apiserver, as the
// operator's points at localhost:6443, with the lab's admin credentials in the place of the cert syncer's client
// certificate. Lab difference: the operator revisions it as a ConfigMap, the same for every node; the lab's
// apiservers share one host and listen on ports of their own, so the installer writes each node's.
func (n *Node) writeCertSyncerKubeconfig(dir string) error {
	kubeconfig, err := n.apiServer.KubeConfig()
	if err != nil {
		return err
	}
	path := filepath.Join(dir, certSyncerKubeconfig)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return os.WriteFile(path, kubeconfig, 0o600)
}

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
		current.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: current.Spec.Containers[0].Name, State: corev1.ContainerState{Terminated: terminated}}}
		_, err = n.client.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, current, metav1.UpdateOptions{})
		return err
	})
	if err != nil && !apierrors.IsNotFound(err) {
		n.logf("%s: setting %s to %s: %v", n.name, pod.Name, phase, err)
	}
}

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
