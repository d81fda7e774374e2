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
// KMS do real work on every probe, so the report turns Unhealthy as soon as
// the key stops working.
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
// KEKId is the key id Status returned, in every report where Status returned
// one that kube-apiserver accepts. Unlike library-go, that includes an
// unhealthy healthz: the operator CRDs require kekId in every report, and the
// API server rejects the node's whole apply when one report lacks it. An
// Error report, and an Unhealthy one about an invalid key id or about a
// Status the plugin answered with an error, carry the last key id the
// plugin's Status returned to this Prober, or UnknownKEKID before any did:
// library-go's reporter writes no report at all for a plugin that never
// answered, so a dead socket would go unreported. Making kekId optional in
// openshift/api would make the placeholder unnecessary.
//
// # Load on the KMS
//
// A probe makes at most one Status, one Encrypt and one Decrypt call, each
// bounded by the call timeout, and never retries: the next attempt is the next
// probe, one interval later. The round trip is skipped unless Status answered
// healthy, so a struggling KMS sees only the Status call.
package pluginprobe
