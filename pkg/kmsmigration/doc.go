// Package kmsmigration rewrites every stored object of an encrypted resource
// after a change of write key or of the KEK id behind it, and proves the
// result from etcd.
//
// Changing the write provider, or rotating the key in the KMS, changes only
// future writes. An object stays under the old key (or in plaintext) until it
// is written again. kube-apiserver rewrites it on a no-op update when its
// stored value is stale (written under another key or KEK id) and skips the
// write otherwise, so a migration is: list every object, PUT it back
// unchanged with its resourceVersion as precondition.
//
// # The Migrator
//
// Migrator implements library-go's migrators.Migrator, and replaces its
// in-process migrator in kube-apiserver-operator. Per resource it:
//
//   - lists in pages (client-go tools/pager, Options.PageSize, default 500),
//     one page ahead of the workers, never the whole resource; a 410 on an
//     expired continue token resumes after the last key listed, and objects
//     the apiserver cannot read are stepped over (internal/pagedlist);
//   - PUTs each object unchanged from Options.Concurrency workers through a
//     client-go token bucket (Options.QPS, Burst). A Conflict means the object
//     was written concurrently, so it is under the current write key already:
//     it is counted and never retried, and a concurrent write is never lost
//     or reordered. NotFound is counted as gone;
//   - backs off: a 429 with Retry-After pauses every worker for that long; a
//     smoothed PUT latency above Options.LatencyFactor times the best seen
//     halves the PUTs in flight, which then grow back one by one;
//   - pauses while Options.KMS (kmsstate) does not know the write key's
//     plugin healthy on every node, a stale verdict included,
//     and for Options.ErrorPause once Options.ErrorThreshold transient errors
//     fall within Options.ErrorWindow; it resumes by itself and never spins:
//     one health read per Options.HealthInterval while paused;
//   - checkpoints (Options.Checkpoints, e.g. DurableFinish over ConfigMapCheckpoints) the counts
//     of exactly the objects before its continue token, every
//     Options.CheckpointInterval, when stopped and when finished; after an
//     operator restart EnsureMigration resumes from the token, or reports the
//     finished result without running again. Progress is a cache: one
//     that cannot be read or written (the failing KMS may encrypt its
//     ConfigMap) costs work redone, never a migration refused; DurableFinish
//     keeps the finished results on the operator resource, out of the KMS's
//     reach, so that a restart never runs a finished migration again;
//   - reports undecryptable objects by key (never retried, never blocking the
//     rest of the resource). They make the result an *UndecryptableError:
//     library-go then does not record the resource as migrated, so the old
//     read key, which may be the only one able to read them once the KMS is
//     back, is not pruned behind the admin's back;
//   - recovers panics: a panic in any of its goroutines (the run, the
//     pager's LIST, a worker, the health watch) ends that migration with a
//     *conditions.PanicError as its result, logged with its stack, which
//     KMSMigrationDegraded reports as MigrationFailed; the operator lives on.
//
// # Key rotation
//
// A rotation of the KEK id behind a library-go KMS key does not
// change the key, so library-go never migrates again. Controller does: when
// kmsstate reports a rotation complete on every node, it migrates each
// resource written by that key to Target{WriteKey, KEKID}. Repeating a
// migration is cheap: values already under the current KEK id are not stale,
// and their no-op updates write nothing to etcd.
//
// # Evidence
//
// VerificationController scans etcd with the evidence package's Verifier and
// sets KMSEncryptionVerified True only when every value of every encrypted
// resource is under its write key. TargetsFromConfig tells it what to scan:
// every resource the deployed encryption config encrypts (read through the
// rollout gate's ConfigSource, wildcards resolved as kube-apiserver does),
// against its write key, a KMS v2 write key at the KEK id kmsstate settled
// on. Its Verifier needs an evidence.ObjectCounter (MetadataCounter): the
// API's count is what shows the scan looked where the objects are. Each scan
// has a deadline (ScanTimeout); a scan that cannot read etcd
// or the write keys, or runs out of time, sets the condition Unknown with the
// error.
//
// evidence.CanDropReadKey is the pruning rule built on its reports: an old
// read key may go only when a report started after the migration finished
// shows no object under it and the rollback window has passed. The
// controller is the rollout gate's evidence (kmsprecondition.Options.Evidence,
// through ReadKeyEvidence), with the migration's end from MigrationFinished:
// library-go's migrated-timestamp (MigratedTimestamps), this Migrator's own
// record (Migrator.LastFinished), or the latest of both (LatestFinished).
//
// # Conditions
//
// See Controller and VerificationController for the condition matrices:
// KMSMigrationProgressing (Migrating, PausedKMSUnhealthy,
// ErrorThresholdExceeded), KMSMigrationDegraded (UndecryptableObjects,
// MigrationFailed) and
// KMSEncryptionVerified, and the conditions of failed syncs as library-go's
// encryption controllers report theirs, KMSMigrationControllerDegraded and
// KMSEncryptionVerificationControllerDegraded (True with the error, False
// after the next good sync). Only the Controller writes anything beyond
// conditions (it starts rotation migrations), and only while
// spec.managementState is Managed.
//
// # Metrics
//
// Registered in component-base's legacy registry (RegisterMetrics):
//
//   - kmsguard_migration_objects_total{resource,outcome}: objects handled,
//     by outcome (rewritten, unchanged, conflict, gone, failed,
//     undecryptable);
//   - kmsguard_migration_remaining_objects{resource}: objects the running
//     migration has not handled yet, 0 once it finished or was stopped;
//   - kmsguard_migration_paused{resource,reason}: 1 while paused, by
//     PauseReason, 0 once it finished or was stopped;
//   - kmsguard_encryption_verification_state{reason}: 1 for the reason of
//     KMSEncryptionVerified after the VerificationController's latest sync,
//     0 for the others;
//   - kmsguard_encryption_resource_verified{resource}: 1 when the last
//     successful scan verified the resource (evidence.ResourceReport.Verified),
//     0 otherwise; a failed scan leaves it as it was.
package kmsmigration
