package evidence

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Report is the evidence of one Verify call. It holds counts, etcd keys, names and KEK ids, never values. Its
// verdict (Verified, and in JSON "verified" with the reason when false) is in verdict.go.
type Report struct {
	// WriteKey is what the report counts as current.
	WriteKey WriteKey `json:"writeKey"`
	// Started is when the scan of the first resource began.
	Started time.Time `json:"started"`
	// Resources are the resources scanned, in the order they were given.
	Resources []ResourceReport `json:"resources"`
}

// ResourceReport is the evidence for one resource. Every value under the prefix is counted exactly once:
// Total = UnderWriteKey + NotUnderWriteKey + Corrupt.
type ResourceReport struct {
	Resource string `json:"resource"`
	Prefix   string `json:"prefix"`

	// Total is the number of keys read under Prefix.
	Total int64 `json:"total"`
	// Keys counts the parsable values per key they are stored under, most frequent first.
	Keys []KeyCount `json:"keys"`
	// UnderWriteKey counts the values written by the write key.
	UnderWriteKey int64 `json:"underWriteKey"`
	// NotUnderWriteKey counts the parsable values written by anything else: a migration must rewrite them.
	NotUnderWriteKey int64 `json:"notUnderWriteKey"`
	// NotUnderWriteKeyListed are the etcd keys of the first (in key order) CensusOptions.MaxListed of them.
	NotUnderWriteKeyListed []string `json:"notUnderWriteKeyListed,omitempty"`
	// Corrupt counts the values etcdvalue.Parse rejects: malformed, or of a format it does not know.
	Corrupt int64 `json:"corrupt"`
	// CorruptByKind counts them by the kind their prefix announces; "unknown" when it announces none.
	CorruptByKind map[string]int64 `json:"corruptByKind,omitempty"`
	// CorruptListed are the first Options.MaxListed of them, with the parse error (which holds no value bytes).
	CorruptListed []CorruptValue `json:"corruptListed,omitempty"`

	// APICount is the API's count of the resource's objects, compared with Total; nil when the Census has no
	// ObjectCounter, which leaves the resource unverified.
	APICount *APICount `json:"apiCount,omitempty"`

	// Samples are the objects read through the API, when a Sampler was given.
	Samples []SampleResult `json:"samples,omitempty"`

	// Revisions are the etcd revisions the scan read at: one for a consistent snapshot, one more for each
	// time etcd compacted the pinned revision mid-scan.
	Revisions []int64 `json:"revisions"`
	// SpansRevisions says that the counts are not one snapshot (see the package documentation).
	SpansRevisions bool `json:"spansRevisions"`

	// Duration is how long the census of etcd took, without the API sample; KeysPerSecond is Total over it.
	Duration      metav1.Duration `json:"duration"`
	KeysPerSecond float64         `json:"keysPerSecond"`
}

// SampleFailures counts the sampled objects the API could not return.
func (r *ResourceReport) SampleFailures() int {
	n := 0
	for _, s := range r.Samples {
		if s.Error != "" {
			n++
		}
	}
	return n
}

// KeyCount is the number of values stored under one Key.
type KeyCount struct {
	Key
	Count int64 `json:"count"`
	// WriteKey says whether Key is the write key.
	WriteKey bool `json:"writeKey"`
}

// CorruptValue is an unparsable value: its etcd key and why etcdvalue.Parse rejected it.
type CorruptValue struct {
	Key   string `json:"key"`
	Error string `json:"error"`
}

// SampleResult is one object read through the API.
type SampleResult struct {
	// Key is the object's etcd key.
	Key string `json:"key"`
	// Error is why the API did not return the object; empty when it did.
	Error string `json:"error,omitempty"`
	// Gone says the object was deleted between the scan and the read, which proves nothing either way.
	Gone bool `json:"gone,omitempty"`
}
