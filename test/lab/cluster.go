package lab

import (
	"context"
	"fmt"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/kmsguard/kmsguard/bindata"
	"github.com/kmsguard/kmsguard/test/kmsenv"
	"github.com/kmsguard/kmsguard/test/openshift"
)

const (
	// TargetNamespace is kube-apiserver-operator's operand namespace, and the component name of its
	// encryption controllers (encryption-key-openshift-kube-apiserver-<n>).
	TargetNamespace = openshift.TargetNamespace
	// OperatorNamespace holds the operator's events and kmsguard's caches (migration progress, the published KMS
	// verdict, the list of undecryptable objects); what kmsguard must not lose is on the KubeAPIServer resource.
	OperatorNamespace = openshift.OperatorNamespace
	// staticPodName is the static pod's name; its mirror pods are kube-apiserver-<node>.
	staticPodName = "kube-apiserver"
	// podConfigMapName is the static pod manifest's ConfigMap, the first revisioned resource.
	podConfigMapName = "kube-apiserver-pod"
	// vaultAppRoleSecret is the Secret in openshift-config that the APIServer's Vault KMS config names; library-go's
	// key controller copies its role-id and secret-id into each KMS key secret.
	vaultAppRoleSecret = "kmsguard-lab-vault-approle"
)

// apiServerOptions are the flags every lab kube-apiserver runs with, besides its encryption config: KEP-3926 unsafe
// deletion of undecryptable objects, which kmsguard's lost-key recovery needs, and the graceful termination
// OpenShift's kube-apiserver uses. Without --shutdown-send-retry-after a kube-apiserver waits up to a minute
// (its request timeout) for open watches before it exits, and every controller keeps watches open.
func apiServerOptions(encryptionConfigFile string) kmsenv.APIServerOptions {
	return kmsenv.APIServerOptions{
		EncryptionConfigFile: encryptionConfigFile,
		FeatureGates:         []string{"AllowUnsafeMalformedObjectDeletion=true"},
		Args: map[string]string{
			"shutdown-send-retry-after":               "true",
			"shutdown-watch-termination-grace-period": "2s",
		},
		StartTimeout: StartupTimeout,
		// A pod gets its API credentials as on a cluster: library-go's kms-preflight pod reads them.
		ServiceAccountAdmission: true,
	}
}

// StartupTimeout is how long the node agent waits for a kube-apiserver to become healthy before it takes the start
// as failed: on a single node its startup-monitor stand-in then falls back to the last good revision; on three
// its kubelet restarts the container with back-off (a liveness probe's verdict). A healthy lab apiserver starts in
// about 4 s on 2 cores; one whose KMS plugin cannot work never does. (OpenShift's startup monitor waits minutes:
// a real apiserver starts slower.)
const StartupTimeout = 45 * time.Second

// StartupMonitorTimeout is how long the startup monitor's stand-in, on a single node, waits for a new revision's
// kube-apiserver before it falls back. The startup monitor waits minutes on a cluster; the lab waits long enough
// for kmsstate to look at the failing apiserver twice at library-go's 30 s interval, which its keyed evidence of
// failed KMS calls (growth between two reads of the apiserver's metrics) needs. With StartupTimeout's 45 s it
// looked once, saw only the unkeyed /healthz/kms-providers failure, and kmsrollback did not attribute the
// fallback to KMS (TestTourSingleNode failed once of two clean runs).
const StartupMonitorTimeout = 100 * time.Second

// nodeName is the name of the lab's node i.
func nodeName(i int) string { return fmt.Sprintf("master-%d", i) }

// publishCluster writes what the rest of an OpenShift cluster publishes around kube-apiserver-operator (package
// openshift, the same objects the operator's own end-to-end test stands on): the cluster-version operator's, the
// installer's, the kubelets' registrations of the nodes, etcd-operator's endpoints and credentials, and the others'.
// Every node is at 127.0.0.1, where its kube-apiserver listens, and so is etcd.
func publishCluster(ctx context.Context, cfg *rest.Config, nodes int, etcdFiles kmsenv.EtcdTLSFiles) error {
	etcd, err := openshift.EtcdOf(etcdFiles, "127.0.0.1")
	if err != nil {
		return err
	}
	cluster := openshift.Cluster{Version: openshift.ReleaseVersion, Domain: "kmsguard-lab.local", Etcd: etcd}
	for i := range nodes {
		cluster.Nodes = append(cluster.Nodes, openshift.Node{Name: nodeName(i), IP: "127.0.0.1", KubeletVersion: "v" + openshift.KubernetesVersion})
	}
	return openshift.Publish(ctx, cfg, cluster)
}

