// Package operatorstate keeps the state kmsguard's controllers must be able to read and write while the KMS they
// guard is down, or after one of its KEKs was destroyed: each store is one annotation of the operator resource
// (kubeapiservers.operator.openshift.io/cluster and its siblings), written by server-side apply under the store's
// own field manager.
//
// Why there: OpenShift's apiserver operators encrypt Secrets and ConfigMaps (and, for openshift-apiserver, routes
// and OAuth tokens) with the KMS, so a ConfigMap in the operator namespace cannot be read while the KMS is down and
// is lost with a destroyed KEK. The operator resource is never encrypted, every operator already reads and writes
// it, and it is where the typed home of this state would be (status.encryptionStatus.guard, beside healthReports
// and preflight: the openshift/api patch in hack/upstream/api). One annotation per store, each owned by its own
// field manager, lets stores be written without reading or overwriting each other or the operator's own
// metadata, and without racing the status writers.
//
// Each store bounds its value (Store refuses one over MaxValueBytes, well inside the 256 KiB Kubernetes allows
// for all annotations of an object together) and keeps no key material and no user data: hashes, revisions, key
// ids, KEK ids, node names, counts and times.
//
// What is only a cache (migration progress, the full list of undecryptable objects, the published verdict) stays
// in ConfigMaps, and each reader of one starts over or does without when it cannot be read.
package operatorstate
