package evidence

// Phase is what a Census is doing for a resource.
type Phase string

const (
	// PhaseScanning: reading the resource's keys from etcd.
	PhaseScanning Phase = "scanning etcd"
	// PhaseCounting: counting the resource's objects through the API.
	PhaseCounting Phase = "counting through the API"
)

// Progress is how far the scan of one resource is, for a caller that shows progress on long scans. It holds
// counts and names only.
type Progress struct {
	Resource string
	Prefix   string
	Phase    Phase
	// Keys is the number of keys read so far.
	Keys int64
	// Total is the number of keys under the prefix etcd reported with the first page of the snapshot being
	// read (after a compaction: the keys read before it plus those left); 0 before the first page.
	Total int64
}

// progress reports p to Options.Progress, if set.
func (v *Census) progress(p Progress) {
	if v.opts.Progress != nil {
		v.opts.Progress(p)
	}
}
