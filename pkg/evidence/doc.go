// Package evidence proves, from the raw bytes kube-apiserver stored in etcd, under which key every object of
// an encrypted resource is stored, so that a migration to a new write key can be declared finished and an old
// read key dropped.
//
// A config diff or an API read cannot prove that: kube-apiserver decrypts with any read key of its config and
// returns the same object whichever key it was stored under. Only the stored value tells, and only for every
// object. The Census therefore reads every key under each resource's etcd prefix, classifies the value with
// etcdvalue.Parse (which decrypts nothing and needs no key material) and counts the values per (kind,
// provider or key name, KEK id). Optionally it reads a small random sample of the objects through the API
// as well, to confirm that they still decrypt. "Census" is the one word for that read, everywhere in kmsguard:
// its verdict is "verified" (ResourceReport.Verdict, the KMSEncryptionVerified condition).
//
// The package holds everything that reads or judges that evidence, and nothing that acts on it, so that the
// packages that act import it and it imports none of them: the Census and its reports, the CensusController
// that takes one periodically and after each migration, the targets it counts (TargetsFromConfig), the pruning
// rule (CanDropReadKey), and library-go's own record of finished migrations (KeySecretMigrations), the rollout
// gate's fallback where no etcd access is configured.
//
// # No verdict without the API's count
//
// A scan that finds no keys under a prefix cannot tell an empty resource from a wrong prefix, and one that
// finds some cannot tell whether others are stored elsewhere. So each resource's keys are compared with the
// API's object count (Options.Counter, a paged metadata LIST in MetadataCounter): at exactly the revision
// the scan read (resourceVersionMatch=Exact) when the apiserver still has it, else at the current revision,
// allowing the etcd revisions in between. A resource is verified only when the counts agree; zero keys verify
// only when the API lists zero objects ("verified empty"). ResourceReport.Verdict is the single judgement.
//
// Where a resource is stored depends on the apiserver serving it: ResolveStoragePath finds kube-apiserver's
// own, custom and OpenShift's resources, and DetectRoot the etcd prefix their keys are under.
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
// resource is stored under, and at most CensusOptions.MaxListed etcd keys per list. Values are never kept, logged
// or put in a report; reports hold etcd keys (namespace and name of objects), names and KEK ids only.
//
// # The CensusController
//
// CensusController takes a census every CensusControllerOptions.Interval and each time the Migrator it follows
// finishes a migration, and sets KMSEncryptionVerified True only when every value of every encrypted resource is
// under its write key. TargetsFromConfig tells it what to count: every resource the deployed encryption config
// encrypts (read through the rollout gate's ConfigSource, wildcards resolved as kube-apiserver does), against its
// write key, a KMS v2 write key at the KEK id kmsstate settled on. Its Census needs an ObjectCounter
// (MetadataCounter): the API's count is what shows the census looked where the objects are. Each census has a
// deadline (CensusControllerOptions.Timeout); one that cannot read etcd or the write keys, or runs out of time,
// sets the condition Unknown with the error.
//
// CanDropReadKey is the pruning rule built on its reports: an old read key may go only when a report started
// after the migration finished shows no object under it and the rollback window has passed. The controller is the
// rollout gate's evidence (kmsprecondition.Options.Census, through ReadKeyEvidence), with the migration's end from
// MigrationFinished: library-go's migrated-timestamp (MigratedTimestamps), kmsguard's Migrator's own record
// (kmsmigration.Migrator.LastFinished), or the latest of both (LatestFinished).
//
// # Metrics
//
// Registered in component-base's legacy registry (RegisterMetrics):
//
//   - kmsguard_encryption_verification_state{reason}: 1 for the reason of KMSEncryptionVerified after the
//     CensusController's latest sync, 0 for the others;
//   - kmsguard_encryption_resource_verified{resource}: 1 when the last successful census verified the resource
//     (ResourceReport.Verified), 0 otherwise; a failed census leaves it as it was.
package evidence
