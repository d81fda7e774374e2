package evidence_test

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

// fakeKV is an in-memory etcd keyspace with revisions and compaction, serving the range reads the Verifier
// makes (range, limit, revision) as etcd does. Only Get is implemented; any other call panics on the nil
// embedded KV.
type fakeKV struct {
	clientv3.KV

	versions  []version // every version ever written, in revision order
	rev       int64     // the newest revision
	compacted int64     // reads below this revision fail with ErrCompacted

	// calls are the Gets received, in order.
	calls []clientv3.Op
	// beforeGet, when set, runs before call number n (from 1) is answered; it may change the keyspace or
	// return an error for the call to fail with.
	beforeGet func(n int, op clientv3.Op) error
}

type version struct {
	key    string
	value  []byte // nil for a deletion
	modRev int64
}

func newFakeKV() *fakeKV { return &fakeKV{rev: 1} }

// put writes key at a new revision.
func (f *fakeKV) put(key string, value []byte) {
	f.rev++
	f.versions = append(f.versions, version{key: key, value: bytes.Clone(value), modRev: f.rev})
}

// del deletes key at a new revision.
func (f *fakeKV) del(key string) {
	f.rev++
	f.versions = append(f.versions, version{key: key, modRev: f.rev})
}

// compact discards history before the newest revision.
func (f *fakeKV) compact() { f.compacted = f.rev }

func (f *fakeKV) Get(ctx context.Context, key string, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	op := clientv3.OpGet(key, opts...)
	f.calls = append(f.calls, op)
	if f.beforeGet != nil {
		if err := f.beforeGet(len(f.calls), op); err != nil {
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
	if limit := op.Limit(); limit > 0 && int64(len(keys)) > limit {
		keys, resp.More = keys[:limit], true
	}
	for _, k := range keys {
		resp.Kvs = append(resp.Kvs, &mvccpb.KeyValue{Key: []byte(k), Value: bytes.Clone(live[k].value), ModRevision: live[k].modRev})
	}
	return resp, nil
}

// pinnedReads returns the revisions of the calls, 0 for a read at the newest revision.
func (f *fakeKV) pinnedReads() []int64 {
	var revs []int64
	for _, op := range f.calls {
		revs = append(revs, op.Rev())
	}
	return revs
}

// withinPrefix reports whether every call read a range of prefix and nothing else.
func (f *fakeKV) withinPrefix(prefix string) bool {
	for _, op := range f.calls {
		if !strings.HasPrefix(string(op.KeyBytes()), prefix) || string(op.RangeBytes()) != clientv3.GetPrefixRangeEnd(prefix) {
			return false
		}
	}
	return true
}
