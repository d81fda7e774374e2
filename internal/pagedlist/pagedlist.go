// Package pagedlist lets client-go's tools/pager walk a whole resource even
// when kube-apiserver cannot hand back a consistent or a complete page.
//
// Two failures stop a plain pager half way through a resource, and both
// happen precisely when kmsguard has work to do:
//
//   - 410 Expired: the continue token's revision was compacted (a migration of
//     a large resource easily outlives etcd's compaction interval). The
//     apiserver's 410 carries an "inconsistent" continue token in
//     Status.ListMeta.Continue that resumes right after the last key served,
//     at the newest revision. PageFunc follows it: a rewrite or a scan only
//     needs every key once, not one snapshot, and objects written after the
//     cursor passed them are written by the current write key already.
//   - 500 StorageReadError: one or more objects in the page cannot be
//     decrypted or decoded (KEP-3926, gate AllowUnsafeMalformedObjectDeletion).
//     The apiserver fails the whole page and names up to 100 unreadable etcd
//     keys in the status causes, but returns neither the readable objects of
//     the page nor a continue token. PageFunc halves the page size until the
//     page stops before the first unreadable key, which returns every readable
//     object in front of it; once even a page of one fails, every key from the
//     cursor up to the first readable object is unreadable and is the one
//     listed in the causes. PageFunc reports those keys and continues right
//     after the last one with an inconsistent continue token of its own,
//     built with the apiserver's own storage.EncodeContinue. A resource with
//     n runs of unreadable objects costs O(n log(page size)) extra LISTs.
//
// Without the feature gate the apiserver answers a page with an unreadable
// object with a plain 500 that names no key; PageFunc returns that error, as
// there is nothing to step over.
package pagedlist

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/client-go/tools/pager"
)

// ListFunc lists one page of a resource, e.g. dynamic.ResourceInterface.List.
type ListFunc func(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error)

// Observer is told what PageFunc stepped over. Both methods may be nil.
type Observer struct {
	// Unreadable receives the etcd keys of objects the apiserver could not
	// read, in key order, each key exactly once per pass over the resource.
	Unreadable func(keys []string)
	// Expired is called each time a continue token had expired and the walk
	// resumed with the apiserver's inconsistent continue token.
	Expired func()
}

// PageFunc returns a pager.ListPageFunc over list that follows expired
// continue tokens and steps over unreadable objects as the package doc
// describes. namespaced tells whether the resource's etcd keys end in
// <namespace>/<name> (true) or <name>; the list must be cluster-wide (no
// namespace), as the continue key it builds is relative to the resource.
func PageFunc(list ListFunc, namespaced bool, observer Observer) pager.ListPageFunc {
	return PageFuncOf(list, namespaced, observer, func(next string) *unstructured.UnstructuredList {
		empty := &unstructured.UnstructuredList{Object: map[string]interface{}{}}
		empty.SetContinue(next)
		return empty
	})
}

// PageFuncOf is PageFunc for a list type of the caller's (kmsmigration lists
// raw protobuf pages); empty returns a list without items whose continue
// token is next.
func PageFuncOf[L runtime.Object](list func(context.Context, metav1.ListOptions) (L, error), namespaced bool, observer Observer, empty func(next string) L) pager.ListPageFunc {
	return func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		limit := opts.Limit
		for {
			attempt := opts
			attempt.Limit = limit
			page, err := list(ctx, attempt)
			if err == nil {
				return page, nil
			}
			if token, ok := ExpiredContinue(err); ok && opts.Continue != "" {
				opts.Continue = token
				if observer.Expired != nil {
					observer.Expired()
				}
				continue
			}
			keys, ok := UnreadableKeys(err)
			if !ok {
				return nil, err
			}
			if limit > 1 {
				// Some readable objects may precede the first unreadable
				// key: a smaller page can stop in front of it.
				limit /= 2
				continue
			}
			// Not even one readable object could be listed from the
			// cursor: every key up to the first readable one is
			// unreadable and named in the causes (at most 100 of them;
			// the next page names the rest).
			if observer.Unreadable != nil {
				observer.Unreadable(keys)
			}
			next, err := ContinueAfter(keys[len(keys)-1], namespaced)
			if err != nil {
				return nil, err
			}
			return empty(next), nil
		}
	}
}

// ExpiredContinue returns the inconsistent continue token a 410 Expired
// error carries, if it carries one.
func ExpiredContinue(err error) (string, bool) {
	if !apierrors.IsResourceExpired(err) && !apierrors.IsGone(err) {
		return "", false
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return "", false
	}
	token := status.Status().ListMeta.Continue
	return token, token != ""
}

// UnreadableKeys returns the etcd keys a StorageReadError names, sorted, and
// whether err is such an error with at least one key.
func UnreadableKeys(err error) ([]string, bool) {
	if !apierrors.IsStoreReadError(err) {
		return nil, false
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Details == nil {
		return nil, false
	}
	var keys []string
	for _, cause := range status.Status().Details.Causes {
		// The apiserver puts the etcd key in Field; a last cause of type
		// CauseTypeTooMany only says that the list was cut at 100.
		if cause.Type == metav1.CauseTypeUnexpectedServerResponse && cause.Field != "" {
			keys = append(keys, cause.Field)
		}
	}
	sort.Strings(keys)
	return keys, len(keys) > 0
}

// ContinueAfter builds the continue token that lists a resource from right
// after etcdKey, at the newest revision (an inconsistent continue, exactly
// what the apiserver itself returns with a 410). Only the last path segments
// of the key, <namespace>/<name> or <name>, are used, so the token works
// whatever the apiserver's --etcd-prefix is.
func ContinueAfter(etcdKey string, namespaced bool) (string, error) {
	segments := 1
	if namespaced {
		segments = 2
	}
	parts := strings.Split(strings.TrimSuffix(etcdKey, "/"), "/")
	if len(parts) < segments+1 {
		return "", fmt.Errorf("etcd key %q is too short for a %s object key", etcdKey, map[bool]string{true: "namespaced", false: "cluster-scoped"}[namespaced])
	}
	relative := strings.Join(parts[len(parts)-segments:], "/")
	// "\x00" is the smallest suffix: the next key after etcdKey. -1 is the
	// apiserver's marker for "newest revision" (an inconsistent continue).
	return storage.EncodeContinue("/"+relative+"\x00", "/", -1)
}
