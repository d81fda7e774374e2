// Package kmsmigration rewrites every stored object of an encrypted resource
// after a change of write key or of the KEK id behind it; package evidence
// proves the result from etcd.
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
// Migrator implements library-go's migrators.Migrator, and replaces the
// kube-storage-version-migrator one kube-apiserver-operator wires
// (migrators.NewKubeStorageVersionMigrator). Per resource it:
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
// # Proof
//
// A finished migration is not proof that nothing is left under the old key: package evidence takes the census of
// etcd (its CensusController follows this Migrator and counts again after each migration it finishes) and
// judges, by its pruning rule, when an old read key may go. Migrator.LastFinished is the census's record of
// when a resource was last migrated.
//
// # Conditions
//
// See Controller for the condition matrix: KMSMigrationProgressing
// (Migrating, PausedKMSUnhealthy, ErrorThresholdExceeded) and
// KMSMigrationDegraded (UndecryptableObjects, MigrationFailed), and the
// condition of failed syncs as library-go's encryption controllers report
// theirs, KMSMigrationControllerDegraded (True with the error, False after
// the next good sync). Only the Controller writes anything beyond conditions
// (it starts rotation migrations), and only while spec.managementState is
// Managed.
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
//     PauseReason, 0 once it finished or was stopped.
package kmsmigration
