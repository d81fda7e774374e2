package apiservertest

import (
	"fmt"
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage"
)

// maxStoreReadCauses is how many unreadable keys kube-apiserver names in one StorageReadError before it adds a
// TooMany cause and stops.
const maxStoreReadCauses = 100

// Store is what Page needs of a fake resource's storage.
type Store struct {
	// Resource is the resource listed, for the error's details.
	Resource schema.GroupResource
	// Keys are the stored objects' keys relative to the resource ("<namespace>/<name>" or "<name>"), sorted.
	Keys []string
	// ResourceVersion is the storage revision the list is served at; continue tokens carry it.
	ResourceVersion int64
	// Unreadable reports whether the apiserver cannot read key, and the etcd key it names for it.
	Unreadable func(key string) (etcdKey string, unreadable bool)
	// Item returns the object stored at a readable key.
	Item func(key string) unstructured.Unstructured
}

// Page answers one LIST as kube-apiserver's etcd3 store does with AllowUnsafeMalformedObjectDeletion's
// semantics: a page collects opts.Limit readable objects from the continue token's key on; an unreadable object
// fails the whole page with its etcd key in the causes (at most 100, then a TooMany cause). Continue tokens are
// storage.EncodeContinue tokens relative to the resource.
func Page(opts metav1.ListOptions, s Store) (*unstructured.UnstructuredList, error) {
	start := ""
	if opts.Continue != "" {
		key, _, err := storage.DecodeContinue(opts.Continue, "/")
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		start = strings.TrimPrefix(key, "/")
	}
	list := &unstructured.UnstructuredList{Object: map[string]interface{}{}}
	var causes []metav1.StatusCause
	last := ""
	for i, key := range s.Keys {
		if key < start {
			continue
		}
		if opts.Limit > 0 && int64(len(list.Items)) >= opts.Limit {
			if len(causes) == 0 {
				token, err := storage.EncodeContinue("/"+last+"\x00", "/", s.ResourceVersion)
				if err != nil {
					return nil, err
				}
				list.SetContinue(token)
				remaining := int64(len(s.Keys) - i)
				list.SetRemainingItemCount(&remaining)
			}
			break
		}
		last = key
		if etcdKey, unreadable := s.Unreadable(key); unreadable {
			if len(causes) == maxStoreReadCauses {
				causes = append(causes, metav1.StatusCause{Type: metav1.CauseTypeTooMany, Message: "too many errors, the list is truncated"})
				break
			}
			causes = append(causes, metav1.StatusCause{Type: metav1.CauseTypeUnexpectedServerResponse, Field: etcdKey, Message: "data from the storage is not transformable"})
			continue
		}
		list.Items = append(list.Items, s.Item(key))
	}
	if len(causes) > 0 {
		return nil, &apierrors.StatusError{ErrStatus: metav1.Status{
			Status: metav1.StatusFailure, Code: http.StatusInternalServerError, Reason: metav1.StatusReasonStoreReadError,
			Details: &metav1.StatusDetails{Group: s.Resource.Group, Kind: s.Resource.Resource, Name: "list", Causes: causes},
			Message: fmt.Sprintf("failed to read one or more %s from the storage", s.Resource),
		}}
	}
	return list, nil
}
