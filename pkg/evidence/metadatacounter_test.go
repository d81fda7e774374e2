package evidence_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kmsguard/kmsguard/internal/apiservertest"
	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// pagedObjects serves n objects in pages of opts.Limit, at resourceVersion rv, with a continue token that is
// the index of the next object; it records the options of every LIST.
type pagedObjects struct {
	n     int
	rv    string
	err   error // the first page's error, if set
	calls []metav1.ListOptions
}

func (p *pagedObjects) list(_ context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	p.calls = append(p.calls, opts)
	if p.err != nil {
		return nil, p.err
	}
	from := 0
	if opts.Continue != "" {
		from, _ = strconv.Atoi(opts.Continue)
	}
	to := min(from+int(opts.Limit), p.n)
	list := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: p.rv}}
	for i := from; i < to; i++ {
		list.Items = append(list.Items, metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprint(i)}})
	}
	if to < p.n {
		list.Continue = strconv.Itoa(to)
	}
	return list, nil
}

func TestCountPages(t *testing.T) {
	gone := apierrors.NewResourceExpired("too old resource version: 40 (900)")
	scenarios := []struct {
		name      string
		objects   int
		rev       int64
		err       error
		want      evidence.ObjectCount
		wantCalls []metav1.ListOptions
		wantErr   error
	}{
		{
			name: "at an exact revision, only the first page names it", objects: 5, rev: 40,
			want: evidence.ObjectCount{Objects: 5, Revision: 40, Consistent: true},
			wantCalls: []metav1.ListOptions{
				{Limit: 2, ResourceVersion: "40", ResourceVersionMatch: metav1.ResourceVersionMatchExact},
				{Limit: 2, Continue: "2"},
				{Limit: 2, Continue: "4"},
			},
		},
		{
			name: "current", objects: 3,
			want:      evidence.ObjectCount{Objects: 3, Revision: 40, Consistent: true},
			wantCalls: []metav1.ListOptions{{Limit: 2}, {Limit: 2, Continue: "2"}},
		},
		{
			name: "no objects", objects: 0, rev: 40,
			want:      evidence.ObjectCount{Revision: 40, Consistent: true},
			wantCalls: []metav1.ListOptions{{Limit: 2, ResourceVersion: "40", ResourceVersionMatch: metav1.ResourceVersionMatchExact}},
		},
		{name: "the revision is compacted", rev: 40, err: gone, wantErr: evidence.ErrRevisionCompacted},
		{name: "another error", rev: 40, err: apierrors.NewForbidden(schema.GroupResource{Resource: "secrets"}, "", errors.New("no")), wantErr: errors.New("forbidden")},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			p := &pagedObjects{n: s.objects, rv: "40", err: s.err}
			got, err := evidence.CountPages(context.Background(), p.list, true, s.rev, 2)
			if s.wantErr != nil {
				if err == nil || (!errors.Is(err, s.wantErr) && !strings.Contains(err.Error(), s.wantErr.Error())) {
					t.Fatalf("got %+v, %v; want error %v", got, err, s.wantErr)
				}
				if !errors.Is(s.wantErr, evidence.ErrRevisionCompacted) && errors.Is(err, evidence.ErrRevisionCompacted) {
					t.Errorf("%v is not a compaction", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != s.want {
				t.Errorf("count %+v, want %+v", got, s.want)
			}
			if diff := cmp.Diff(s.wantCalls, p.calls); diff != "" {
				t.Errorf("LIST options (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCountPagesCountsUnreadableObjects: objects the apiserver cannot decrypt are in etcd, so they are counted,
// and stepping over them leaves the pinned revision.
func TestCountPagesCountsUnreadableObjects(t *testing.T) {
	store := apiservertest.NewSecrets()
	for i := range 9 {
		obj := &unstructured.Unstructured{Object: map[string]interface{}{}}
		obj.SetNamespace("ns")
		obj.SetName(fmt.Sprintf("s%d", i))
		store.Objects[apiservertest.Key(obj)] = obj
	}
	store.Unreadable["ns/s3"], store.Unreadable["ns/s4"] = true, true
	list := func(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
		page, err := store.List(ctx, opts)
		if err != nil {
			return nil, err
		}
		out := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "77", Continue: page.GetContinue()}}
		for _, item := range page.Items {
			out.Items = append(out.Items, metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: item.GetNamespace(), Name: item.GetName()}})
		}
		return out, nil
	}
	got, err := evidence.CountPages(context.Background(), list, true, 77, 4)
	if err != nil {
		t.Fatal(err)
	}
	if want := (evidence.ObjectCount{Objects: 9, Unreadable: 2, Revision: 77, Consistent: false}); got != want {
		t.Errorf("count %+v, want %+v", got, want)
	}
}
