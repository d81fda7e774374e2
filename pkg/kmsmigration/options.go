package kmsmigration

import (
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
)

// Defaults. They favour the apiserver and the KMS over speed: a migration
// runs in the background for minutes, and every rewrite is an etcd write.
const (
	// DefaultPageSize is kube-storage-version-migrator's page size: large
	// enough that LIST cost is negligible next to the PUTs.
	DefaultPageSize = 500
	// DefaultConcurrency PUTs in flight keep a control plane's etcd and
	// apiserver cores busy: make bench-migration's apiserver took the most
	// rewrites/s, for the least CPU per rewrite, from 32 (at 5,000
	// Secrets the migrator made 2047/s at 32, 1957/s at 16, and spent 688 µs
	// of apiserver CPU per object against 716). 32 is a small share of
	// kube-apiserver's 200 default mutating requests in flight (OpenShift's
	// 1,000); the token bucket, not the concurrency, sets the steady rate,
	// and at DefaultQPS the concurrency binds only once a PUT takes longer
	// than 160 ms, when the latency limiter is halving it.
	DefaultConcurrency = 32
	// DefaultQPS and DefaultBurst cap the steady write rate: 200 rewrites/s
	// migrates 100k objects in under 10 minutes while leaving the apiserver
	// and etcd room for the cluster's own traffic.
	DefaultQPS   = 200
	DefaultBurst = 50
	// DefaultHealthInterval is how often the write key's health is re-read
	// while migrating, and while paused.
	DefaultHealthInterval = 2 * time.Second
	// DefaultErrorThreshold transient errors within DefaultErrorWindow pause
	// the migration for DefaultErrorPause: something beyond one object is
	// wrong, and retrying at full speed would only add load.
	DefaultErrorThreshold = 20
	DefaultErrorWindow    = time.Minute
	DefaultErrorPause     = time.Minute
	// DefaultMaxRetries is how often one object is retried after transient
	// errors before it counts as failed.
	DefaultMaxRetries = 5
	// DefaultCheckpointInterval bounds the work redone after a restart.
	DefaultCheckpointInterval = 10 * time.Second
	// DefaultLatencyFactor: when the fast moving average of PUT latency
	// exceeds this multiple of the slow one, the apiserver is struggling
	// and the migrator halves its in-flight PUTs.
	DefaultLatencyFactor = 3.0
	// DefaultMaxListedKeys bounds the keys kept per resource for the report.
	DefaultMaxListedKeys = 100
	// DefaultRequestTimeout bounds each PUT: kube-apiserver's own --request-timeout is 60 s, so a PUT without an
	// answer after that waits on a connection whose apiserver went away (a restart mid-request), and would hold
	// its in-flight slot, and with it the migration, for ever. It is retried as a transient error.
	DefaultRequestTimeout = time.Minute
)

// Options configure a Migrator. Dynamic and Mapper are required.
type Options struct {
	// Component labels the Migrator's metrics: the operator's instance name, as its controllers are named
	// ("kube-apiserver"), so that two migrators in one process keep their series apart. Empty for a standalone
	// run (kmsguard migrate).
	Component string

	Dynamic dynamic.Interface
	// RESTConfig, when set, lets the migrator LIST and PUT the resources kube-apiserver itself serves (every
	// group of client-go's scheme) in protobuf, sending each object back exactly as listed without decoding it
	// (raw.go): the cheapest rewrite for the apiserver and for the migrator. Custom resources take Dynamic,
	// which stays required. The config's QPS and Burst are not used (QPS and Burst below set the rate); a
	// RateLimiter set in it is, as the caller's own throttle of the migration.
	RESTConfig *rest.Config
	// Mapper resolves a GroupResource to its preferred version and scope,
	// e.g. restmapper.NewDeferredDiscoveryRESTMapper over a cached discovery
	// client.
	Mapper meta.RESTMapper
	// Checkpoints keep progress across operator restarts. Nil keeps it in
	// memory only.
	Checkpoints CheckpointStore
	// KMS is kmsstate's verdict (*kmsstate.Controller): a migration pauses
	// while the plugin of its write key is not known healthy on every node
	// (see KMSHealthReader). Nil never pauses for KMS health: for a
	// migration to a key without a KMS plugin, or a standalone run with no
	// kmsstate to ask.
	KMS KMSHealthReader

	PageSize    int64
	Concurrency int
	// QPS and Burst feed a client-go token bucket; QPS < 0 disables it.
	QPS   float32
	Burst int

	HealthInterval     time.Duration
	ErrorThreshold     int
	ErrorWindow        time.Duration
	ErrorPause         time.Duration
	MaxRetries         int
	CheckpointInterval time.Duration
	LatencyFactor      float64
	MaxListedKeys      int
	RequestTimeout     time.Duration

	// Clock is for tests; nil means the real clock.
	Clock clock.WithTicker
}

func (o Options) withDefaults() Options {
	if o.PageSize <= 0 {
		o.PageSize = DefaultPageSize
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.QPS == 0 {
		o.QPS = DefaultQPS
	}
	if o.Burst <= 0 {
		o.Burst = DefaultBurst
	}
	if o.HealthInterval <= 0 {
		o.HealthInterval = DefaultHealthInterval
	}
	if o.ErrorThreshold <= 0 {
		o.ErrorThreshold = DefaultErrorThreshold
	}
	if o.ErrorWindow <= 0 {
		o.ErrorWindow = DefaultErrorWindow
	}
	if o.ErrorPause <= 0 {
		o.ErrorPause = DefaultErrorPause
	}
	if o.MaxRetries <= 0 {
		o.MaxRetries = DefaultMaxRetries
	}
	if o.CheckpointInterval <= 0 {
		o.CheckpointInterval = DefaultCheckpointInterval
	}
	if o.LatencyFactor <= 1 {
		o.LatencyFactor = DefaultLatencyFactor
	}
	if o.MaxListedKeys <= 0 {
		o.MaxListedKeys = DefaultMaxListedKeys
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	return o
}
