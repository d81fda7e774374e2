package apiserverprobe

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

// The series read from /metrics, as kube-apiserver defines them in k8s.io/apiserver/pkg/storage/value and
// k8s.io/apiserver/pkg/storage/value/encrypt/envelope/metrics. All are ALPHA: a change of name, type or labels
// makes the sample an error rather than a silent zero.
const (
	metricsPath = "/metrics"

	// kmsOperationsMetric is a histogram of every KMS gRPC call, observed in the apiserver's client interceptor.
	// method_name is the full gRPC method, e.g. "/v2.KeyManagementService/Status"; grpc_status_code is the
	// gRPC code name ("OK", "Unavailable", "DeadlineExceeded", ...).
	kmsOperationsMetric = "apiserver_envelope_encryption_kms_operations_latency_seconds"
	labelProvider       = "provider_name"
	labelMethod         = "method_name"
	labelGRPCCode       = "grpc_status_code"
	grpcCodeOK          = "OK"

	// transformationsMetric counts every transformation of a stored value. transformer_prefix is the prefix of
	// the transformer that matched the stored bytes: for KMS that is the provider's own prefix,
	// "k8s:enc:kms:v2:<provider name>:" (or v1), not a generic one; "identity" for plaintext, "unknown" when no
	// transformer's prefix matched. status is "OK" or the gRPC code name of the error, "unknown-non-grpc" when
	// the error carried none.
	transformationsMetric = "apiserver_storage_transformation_operations_total"
	labelTransformation   = "transformation_type"
	labelPrefix           = "transformer_prefix"
	labelStatus           = "status"
	transformationRead    = "from_storage"
	statusOK              = "OK"

	// keyIDStatusMetric is a gauge, per provider and key id hash, of the last time Status returned that key id.
	// An old key id keeps its series (until an LRU of 100 evicts it), so the newest timestamp names the current
	// key. Its apiserver_id_hash label is the same for every series of one apiserver and is ignored.
	keyIDStatusMetric = "apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds"
	labelKeyIDHash    = "key_id_hash"
)

// ReadMetrics are the names of the kube-apiserver metrics the Prober reads, the constants above. The runbooks
// cite them beside the metrics kmsguard registers (each package's RegisterMetrics), and docs/runbooks_test.go
// checks every metric a runbook names against both.
func ReadMetrics() []string {
	return []string{kmsOperationsMetric, transformationsMetric, keyIDStatusMetric}
}

// kmsPrefixes are the transformer_prefix values, up to the provider name, of values encrypted by KMS.
var kmsPrefixes = []string{"k8s:enc:kms:v2:", "k8s:enc:kms:v1:"}

