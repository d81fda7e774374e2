package evidence

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	// DefaultPageSize is how many keys one range read returns: the LIST chunk size of kube-storage-version-
	// migrator. A page holds the values, so memory is bounded by PageSize times the largest value (etcd's
	// --max-request-bytes, 1.5 MiB by default); with Secrets of a few KiB a page is a few MiB.
	DefaultPageSize = 500
	// DefaultMaxListed is how many etcd keys a report lists per resource and kind of offence: enough to start
	// on, few enough that the report of a cluster with a million stale objects stays small.
	DefaultMaxListed = 100
	// DefaultSampleSize is how many objects per resource are read through the API when a Sampler is set. The
	// sample confirms the apiserver can decrypt, which one failing read already disproves; more reads only
	// load the apiserver and the KMS.
	DefaultSampleSize = 10
)

// CensusOptions tune a Census. Zero values take the defaults.
type CensusOptions struct {
	// PageSize is the limit of each range read.
	PageSize int64
	// MaxListed bounds every list of etcd keys in a ResourceReport.
	MaxListed int
	// Sampler, when set, reads a random sample of each resource's objects through the API.
	Sampler Sampler
	// SampleSize is the number of objects per resource read by the Sampler.
	SampleSize int
	// Rand draws the sample. Nil means randomly seeded.
	Rand *rand.Rand
	// Counter counts each resource's objects through the API, to compare with the keys the scan found.
	// Without it no resource is verified (ReasonNoAPICount): a scan alone cannot tell an empty resource from
	// a wrong prefix.
	Counter ObjectCounter
	// Progress, when set, is called after every page read from etcd and when the API count starts, on the
	// goroutine that called Take. It must return quickly.
	Progress func(Progress)
}

// Census reads what kube-apiserver stored in etcd and reports under which key it is.
type Census struct {
	kv   clientv3.KV
	opts CensusOptions
}

