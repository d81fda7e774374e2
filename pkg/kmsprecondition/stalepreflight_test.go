package kmsprecondition

import (
	"context"
	"errors"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	encryptioncontrollers "github.com/openshift/library-go/pkg/operator/encryption/controllers"
	corev1 "k8s.io/api/core/v1"
)

type podStatusDeployer struct {
	encryptioncontrollers.KMSPreflightDeployer
	pod corev1.PodStatus
	err error
}

func (d podStatusDeployer) Status(context.Context) (corev1.PodStatus, error) { return d.pod, d.err }

// TestStalePreflightPods: only a Failed pod that says it checked another configuration than the required one is
// reported as Running, so that library-go cleans it up and checks the corrected configuration.
func TestStalePreflightPods(t *testing.T) {
	checked := func(phase corev1.PodPhase, hash string) corev1.PodStatus {
		s := corev1.PodStatus{Phase: phase}
		if hash != "" {
			s.Conditions = []corev1.PodCondition{{Type: encryptioncontrollers.KMSPreflightConfigHashPodCondition, Status: corev1.ConditionTrue, Message: hash}}
		}
		return s
	}
	notFound := errors.New(`pods "kms-preflight" not found`)
	scenarios := []struct {
		name      string
		pod       corev1.PodStatus
		podErr    error
		required  string
		statusErr error
		want      corev1.PodPhase
		wantErr   error
	}{
		{name: "failed pod of an earlier configuration", pod: checked(corev1.PodFailed, "old-hash"), required: "new-hash", want: corev1.PodRunning},
		{name: "failed pod of the required configuration", pod: checked(corev1.PodFailed, "new-hash"), required: "new-hash", want: corev1.PodFailed},
		{name: "failed pod that never said what it checked", pod: checked(corev1.PodFailed, ""), required: "new-hash", want: corev1.PodFailed},
		{name: "running pod of an earlier configuration", pod: checked(corev1.PodRunning, "old-hash"), required: "new-hash", want: corev1.PodRunning},
		{name: "no required configuration", pod: checked(corev1.PodFailed, "old-hash"), required: "", want: corev1.PodFailed},
		{name: "the required configuration cannot be read", pod: checked(corev1.PodFailed, "old-hash"), statusErr: errors.New("unavailable"), want: corev1.PodFailed},
		{name: "no pod", podErr: notFound, wantErr: notFound},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			status := &fakeEncryptionStatus{status: operatorv1.KMSEncryptionStatus{Preflight: operatorv1.KMSPreflightCheck{ObservedConfigHash: s.required}}, err: s.statusErr}
			deployer := StalePreflightPods(podStatusDeployer{pod: s.pod, err: s.podErr}, status)
			got, err := deployer.Status(t.Context())
			if !errors.Is(err, s.wantErr) {
				t.Fatalf("Status error %v, want %v", err, s.wantErr)
			}
			if err == nil && got.Phase != s.want {
				t.Errorf("phase %s, want %s", got.Phase, s.want)
			}
			if s.pod.Phase == corev1.PodFailed && s.want == corev1.PodRunning && len(got.Conditions) != len(s.pod.Conditions) {
				t.Errorf("conditions %v, want the pod's own", got.Conditions)
			}
		})
	}
}

// fakeEncryptionStatus answers status, or err.
type fakeEncryptionStatus struct {
	preflightStatus
	status operatorv1.KMSEncryptionStatus
	err    error
}

func (f *fakeEncryptionStatus) GetKMSEncryptionStatus(context.Context) (*operatorv1.KMSEncryptionStatus, error) {
	if f.err != nil {
		return nil, f.err
	}
	return &f.status, nil
}
