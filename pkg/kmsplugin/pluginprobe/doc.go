// Package pluginprobe checks KMS v2 plugins the way kube-apiserver uses them:
// it asks for Status and then seals and opens a small random payload, and
// turns the outcome into a KMSPluginHealthReport for
// status.encryptionStatus.healthReports of an OpenShift operator resource.
//
// library-go's kms-health-reporter calls Status only. A plugin answers Status
// from its own state, so it keeps saying "ok" after the key encryption key has
// been disabled or its decrypt permission revoked in the remote KMS
// (kubernetes#138950, aws-encryption-provider#139); kube-apiserver notices
// only when it next needs a new DEK or reads data whose DEK is not cached,
// which can be hours later, on a restart. The round trip here makes the remote
// KMS do real work, on its own interval (see "Load on the KMS"), so the
// report turns Unhealthy within that interval of the key stopping to work.
//
// # Classification
//
// Reports keep library-go's meaning, so the two reporters are interchangeable
// and a reader of healthReports need not know which one wrote an entry:
//
//   - Error: the Status call did not reach the plugin, or no answer came
//     back: no socket, connection refused, timeout, something other than a
//     KMS v2 plugin on the socket, a response grpc-go could not read. Detail
//     holds the error.
//   - Unhealthy: Status answered with a healthz other than "ok" (Detail holds
//     it), or with a key id kube-apiserver would reject, or with a gRPC
//     status of the plugin's own, such as FailedPrecondition "key disabled"
//     (Detail says so and holds the plugin's code and message), or the
//     Encrypt/Decrypt round trip failed (Detail names the failed step and the
//     error).
//   - Healthy: Status said "ok" and the round trip returned the payload.
//
// library-go's reporter writes Error for every failed Status call. Here a
// plugin that answered is Unhealthy instead, because it is reachable: the
// socket, the sidecar and the connection work, and what needs fixing is the
// key or the plugin's access to its KMS. pluginAnswered tells the plugin's
// own answers from the statuses grpc-go makes for transport failures, with
// the table of codes and reasons. The round trip runs only after a
// successful Status, so every failure of it is Unhealthy.
//
// RemoteKeyID is the key id Status returned, in every report where Status returned
// one that kube-apiserver accepts. Unlike library-go, that includes an
// unhealthy healthz: the operator CRDs require remoteKeyID in every report, and the
// API server rejects the node's whole apply when one report lacks it. An
// Error report, and an Unhealthy one about an invalid KEK id or about a
// Status the plugin answered with an error, carry the last key id the
// plugin's Status returned to this Prober, or UnknownKEKID before any did:
// library-go's reporter writes no report at all for a plugin that never
// answered, so a dead socket would go unreported. Making remoteKeyID optional in
// openshift/api would make the placeholder unnecessary.
//
// # Load on the KMS
//
// Status is cheap and served by the plugin; a round trip is a real Encrypt
// and Decrypt in the remote KMS, audited there. So Status runs in every
// probe (every report interval, 30 s by default), and the round trip on its
// own, slower interval (DefaultRoundTripInterval, 5 minutes; the reporter's
// --round-trip-interval). A probe makes a round trip only after a healthy
// Status, and only when one is due:
//
//   - the plugin has had none since this Prober started, or since its last
//     probe whose Status was not healthy (a plugin back from an outage or a
//     restart is tried at once);
//   - Status names another key id than it did at the last round trip (a
//     rotation: the new key has not been tried);
//   - the last round trip failed: a failure is tried again every probe, so
//     the report stays Unhealthy, every interval, for as long as the round
//     trip fails, and turns Healthy at the first probe after it passes;
//   - the round-trip interval has passed since the last one.
//
// Otherwise the report carries the verdict of the last round trip, which
// passed. A failure is never forgotten between round trips: it is repeated
// every probe until a round trip passes.
//
// # Detection bound
//
// A key that stops working while Status keeps saying "ok" is reported
// Unhealthy by the first probe that starts a round-trip interval or more
// after the last passing round trip: at most roundTripInterval + one report
// interval (plus the reporter's 10% jitter and the three calls' timeouts)
// after the key stopped working: 5m33s with the defaults, then the three
// calls (15 s at most with the default --read-timeout). A key whose Status
// itself fails, or a plugin that is not listening on its socket, is reported
// by the next probe, within one report interval: the probe's client fails
// fast (NewGRPCPlugin). A plugin that is listening but does not answer costs
// the call timeout on top, since only the timeout can tell it from a slow one. Once reported, the failure is reported every interval
// until a round trip passes, so a recovery is seen within one interval.
// kmsstate reads the report at its next sync, which the report's write
// triggers.
//
// Each call is bounded by the call timeout and never retried: the next
// attempt is the next probe, one interval later. The round trip is skipped
// unless Status answered healthy, so a struggling KMS sees only the Status
// call.
package pluginprobe
