// Package evidence proves, from the raw bytes kube-apiserver stored in etcd, under which key every object of
// an encrypted resource is stored, so that a migration to a new write key can be declared finished and an old
// read key dropped.
//
// A config diff or an API read cannot prove that: kube-apiserver decrypts with any read key of its config and
// returns the same object whichever key it was stored under. Only the stored value tells, and only for every
// object. The Verifier therefore reads every key under each resource's etcd prefix, classifies the value with
// etcdvalue.Parse (which decrypts nothing and needs no key material) and counts the values per (kind,
// provider or key name, KMS key id). Optionally it reads a small random sample of the objects through the API
// as well, to confirm that they still decrypt.
//
// # Consistency
//
// The scan of one resource is a sequence of paged range reads pinned to the revision of its first page, so
// the counts describe one consistent snapshot of etcd however long the scan takes. If etcd compacts that
// revision mid-scan, the scan continues from the last key read at the newest revision and the report says
// that it spans revisions (ResourceReport.SpansRevisions). Such a scan still read every key that existed
// throughout, each at some revision; it can miss keys created behind its cursor after it started, which are
// written by the current write key once every apiserver writes with it.
//
// # Memory and secrecy
//
// Memory is constant in the number of keys: one page of values at a time, one counter per distinct key the
// resource is stored under, and at most Options.MaxListed etcd keys per list. Values are never kept, logged
// or put in a report; reports hold etcd keys (namespace and name of objects), names and key ids only.
package evidence
