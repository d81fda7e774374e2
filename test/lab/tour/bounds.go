package tour

import (
	"fmt"
	"time"

	"github.com/kmsguard/kmsguard/pkg/kmsmigration"
	"github.com/kmsguard/kmsguard/test/lab"
)

// detectionSlack is what a detection may take beyond the period of whatever sees the fault: the write of the
// report or answer that carries it, a kmsstate sync and the write of the condition. It is the "+ 2 s" of the
// tour's acceptance ("within the probe interval + 2 s").
const detectionSlack = 2 * time.Second

// bound is the longest a story's detection may take after its fault, and what sets it.
type bound struct {
	d  time.Duration
	by string
}

// nextReport is the longest until a health reporter's next probe: its interval plus its 10 % jitter.
func nextReport(t lab.Timings) time.Duration { return t.ReportInterval + t.ReportInterval/10 }

// byDeadPlugin bounds a plugin that is not listening. kmsguard's reporter sees it in its next probe, which fails
// fast; library-go's publishes nothing for a failing plugin (Timings.ReportsFailures), and the apiserver's own
// check sees it.
func byDeadPlugin(t lab.Timings) bound {
	if !t.ReportsFailures {
		return byAPIServerHealthz(t)
	}
	return byNextReport(t)
}

// byNextReport bounds what the reporter sees and publishes in its next Status call: a new KEK id (a healthy
// report, which library-go's reporter publishes too) and, with kmsguard's reporter, a plugin that is not
// listening or answers unhealthy.
func byNextReport(t lab.Timings) bound {
	return bound{nextReport(t) + detectionSlack, fmt.Sprintf("the next health report (%s + 10%% jitter) + %s", t.ReportInterval, detectionSlack)}
}

// bySlowCall bounds a plugin that listens but does not answer: only the call timeout can tell it from a slow one.
// Without a reporter that publishes failures, the apiserver's check sees it.
func bySlowCall(t lab.Timings) bound {
	if !t.ReportsFailures {
		return byAPIServerHealthz(t)
	}
	return bound{nextReport(t) + t.CallTimeout + detectionSlack,
		fmt.Sprintf("the next health report (%s + 10%%) + the reporter's call timeout %s + %s", t.ReportInterval, t.CallTimeout, detectionSlack)}
}

// apiServerHealthzCache is how long kube-apiserver answers /healthz/kms-providers from its last good Status call
// (kmsPluginHealthzPositiveTTL): a plugin that just failed still passes for that long.
const apiServerHealthzCache = 20 * time.Second

// byAPIServerHealthz bounds a plugin failure that only the apiservers show. kmsstate asks each apiserver's
// /healthz/kms-providers every report interval; the apiserver answers from its cache of the last good Status for
// up to apiServerHealthzCache, then calls Status, which a plugin that hangs holds up to the provider's timeout;
// kmsstate waits a second for the answer and reads it at its next look when it comes later. So: the look after the
// cache ran out, the next one, and the slack.
func byAPIServerHealthz(t lab.Timings) bound {
	return bound{apiServerHealthzCache + 2*nextReport(t) + detectionSlack,
		fmt.Sprintf("the apiservers' cached /healthz/kms-providers (%s) + two of kmsstate's looks at them (every %s + 10%%: the first may start a Status call that takes up to the provider's %s) + %s; the reporter publishes no failing plugin",
			apiServerHealthzCache, t.ReportInterval, t.APIServerCallTimeout, detectionSlack)}
}

// byRoundTrip bounds a key that fails while Status still says ok: the active round trip sees it at the first
// report a round-trip interval after the last one that passed.
func byRoundTrip(t lab.Timings) bound {
	return bound{t.RoundTripInterval + nextReport(t) + detectionSlack,
		fmt.Sprintf("the round-trip interval %s + the next health report (%s + 10%%) + %s", t.RoundTripInterval, t.ReportInterval, detectionSlack)}
}

// byAPIServerMetrics bounds what only an apiserver can see, once it serves again after took: a failed read of
// KMS data shows as growth between two reads of its /metrics, which kmsstate takes every report interval.
func byAPIServerMetrics(t lab.Timings, took time.Duration) bound {
	return bound{took + 2*nextReport(t) + detectionSlack,
		fmt.Sprintf("the apiserver's restart (%s) + two reads of its metrics (every %s + 10%%) + %s", took.Round(100*time.Millisecond), t.ReportInterval, detectionSlack)}
}

