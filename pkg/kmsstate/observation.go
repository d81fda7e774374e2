package kmsstate

import (
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
)

// Observation is everything kmsstate knows at one moment. Evaluate turns it, with the Memory of the previous
// evaluation, into a State. It is plain data so that unit tests can build every scenario by hand.
type Observation struct {
	// Now is the time the observation was taken; report ages are measured against it.
	Now time.Time
	// Nodes run a kube-apiserver of the operand.
	Nodes []string
	// KeyIDs are the ids of the KMS keys (library-go's encryption-key secret ids, the <id> of
	// unix:///var/run/kmsplugin/kms-<id>.sock) of the configs in use or about to be: the deployed and candidate
	// encryption configs and the ones kmsrollback holds out.
	KeyIDs []string
	// Running maps each node to the KMS keys of the revision its kube-apiserver runs (the KMS keys of
	// encryption-config-<currentRevision>): the plugins that exist there. A key of KeyIDs that is not in its
	// node's entry is pending on that node: its plugin sidecar comes with a revision the node does not run yet,
	// so its report may be missing, stale or failing without anything being wrong (a Progressing matter, never
	// Degraded). A node without an entry runs no revision yet. Nil expects every key on every node, for an
	// operand whose revisions are not known per node.
	Running map[string][]string
	// Providers maps each KMS provider name of the current encryption config to its key id, so that the
	// apiservers' per-provider metrics can be attributed to keys (encryptionconfig.KMSKeysOf).
	Providers map[string]string
	// Reports are status.encryptionStatus.healthReports of the operator resource, as written by the node-side
	// reporters (library-go's kms-health-reporter or `kmsguard health-reporter`).
	Reports []operatorv1.KMSPluginHealthReport
	// APIServers are what each kube-apiserver says about its own KMS providers. Empty when no apiserver
	// prober runs; the plugin reports alone still decide plugin health.
	APIServers []APIServerView
	// Availability says, per node, whether its plugins may be silent on purpose: a drain, a reboot, its
	// kube-apiserver pod replaced. A missing or stale report of such a node is KMSPluginsProgressing
	// (NodeUnavailable), never Degraded; a report that says the plugin fails still counts. A node without an
	// entry, or all of them when Availability is nil, is taken as available, so that a reporter that stopped is
	// a fault.
	Availability map[string]NodeAvailability
}

// NodeAvailability is what a node and its operand pod say about whether the node's plugins can report.
type NodeAvailability struct {
	// Unavailable says why they cannot, empty when nothing keeps them from it: the node is cordoned (a drain
	// before a reboot) or NotReady, or its kube-apiserver pod is missing, Pending or terminating (replaced, or not
	// started yet after a reboot). A pod that runs but is not ready is no excuse by itself: kube-apiserver's
	// readiness includes its KMS check, so a dead plugin makes its pod not ready.
	Unavailable string
	// OperandStarted is when the node's kube-apiserver pod started (status.startTime, which a container that
	// restarts does not move); zero when not known. A pod that started less than the staleness limit ago may not
	// have reported yet, ready or not: its plugins' reporters start with it.
	OperandStarted time.Time
}

// APIServerView is one kube-apiserver's own view of KMS: its /healthz/kms-providers answer and a sample of its
// encryption metrics.
type APIServerView struct {
	// NodeName is the node the kube-apiserver runs on.
	NodeName string
	// CheckedAt is when the view was taken.
	CheckedAt time.Time
	// Err says what could not be asked (connection refused, timeout, a 403, unparsable metrics). What could
	// be read is still set: a failed /metrics scrape keeps a valid health answer. An unreachable apiserver is
	// not by itself a KMS failure.
	Err string
	// KMSHealthz is the result of GET /healthz/kms-providers; nil when it was not asked.
	KMSHealthz *HealthzResult
	// Metrics is the sample of /metrics; nil when it was not scraped.
	Metrics *MetricsSample
}

// HealthzResult is the answer of a health endpoint.
type HealthzResult struct {
	// OK is true for HTTP 200.
	OK bool
	// Detail is the failing checks' text from the body (kube-apiserver lists "[-]kms-provider-0 failed: ...").
	Detail string
}

// MetricsSample holds the cumulative counters and gauges of one kube-apiserver that tell about KMS. Counters
// are totals since the apiserver started; Evaluate compares them with the previous sample to see growth.
type MetricsSample struct {
	// KMSCallErrors counts KMS gRPC calls that did not end with grpc_status_code "OK", from
	// apiserver_envelope_encryption_kms_operations_latency_seconds_count, by provider and method.
	KMSCallErrors map[KMSCall]float64
	// DecryptErrors counts failed reads of KMS-encrypted values: the from_storage
	// apiserver_storage_transformation_operations_total with a kms prefix and a status other than "OK".
	DecryptErrors float64
	// KeyIDHashes are the key id hashes ("sha256:<hex>") the apiserver last saw in Status, by provider, from
	// apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds (the newest per provider).
	KeyIDHashes map[string]string
	// ScrapedAt is when /metrics was read; zero when the prober did not say. The prober reads it at most once
	// per report interval and returns the same sample until the next read.
	ScrapedAt time.Time
	// Previous is the sample of the read before this one, from the same apiserver, when the prober has one
	// (its own Previous is nil). Growth is measured from it, so a sample returned again until the next read
	// shows the same growth at every evaluation instead of none after the first.
	Previous *MetricsSample
}

// KMSCall names one KMS gRPC method of one provider.
type KMSCall struct {
	Provider string
	Method   string
}
