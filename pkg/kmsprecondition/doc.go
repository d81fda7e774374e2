// Package kmsprecondition gates library-go revisions on KMS and on read keys: a revision whose encryption config
// changes KMS providers is only created on the evidence that exists for each of its keys at that step, and a
// revision that drops a read key is only created once no value is stored under it any more. A kube-apiserver
// started with a KMS provider whose plugin is down fails to start or, with a restart, loses every encrypted read;
// a config that drops a read key still holding data makes that data unreadable for good.
//
// The evidence for a key depends on where it is. library-go's plugin sidecars (kms/pluginlifecycle) come with the
// revision that adds their key, one per kube-apiserver pod, so:
//
//	the candidate's KMS key is                    evidence the gate asks for
//	deployed (in encryption-config-<latest>)      its plugin healthy and freshly reported on every node (kmsstate)
//	deployed and promoted to write a resource     the same, and one settled KEK id (kmsstate SettledKEKID): data
//	                                                is written under it from this revision on
//	new, read only                                no node runs it yet: library-go's preflight Succeeded for exactly
//	                                                its configuration (PreflightFromStatus), or its plugin healthy on
//	                                                every node where one runs ahead; refused on a failed preflight or
//	                                                a node reporting it failing; with neither, the policy decides
//	                                                (Options.UnverifiedReadKeys, AdmitUnverifiedReadKeys by default)
//	new and writing a resource                    refused (NewKMSKeyWrites): library-go adds a key as a read key first
//
// Why the default admits an unverified read key: both operators wire library-go's always-succeed preflight
// deployer today, so blocking would hold every KMS enablement, and with it every kube-apiserver revision. A read key
// writes nothing, so nothing is lost if its plugin fails; that kube-apiserver fails its readiness, and kmsrollback
// reverts the revision. The admission is said in KMSRolloutGateProgressing's message and a
// KMSReadKeyAdmittedUnverified event every time.
//
// The Gate plugs into library-go's revision controller as a PreconditionFunc (before a revision is assembled)
// and a ReadinessCheckFunc (on the assembled copy); kmsguard.NewStaticPodControllers builds it and returns both
// (see kmsguard's Example for kube-apiserver-operator's wiring). It compares the candidate encryption config (encryption-config) with the deployed one
// (encryption-config-<latestAvailableRevision>).
//
// "KMS changes" means encryptionconfig.DiffKMS finds a KMS key added, removed, reconfigured (name, endpoint,
// apiVersion, timeout, the resources it serves), promoted to write a resource or demoted from writing it; the
// order of KMS read providers is not a change, since kube-apiserver picks a value's read provider by its prefix.
// kmsrollback attributes a failed revision by the same comparison. "Drops a read key" means a resource, resolved the way
// kube-apiserver resolves it (its own entry, then *.<group>, then *.*, else plaintext), could read values
// under a key in the deployed config and cannot in the candidate: a KMS provider, an aescbc, aesgcm or secretbox
// key, or identity. Any other change, a new aescbc write key included, passes untouched: that is how an admin
// repairs a cluster while KMS is down.
//
// A dropped read key is judged by the one pruning rule, evidence.CanDropReadKey, on
// raw etcd evidence: the census of evidence's CensusController (Options.Census) for the resource,
// and when the latest migration of that resource to its write key finished. The key may go only when a census
// started after that migration, and confirmed by the API's object count, shows no value under it (and no
// unparsable value that may be), and
// Options.RollbackWindow (DefaultRollbackWindow, 24h) has passed since the migration finished. The window is
// measured from the migration's end, not from the revision that demoted the key: a migration starts only after
// every apiserver writes with the new key, so its end is the latest moment the old key can have stopped being
// written with, and the wait errs on the safe side. Where the operator has no etcd access, Options.Census is
// nil and library-go's records are the fallback (KeySecretMigrations: migrated-resources of a newer key, and its
// migrated-timestamp for the window); every message that relies on them says so. A read key of a wildcard entry
// ("*.apps") has no census (the census scans resources) and can only go with the override.
//
// The checks, in order of severity (the first that fails names the reason; the message lists all). Degraded means
// an admin must act: a verdict that waiting cannot change degrades at once, a fault after DegradedAfter, and what
// normal operation passes through and ends by itself never:
//
//	check                                                            reason                    Degraded
//	kube-apiserver's own decoding and validation of the candidate    InvalidEncryptionConfig   at once
//	  (KMS changes)
//	no KMS key new to the candidate writes a resource                NewKMSKeyWrites           at once
//	each dropped read key: no value under it in the census, started  ReadKeyStillInUse         never (the migration
//	  after a finished migration (or, without etcd access, library-                              ends it and reports
//	  go's migrated-resources); skipped for a revert to an earlier                               its own failures)
//	  revision's config (Reverts)
//	new read keys: library-go's preflight failed for the key's       PreflightFailed           at once
//	  configuration
//	new read keys: unverified, and the policy is Block               PreflightNotPassed        after DegradedAfter
//	deployed keys healthy and fresh on every node; promoted keys on  KMSPluginsNotHealthy      after DegradedAfter
//	  one settled KEK id (both skipped for a revert: the node that
//	  runs the failed revision cannot show them); no node reports a
//	  new key's plugin failing
//	each dropped read key otherwise clean: the rollback window has   RollbackWindowNotPassed   never (ends by itself;
//	  passed since its migration finished                                                        the message says when)
//
// Conditions:
//
//	scenario                                        allowed  KMSRolloutGateProgressing   KMSRolloutGateDegraded
//	no encryption config, no KMS change and no      yes      False AsExpected            False AsExpected
//	  dropped read key
//	KMS change or dropped read keys, every check     yes      False AsExpected (message:  False AsExpected
//	  passes                                                  each new read key and the
//	                                                          evidence or policy that
//	                                                          admitted it, each dropped
//	                                                          key and the evidence that
//	                                                          let it go)
//	blocked (reason from the table)                 no       True  <reason>              False AsExpected, or
//	                                                                                     True <reason> at once /
//	                                                                                     after DegradedAfter
//	blocked by the rollback window alone (it waits   no       False RollbackWindow-      False AsExpected
//	  on time, nothing is in progress)                         NotPassed (message:
//	                                                           until when)
//	blocked, override names this candidate's hash   yes      False Forced                False Forced
//
// A blocked Precondition returns (false, nil): waiting is not an error. The revision controller syncs again on
// every operator status change (kmsstate's conditions, the health reporters) and every minute, so the revision
// follows as soon as the evidence is there, without anyone acting.
//
// Where it judges. Through Precondition alone, a blocked gate holds the whole next revision: library-go's revision
// controller copies every revisioned resource at once, so certificate and CA rotations, config observations and an
// upgrade's image would wait with a KMS change. ConfigSyncPrecondition judges the config earlier, before library-go's
// resource sync copies it into encryption-config (kmsguard.Controllers.HoldEncryptionConfigSync wires it): a refused
// change never reaches the revisions, and every other change gets its revision. Precondition and ReadinessCheck
// then stay as a silent second line, for a config that reached encryption-config and is refused now. How long a change has been blocked is
// read from Progressing's lastTransitionTime, so it survives restarts.
//
// An error (a config, the operator state or kmsstate cannot be read, a condition cannot be applied) is no
// verdict: Precondition and ReadinessCheck return it, no revision is created, and library-go's revision
// controller reports it as RevisionControllerDegraded (its WithSyncDegradedOnError), cleared by its next
// successful sync. The gate adds no condition of its own for it.
//
// Events: KMSRolloutBlocked (Warning) when Progressing turns True or changes reason, KMSRolloutUnblocked when it
// turns False, KMSRolloutGateDegraded (Warning) when Degraded turns True or changes reason, KMSRolloutForced
// (Warning, and logged) every time the override lets a blocked candidate through, and KMSReadKeyAdmittedUnverified
// (Warning) when the policy lets an unverified new read key through (once per candidate and key).
//
// The escape hatch, for a cluster that must be repaired with a config the gate refuses:
//
//	spec:
//	  unsupportedConfigOverrides:
//	    kmsguard:
//	      forceRevision: "sha256:..."   # the hash in the Progressing message
//
// It forces exactly that candidate; any later change is gated again.
//
// Before the gate. A KMS configuration that library-go's pod preflight refuses never becomes a key, so nothing
// reaches the gate; PreflightReporter reports that refusal as KMSPreflightDegraded, with the node the kms-preflight
// pod ran on and the checker's error, from the pod library-go keeps for inspection. PreflightConfiguration is the
// configuration library-go's pod deployer checks.
package kmsprecondition
