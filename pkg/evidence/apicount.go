package evidence

import (
	"context"
	"errors"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ObjectCounter counts a resource's objects through the API. A scan of etcd that finds no keys, or fewer than
// there are objects, has looked in the wrong place or missed something; only the API's own count tells, so a
// Census without an ObjectCounter verifies nothing (ReasonNoAPICount).
type ObjectCounter interface {
	// CountObjects lists every object of gr and counts them. rev > 0 asks for the count at exactly that etcd
	// revision (kube-apiserver's resourceVersions are etcd revisions: resourceVersion=rev,
	// resourceVersionMatch=Exact); it returns an error wrapping ErrRevisionCompacted when the apiserver no
	// longer has it (410 Gone). rev 0 counts the current objects.
	CountObjects(ctx context.Context, gr schema.GroupResource, rev int64) (ObjectCount, error)
}

// ErrRevisionCompacted is what an ObjectCounter returns when the revision it was asked to count at is gone.
var ErrRevisionCompacted = errors.New("the revision was compacted")

// ObjectCount is the API's count of one resource.
type ObjectCount struct {
	// Objects counts every object listed, Unreadable included.
	Objects int64
	// Unreadable counts the objects the API named as unreadable (a StorageReadError) instead of returning them.
	Unreadable int64
	// Revision is the resourceVersion of the first page.
	Revision int64
	// Consistent says that every page was read at Revision. Stepping over unreadable objects or an expired
	// continue token reads the rest at newer revisions.
	Consistent bool
}

// Comparison says how a scan's count was compared with the API's.
type Comparison string

const (
	// CompareExact: the API listed the resource at exactly the revision the scan read, so both counts
	// describe the same snapshot and must be equal.
	CompareExact Comparison = "ExactRevision"
	// CompareWithinWrites: the API could not list at the scan's revision (etcd compacted it, the scan spans
	// revisions, or the LIST itself did), so it listed the current objects; the counts may differ by at most
	// the etcd revisions between the scan's first revision and the end of the LIST, as each revision is one
	// write and kube-apiserver writes one object per revision.
	CompareWithinWrites Comparison = "WithinWrites"
)

// APICount is the API's side of the count comparison of one resource.
type APICount struct {
	// Objects is the number of objects the API listed, Unreadable included.
	Objects    int64 `json:"objects"`
	Unreadable int64 `json:"unreadable,omitempty"`
	// Comparison is how Objects is compared with the scan's Total.
	Comparison Comparison `json:"comparison"`
	// Revision is the etcd revision (resourceVersion) the LIST began at.
	Revision int64 `json:"revision"`
	// AllowedDifference is how far the counts may differ: 0 for CompareExact.
	AllowedDifference int64 `json:"allowedDifference"`
	// Note says why the comparison is not exact, when it is not.
	Note string `json:"note,omitempty"`
}

// countThroughAPI compares the scan of r with the API's count and stores it in the report.
func (v *Census) countThroughAPI(ctx context.Context, r Resource, report *ResourceReport) error {
	counter := v.opts.Counter
	if counter == nil {
		return nil
	}
	first := report.Revisions[0]
	note := "the scan spans revisions"
	if !report.SpansRevisions {
		c, err := counter.CountObjects(ctx, r.GroupResource, first)
		switch {
		case err == nil && c.Consistent:
			report.APICount = &APICount{Objects: c.Objects, Unreadable: c.Unreadable, Comparison: CompareExact, Revision: c.Revision}
			return nil
		case err == nil:
			note = "the LIST at the scan's revision stepped over unreadable objects or expired"
		case errors.Is(err, ErrRevisionCompacted):
			note = fmt.Sprintf("the apiserver no longer has revision %d", first)
		default:
			return fmt.Errorf("counting %s through the API at revision %d: %w", r.GroupResource, first, err)
		}
	}
	c, err := counter.CountObjects(ctx, r.GroupResource, 0)
	if err != nil {
		return fmt.Errorf("counting %s through the API: %w", r.GroupResource, err)
	}
	// The revision after the LIST bounds every revision the LIST or the scan read.
	resp, err := v.kv.Get(ctx, r.Prefix, clientv3.WithRange(clientv3.GetPrefixRangeEnd(r.Prefix)), clientv3.WithCountOnly())
	if err != nil {
		return fmt.Errorf("reading etcd's revision after counting %s: %w", r.GroupResource, err)
	}
	report.APICount = &APICount{
		Objects: c.Objects, Unreadable: c.Unreadable, Comparison: CompareWithinWrites, Revision: c.Revision,
		AllowedDifference: max(resp.Header.Revision-first, 0), Note: note,
	}
	return nil
}
