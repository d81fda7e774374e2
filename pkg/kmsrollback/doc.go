// Package kmsrollback reverts an encryption config whose KMS change makes kube-apiservers fail, and keeps it
// out until it can work.
//
// library-go's startup monitor falls back to the previous static pod on a single node and its installer records
// the failure, but nothing there knows about KMS: the encryption state machine recomputes the very config that
// failed, and the next revision fails the same way. The Controller attributes a failed rollout to KMS, makes the
// desired encryption config the last known good one again, and holds the failed config (by its hash) until the
// admin changes the encryption configuration, or the plugins it needs are healthy again.
//
// Attribution. A failure is KMS's only with all of this evidence:
//
//   - a node failed the newest revision N (status.latestAvailableRevision): library-go's installer recorded it
//     (nodeStatuses[].lastFailedRevision above currentRevision, with lastFailedRevisionErrors; a startup monitor's
//     fallback is recorded as OperandFailedFallback), or the pod of N has not been ready for NotReadyAfter. A
//     fallback the installer has not recorded yet (only the pod's
//     startup-monitor.static-pods.openshift.io/fallback-for-revision annotation) is waited for: a revert first
//     would reach the node before the record, and the fallback would never be recorded;
//   - encryption-config-N changes the KMS providers of encryption-config-L, L being the revision the node ran
//     before (its currentRevision), as encryptionconfig.DiffKMS compares them, the rollout gate's rule: a KMS key
//     was added, removed, reconfigured, promoted or demoted;
//   - kmsstate shows a KMS key that N adds, reconfigures or promotes (KMSDiff.Suspects) failing on that node: the
//     plugin unreachable, unhealthy, or the apiserver failing to decrypt with it. A missing or stale health report
//     is no evidence. A new key's plugin runs only in the pod of the revision that adds it, so once the startup
//     monitor has fallen back, nothing reports that key any more: the Controller remembers, in process, the KMS
//     faults kmsstate showed on each node while it was installing the newest revision, and takes those when the
//     live verdict has none (the message says "seen while the node ran revision N"). An operator restart between
//     the failure and the installer's record loses that memory; the failure is then not attributed.
//
// Anything else is not KMS's, and is left to library-go's own conditions (NodeInstallerDegraded,
// StaticPodFallbackRevisionDegraded).
//
// Revert. The controller records a Hold for the hash of encryption-config-N on the operator resource, out of the
// failing KMS's reach (see HoldStore), and
// then writes the data of encryption-config-L to the state controller's output,
// openshift-config-managed/encryption-config-<component>, from where library-go syncs it to the operand
// namespace and the revision controller makes it revision N+1. Going back to L is safe: L is what every node ran
// before, so every key data can have been written under since is still a read key of it. While a Hold is
// active, HoldingDeployer (wrapped around the deployer given to library-go's encryption controllers) reports
// the rollout as not converged, so the state controller does not recompute the failed config and the migration
// and prune controllers do nothing. See HoldingDeployer for the library-go change that would replace it.
//
// With kmsprecondition's rollout gate in front of the revision controller, a revert that drops the failed
// revision's new KMS read provider is itself a KMS change, and the gate would want migration evidence for the
// dropped key, which a key that never wrote anything does not get. Pass the HoldStore as the gate's
// Options.Reverts: the gate then lets exactly the reverted-to config drop those providers.
//
// Release. A Hold is released when the admin's encryption configuration changes (AdminConfig), or when every
// plugin of the keys N added is healthy on every node, library-go's preflight passed (when configured) and the
// backoff has passed since the revert: Backoff.Initial doubled for every revert of the same hash, up to
// Backoff.Max. Each failure of a revision is reverted once; a config that fails again after its release is
// reverted again, and waits twice as long before its next try. So a flapping plugin costs one rollout per
// backoff period, not one per sync.
//
// Conditions (KMSRollbackDegraded):
//
//	scenario                                                     status  reason
//	no failed newest revision, no revert outstanding             False   AsExpected
//	newest revision failed, evidence does not point at KMS       False   FailureNotAttributedToKMS
//	newest revision failed because of KMS, reverted              True    RevertedFailingKMSConfig
//	  (held, or released and waiting for the next rollout)
//	failure attributed to KMS, no last known good config         True    CannotRevertKMSConfig
//	failure attributed to KMS, spec.managementState is not       True    KMSConfigNotRevertedOperatorNotManaged
//	  Managed: nothing reverted
//	a newer config rolled out and is healthy after a revert      False   AsExpected
//
// Degraded means an admin must act, as for every kmsguard condition: a reverted config stays held until the admin's
// configuration changes or its plugins work, so the revert is Degraded; a failure that is not KMS's is left False,
// for library-go's own conditions to report.
//
// Management state. As library-go's encryption controllers, the controller writes nothing unless
// spec.managementState is Managed (management.IsOperatorManaged): while Unmanaged or Removed it neither reverts,
// nor writes a held revert again, nor records releases and clears in the HoldStore; it keeps reading and
// reporting. Managed again, the next sync does what was left undone.
//
// A sync that fails (an input cannot be read, a write fails) sets KMSRollbackControllerDegraded True with the
// error (reason Error), as library-go's encryption controllers report theirs, and leaves KMSRollbackDegraded as
// it was; the next successful sync sets it False AsExpected.
//
// The True message names the failed revision and config hash, the revision reverted to, the nodes, the KMS
// errors and what to fix. Events: KMSConfigReverted (Warning) on a revert, KMSConfigRevertFailed (Warning)
// when a revert is impossible, KMSConfigHoldReleased when the failed config may be tried again, and
// KMSRollbackCleared when the next config rolled out healthy.
//
// Metrics (component-base's legacy registry, RegisterMetrics): kmsguard_kms_rollback_state{reason}, 1 for the
// reason of KMSRollbackDegraded after the latest sync and 0 for the others, and kmsguard_kms_config_reverts_total,
// the reverts this process wrote.
package kmsrollback
