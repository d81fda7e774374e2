// Package conformance checks etcdvalue against the storage transformers that
// kube-apiserver builds from an encryption configuration.
//
// The test lives apart from etcdvalue because it links most of
// k8s.io/apiserver. Fuzzing instruments every linked package, and in the
// etcdvalue test binary that extra code halved the fuzzer's throughput.
package conformance
