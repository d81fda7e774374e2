package lab

import (
	"context"
	"fmt"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/api/features"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/configobserver/featuregates"
	"github.com/openshift/library-go/pkg/operator/encryption/encryptiondata"
	kmspluginlifecycle "github.com/openshift/library-go/pkg/operator/encryption/kms/pluginlifecycle"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/openshift/library-go/pkg/operator/resource/resourceapply"
	"github.com/openshift/library-go/pkg/operator/resource/resourceread"
	"github.com/openshift/library-go/pkg/operator/revisioncontroller"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

const (
	// operatorBinary and operatorImage are what kube-apiserver-operator passes library-go's sidecar builder for
	// the kms-health-reporter sidecar: the operator's own binary and image run the reporter.
	operatorBinary = "cluster-kube-apiserver-operator"
	operatorImage  = "kmsguard-lab/cluster-kube-apiserver-operator"
	// apiServerContainer is the static pod's kube-apiserver container, which mounts the plugin sockets.
	apiServerContainer = "kube-apiserver"
)

// kmsFeatureGates is the KMSEncryption feature gate on, as the lab's cluster has it: library-go's sidecar builder
// injects nothing without it.
func kmsFeatureGates() featuregates.FeatureGateAccess {
	return featuregates.NewHardcodedFeatureGateAccess([]configv1.FeatureGateName{features.FeatureGateKMSEncryption}, nil)
}

// newTargetConfigController is the part of kube-apiserver-operator's target config controller that matters to
// KMS: it writes the unrevisioned static pod manifest (ConfigMap kube-apiserver-pod) with library-go's
// EnsureKMSPluginSidecarInStaticPodSpec applied from the unrevisioned candidate encryption-config, with the
// arguments kube-apiserver-operator passes (targetconfigcontroller.go at c813e820): one Vault plugin sidecar per
// KMS key and library-go's kms-health-reporter sidecar with that pod's sockets. The revision controller then copies
// the manifest and the config into revision N together, so a key's plugin runs on a node only from the revision
// that adds the key.
//
// The rest of the operator's manifest (flags, certificates, proxy) is not the lab's concern: podManifest is the
// placeholder the node agents run as their kmsenv kube-apiserver.
func newTargetConfigController(kube kubernetes.Interface, secrets factory.Informer, recorder events.Recorder) factory.Controller {
	gates := kmsFeatureGates()
	return factory.New().
		WithInformers(secrets).
		ResyncEvery(time.Minute).
		WithSync(func(ctx context.Context, syncCtx factory.SyncContext) error {
			pod, err := targetPod(ctx, kube.CoreV1(), gates)
			if err != nil {
				return err
			}
			_, _, err = resourceapply.ApplyConfigMap(ctx, kube.CoreV1(), syncCtx.Recorder(), &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Namespace: TargetNamespace, Name: podConfigMapName},
				Data:       map[string]string{podManifestKey: resourceread.WritePodV1OrDie(pod)},
			})
			return err
		}).
		ToController("TargetConfigController", recorder)
}

// targetPod is the static pod manifest with the KMS sidecars the candidate encryption config needs, read uncached
// as kube-apiserver-operator reads it: a stale config would inject stale sidecars.
func targetPod(ctx context.Context, secrets corev1client.SecretsGetter, gates featuregates.FeatureGateAccess) (*corev1.Pod, error) {
	pod := podManifest()
	if err := kmspluginlifecycle.EnsureKMSPluginSidecarInStaticPodSpec(ctx, &pod.Spec, apiServerContainer, TargetNamespace,
		encryptiondata.EncryptionConfSecretName, "", operatorBinary, operatorImage, secrets, gates); err != nil {
		return nil, fmt.Errorf("failed to add KMS plugin to pod spec: %w", err)
	}
	return pod, nil
}

// kmsRevisionReadinessCheck is kube-apiserver-operator's own revision readiness check (starter.go at c813e820,
// same name): revision N is ready only once kube-apiserver-pod-N has exactly the KMS sidecars
// encryption-config-N needs. The lab composes it with kmsguard's check (kmsguard.AllReady), as the integration patch
// for kube-apiserver-operator does.
func kmsRevisionReadinessCheck(kube kubernetes.Interface) revisioncontroller.ReadinessCheckFunc {
	gates := kmsFeatureGates()
	return func(ctx context.Context, revision int32) (bool, error) {
		name := fmt.Sprintf("%s-%d", podConfigMapName, revision)
		cm, err := kube.CoreV1().ConfigMaps(TargetNamespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, fmt.Errorf("failed to get configmap %s: %w", name, err)
		}
		data, ok := cm.Data[podManifestKey]
		if !ok {
			return false, fmt.Errorf("configmap %s does not contain %s", name, podManifestKey)
		}
		pod, err := resourceread.ReadPodV1([]byte(data))
		if err != nil {
			return false, fmt.Errorf("failed to parse pod from configmap %s: %w", name, err)
		}
		want := pod.DeepCopy()
		if err := kmspluginlifecycle.EnsureKMSPluginSidecarInStaticPodSpec(ctx, &want.Spec, apiServerContainer, TargetNamespace,
			fmt.Sprintf("%s-%d", encryptiondata.EncryptionConfSecretName, revision), encryptiondata.EncryptionConfSecretName,
			operatorBinary, operatorImage, kube.CoreV1(), gates); err != nil {
			return false, fmt.Errorf("failed to ensure KMS plugin sidecar in static pod spec: %w", err)
		}
		return equality.Semantic.DeepEqual(pod, want), nil
	}
}
