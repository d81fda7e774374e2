// Package recovery restores a cluster whose KMS key is lost for good: it finds the objects kube-apiserver can
// no longer decrypt, reports them, and, only with the admin's consent naming the lost key, deletes them with
// KEP-3926's unsafe delete so that LISTs work again and operators recreate what they own.
//
// When a key is gone, every LIST of a resource with an object stored under it fails, informers never sync and
// operators stall. kube-apiserver's feature gate AllowUnsafeMalformedObjectDeletion (alpha and off by default
// up to 1.36, beta and on by default from 1.37) makes such a LIST fail with reason StorageReadError naming up to 100 unreadable etcd
// keys, and lets a client with the extra verb unsafe-delete-ignore-read-errors delete one of them with
// DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential. The deletion skips finalizers, admission
// and garbage collection of dependents: it is data loss, so nothing here deletes on its own.
//
// Scanner walks each resource with pagedlist, which finds every unreadable key past the 100-cause cap, and,
// given a RawValueReader (EtcdValues), reads each unreadable value's prefix to tell the key it was written
// under (the KMS v2 key id, "aescbc:<name>" for other providers, UnknownKeyID when it cannot tell). Deleter
// deletes the objects of one key, one by one, re-checking each right before its delete. `kmsguard recover`
// runs both from a workstation; Controller runs them in an operator.
//
// # Consent
//
// Only objects stored under the key the admin names are deleted, nothing else:
//
//	spec:
//	  unsupportedConfigOverrides:
//	    kmsguard:
//	      confirmDataLoss: "<key id>"   # one of the key ids in the KMSRecoveryDegraded message
//
// or `kmsguard recover --confirm-data-loss=<key id> --dry-run=false`. A key id, not a boolean: it cannot
// match the objects of a key that is merely unreachable for a while unless the admin names that key.
//
// # Controller
//
// Every Interval (10 minutes by default) and whenever the consent changes, the controller scans. Conditions:
//
//	scenario                                              KMSRecoveryDegraded
//	every object of the resources readable                False AsExpected
//	undecryptable objects, no consent                     True  UndecryptableObjects: counts per resource and key
//	undecryptable objects, consent names another key      True  ConsentKeyIDMismatch
//	consent matches: objects of that key deleted, then
//	  every delete succeeded, nothing else unreadable     False AsExpected, with the deletion report
//	  some deletes failed (RBAC, gate off)                True  DeletionFailed
//	  objects under other keys remain                     True  UndecryptableObjects
//
// A scan that fails (an apiserver without the feature gate answers a plain 500 naming no object) returns the
// error and leaves the condition as it was. Messages name at most 20 objects; the ConfigMap
// kmsguard-undecryptable-objects in Options.Namespace has the whole list (up to about 1,600 objects, then the
// first ones and a note: the ConfigMap must stay under etcd's 1 MiB) and the last deletion report. The
// controller writes the ConfigMap only while there is something to report and never deletes it: it is the
// record of what was lost.
//
// Events: UndecryptableObjectsFound (Warning) when the condition turns True or changes reason,
// UndecryptableObjectsResolved when it turns False; per object UndecryptableObjectDeleted (Warning),
// UndecryptableObjectSkipped or UndecryptableObjectDeletionFailed (Warning); UndecryptableObjectsDeleted with
// the final report.
//
// # What comes back
//
// An undecryptable object's ownerReferences and labels are in the value that cannot be decrypted, so who
// owns it is unknowable. ExpectRecreated decides from the namespace alone: objects in "openshift",
// "openshift-*" and "kube-*" are expected to be recreated by their operators, all others (user namespaces,
// "default", cluster-scoped OAuth tokens) are not. After a deletion, each scan checks which deleted objects
// are listed again, and the condition names those that are not back, separating the ones an operator was
// expected to recreate from the ones nobody will. This memory is the process's: after an operator restart
// only the ConfigMap keeps the last deletion report.
package recovery
