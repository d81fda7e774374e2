package encryptionstatus

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	"github.com/openshift/library-go/pkg/operator/encryption/kms"

	"github.com/kmsguard/kmsguard/internal/conflictretry"
)

// Name is the name of every operator resource this package serves. They are
// cluster singletons: their operators reconcile only the instance of this
// name.
const Name = "cluster"

// client is the part of a typed operator client that a provider uses. T is
// the resource, A its apply configuration.
type client[T, A any] interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
	ApplyStatus(ctx context.Context, applyConfiguration A, opts metav1.ApplyOptions) (T, error)
	UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
}

// provider is a kms.EncryptionStatusProvider for one operator resource. Only
// where the encryption status sits in the resource differs between
// resources; status and applyConfiguration say where.
type provider[T, A any] struct {
	client client[T, A]
	// resource names the resource in errors, e.g. "kubeapiservers.operator.openshift.io".
	resource string
	// status returns the encryption status inside the resource.
	status func(T) *operatorv1.KMSEncryptionStatus
	// applyConfiguration returns an apply configuration of the resource
	// named Name that holds nothing but status as its encryption status.
	applyConfiguration func(status *applyoperatorv1.KMSEncryptionStatusApplyConfiguration) A
}

var _ kms.EncryptionStatusProvider = (*provider[*operatorv1.KubeAPIServer, *applyoperatorv1.KubeAPIServerApplyConfiguration])(nil)

// GetKMSEncryptionStatus reads the resource and returns its encryption
// status. A missing resource is an error that satisfies apierrors.IsNotFound.
func (p *provider[T, A]) GetKMSEncryptionStatus(ctx context.Context) (*operatorv1.KMSEncryptionStatus, error) {
	obj, err := p.client.Get(ctx, Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading %s %q: %w", p.resource, Name, err)
	}
	return p.status(obj), nil
}

// ApplyKMSEncryptionStatus server-side applies status as the resource's
// encryption status under fieldManager.
//
// The apply is forced: the status of a node's plugins belongs to that node's
// reporter, whatever manager wrote the same entries before (a reporter of an
// older version, or library-go's reporter being replaced by kmsguard's), so a
// conflict is resolved in its favour rather than leaving the report stale.
func (p *provider[T, A]) ApplyKMSEncryptionStatus(ctx context.Context, fieldManager string, status *applyoperatorv1.KMSEncryptionStatusApplyConfiguration) error {
	opts := metav1.ApplyOptions{FieldManager: fieldManager, Force: true}
	if _, err := p.client.ApplyStatus(ctx, p.applyConfiguration(status), opts); err != nil {
		return fmt.Errorf("applying the encryption status of %s %q as %q: %w", p.resource, Name, fieldManager, err)
	}
	return nil
}

// UpdateKMSEncryptionStatus reads the resource, lets mutate change its
// encryption status and writes the status back, again on a conflict. It
// returns nil only when a write succeeded.
func (p *provider[T, A]) UpdateKMSEncryptionStatus(ctx context.Context, mutate func(*operatorv1.KMSEncryptionStatus)) error {
	err := conflictretry.Do(func() error {
		obj, err := p.client.Get(ctx, Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		mutate(p.status(obj))
		_, err = p.client.UpdateStatus(ctx, obj, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("updating the encryption status of %s %q: %w", p.resource, Name, err)
	}
	return nil
}
