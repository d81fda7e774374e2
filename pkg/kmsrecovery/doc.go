// Package kmsrecovery restores a cluster whose KMS key is lost for good: it finds the objects kube-apiserver can
// no longer decrypt, reports them, and, only with the admin's consent naming the lost key and only while the
// KMS shows that key is neither in use nor merely unreachable (CheckConsent), deletes them with KEP-3926's
// unsafe delete so that LISTs work again and operators recreate what they own.
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
// under (the KMS v2 provider and KEK id, "aescbc:<name>" for other providers, "identity" for plaintext that
// does not decode, UnknownConsentID when it cannot tell). Deleter deletes the objects of one key, one by one,
// re-reading each stored key from etcd right before its delete. `kmsguard recover` runs both from a
// workstation; Controller runs them in an operator.
//
// # Consent
//
// Only objects stored under the key the admin names are deleted, nothing else:
//
//	spec:
//	  unsupportedConfigOverrides:
//	    kmsguard:
//	      confirmDataLoss: "<provider>:<KEK id>"   # one of the keys in the KMSRecoveryDegraded message
//
// or `kmsguard recover --confirm-data-loss=<provider>:<KEK id> --dry-run=false`. A key, not a boolean: it
// cannot match the objects of a key that is merely unreachable for a while unless the admin names that key.
// The provider is part of it because two KMS providers (two KMSs) can issue the same KEK id; the bare KEK id is
// accepted while a single provider has undecryptable objects under it. Other providers' keys are named as
// listed ("aescbc:1").
//
// CheckConsent is the one rule of the Controller and of `kmsguard recover`. A consent alone is not enough:
//
//	consent                                                     reason                   recover exit
//	none                                                        UndecryptableObjects     2
//	"unknown" or "identity": no etcd evidence of a key          ConsentUnprovable        4
//	names no undecryptable object                               ConsentMatchesNoObject     3
//	a bare KEK id that several providers have                   ConsentAmbiguous         3
//	a KEK id a plugin serves, or kmsstate settled on for a key  ConsentNamesCurrentKey   5
//	the current keys' plugins not all healthy, or not known     KMSUnhealthy             6
//	otherwise                                                   the objects are deleted
//
// "unknown" is what every object gets without etcd access, or when etcd no longer holds the value or it
// cannot be classified: an outage after an apiserver restart makes every encrypted object unreadable, and
// nothing would tell those from a lost key's. "identity" is plaintext that does not decode: corruption. A KEK
// id a plugin serves (any health report's remoteKeyID, in the CLI; a healthy plugin's, in kmsstate's State) or that
// kmsstate settled on is the KMS's current key, not a lost one; the comparison ignores the provider, erring
// towards keeping data. The plugins of every current key must be healthy on every node (kmsstate's
// State.Healthy): during an outage, consent waits. kube-apiserver's own failed reads (DecryptFailing) do not
// count: with a lost key every apiserver fails on exactly the objects the consent deletes, for as long as they
// exist, while an outage of a current key also fails its plugins' Status or round trip. A key destroyed while
// it is still the current key of a provider therefore blocks recovery until that provider's KMS serves a new key (or the provider is replaced
// in the config), whereupon kmsstate settles on the new KEK id and the old one can be consented to.
//
// # Controller
//
// Every Interval (10 minutes by default) and whenever the consent changes, the controller scans. After a scan
// that could read no stored value (its etcd client's own credentials are lost, Findings.EtcdUnreadable), it
// reads one again every EtcdProbeInterval and scans as soon as that works. Its KMS view is KMSStateView of the
// operator's kmsstate controller. Conditions:
//
//	scenario                                              KMSRecoveryDegraded
//	every object of the resources readable                False AsExpected
//	undecryptable objects, no consent                     True  UndecryptableObjects: counts per resource and key
//	undecryptable objects, consent names another key      True  ConsentMatchesNoObject
//	consent names a bare KEK id of several providers      True  ConsentAmbiguous
//	consent names "unknown" or "identity"                 True  ConsentUnprovable
//	consent names a KEK id a plugin serves or is current  True  ConsentNamesCurrentKey
//	consent while the current keys' plugins are not
//	  healthy, kmsstate has not evaluated, or no KMS view True  KMSUnhealthy
//	consent accepted: objects of that key deleted, then
//	  every delete succeeded, nothing else unreadable     False AsExpected, with the deletion report
//	  some deletes failed (RBAC, gate off)                True  DeletionFailed
//	  objects under other keys remain                     True  UndecryptableObjects
//	consent accepted, but spec.managementState is not     True  ConsentNotActedOnOperatorNotManaged
//	  Managed: nothing deleted
//
// Degraded means an admin must act, as for every kmsguard condition: every True row but KMSUnhealthy waits for the
// admin (a consent, a corrected one, a permission); KMSUnhealthy is the admin's own consent not acted on while the
// KMS is unhealthy, which the admin who gave it must be told.
//
// As library-go's encryption controllers, the controller deletes and writes nothing unless spec.managementState
// is Managed (management.IsOperatorManaged): while Unmanaged or Removed it scans and reports, but neither
// deletes nor writes the ConfigMap. A sync that fails (a scan, the ConfigMap write) sets
// KMSRecoveryControllerDegraded True with the error (reason Error) and is retried at once; the next successful
// sync sets it False AsExpected.
//
// A scan that fails (an apiserver without the feature gate answers a plain 500 naming no object) returns the
// error and leaves the condition as it was. Messages name at most 20 objects; the ConfigMap
// kmsguard-undecryptable-objects in Options.Namespace has the whole list (up to about 1,600 objects, then the
// first ones and a note: the ConfigMap must stay under etcd's 1 MiB) and the last deletion report. The lasting
// record of what was lost is the Record on the operator resource (annotation kmsguard.openshift.io/recovery:
// counts, consent ids, the last deletion's counts), which the KMS never encrypts; the ConfigMap is a cache of the
// full list. Both are written only while there is something to report, and after a deletion before the scan that
// follows, so that a failing scan (the error is returned and the scan retried at once) loses nothing. The
// condition depends on neither: when the ConfigMap cannot be written (the failed KMS may be the one to encrypt
// it), the condition is applied all the same and says so (`kmsguard recover` lists the objects from a scan of its
// own), and the sync returns the write's error for KMSRecoveryControllerDegraded. A ConfigMap the apiserver cannot
// read at all is deleted and written afresh.
//
// kmsguard's own caches (Options.Caches: the published KMS verdict, the migrations' progress, this list) hold no
// user data. One the scan finds undecryptable is deleted at once, without a consent and whatever the KMS says,
// with the unsafe delete and a KMSGuardCacheDeleted event, and is neither counted nor listed; its owner starts it
// over.
//
// Events: UndecryptableObjectsFound (Warning) when the condition turns True or changes reason,
// UndecryptableObjectsResolved when it turns False; per object UndecryptableObjectDeleted (Warning),
// UndecryptableObjectSkipped or UndecryptableObjectDeletionFailed (Warning); UndecryptableObjectsDeleted with
// the final report. `kmsguard recover` records UndecryptableObjectsDeletedBatch (BatchRecorder) per 20 objects
// instead, on the operator resource in the operator's namespace.
//
// Metrics (component-base's legacy registry, RegisterMetrics): kmsguard_undecryptable_objects{resource}, the
// objects of each resource the latest scan could not read, what is left after a deletion; a failed scan leaves
// it as it was.
//
// # What comes back
//
// An undecryptable object's ownerReferences and labels are in the value that cannot be decrypted, so who
// owns it is unknowable. ExpectRecreated decides from the namespace alone: objects in "openshift",
// "openshift-*" and "kube-*" are expected to be recreated by their operators, all others (user namespaces,
// "default", cluster-scoped OAuth tokens) are not. After a deletion, each scan checks which deleted objects
// are listed again, and the condition names those that are not back, separating the ones an operator was
// expected to recreate from the ones nobody will. This memory is the process's: after an operator restart
// the Record keeps the last deletion's counts, and the ConfigMap its report.
package kmsrecovery
