package kmsstate

import (
	"fmt"
	"strings"
)

// evaluateAPIServers turns each kube-apiserver's own view into failures: a failing /healthz/kms-providers,
// and error counters that grew since the previous sample.
func (e *evaluation) evaluateAPIServers() {
	for node, m := range e.prev.metrics {
		// Carried over unless replaced below: an apiserver that could not be scraped this time keeps its last
		// sample, so that growth is measured across the gap instead of being forgotten.
		e.next.metrics[node] = m
	}
	for _, v := range e.obs.APIServers {
		what := fmt.Sprintf("kube-apiserver on node %q", v.NodeName)
		if !e.nodes.Has(v.NodeName) {
			e.ignore(what, "node is not part of the current revision")
			continue
		}
		if v.Err != "" {
			// Not being able to ask is the business of the apiserver's own health checks and the installer,
			// not a KMS failure by itself; whatever was read is still used below.
			e.ignore(what, "not fully probed: %s", v.Err)
		}
		if v.KMSHealthz != nil && !v.KMSHealthz.OK {
			e.addFailure(Failure{Reason: ReasonAPIServerKMSCheckFailing, Node: v.NodeName, Detail: "/healthz/kms-providers: " + v.KMSHealthz.Detail})
		}
		if v.Metrics == nil {
			continue
		}
		// The prober's own previous read, when it gives one, else the last sample evaluated.
		prev := v.Metrics.Previous
		if prev == nil {
			prev = e.prev.metrics[v.NodeName]
		}
		if prev != nil {
			e.metricGrowth(v.NodeName, prev, v.Metrics)
		}
		e.next.metrics[v.NodeName] = v.Metrics
	}
}

func (e *evaluation) metricGrowth(node string, prev, cur *MetricsSample) {
	if n := growth(prev.DecryptErrors, cur.DecryptErrors); n > 0 {
		e.addFailure(Failure{Reason: ReasonDecryptFailing, Node: node, Detail: fmt.Sprintf("%.0f failed reads of KMS-encrypted data since the last check", n)})
	}
	for call, count := range cur.KMSCallErrors {
		n := growth(prev.KMSCallErrors[call], count)
		if n <= 0 {
			continue
		}
		reason := ReasonAPIServerKMSCheckFailing
		if strings.Contains(strings.ToLower(call.Method), "decrypt") {
			reason = ReasonDecryptFailing
		}
		e.addFailure(Failure{Reason: reason, Node: node, KeyID: e.obs.Providers[call.Provider],
			Detail: fmt.Sprintf("%.0f failed %s calls to KMS provider %s since the last check", n, call.Method, call.Provider)})
	}
}

// growth is how much a cumulative counter grew. A counter below its previous value was reset by an apiserver
// restart, so all of it is new.
func growth(prev, cur float64) float64 {
	if cur < prev {
		return cur
	}
	return cur - prev
}

// addFailure records f, merging it into an existing failure of the same reason, node and key so that one
// node's problem is one entry however many signals show it.
func (e *evaluation) addFailure(f Failure) {
	for i, existing := range e.state.Failures {
		if existing.Reason == f.Reason && existing.Node == f.Node && existing.KeyID == f.KeyID {
			e.state.Failures[i].Detail = joinDetail(existing.Detail, f.Detail)
			return
		}
	}
	e.state.Failures = append(e.state.Failures, f)
}

func joinDetail(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "" || a == b:
		return a
	default:
		return a + "; " + b
	}
}
