package kmsstate

import (
	"fmt"
	"maps"
	"sort"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

const (
	// DefaultReportInterval is library-go's kms-health-reporter default --interval.
	DefaultReportInterval = 30 * time.Second
	// staleAfterIntervals: a report older than this many intervals is stale. One missed write can be a slow
	// apiserver; four in a row mean the reporter is stuck or gone.
	staleAfterIntervals = 4
	// DefaultKEKIDMismatchGrace is how long nodes may disagree on the KEK id before it is a failure:
	// after a KMS-side rotation each plugin notices on its own schedule (its own KMS poll, then one report
	// interval), which takes minutes, not more.
	DefaultKEKIDMismatchGrace = 5 * time.Minute
	// maxKEKIDLength is the API limit of KMSPluginHealthReport.remoteKeyID and of a KMS v2 key_id.
	maxKEKIDLength = 1024
)

// Config tunes Evaluate.
type Config struct {
	// ReportInterval is the reporters' interval; reports older than 4 intervals are stale. Default 30 s.
	ReportInterval time.Duration
	// KEKIDMismatchGrace is how long nodes may report different KEK ids. Default 5 minutes.
	KEKIDMismatchGrace time.Duration
}

func (c Config) withDefaults() Config {
	if c.ReportInterval <= 0 {
		c.ReportInterval = DefaultReportInterval
	}
	if c.KEKIDMismatchGrace <= 0 {
		c.KEKIDMismatchGrace = DefaultKEKIDMismatchGrace
	}
	return c
}

// StaleAfter is the report age beyond which a report is stale.
func (c Config) StaleAfter() time.Duration {
	return staleAfterIntervals * c.withDefaults().ReportInterval
}

// Memory is what one evaluation hands to the next: what a single observation cannot tell (which KEK id every
// node agreed on before, since when nodes disagree, whether error counters grew). A zero Memory is a fresh
// start: it never invents a rotation or an error growth.
type Memory struct {
	// settledKEK is, per key id, the KEK id every node last agreed on.
	settledKEK map[string]string
	// rotations are the rotations in progress, per key id.
	rotations map[string]Rotation
	// disagreeSince is, per key id, when healthy nodes started to report different key_ids.
	disagreeSince map[string]time.Time
	// lastCompleted is the latest completed rotation per key id.
	lastCompleted map[string]Rotation
	// metrics is the previous metrics sample per node.
	metrics map[string]*MetricsSample
	// runningSince is when this process first saw each node run each key (Observation.Running). Like metrics it
	// is not stored: after an operator restart every running key that has no report yet waits out the
	// staleness limit again before it counts as missing.
	runningSince map[ReportRef]time.Time
}

// maxCompletedRotations bounds the completed rotations the Memory keeps, one per key id, so that the stored
// Memory stays small (operatorstate.MaxValueBytes) however many keys a cluster has rotated through: the oldest
// are forgotten first. Only the newest keys' rotations matter (kmsmigration migrates to the write key).
const maxCompletedRotations = 16

// forgetOldestCompleted drops the oldest completed rotations past maxCompletedRotations.
func forgetOldestCompleted(completed map[string]Rotation) {
	for len(completed) > maxCompletedRotations {
		oldest := ""
		for k, r := range completed {
			if oldest == "" || r.Completed.Before(completed[oldest].Completed) || (r.Completed.Equal(completed[oldest].Completed) && k < oldest) {
				oldest = k
			}
		}
		delete(completed, oldest)
	}
}

// Evaluate classifies an observation. It is pure: the same Memory and Observation give the same State.
func Evaluate(config Config, prev Memory, obs Observation) (State, Memory) {
	config = config.withDefaults()
	e := &evaluation{
		config: config,
		obs:    obs,
		nodes:  sets.New(obs.Nodes...),
		keys:   sets.New(obs.KeyIDs...),
		state: State{
			EvaluatedAt: obs.Now,
			Nodes:       sets.List(sets.New(obs.Nodes...)),
			KeyIDs:      sets.List(sets.New(obs.KeyIDs...)),
		},
		next: Memory{
			settledKEK:    map[string]string{},
			rotations:     map[string]Rotation{},
			disagreeSince: map[string]time.Time{},
			lastCompleted: map[string]Rotation{},
			metrics:       map[string]*MetricsSample{},
			runningSince:  map[ReportRef]time.Time{},
		},
		prev: prev,
	}
	for k, r := range prev.lastCompleted {
		e.next.lastCompleted[k] = r
	}
	forgetOldestCompleted(e.next.lastCompleted)
	reports := e.validReports()
	e.evaluatePlugins(reports)
	e.evaluateAPIServers()
	e.evaluateRotations()
	sortFailures(e.state.Failures)
	sortFailures(e.state.Pending)
	if len(e.next.lastCompleted) > 0 {
		e.state.LastCompleted = e.next.lastCompleted
	}
	if len(e.next.settledKEK) > 0 {
		e.state.SettledKEKIDs = maps.Clone(e.next.settledKEK)
	}
	return e.state, e.next
}

type evaluation struct {
	config Config
	obs    Observation
	nodes  sets.Set[string]
	keys   sets.Set[string]
	state  State
	prev   Memory
	next   Memory
}

func (e *evaluation) ignore(what, format string, args ...any) {
	e.state.Ignored = append(e.state.Ignored, Ignored{What: what, Why: fmt.Sprintf(format, args...)})
}

// validReports keeps the reports that can be trusted, newest per node and key, and records orphans.
func (e *evaluation) validReports() map[ReportRef]operatorv1.KMSPluginHealthReport {
	valid := map[ReportRef]operatorv1.KMSPluginHealthReport{}
	// A reporter's clock may run a little ahead; one interval of skew is tolerated, more is a broken clock
	// whose reports would otherwise never go stale.
	future := e.obs.Now.Add(e.config.ReportInterval)
	for _, r := range e.obs.Reports {
		ref := ReportRef{Node: r.NodeName, KeyID: r.KeyID}
		what := fmt.Sprintf("health report node=%q key=%q", r.NodeName, r.KeyID)
		age := e.obs.Now.Sub(r.LastCheckedTime.Time)
		switch {
		case r.NodeName == "" || r.KeyID == "":
			e.ignore(what, "no node name or key id")
		case !e.nodes.Has(r.NodeName) || !e.keys.Has(r.KeyID):
			if age > e.config.StaleAfter() {
				e.state.Orphans = append(e.state.Orphans, ref)
			}
			e.ignore(what, "node or key is not part of the current revision")
		case r.LastCheckedTime.IsZero():
			e.ignore(what, "no lastCheckedTime")
		case r.LastCheckedTime.Time.After(future):
			e.ignore(what, "lastCheckedTime %s is in the future", r.LastCheckedTime.UTC().Format(time.RFC3339))
		case r.Status != operatorv1.KMSPluginHealthStatusHealthy && r.Status != operatorv1.KMSPluginHealthStatusUnhealthy && r.Status != operatorv1.KMSPluginHealthStatusError:
			e.ignore(what, "unknown status %q", r.Status)
		case r.Status == operatorv1.KMSPluginHealthStatusHealthy && (r.RemoteKeyID == "" || len(r.RemoteKeyID) > maxKEKIDLength):
			// A healthy plugin always has a key_id; trusting this report would call a plugin healthy that
			// cannot be used for rotation detection, so it counts as no report at all.
			e.ignore(what, "healthy without a valid remoteKeyID (%d bytes)", len(r.RemoteKeyID))
		default:
			if old, ok := valid[ref]; ok && !r.LastCheckedTime.After(old.LastCheckedTime.Time) {
				e.ignore(what, "duplicate of a newer report")
				continue
			}
			valid[ref] = r
		}
	}
	sort.Slice(e.state.Orphans, func(i, j int) bool {
		a, b := e.state.Orphans[i], e.state.Orphans[j]
		return a.Node < b.Node || (a.Node == b.Node && a.KeyID < b.KeyID)
	})
	return valid
}

// running says whether key is in the revision node runs (Observation.Running).
func (e *evaluation) running(node, key string) bool {
	if e.obs.Running == nil {
		return true
	}
	for _, k := range e.obs.Running[node] {
		if k == key {
			return true
		}
	}
	return false
}

// silentOnPurpose says why the plugins of node may not report, from Observation.Availability: the node or its
// operand pod is down, or the pod started less than the staleness limit ago. Empty when nothing excuses a
// missing or stale report.
func (e *evaluation) silentOnPurpose(node string) string {
	a, ok := e.obs.Availability[node]
	switch {
	case !ok:
		return ""
	case a.Unavailable != "":
		return "node unavailable: " + a.Unavailable
	case a.OperandStarted.IsZero():
		return ""
	}
	if since := e.obs.Now.Sub(a.OperandStarted); since >= 0 && since < e.config.StaleAfter() {
		return fmt.Sprintf("its kube-apiserver pod started %s ago, limit %s", since.Round(time.Second), e.config.StaleAfter())
	}
	return ""
}

func (e *evaluation) evaluatePlugins(reports map[ReportRef]operatorv1.KMSPluginHealthReport) {
	for _, node := range e.state.Nodes {
		for _, key := range e.state.KeyIDs {
			ref := ReportRef{Node: node, KeyID: key}
			p := Plugin{Node: node, KeyID: key, Pending: !e.running(node, key)}
			if !p.Pending {
				since, seen := e.prev.runningSince[ref]
				if !seen {
					since = e.obs.Now
				}
				e.next.runningSince[ref] = since
			}
			r, ok := reports[ref]
			if ok {
				p.LastChecked = r.LastCheckedTime.Time
				p.Age = max(e.obs.Now.Sub(p.LastChecked), 0)
				p.Detail = r.Detail
			}
			var reason Reason
			switch {
			case !ok:
				p.Health, reason = PluginMissing, ReasonHealthReportMissing
				if running := e.obs.Now.Sub(e.next.runningSince[ref]); !p.Pending && running < e.config.StaleAfter() {
					p.AwaitingFirstReport = true
					p.Detail = fmt.Sprintf("no report yet; the node has run the key for %s, limit %s", running.Round(time.Second), e.config.StaleAfter())
				}
			case p.Age > e.config.StaleAfter():
				p.Health, reason = PluginStale, ReasonHealthReportStale
				p.Detail = fmt.Sprintf("last report %s ago, limit %s", p.Age.Round(time.Second), e.config.StaleAfter())
			case r.Status == operatorv1.KMSPluginHealthStatusError:
				// No answer came back from the plugin (see ReasonPluginUnreachable).
				p.Health, reason = PluginUnreachable, ReasonPluginUnreachable
			case r.Status == operatorv1.KMSPluginHealthStatusUnhealthy:
				// The plugin answered, unhealthy or with an error of its own.
				p.Health, reason = PluginUnhealthy, ReasonPluginUnhealthy
			default:
				p.Health, p.KEKID = PluginHealthy, r.RemoteKeyID
			}
			if (reason == ReasonHealthReportMissing || reason == ReasonHealthReportStale) && !p.Pending && !p.AwaitingFirstReport {
				if p.NodeUnavailable = e.silentOnPurpose(node); p.NodeUnavailable != "" {
					p.Detail += "; " + p.NodeUnavailable
				}
			}
			switch {
			case reason == "":
			case p.Pending || p.AwaitingFirstReport || p.NodeUnavailable != "":
				e.state.Pending = append(e.state.Pending, Failure{Reason: reason, Node: node, KeyID: key, Detail: p.Detail})
			default:
				e.addFailure(Failure{Reason: reason, Node: node, KeyID: key, Detail: p.Detail})
			}
			e.state.Plugins = append(e.state.Plugins, p)
		}
	}
}
