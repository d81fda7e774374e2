package evidence

import (
	"context"
	"fmt"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata"

	"github.com/kmsguard/kmsguard/internal/pagedlist"
)

// MetadataCounter is the ObjectCounter of a cluster: it lists a resource's metadata in pages (the API sends
// names and metadata, not data, which matters for Secrets) and counts the objects. Objects the apiserver
// cannot read (a StorageReadError, with the AllowUnsafeMalformedObjectDeletion gate) are counted too, through
// pagedlist, since their keys are in etcd; without the gate such an object fails the LIST, and the count with
// it.
type MetadataCounter struct {
	Client metadata.Interface
	// Mapper resolves the version to list a resource with and whether it is namespaced.
	Mapper meta.RESTMapper
	// PageSize is the LIST limit; 0 means DefaultPageSize.
	PageSize int64
}

// CountObjects implements ObjectCounter.
func (c *MetadataCounter) CountObjects(ctx context.Context, gr schema.GroupResource, rev int64) (ObjectCount, error) {
	gvr, err := c.Mapper.ResourceFor(gr.WithVersion(""))
	if err != nil {
		return ObjectCount{}, fmt.Errorf("resolving %s: %w", gr, err)
	}
	gvk, err := c.Mapper.KindFor(gvr)
	if err != nil {
		return ObjectCount{}, fmt.Errorf("resolving the kind of %s: %w", gvr, err)
	}
	mapping, err := c.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return ObjectCount{}, fmt.Errorf("resolving the scope of %s: %w", gvk, err)
	}
	namespaced := mapping.Scope.Name() == meta.RESTScopeNameNamespace
	pageSize := c.PageSize
	if pageSize <= 0 {
		pageSize = DefaultPageSize
	}
	return CountPages(ctx, c.Client.Resource(gvr).List, namespaced, rev, pageSize)
}

// MetadataListFunc lists one page of a resource's metadata, e.g. metadata.ResourceInterface.List.
type MetadataListFunc func(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error)

// CountPages lists every page of a resource with list and counts the objects, at exactly revision rev when it
// is > 0. It follows continue tokens itself rather than through client-go's pager: it needs the revision of
// the first page, must tell a compacted first page (ErrRevisionCompacted) from other errors, and keeps no
// object.
func CountPages(ctx context.Context, list MetadataListFunc, namespaced bool, rev, pageSize int64) (ObjectCount, error) {
	count := ObjectCount{Consistent: true}
	firstPage := true
	project := func(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
		page, err := list(ctx, opts)
		if err != nil {
			return nil, err
		}
		if firstPage {
			firstPage = false
			if count.Revision, err = strconv.ParseInt(page.ResourceVersion, 10, 64); err != nil {
				return nil, fmt.Errorf("the LIST's resourceVersion %q is not an etcd revision: %w", page.ResourceVersion, err)
			}
		}
		// pagedlist pages are unstructured; only the number of items and the continue token are used.
		out := &unstructured.UnstructuredList{Object: map[string]interface{}{}, Items: make([]unstructured.Unstructured, len(page.Items))}
		out.SetContinue(page.Continue)
		return out, nil
	}
	pageFunc := pagedlist.PageFunc(project, namespaced, pagedlist.Observer{
		Unreadable: func(keys []string) {
			count.Unreadable += int64(len(keys))
			count.Consistent = false
		},
		Expired: func() { count.Consistent = false },
	})
	opts := metav1.ListOptions{Limit: pageSize}
	if rev > 0 {
		opts.ResourceVersion = strconv.FormatInt(rev, 10)
		opts.ResourceVersionMatch = metav1.ResourceVersionMatchExact
	}
	for {
		obj, err := pageFunc(ctx, opts)
		if err != nil {
			if opts.Continue == "" && rev > 0 && (apierrors.IsResourceExpired(err) || apierrors.IsGone(err)) {
				return ObjectCount{}, fmt.Errorf("listing at revision %d: %w: %w", rev, ErrRevisionCompacted, err)
			}
			return ObjectCount{}, err
		}
		page := obj.(*unstructured.UnstructuredList)
		count.Objects += int64(len(page.Items))
		next := page.GetContinue()
		if next == "" {
			count.Objects += count.Unreadable
			return count, nil
		}
		// A continue token carries its revision; the first page's options must not be repeated.
		opts = metav1.ListOptions{Limit: pageSize, Continue: next}
	}
}
