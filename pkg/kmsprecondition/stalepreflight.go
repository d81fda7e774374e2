package kmsprecondition

import (
	"context"

	encryptioncontrollers "github.com/openshift/library-go/pkg/operator/encryption/controllers"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
)

// StalePreflightPods wraps library-go's KMS preflight pod deployer so that a failed preflight pod of an earlier
// configuration is taken for the stale pod it is.
//
// Why: library-go's preflight controller keeps a failed kms-preflight pod for inspection and expects the admin's
// corrected configuration (a new hash) to clean it up ("stale pod", scenario 3c). But it checks the pod's phase
// before the pod's config hash: a Failed pod is a crash of the configuration now required (scenario 3a), whatever
// hash it checked, so the corrected configuration is reported failed with the old pod's exit code for ever, never
// checked, and never becomes a key. Status here reports such a pod, Failed with a KMSPreflightConfigHash condition
// naming another configuration than the required one (status.encryptionStatus.preflight.observedConfigHash), as
// Running: library-go then reaches its hash check, deletes the pod and runs the check for the corrected
// configuration. A Failed pod of the required configuration, or one that never said which it checked, is left as
// library-go sees it.
//
// hack/upstream/library-go/0002 (the preflight controller reads the pod's config hash before its phase) removes
// this adapter.
func StalePreflightPods(inner encryptioncontrollers.KMSPreflightDeployer, status kms.EncryptionStatusProvider) encryptioncontrollers.KMSPreflightDeployer {
	return &stalePreflightPods{KMSPreflightDeployer: inner, status: status}
}

type stalePreflightPods struct {
	encryptioncontrollers.KMSPreflightDeployer
	status kms.EncryptionStatusProvider
}

func (d *stalePreflightPods) Status(ctx context.Context) (corev1.PodStatus, error) {
	pod, err := d.KMSPreflightDeployer.Status(ctx)
	if err != nil || pod.Phase != corev1.PodFailed {
		return pod, err
	}
	checked := encryptioncontrollers.FindPodCondition(pod.Conditions, encryptioncontrollers.KMSPreflightConfigHashPodCondition)
	if checked == nil {
		return pod, nil
	}
	status, err := d.status.GetKMSEncryptionStatus(ctx)
	if err != nil || status == nil {
		// Without the required hash nothing says the pod is stale: library-go's own verdict stands.
		return pod, nil //nolint:nilerr // the pod's status is what was asked for; the status read only refines it
	}
	required := status.Preflight.ObservedConfigHash
	if required == "" || checked.Message == required {
		return pod, nil
	}
	klog.V(2).Infof("the failed kms-preflight pod checked configuration %s, not the required %s: reporting it as a stale pod to clean up", checked.Message, required)
	stale := pod.DeepCopy()
	stale.Phase = corev1.PodRunning
	return *stale, nil
}