// createClusterObjects creates what the lab's stand-in operator does not, and what its admin and
// kube-controller-manager do: the operand namespace and the static pod manifest (kube-apiserver-operator's own,
// which go with the stand-in), every namespace's default service account, and the Vault AppRole secret.
func createClusterObjects(ctx context.Context, kube kubernetes.Interface) error {
	// kube-apiserver-operator creates its operand namespace from its bindata (ns.yaml).
	if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: TargetNamespace}}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating namespace %s: %w", TargetNamespace, err)
	}
	for _, ns := range []string{TargetNamespace, OperatorNamespace, openshift.ConfigNamespace, openshift.ConfigManagedNamespace} {
		// kube-controller-manager's service account controller gives every namespace its "default"; library-go's
		// backing resource controller creates the installer's installer-sa.
		if _, err := kube.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default"}}, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating the default service account of %s: %w", ns, err)
		}
	}

	// The Vault AppRole credentials the APIServer's KMS config refers to: library-go's key controller copies them
	// into each KMS key, its builder into the plugin sidecars' arguments and files, and the lab's plugins accept
	// exactly these (sidecars.go).
	if _, err := kube.CoreV1().Secrets("openshift-config").Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: vaultAppRoleSecret},
		Data:       map[string][]byte{"role-id": []byte(labVaultRoleID), "secret-id": []byte(labVaultSecretID)},
	}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the Vault AppRole secret: %w", err)
	}

	// The static pod manifest, as kube-apiserver-operator's target config controller writes it; the revision
	// controller copies it into kube-apiserver-pod-<revision>, and the node agents mirror it.
	manifest, err := yaml.Marshal(podManifest())
	if err != nil {
		return err
	}
	if _, err := kube.CoreV1().ConfigMaps(TargetNamespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: podConfigMapName},
		Data:       map[string]string{podManifestKey: string(manifest)},
	}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the static pod manifest: %w", err)
	}
	return nil
}

// podManifest is the kube-apiserver static pod. Its container is a placeholder: the process is the node's
// kmsenv kube-apiserver, which reads the revision's encryption config from the node's directory.
func podManifest() *corev1.Pod {
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      staticPodName,
			Namespace: TargetNamespace,
			Labels:    map[string]string{"app": "openshift-kube-apiserver", "apiserver": "true"},
		},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name:         "kube-apiserver",
				Image:        "kmsguard-lab/kube-apiserver",
				Args:         []string{"--encryption-provider-config=/etc/kubernetes/static-pod-resources/secrets/encryption-config/encryption-config"},
				VolumeMounts: []corev1.VolumeMount{{Name: "resource-dir", MountPath: "/etc/kubernetes/static-pod-resources"}},
			}},
			// As kube-apiserver-operator's manifest has it: library-go's sidecar builder mounts this volume into the
			// plugin sidecars of a static pod, which read their credentials from the revision's files. (The
			// operator substitutes REVISION when it writes each revision; the lab's node agent maps the mount to the
			// revision's directory itself.)
			Volumes: []corev1.Volume{{Name: "resource-dir", VolumeSource: corev1.VolumeSource{
				HostPath: &corev1.HostPathVolumeSource{Path: "/etc/kubernetes/static-pod-resources/kube-apiserver-pod-REVISION"}}}},
			HostNetwork:       true,
			PriorityClassName: "system-node-critical",
		},
	}
}

// kmsEncryption is the spec.encryption of the APIServer resource that switches the lab to KMS at a Vault address:
// the embedded default (bindata.LabKMSEncryption, whose address SimulatedKMSAddress is) with vaultAddress in
// place of its address. Plugins of a key at any other address cannot reach their KMS.
func kmsEncryption(vaultAddress string) (configv1.APIServerEncryption, error) {
	var encryption configv1.APIServerEncryption
	if err := yaml.UnmarshalStrict(bindata.MustAsset(bindata.LabKMSEncryption), &encryption); err != nil {
		return encryption, fmt.Errorf("lab: %s: %w", bindata.LabKMSEncryption, err)
	}
	if name := encryption.KMS.Vault.Authentication.AppRole.Secret.Name; name != vaultAppRoleSecret {
		return encryption, fmt.Errorf("lab: %s names the AppRole secret %q, the lab creates %q", bindata.LabKMSEncryption, name, vaultAppRoleSecret)
	}
	encryption.KMS.Vault.VaultAddress = vaultAddress
	return encryption, nil
}

// SimulatedKMSAddress is the Vault address of the lab's simulated KMS in the APIServer resource.
const SimulatedKMSAddress = "https://vault.kmsguard-lab.local:8200"