// NewCensus returns a Census that reads through kv, normally a *clientv3.Client connected to the etcd
// cluster of the apiservers. It only reads.
func NewCensus(kv clientv3.KV, opts CensusOptions) *Census {
	if opts.PageSize <= 0 {
		opts.PageSize = DefaultPageSize
	}
	if opts.MaxListed <= 0 {
		opts.MaxListed = DefaultMaxListed
	}
	if opts.SampleSize <= 0 {
		opts.SampleSize = DefaultSampleSize
	}
	if opts.Rand == nil {
		opts.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	return &Census{kv: kv, opts: opts}
}

// Verify scans every key under each resource's prefix and reports, per resource, under which keys the
// values are stored compared with want. It fails on invalid arguments and on etcd errors it cannot recover
// from; a compaction of the revision a scan is pinned to is recovered from (see the package documentation).
func (v *Census) Take(ctx context.Context, resources []Resource, want WriteKey) (*Report, error) {
	if err := want.Validate(); err != nil {
		return nil, err
	}
	if len(resources) == 0 {
		return nil, errors.New("no resources to verify")
	}
	for _, r := range resources {
		if err := r.validate(); err != nil {
			return nil, err
		}
	}
	report := &Report{WriteKey: want, Started: time.Now()}
	for _, r := range resources {
		rr, err := v.verifyResource(ctx, r, want)
		if err != nil {
			return nil, err
		}
		report.Resources = append(report.Resources, *rr)
	}
	return report, nil
}

func (v *Census) verifyResource(ctx context.Context, r Resource, want WriteKey) (*ResourceReport, error) {
	start := time.Now()
	var sample *reservoir
	if v.opts.Sampler != nil {
		sample = newReservoir(v.opts.SampleSize, v.opts.Rand)
	}
	t := newTally(r, want, v.opts.MaxListed, sample)
	if err := v.scan(ctx, r.Prefix, t); err != nil {
		return nil, fmt.Errorf("scanning %s under %s: %w", r.GroupResource, r.Prefix, err)
	}
	elapsed := time.Since(start)
	report := t.finish()
	report.Duration = metav1.Duration{Duration: elapsed}
	if elapsed > 0 {
		report.KeysPerSecond = float64(report.Total) / elapsed.Seconds()
	}
	if v.opts.Counter != nil {
		v.progress(Progress{Resource: report.Resource, Prefix: r.Prefix, Phase: PhaseCounting, Keys: report.Total, Total: report.Total})
	}
	if err := v.countThroughAPI(ctx, r, report); err != nil {
		return nil, err
	}
	if sample != nil {
		report.Samples = readSample(ctx, v.opts.Sampler, r, sample.keys)
	}
	return report, nil
}

// scan feeds every key and value under prefix to t, one page at a time, all pages at the revision of the
// first. When etcd has compacted that revision it continues after the last key read, at the newest revision.
//
// Every key below from has been read; each page reads [from, next) for a next that pageRanges chooses. The scan
// ends once a page over [from, end) says there is no more, or once it has read as many keys as the last read over
// [from, end) at its revision counted. The first page of a snapshot reads [from, end), whose count is the scan's
// total.
func (v *Census) scan(ctx context.Context, prefix string, t *tally) error {
	ranges := newPageRanges(prefix, v.opts.PageSize)
	from, end := prefix, ranges.end
	var rev int64 // 0 until the first page of a snapshot fixes it
	next := end
	p := Progress{Resource: t.report.Resource, Prefix: prefix, Phase: PhaseScanning}
	for {
		read := from
		resp, err := v.page(ctx, from, next, rev)
		if rev != 0 && errors.Is(err, rpctypes.ErrCompacted) {
			// The keys before from were read at rev; the rest is read at a new snapshot. A read at the newest
			// revision cannot be compacted, so this makes progress.
			rev = 0
			t.report.SpansRevisions = true
			next = end
			continue
		}
		if err != nil {
			return fmt.Errorf("range read from %q at revision %d: %w", from, rev, err)
		}
		if rev == 0 {
			rev = resp.Header.Revision
			t.report.Revisions = append(t.report.Revisions, rev)
			// etcd counts the whole range, not just the page.
			p.Total = t.report.Total + resp.Count
		}
		for _, kv := range resp.Kvs {
			t.add(kv.Key, kv.Value)
		}
		if len(resp.Kvs) > 0 {
			p.Keys = t.report.Total
			v.progress(p)
		}
		switch {
		case resp.More && len(resp.Kvs) > 0:
			// The smallest key after the last one read.
			from = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
		case next == end:
			return nil
		default:
			from = next
		}
		ranges.observe(read, next, resp.Kvs, resp.More, resp.Count)
		if ranges.done() {
			return nil
		}
		next = ranges.next(from)
	}
}

// page reads one page of [from, end) at rev, or at the newest revision when rev is 0.
//
// The first page of a snapshot is a linearizable read, so the snapshot is etcd's current state and not that of
// a member lagging behind (which could hide the latest rewrites, or the latest stale writes). Later pages are
// serializable: at a pinned revision every member that has applied it returns the same data, so the
// leader round trip of a linearizable read buys nothing. A member that has not applied rev yet answers
// ErrFutureRev; the page is then read linearizably, which waits for the member to catch up.
func (v *Census) page(ctx context.Context, from, end string, rev int64) (*clientv3.GetResponse, error) {
	opts := []clientv3.OpOption{clientv3.WithRange(end), clientv3.WithLimit(v.opts.PageSize)}
	if rev == 0 {
		return v.kv.Get(ctx, from, opts...)
	}
	opts = append(opts, clientv3.WithRev(rev))
	resp, err := v.kv.Get(ctx, from, append(opts, clientv3.WithSerializable())...)
	if errors.Is(err, rpctypes.ErrFutureRev) {
		return v.kv.Get(ctx, from, opts...)
	}
	return resp, err
}
