package evidence

import (
	"context"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

var (
	crdResource        = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	apiServiceResource = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
)

// DynamicServingLookup is the ServingLookup of a cluster, read with a dynamic client: it needs get on
// customresourcedefinitions and list on apiservices.
type DynamicServingLookup struct {
	Client dynamic.Interface

	once        sync.Once
	apiServices *unstructured.UnstructuredList
	err         error
}

// IsCustomResource implements ServingLookup. A CRD's name is <plural>.<group>, so one GET answers.
func (l *DynamicServingLookup) IsCustomResource(ctx context.Context, gr schema.GroupResource) (bool, error) {
	crd, err := l.Client.Resource(crdResource).Get(ctx, gr.Resource+"."+gr.Group, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	plural, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "plural")
	return group == gr.Group && plural == gr.Resource, nil
}

// IsAggregated implements ServingLookup. The APIServices are listed once per lookup.
func (l *DynamicServingLookup) IsAggregated(ctx context.Context, group string) (bool, error) {
	l.once.Do(func() {
		l.apiServices, l.err = l.Client.Resource(apiServiceResource).List(ctx, metav1.ListOptions{})
	})
	if l.err != nil {
		return false, l.err
	}
	for _, s := range l.apiServices.Items {
		g, _, _ := unstructured.NestedString(s.Object, "spec", "group")
		service, found, _ := unstructured.NestedMap(s.Object, "spec", "service")
		if g == group && found && service != nil {
			return true, nil
		}
	}
	return false, nil
}
