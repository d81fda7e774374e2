package evidence

import (
	"cmp"
	"errors"
	"slices"

	"github.com/kmsguard/kmsguard/pkg/etcdvalue"
)

// unknownKind is the CorruptByKind entry of values whose prefix announces no kind.
const unknownKind = "unknown"

// tally counts the values of one resource as they are read. Its memory is bounded by the number of distinct
// keys and by maxListed, never by the number of values: each value is parsed and dropped.
type tally struct {
	report    *ResourceReport
	want      WriteKey
	maxListed int
	counts    map[Key]int64
	// sample, when not nil, draws the keys to read through the API.
	sample *reservoir
}

func newTally(r Resource, want WriteKey, maxListed int, sample *reservoir) *tally {
	return &tally{
		report:    &ResourceReport{Resource: r.GroupResource.String(), Prefix: r.Prefix},
		want:      want,
		maxListed: maxListed,
		counts:    map[Key]int64{},
		sample:    sample,
	}
}

// add counts the value stored at key. Neither slice is retained: etcd keys are copied into strings only for
// the first maxListed offenders and for the sample.
func (t *tally) add(key, value []byte) {
	r := t.report
	r.Total++
	if t.sample != nil {
		t.sample.offer(key)
	}
	parsed, err := etcdvalue.Parse(value)
	if err != nil {
		r.Corrupt++
		kind := unknownKind
		var perr *etcdvalue.ParseError
		if errors.As(err, &perr) && perr.Kind != "" {
			kind = string(perr.Kind)
		}
		if r.CorruptByKind == nil {
			r.CorruptByKind = map[string]int64{}
		}
		r.CorruptByKind[kind]++
		if len(r.CorruptListed) < t.maxListed {
			r.CorruptListed = append(r.CorruptListed, CorruptValue{Key: string(key), Error: err.Error()})
		}
		return
	}
	k := keyOf(parsed)
	t.counts[k]++
	if t.want.Covers(k) {
		r.UnderWriteKey++
		return
	}
	r.NotUnderWriteKey++
	if len(r.NotUnderWriteKeyListed) < t.maxListed {
		r.NotUnderWriteKeyListed = append(r.NotUnderWriteKeyListed, string(key))
	}
}

// finish turns the counters into the report's Keys, most frequent first, ties by key for stable output.
func (t *tally) finish() *ResourceReport {
	keys := make([]KeyCount, 0, len(t.counts))
	for k, n := range t.counts {
		keys = append(keys, KeyCount{Key: k, Count: n, WriteKey: t.want.Covers(k)})
	}
	slices.SortFunc(keys, func(a, b KeyCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Key.String(), b.Key.String()),
			cmp.Compare(a.DEKSourceType, b.DEKSourceType))
	})
	t.report.Keys = keys
	return t.report
}
