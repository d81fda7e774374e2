package tour

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kmsguard/kmsguard/test/lab"
)

// kubernetesClient reaches whichever of the lab's apiservers is up, as an application behind the load
// balancer does.
func kubernetesClient(l *lab.Lab) (kubernetes.Interface, error) {
	return kubernetes.NewForConfig(l.RESTConfig())
}

func ensureNamespace(ctx context.Context, kube kubernetes.Interface, name string) error {
	_, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}