// byRecoveryScan bounds undecryptable objects, once the apiservers have lost the cached DEKs and the operator runs,
// took after the fault: the next scan of lost-key recovery.
func byRecoveryScan(t lab.Timings, took time.Duration) bound {
	return bound{took + t.RecoveryInterval + detectionSlack,
		fmt.Sprintf("the apiservers' restarts and the operator's start (%s) + the recovery scan (every %s) + %s", took.Round(100*time.Millisecond), t.RecoveryInterval, detectionSlack)}
}

// byErrorThreshold bounds the migrator's pause once every request fails: it needs
// kmsmigration.DefaultErrorThreshold errors, and makes qps requests a second.
func byErrorThreshold(qps int) bound {
	fill := time.Duration(kmsmigration.DefaultErrorThreshold) * time.Second / time.Duration(qps)
	return bound{fill + detectionSlack, fmt.Sprintf("%d failed requests at %d/s (%s) + %s", kmsmigration.DefaultErrorThreshold, qps, fill, detectionSlack)}
}

// byRevert bounds a revision that cannot start, once library-go wrote the candidate config after took: its
// revision, the first node's install, then the failure signal kmsrollback reverts on, and its revert. Where the
// startup monitor runs (a single node) it gives up after lab.StartupMonitorTimeout, brings the last good revision's
// apiserver back (fallback, as measured), and only then can the installer, through that apiserver, record the
// fallback; elsewhere (kube-apiserver-operator runs it only on SingleReplica) kmsrollback counts the apiserver's
// pod failed once it has not been ready for the lab's NotReadyAfter.
func byRevert(l *lab.Lab, took, fallback time.Duration) bound {
	if l.StartupMonitor() {
		return bound{took + lab.StartupMonitorTimeout + fallback + 3*detectionSlack,
			fmt.Sprintf("library-go's candidate config (written after %s) + the startup monitor's %s + its fallback's restart (%s) + 3 x %s",
				took.Round(100*time.Millisecond), lab.StartupMonitorTimeout, fallback.Round(100*time.Millisecond), detectionSlack)}
	}
	notReady := l.Timings().NotReadyAfter
	return bound{took + notReady + 3*detectionSlack, fmt.Sprintf("library-go's candidate config (written after %s) + kmsrollback's NotReadyAfter %s + 3 x %s",
		took.Round(100*time.Millisecond), notReady, detectionSlack)}
}

// preflightCheckTimeout is how long library-go's kms-preflight checker polls its plugin's Status before it fails
// the check (kms/preflight checker.go, statusTimeout).
const preflightCheckTimeout = 30 * time.Second

// preflightRequeue is how long library-go's KMS preflight controller waits before it looks at a running preflight
// pod again (kms_preflight_controller.go); it looks sooner when the operator's status changes.
const preflightRequeue = 30 * time.Second

// byPreflight bounds a configuration library-go's pod preflight refuses: its preflight controller creates the
// kms-preflight pod as soon as the key controller asks, the lab's scheduler binds it at once and the node's
// kubelet starts it; its checker polls the plugin's Status for up to preflightCheckTimeout, and the controller
// sees the pod's end at its next look, up to preflightRequeue later. The pod's creation, binding and start count
// as one slack each.
func byPreflight() bound {
	return bound{preflightCheckTimeout + preflightRequeue + 3*detectionSlack,
		fmt.Sprintf("the kms-preflight checker polling its plugin's Status for %s + the preflight controller's next look (%s) + 3 x %s (the pod's creation, binding and start)",
			preflightCheckTimeout, preflightRequeue, detectionSlack)}
}

// detected records that the story's fault was reported after d by the condition by, against b; a detection
// above its bound is a note, not a problem: a timing on a shared machine is no test.
func (r *Result) detected(d time.Duration, by string, b bound) {
	r.Detected, r.DetectedBy, r.Bound, r.BoundBy = d, by, b.d, b.by
	if !r.WithinBound() {
		r.notef("detected after %s, above its bound of %s: %s", d.Round(100*time.Millisecond), b.d.Round(100*time.Millisecond), b.by)
	}
}

// WithinBound says whether the fault was detected within its bound; true for a story without one.
func (r *Result) WithinBound() bool { return r.Bound == 0 || r.Detected <= r.Bound }
