// Package kmsstate is kmsguard's one verdict on KMS: per node and per KMS key (library-go's key id), is the plugin
// there, does it answer healthy, which KEK id does it use, and can each kube-apiserver encrypt and decrypt with
// it. Every other kmsguard controller reads this verdict instead of asking on its own: the rollout gate
// (kmsprecondition) before a revision, the migrator (kmsmigration) before each batch, kmsrollback before it
// attributes a failure to KMS, lost-key recovery (kmsrecovery) before it accepts a consent.
//
// Inputs, per sync (Observation):
//   - the health reports the plugins' reporters write to status.encryptionStatus.healthReports (library-go's
//     kms-health-reporter sidecar, or pkg/kmsplugin/pluginprobe's reporter with its active Encrypt/Decrypt round
//     trip);
//   - each kube-apiserver's own view, optional (APIServerProber, pkg/kmsstate/apiserverprobe):
//     /healthz/kms-providers and its KMS and decryption error metrics;
//   - the nodes (NodeLister), the KMS keys in use or about to be (KeyLister), and per node the keys of the
//     revision it runs (RunningKeyLister, optional).
//
// What is expected. A key's plugin sidecar comes with the revision that adds the key (library-go's
// kms/pluginlifecycle), so on each node kmsstate expects the plugins of the revision that node runs. A key only in
// the candidate, or in a revision not yet installed there, is pending on that node: its report may be missing,
// stale or failing without anything being wrong. Pending plugins are shown in KMSPluginsProgressing and kept in the
// State for the rollout gate (Healthy counts them, RunningHealthy does not), never in KMSPluginsDegraded, events
// or metrics. The rule for every kmsguard condition: Degraded means an admin must act; what normal operation
// passes through (a rollout, a pending change, a pause) is Progressing.
//
// Evaluate turns an Observation and the previous Memory (the KEK ids the nodes agreed on, rotations) into a
// State; it is pure, and every rule is tested there. The Controller runs it, applies the conditions
// KMSPluginsDegraded, KMSPluginsProgressing and KMSKeyRotationProgressing (the table is on Controller), emits
// events on transitions,
// exports metrics, keeps the Memory across operator restarts (MemoryStore) and
// publishes the State for `kmsguard status` (StatePublisher). Readers ask Healthy, SettledKEKID, LatestRotation
// or Current; a verdict older than MaxStateAge answers StateStale, never healthy.
//
// Reasons. A Failure has one Reason; the condition's reason is the most severe present. One list, severity in
// state.go, orders them. KMSFault tells the reasons that show a key failing on a node (kmsrollback reverts only
// on those) from those that say nothing is known.
package kmsstate
