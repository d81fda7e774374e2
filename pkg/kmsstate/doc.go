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
//   - the nodes (NodeLister), the KMS keys in use or about to be (KeyLister), per node the keys of the
//     revision it runs (RunningKeyLister, optional) and whether it is down on purpose (AvailabilityLister,
//     optional).
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
// KMSPluginsDegraded, KMSPluginsProgressing and KMSKeyRotationProgressing (the table is below), emits
// events on transitions,
// exports metrics, keeps the Memory across operator restarts (MemoryStore) and
// publishes the State for `kmsguard status` (StatePublisher). Readers ask Healthy, SettledKEKID, LatestRotation
// or Current; a verdict older than MaxStateAge answers StateStale, never healthy.
//
// Reasons. A Failure has one Reason; the condition's reason is the most severe present. One list, severity in
// state.go, orders them. KMSFault tells the reasons that show a key failing on a node (kmsrollback reverts only
// on those) from those that say nothing is known.
//
// # Conditions
//
// Conditions are set by the Controller, for the nodes N, the KMS keys K, and per node the keys of the revision it runs (Options.Running;
// every key of K without it):
//
//	inputs                                                   KMSPluginsDegraded   reason
//	no KMS key in use                                        False                KMSNotConfigured
//	every plugin a node runs healthy and freshly reported    False                AsExpected
//	an apiserver's decrypt errors grow                       True                 DecryptFailing
//	no answer to a plugin's Status (report status Error)     True                 PluginUnreachable
//	the plugin answered Status with its own gRPC error or    True                 PluginUnhealthy
//	healthz != ok, or the active round trip failed
//	(report status Unhealthy)
//	an apiserver's /healthz/kms-providers or KMS calls fail  True                 APIServerKMSCheckFailing
//	nodes disagree on the KEK id beyond the grace            True                 KEKIDMismatch
//	a report older than 4 report intervals, on a node that   True                 HealthReportStale
//	  is Ready, schedulable, and whose operand pod has been
//	  running for 4 report intervals (or with no Availability)
//	a node has run a key of its running revision for 4       True                 HealthReportMissing
//	  report intervals and has no report for it (same nodes)
//
//	inputs                                                   KMSPluginsProgressing  reason
//	a key of K is not in the revision some node runs (only   True                   KeysPending
//	  in the candidate, or in a revision not yet installed
//	  there): its report may be missing, stale or failing
//	a node started to run a key less than 4 report          True                   KeysPending
//	  intervals ago and its first report has not come
//	a report missing or stale on a node that is cordoned,    True                   NodeUnavailable
//	  NotReady, whose operand pod is missing, Pending or      (KeysPending when
//	  terminating, or started less than 4 report intervals    a key is pending too)
//	  ago (Availability); a pod that runs unready is no
//	  excuse: a dead plugin fails kube-apiserver's readiness
//	every key of K runs on every node, each reported         False                  AsExpected
//
// A node that is drained and rebooted, as every control-plane node is in every upgrade, is without its plugins'
// reports for minutes: its kube-apiserver pod, plugin sidecars and reporter are gone with it. With Availability
// (StaticPodAvailability), that is Progressing (NodeUnavailable), it exports no plugin series, and the rollout
// gate and RunningHealthy count the plugin as not known healthy; a report that says the plugin fails still
// counts as a failure, and a Ready, schedulable node whose pod has run past the limit with a silent reporter is a
// fault.
//
// Degraded means an admin must act: a plugin that is not there because its revision is not installed yet is part
// of every KMS rollout (library-go's plugin sidecars come with the revision that adds their key), so it is shown
// as Progressing and never Degraded. So is a key's first report on a node that has just started to run it: the new
// pod's reporter publishes once as the pod starts, while its apiserver restarts, and then an interval later (30 s
// for library-go's), so every node of every KMS rollout is without it for a while. The rollout gate still reads
// its health, good or bad (Healthy), and RunningHealthy counts a running key without a report.
//
// With several failures, the reason is the most severe (top of the table first) and the message lists them
// all. KMSKeyRotationProgressing is True (KeyRotationInProgress, "key 1: old -> new") from the first report
// of a new KEK id until every node's plugin and kube-apiserver use it.
//
// A sync that fails sets KMSStateControllerDegraded True with the error (reason Error), as library-go's
// encryption controllers report theirs, and leaves the conditions above as they were; the next successful sync
// sets it False AsExpected. A stale verdict is what the Reader methods then answer with (MaxStateAge).
//
// Reports of nodes or keys that no longer exist are removed once they are stale, so that a live reporter
// never fights the cleanup.
//
// Management state. As library-go's encryption controllers, the controller writes nothing but its conditions
// unless spec.managementState is Managed (management.IsOperatorManaged): while Unmanaged or Removed it keeps
// evaluating, reporting conditions, events and metrics and answering the Reader methods, but removes no orphaned
// health report and saves neither the Memory nor the published State. Managed again, the next sync does both.
package kmsstate
