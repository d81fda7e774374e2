package evidence

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Reason says why a resource is not verified.
type Reason string

const (
	// ReasonNoAPICount: the API's object count is missing (the Census has no ObjectCounter), so nothing shows
	// that the census looked where the objects are.
	ReasonNoAPICount Reason = "NoAPICount"
	// ReasonNoKeys: no key under the prefix, but the API lists objects: the prefix is wrong, or the objects are
	// stored elsewhere.
	ReasonNoKeys Reason = "NoKeysUnderPrefix"
	// ReasonCountMismatch: etcd holds more or fewer keys than the API lists objects, beyond the writes that
	// happened between the two counts.
	ReasonCountMismatch Reason = "CountMismatch"
	// ReasonNotUnderWriteKey: some values are stored under other keys or in plaintext.
	ReasonNotUnderWriteKey Reason = "NotUnderWriteKey"
	// ReasonUnparsable: some values could not be classified.
	ReasonUnparsable Reason = "UnparsableValues"
	// ReasonSampleFailed: some sampled objects could not be read through the API.
	ReasonSampleFailed Reason = "SampleReadFailed"

	// ReasonNoResources: a report of no resources, which proves nothing (Report.Verified).
	ReasonNoResources Reason = "NoResources"
	// ReasonResourcesNotVerified: a report with a resource that is not verified; the message names each.
	ReasonResourcesNotVerified Reason = "ResourcesNotVerified"
)

// Verdict is the single judgement of one resource's evidence; Verified and the JSON report derive from it.
type Verdict struct {
	Verified bool `json:"verified"`
	// Empty says the resource holds no objects, which both etcd and the API confirm: verified, with nothing to
	// verify.
	Empty bool `json:"verifiedEmpty,omitempty"`
	// Reason and Message say why the resource is not verified.
	Reason  Reason `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// Verdict judges the evidence. A resource is verified only when the API's count agrees with etcd's (exactly at
// the scan's revision, or within the writes between the counts), and then every value is under the write key,
// parsable and every sampled object readable. Zero keys verify only when the API lists zero objects too.
func (r *ResourceReport) Verdict() Verdict {
	refuse := func(reason Reason, format string, args ...any) Verdict {
		return Verdict{Reason: reason, Message: fmt.Sprintf(format, args...)}
	}
	c := r.APICount
	switch {
	case c == nil:
		return refuse(ReasonNoAPICount, "the API's object count is missing: %d keys under %s prove nothing about the objects elsewhere", r.Total, r.Prefix)
	case r.Total == 0 && c.Objects == 0:
		return Verdict{Verified: true, Empty: true}
	case r.Total == 0:
		return refuse(ReasonNoKeys, "no keys under %s, but the API lists %d objects: is the etcd prefix right?", r.Prefix, c.Objects)
	case abs(r.Total-c.Objects) > c.AllowedDifference:
		return refuse(ReasonCountMismatch, "etcd holds %d keys under %s, the API lists %d objects (%s)", r.Total, r.Prefix, c.Objects, c.describe())
	case r.NotUnderWriteKey > 0:
		return refuse(ReasonNotUnderWriteKey, "%d of %d values are not under the write key", r.NotUnderWriteKey, r.Total)
	case r.Corrupt > 0:
		return refuse(ReasonUnparsable, "%d of %d values could not be classified", r.Corrupt, r.Total)
	case r.SampleFailures() > 0:
		return refuse(ReasonSampleFailed, "%d of %d sampled objects could not be read through the API", r.SampleFailures(), len(r.Samples))
	}
	return Verdict{Verified: true}
}

// Verified is true only when Verdict is.
func (r *ResourceReport) Verified() bool { return r.Verdict().Verified }

// Verified is true only when every resource of the report is verified. A report of no resources proves
// nothing and is not verified.
func (r *Report) Verified() bool { return r.verdict().Verified }

// verdict is the report's Verdict: its Message names every resource that is not verified.
func (r *Report) verdict() Verdict {
	if r == nil || len(r.Resources) == 0 {
		return Verdict{Reason: ReasonNoResources, Message: "no resource was counted"}
	}
	var failed []string
	for i := range r.Resources {
		if v := r.Resources[i].Verdict(); !v.Verified {
			failed = append(failed, fmt.Sprintf("%s: %s", r.Resources[i].Resource, v.Reason))
		}
	}
	if len(failed) > 0 {
		return Verdict{Reason: ReasonResourcesNotVerified, Message: strings.Join(failed, "; ")}
	}
	return Verdict{Verified: true}
}

func (c *APICount) describe() string {
	if c.Comparison == CompareExact {
		return fmt.Sprintf("both at revision %d", c.Revision)
	}
	return fmt.Sprintf("the API listed at revision %d because %s; at most %d writes happened in between", c.Revision, c.Note, c.AllowedDifference)
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// MarshalJSON writes the report with its verdict: "verified", and "reason" and "message" when false.
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report
	return json.Marshal(struct {
		Verdict
		plain
	}{r.verdict(), plain(r)})
}

// MarshalJSON writes the resource's report with its verdict: "verified", "verifiedEmpty", and "reason" and
// "message" when not verified. Decoding ignores them: they are derived from the counts.
func (r ResourceReport) MarshalJSON() ([]byte, error) {
	type plain ResourceReport
	return json.Marshal(struct {
		Verdict
		plain
	}{r.Verdict(), plain(r)})
}
