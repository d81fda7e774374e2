// Package pagedlisttest has a LIST that pages, expires continue tokens and
// fails on unreadable objects the way kube-apiserver's etcd3 store does, for
// unit tests of code that walks a resource with pagedlist.
package pagedlisttest

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apiserver/pkg/storage"
)

// EtcdPrefix is the resource prefix Store puts in front of unreadable keys.
const EtcdPrefix = "/kubernetes.io/secrets/"

// Store holds namespaced objects by "<namespace>/<name>". With
// AllowUnsafeMalformedObjectDeletion's semantics, a page collects Limit
// readable objects; an unreadable one fails the whole page with its etcd key
// in the causes (at most 100, then a TooMany cause). Continue tokens are
// storage.EncodeContinue tokens relative to the resource.
type Store struct {
	Lock       sync.Mutex
	Objects    map[string]*unstructured.Unstructured
	Unreadable map[string]bool
	// ExpireOnce fails the first use of every consistent continue token with
	// 410 Expired, carrying an inconsistent token as the apiserver does.
	ExpireOnce bool
	// Lists counts LIST calls; Continues records the tokens they carried.
	Lists     int
	Continues []string

	expired map[string]bool
}

// NewStore returns an empty Store.
func NewStore() *Store {
	return &Store{Objects: map[string]*unstructured.Unstructured{}, Unreadable: map[string]bool{}, expired: map[string]bool{}}
}

// Key is the Store key of obj.
func Key(obj *unstructured.Unstructured) string { return obj.GetNamespace() + "/" + obj.GetName() }

// List answers one LIST. The returned items are deep copies.
func (s *Store) List(_ context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	s.Lock.Lock()
	defer s.Lock.Unlock()
	s.Lists++
	s.Continues = append(s.Continues, opts.Continue)
	start, rv := "", int64(7)
	if opts.Continue != "" {
		key, tokenRV, err := storage.DecodeContinue(opts.Continue, "/")
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		start = strings.TrimPrefix(key, "/")
		if s.ExpireOnce && tokenRV > 0 && !s.expired[opts.Continue] {
			s.expired[opts.Continue] = true
			inconsistent, _ := storage.EncodeContinue("/"+start, "/", -1)
			err := apierrors.NewResourceExpired("the continue token is too old")
			err.ErrStatus.ListMeta.Continue = inconsistent
			return nil, err
		}
	}
	keys := make([]string, 0, len(s.Objects))
	for key := range s.Objects {
		keys = append(keys, key)
	}
	sort.Strings(keys)

	list := &unstructured.UnstructuredList{Object: map[string]interface{}{}}
	var causes []metav1.StatusCause
	last := ""
	for i, key := range keys {
		if key < start {
			continue
		}
		if opts.Limit > 0 && int64(len(list.Items)) >= opts.Limit {
			if len(causes) == 0 {
				token, err := storage.EncodeContinue("/"+last+"\x00", "/", rv)
				if err != nil {
					return nil, err
				}
				list.SetContinue(token)
				remaining := int64(len(keys) - i)
				list.SetRemainingItemCount(&remaining)
			}
			break
		}
		last = key
		if s.Unreadable[key] {
			if len(causes) == 100 {
				causes = append(causes, metav1.StatusCause{Type: metav1.CauseTypeTooMany, Message: "too many errors, the list is truncated"})
				break
			}
			causes = append(causes, metav1.StatusCause{Type: metav1.CauseTypeUnexpectedServerResponse, Field: EtcdPrefix + key, Message: "corrupt object"})
			continue
		}
		list.Items = append(list.Items, *s.Objects[key].DeepCopy())
	}
	if len(causes) > 0 {
		return nil, &apierrors.StatusError{ErrStatus: metav1.Status{
			Status: metav1.StatusFailure, Code: http.StatusInternalServerError,
			Reason:  metav1.StatusReasonStoreReadError,
			Details: &metav1.StatusDetails{Kind: "secrets", Name: "list", Causes: causes},
		}}
	}
	return list, nil
}
