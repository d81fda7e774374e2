// Package etcdtest has an in-memory etcd keyspace for unit tests of code that reads kube-apiserver's
// stored values with range reads.
package etcdtest

import (
	"bytes"
	"context"
	"slices"
	"strings"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// KV is an in-memory etcd keyspace with revisions and compaction, serving the range reads the Census
// makes (range, limit, revision) as etcd does. Only Get is implemented; any other call panics on the nil
// embedded KV.
type KV struct {
	clientv3.KV

	versions  []version // every version ever written, in revision order
	rev       int64     // the newest revision
	compacted int64     // reads below this revision fail with ErrCompacted
	counted   int64     // KeysCounted

	// Calls are the Gets received, in order.
	Calls []clientv3.Op
	// BeforeGet, when set, runs before call number n (from 1) is answered; it may change the keyspace or
	// return an error for the call to fail with.
	BeforeGet func(n int, op clientv3.Op) error
}

type version struct {
	key    string
	value  []byte // nil for a deletion
	modRev int64
}

func NewKV() *KV { return &KV{rev: 1} }

// Store writes key at a new revision.
func (f *KV) Store(key string, value []byte) {
	f.rev++
	f.versions = append(f.versions, version{key: key, value: bytes.Clone(value), modRev: f.rev})
}

// Remove deletes key at a new revision.
func (f *KV) Remove(key string) {
	f.rev++
	f.versions = append(f.versions, version{key: key, modRev: f.rev})
}

// CompactAll discards history before the newest revision.
func (f *KV) CompactAll() { f.compacted = f.rev }

func (f *KV) Get(ctx context.Context, key string, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	op := clientv3.OpGet(key, opts...)
	f.Calls = append(f.Calls, op)
	if f.BeforeGet != nil {
		if err := f.BeforeGet(len(f.Calls), op); err != nil {
			return nil, err
		}
	}
	rev := op.Rev()
	switch {
	case rev == 0:
		rev = f.rev
	case rev < f.compacted:
		return nil, rpctypes.ErrCompacted
	case rev > f.rev:
		return nil, rpctypes.ErrFutureRev
	}

	// The value of each key at rev.
	live := map[string]version{}
	for _, v := range f.versions {
		if v.modRev > rev {
			break
		}
		if v.value == nil {
			delete(live, v.key)
		} else {
			live[v.key] = v
		}
	}
	from, end := string(op.KeyBytes()), string(op.RangeBytes())
	var keys []string
	for k := range live {
		if k >= from && (end == "" && k == from || end != "" && k < end) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)

	resp := &clientv3.GetResponse{Header: &pb.ResponseHeader{Revision: f.rev}, Count: int64(len(keys))}
	f.counted += resp.Count
	if limit := op.Limit(); limit > 0 && int64(len(keys)) > limit {
		keys, resp.More = keys[:limit], true
	}
	for _, k := range keys {
		resp.Kvs = append(resp.Kvs, &mvccpb.KeyValue{Key: []byte(k), Value: bytes.Clone(live[k].value), ModRevision: live[k].modRev})
	}
	return resp, nil
}

// PinnedReads returns the revisions of the calls, 0 for a read at the newest revision.
func (f *KV) PinnedReads() []int64 {
	var revs []int64
	for _, op := range f.Calls {
		revs = append(revs, op.Rev())
	}
	return revs
}

// WithinPrefix reports whether every call read a range within prefix: from a key under it to an end after that
// key and no further than the prefix's end.
func (f *KV) WithinPrefix(prefix string) bool {
	prefixEnd := clientv3.GetPrefixRangeEnd(prefix)
	for _, op := range f.Calls {
		from, end := string(op.KeyBytes()), string(op.RangeBytes())
		if !strings.HasPrefix(from, prefix) || end <= from || end > prefixEnd {
			return false
		}
	}
	return true
}

// KeysCounted is how many keys etcd visited to count the calls' ranges: etcd counts a range read's whole
// range, whatever its limit, so this is what a scan's paging costs etcd beyond the keys it returns.
func (f *KV) KeysCounted() int64 { return f.counted }