// kmsMetrics scrapes /metrics and keeps the KMS sample.
func (p *Prober) kmsMetrics(ctx context.Context, base *url.URL) (*kmsstate.MetricsSample, error) {
	rawURL := base.JoinPath(metricsPath).String()
	var sample *kmsstate.MetricsSample
	// The classic text format, which parseExposition reads; kube-apiserver answers it with names escaped to the
	// legacy character set.
	accept := string(expfmt.NewFormat(expfmt.TypeTextPlain))
	err := p.get(ctx, rawURL, accept, func(resp *http.Response, body io.Reader) error {
		if resp.StatusCode != http.StatusOK {
			return httpStatusError(rawURL, resp, body)
		}
		format := expfmt.Format(resp.Header.Get("Content-Type"))
		if format.FormatType() != expfmt.TypeTextPlain {
			return &probeError{kind: failureMetrics, url: rawURL, err: fmt.Errorf("content type %q is not the Prometheus text format", format)}
		}
		var err error
		if sample, err = parseKMSMetrics(body, validationScheme(format)); err != nil {
			return &probeError{kind: failureMetrics, url: rawURL, err: err}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sample, nil
}

// validationScheme is the name validation the exposition was written for, chosen as expfmt.NewDecoder chooses
// it: UTF-8 names only when the server said it did not escape them. It must be set: in prometheus/common v0.67
// a zero TextParser has model.UnsetValidation, on which name validation panics.
func validationScheme(format expfmt.Format) model.ValidationScheme {
	if format.ToEscapingScheme() == model.NoEscaping {
		return model.UTF8Validation
	}
	return model.LegacyValidation
}

// parseKMSMetrics reads a whole text exposition as it arrives and returns the KMS sample in it; only the KMS
// families are kept while reading. Families that are absent count as zero: kube-apiserver writes no series of a
// vector until it has observed something.
func parseKMSMetrics(r io.Reader, scheme model.ValidationScheme) (*kmsstate.MetricsSample, error) {
	b := newSampleBuilder()
	if err := parseExposition(r, scheme, isKMSFamily, b.add); err != nil {
		return nil, err
	}
	return b.sample(), nil
}

// isKMSFamily reports whether name is one of the families a sample is made of.
func isKMSFamily(name string) bool {
	switch name {
	case kmsOperationsMetric, transformationsMetric, keyIDStatusMetric:
		return true
	}
	return false
}

// sampleBuilder accumulates the wanted families of one exposition.
type sampleBuilder struct {
	kmsCallErrors map[kmsstate.KMSCall]float64
	decryptErrors float64
	// newestKeyID is, per provider, the key id hash with the newest Status timestamp so far.
	newestKeyID map[string]keyIDSeen
}

type keyIDSeen struct {
	hash string
	at   float64
}

func newSampleBuilder() *sampleBuilder {
	return &sampleBuilder{
		kmsCallErrors: map[kmsstate.KMSCall]float64{},
		newestKeyID:   map[string]keyIDSeen{},
	}
}

func (b *sampleBuilder) sample() *kmsstate.MetricsSample {
	keyIDs := make(map[string]string, len(b.newestKeyID))
	for provider, seen := range b.newestKeyID {
		keyIDs[provider] = seen.hash
	}
	return &kmsstate.MetricsSample{KMSCallErrors: b.kmsCallErrors, DecryptErrors: b.decryptErrors, KeyIDHashes: keyIDs}
}

// add takes what it needs of one family and drops the rest.
func (b *sampleBuilder) add(family *dto.MetricFamily) error {
	switch family.GetName() {
	case kmsOperationsMetric:
		return forEachSeries(family, dto.MetricType_HISTOGRAM, []string{labelProvider, labelMethod, labelGRPCCode}, func(l map[string]string, m *dto.Metric) {
			if l[labelGRPCCode] == grpcCodeOK {
				return
			}
			b.kmsCallErrors[kmsstate.KMSCall{Provider: l[labelProvider], Method: l[labelMethod]}] += sampleCount(m.GetHistogram())
		})
	case transformationsMetric:
		return forEachSeries(family, dto.MetricType_COUNTER, []string{labelTransformation, labelPrefix, labelStatus}, func(l map[string]string, m *dto.Metric) {
			if l[labelTransformation] == transformationRead && l[labelStatus] != statusOK && isKMSPrefix(l[labelPrefix]) {
				b.decryptErrors += m.GetCounter().GetValue()
			}
		})
	case keyIDStatusMetric:
		return forEachSeries(family, dto.MetricType_GAUGE, []string{labelProvider, labelKeyIDHash}, func(l map[string]string, m *dto.Metric) {
			seen := keyIDSeen{hash: l[labelKeyIDHash], at: m.GetGauge().GetValue()}
			// Equal timestamps are not expected; the smaller hash wins them so that the result is stable.
			if old, ok := b.newestKeyID[l[labelProvider]]; !ok || seen.at > old.at || (seen.at == old.at && seen.hash < old.hash) {
				b.newestKeyID[l[labelProvider]] = seen
			}
		})
	}
	return nil
}

// forEachSeries calls fn with the labels and value of each series of family, after checking that the family has
// the type and labels kube-apiserver gives it.
func forEachSeries(family *dto.MetricFamily, want dto.MetricType, labels []string, fn func(map[string]string, *dto.Metric)) error {
	if family.GetType() != want {
		return fmt.Errorf("%s is a %s, want a %s: the metric changed, its sample would be wrong", family.GetName(), family.GetType(), want)
	}
	for _, m := range family.GetMetric() {
		values := make(map[string]string, len(m.GetLabel()))
		for _, pair := range m.GetLabel() {
			values[pair.GetName()] = pair.GetValue()
		}
		for _, name := range labels {
			if _, ok := values[name]; !ok {
				return fmt.Errorf("a series of %s has no %s label: the metric changed, its sample would be wrong", family.GetName(), name)
			}
		}
		fn(values, m)
	}
	return nil
}

// sampleCount is the number of observations of a histogram, which the text parser stores as an integer unless
// the exposition wrote it as a fraction.
func sampleCount(h *dto.Histogram) float64 {
	if h.SampleCountFloat != nil {
		return h.GetSampleCountFloat()
	}
	return float64(h.GetSampleCount())
}

func isKMSPrefix(prefix string) bool {
	for _, kms := range kmsPrefixes {
		if strings.HasPrefix(prefix, kms) {
			return true
		}
	}
	return false
}
