package operatorstate

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	operatorv1 "github.com/openshift/api/operator/v1"
	applyoperatorv1 "github.com/openshift/client-go/operator/applyconfigurations/operator/v1"
	operatorclientv1 "github.com/openshift/client-go/operator/clientset/versioned/typed/operator/v1"
)

// Name is the name of every operator resource: they are cluster singletons.
const Name = "cluster"

// Resource is the operator resource the stores keep their annotations on.
type Resource interface {
	// Annotations reads the resource from the apiserver, not from a cache: a controller must see its own
	// last write.
	Annotations(ctx context.Context) (map[string]string, error)
	// ApplyAnnotations server-side applies annotations as the whole set fieldManager owns: an annotation the
	// manager applied before and leaves out now is removed. The apply is forced, so that a value an admin
	// edited by hand is taken back by its store rather than failing every write.
	ApplyAnnotations(ctx context.Context, fieldManager string, annotations map[string]string) error
	// String names the resource in errors.
	String() string
}

// typedClient is the part of a typed operator client a resource uses. T is the resource, A its apply
// configuration.
type typedClient[T metav1.Object, A any] interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
	Apply(ctx context.Context, applyConfiguration A, opts metav1.ApplyOptions) (T, error)
}

type typedResource[T metav1.Object, A any] struct {
	client typedClient[T, A]
	// name is the resource's name in errors, e.g. "kubeapiservers.operator.openshift.io/cluster".
	name string
	// withAnnotations returns an apply configuration of the resource named Name holding nothing but annotations.
	withAnnotations func(map[string]string) A
}

// KubeAPIServer keeps state on kubeapiservers.operator.openshift.io/cluster, kube-apiserver-operator's resource.
func KubeAPIServer(client operatorclientv1.KubeAPIServerInterface) Resource {
	return &typedResource[*operatorv1.KubeAPIServer, *applyoperatorv1.KubeAPIServerApplyConfiguration]{
		client: client,
		name:   "kubeapiservers.operator.openshift.io/" + Name,
		withAnnotations: func(a map[string]string) *applyoperatorv1.KubeAPIServerApplyConfiguration {
			return applyoperatorv1.KubeAPIServer(Name).WithAnnotations(a)
		},
	}
}

// OpenShiftAPIServer keeps state on openshiftapiservers.operator.openshift.io/cluster, openshift-apiserver-operator's
// resource.
func OpenShiftAPIServer(client operatorclientv1.OpenShiftAPIServerInterface) Resource {
	return &typedResource[*operatorv1.OpenShiftAPIServer, *applyoperatorv1.OpenShiftAPIServerApplyConfiguration]{
		client: client,
		name:   "openshiftapiservers.operator.openshift.io/" + Name,
		withAnnotations: func(a map[string]string) *applyoperatorv1.OpenShiftAPIServerApplyConfiguration {
			return applyoperatorv1.OpenShiftAPIServer(Name).WithAnnotations(a)
		},
	}
}

// Authentication keeps state on authentications.operator.openshift.io/cluster, the oauth-apiserver's operator
// resource.
func Authentication(client operatorclientv1.AuthenticationInterface) Resource {
	return &typedResource[*operatorv1.Authentication, *applyoperatorv1.AuthenticationApplyConfiguration]{
		client: client,
		name:   "authentications.operator.openshift.io/" + Name,
		withAnnotations: func(a map[string]string) *applyoperatorv1.AuthenticationApplyConfiguration {
			return applyoperatorv1.Authentication(Name).WithAnnotations(a)
		},
	}
}

func (r *typedResource[T, A]) Annotations(ctx context.Context) (map[string]string, error) {
	obj, err := r.client.Get(ctx, Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", r.name, err)
	}
	return obj.GetAnnotations(), nil
}

func (r *typedResource[T, A]) ApplyAnnotations(ctx context.Context, fieldManager string, annotations map[string]string) error {
	if _, err := r.client.Apply(ctx, r.withAnnotations(annotations), metav1.ApplyOptions{FieldManager: fieldManager, Force: true}); err != nil {
		return fmt.Errorf("applying the annotations of %s as %q: %w", r.name, fieldManager, err)
	}
	return nil
}

func (r *typedResource[T, A]) String() string { return r.name }
