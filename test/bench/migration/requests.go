package main

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"k8s.io/client-go/kubernetes"
)

// secretRequests are the requests for Secrets the apiserver answered since it started, from its /metrics: every
// run starts on a restarted apiserver (makeStale), so they are the run's, and runs that are to be compared can be
// seen to have sent the apiserver the same requests.
type secretRequests struct {
	// byVerb counts the answered requests (apiserver_request_total, 2xx) by verb.
	byVerb map[string]float64
	// bodyBytes is the size of their request bodies (apiserver_request_body_size_bytes_sum, every verb).
	bodyBytes float64
}

const (
	requestsMetric  = "apiserver_request_total"
	bodySizesMetric = "apiserver_request_body_size_bytes"
)

// readSecretRequests scrapes the apiserver's /metrics as the admin.
func (b *bench) readSecretRequests(ctx context.Context) (secretRequests, error) {
	client, err := kubernetes.NewForConfig(b.adminConfig())
	if err != nil {
		return secretRequests{}, err
	}
	raw, err := client.CoreV1().RESTClient().Get().AbsPath("/metrics").SetHeader("Accept", string(expfmt.NewFormat(expfmt.TypeTextPlain))).DoRaw(ctx)
	if err != nil {
		return secretRequests{}, fmt.Errorf("reading the apiserver's /metrics: %w", err)
	}
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(raw))
	if err != nil {
		return secretRequests{}, fmt.Errorf("parsing the apiserver's /metrics: %w", err)
	}
	return secretRequestsOf(families)
}

func secretRequestsOf(families map[string]*dto.MetricFamily) (secretRequests, error) {
	requests, ok := families[requestsMetric]
	if !ok {
		return secretRequests{}, fmt.Errorf("the apiserver's /metrics has no %s", requestsMetric)
	}
	r := secretRequests{byVerb: map[string]float64{}}
	for _, m := range requests.GetMetric() {
		labels := labelsOf(m)
		if labels["group"] == "" && labels["resource"] == "secrets" && strings.HasPrefix(labels["code"], "2") {
			r.byVerb[labels["verb"]] += m.GetCounter().GetValue()
		}
	}
	// kube-apiserver writes no series of the body sizes until a request with a body came.
	for _, m := range families[bodySizesMetric].GetMetric() {
		if labels := labelsOf(m); labels["group"] == "" && labels["resource"] == "secrets" {
			r.bodyBytes += m.GetHistogram().GetSampleSum()
		}
	}
	return r, nil
}

func labelsOf(m *dto.Metric) map[string]string {
	labels := map[string]string{}
	for _, l := range m.GetLabel() {
		labels[l.GetName()] = l.GetValue()
	}
	return labels
}

// String is e.g. "5000 PUT, 10 LIST; request bodies 6.26 MB".
func (r secretRequests) String() string {
	var counts []string
	for _, verb := range slices.Sorted(maps.Keys(r.byVerb)) {
		counts = append(counts, fmt.Sprintf("%.0f %s", r.byVerb[verb], verb))
	}
	if len(counts) == 0 {
		counts = append(counts, "none answered")
	}
	return fmt.Sprintf("%s; request bodies %.2f MB", strings.Join(counts, ", "), r.bodyBytes/1e6)
}
