package fake

import (
	"sync/atomic"

	kmsapi "k8s.io/kms/apis/v2"
)

// Method names one RPC of the KMS v2 KeyManagementService.
type Method string

const (
	// MethodStatus is the health and KEK id probe the apiserver sends
	// periodically and before it trusts a new KEK id.
	MethodStatus Method = "Status"
	// MethodEncrypt is called when the apiserver needs a new data
	// encryption key sealed.
	MethodEncrypt Method = "Encrypt"
	// MethodDecrypt is called when the apiserver reads data whose data
	// encryption key it does not have cached.
	MethodDecrypt Method = "Decrypt"
)

// methodsByFullName maps the gRPC method names a plugin serves to Methods.
var methodsByFullName = map[string]Method{
	kmsapi.KeyManagementService_Status_FullMethodName:  MethodStatus,
	kmsapi.KeyManagementService_Encrypt_FullMethodName: MethodEncrypt,
	kmsapi.KeyManagementService_Decrypt_FullMethodName: MethodDecrypt,
}

// Calls returns how many RPCs of each Method reached the plugin since it was
// created, across restarts, including those that failed. Every Method is
// present in the map, zero or not.
func (p *Plugin) Calls() map[Method]int64 {
	return p.calls.snapshot()
}

// callCounts counts RPCs per Method. The map is filled once by
// newCallCounts and never written again, so it is read without a lock; only
// the counters change.
type callCounts struct {
	counts map[Method]*atomic.Int64
}

func newCallCounts() callCounts {
	c := callCounts{counts: map[Method]*atomic.Int64{}}
	for _, m := range methodsByFullName {
		c.counts[m] = new(atomic.Int64)
	}
	return c
}

// record counts one call of the gRPC method fullMethod. Methods outside the
// KMS service are not counted; none are registered today.
func (c callCounts) record(fullMethod string) {
	if m, ok := methodsByFullName[fullMethod]; ok {
		c.counts[m].Add(1)
	}
}

func (c callCounts) snapshot() map[Method]int64 {
	out := make(map[Method]int64, len(c.counts))
	for m, n := range c.counts {
		out[m] = n.Load()
	}
	return out
}
