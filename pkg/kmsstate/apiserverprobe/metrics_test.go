package apiserverprobe

import (
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/model"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

const (
	statusMethod  = "/v2.KeyManagementService/Status"
	decryptMethod = "/v2.KeyManagementService/Decrypt"
)

// fixtureSample is what testdata/kms_metrics.txt says; the comments give the series each number comes from.
var fixtureSample = &kmsstate.MetricsSample{
	KMSCallErrors: map[kmsstate.KMSCall]float64{
		{Provider: "kms-a", Method: statusMethod}:  8, // DeadlineExceeded 3 + Unavailable 5
		{Provider: "kms-a", Method: decryptMethod}: 2, // PermissionDenied
		{Provider: "kms-b", Method: decryptMethod}: 1, // NotFound
	},
	// kms-a Unavailable 4 + Internal 1, kms-b NotFound 2, legacy (KMS v1) 3; not the failed to_storage writes,
	// the aescbc failures nor those whose prefix matched no transformer.
	DecryptErrors: 10,
	KeyIDHashes: map[string]string{
		"kms-a": kmsstate.KEKIDHash("key-2"), // newer than key-1, though listed first
		"kms-b": kmsstate.KEKIDHash("key-b"),
	},
}

func TestParseKMSMetricsFixture(t *testing.T) {
	f, err := os.Open("testdata/kms_metrics.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := parseKMSMetrics(f, model.LegacyValidation)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, fixtureSample) {
		t.Errorf("sample of the fixture:\n got %+v\nwant %+v", got, fixtureSample)
	}
}

func TestParseKMSMetrics(t *testing.T) {
	const (
		opsHeader = "# HELP apiserver_envelope_encryption_kms_operations_latency_seconds KMS operation duration.\n" +
			"# TYPE apiserver_envelope_encryption_kms_operations_latency_seconds histogram\n"
		opsLabels     = `grpc_status_code="Unavailable",method_name="/v2.KeyManagementService/Status",provider_name="p"`
		keyIDHeader   = "# TYPE apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds gauge\n"
		keyIDSeries   = "apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds"
		unrelated     = "# HELP process_start_time_seconds Start time.\n# TYPE process_start_time_seconds gauge\nprocess_start_time_seconds 1.7e+09\n"
		transformType = "# TYPE apiserver_storage_transformation_operations_total counter\n"
	)
	histogram := func(labels string, count string) string {
		return "apiserver_envelope_encryption_kms_operations_latency_seconds_bucket{" + labels + `,le="0.0001"} 0` + "\n" +
			"apiserver_envelope_encryption_kms_operations_latency_seconds_bucket{" + labels + `,le="+Inf"} ` + count + "\n" +
			"apiserver_envelope_encryption_kms_operations_latency_seconds_sum{" + labels + "} 0.5\n" +
			"apiserver_envelope_encryption_kms_operations_latency_seconds_count{" + labels + "} " + count + "\n"
	}
	empty := &kmsstate.MetricsSample{KMSCallErrors: map[kmsstate.KMSCall]float64{}, KeyIDHashes: map[string]string{}}

	scenarios := []struct {
		name    string
		text    string
		want    *kmsstate.MetricsSample
		wantErr string
	}{
		{
			name: "an apiserver that never used KMS has none of the families",
			text: unrelated,
			want: empty,
		},
		{
			name: "calls that all succeeded are no errors",
			text: opsHeader + histogram(strings.Replace(opsLabels, "Unavailable", "OK", 1), "12"),
			want: empty,
		},
		{
			name: "a failed call count written as a float is read",
			text: opsHeader + histogram(opsLabels, "3.0"),
			want: &kmsstate.MetricsSample{
				KMSCallErrors: map[kmsstate.KMSCall]float64{{Provider: "p", Method: statusMethod}: 3},
				KeyIDHashes:   map[string]string{},
			},
		},
		{
			name: "equal key id timestamps pick the smaller hash, whatever the order",
			text: keyIDHeader +
				keyIDSeries + `{apiserver_id_hash="sha256:aa",key_id_hash="sha256:2",provider_name="p"} 5` + "\n" +
				keyIDSeries + `{apiserver_id_hash="sha256:aa",key_id_hash="sha256:1",provider_name="p"} 5` + "\n",
			want: &kmsstate.MetricsSample{KMSCallErrors: map[kmsstate.KMSCall]float64{}, KeyIDHashes: map[string]string{"p": "sha256:1"}},
		},
		{
			name:    "an empty answer",
			text:    "",
			wantErr: "no metrics",
		},
		{
			name:    "only comments",
			text:    "# nothing to see\n",
			wantErr: "no metrics",
		},
		{
			name:    "an HTML error page",
			text:    "<html><body>Service Unavailable</body></html>\n",
			wantErr: "line 1",
		},
		{
			name:    "cut in the middle of a line",
			text:    opsHeader + histogram(opsLabels, "3")[:150],
			wantErr: "truncated",
		},
		{
			name:    "garbage after good families",
			text:    unrelated + opsHeader + histogram(opsLabels, "3") + "\x00\x01\x02 binary\n",
			wantErr: "line 10",
		},
		{
			name:    "a value that is not a number",
			text:    unrelated + "# TYPE x counter\nx{a=\"b\"} many\n",
			wantErr: "line 5",
		},
		{
			name:    "an unterminated label value",
			text:    "# TYPE x counter\nx{a=\"b} 1\n",
			wantErr: "line 2",
		},
		{
			name:    "a line longer than any metric line",
			text:    "# HELP x " + strings.Repeat("h", maxLineBytes) + "\n",
			wantErr: "longer than",
		},
		{
			name:    "a family split in two",
			text:    "# TYPE x counter\nx 1\n" + unrelated + "# TYPE x counter\nx{a=\"b\"} 1\n",
			wantErr: `"x" is split in two`,
		},
		{
			name:    "the KMS histogram turned into a counter",
			text:    "# TYPE apiserver_envelope_encryption_kms_operations_latency_seconds counter\napiserver_envelope_encryption_kms_operations_latency_seconds{" + opsLabels + "} 3\n",
			wantErr: "is a COUNTER, want a HISTOGRAM",
		},
		{
			name:    "a renamed label",
			text:    transformType + `apiserver_storage_transformation_operations_total{resource="secrets",status="Unavailable",transformation_type="from_storage",prefix="k8s:enc:kms:v2:p:"} 3` + "\n",
			wantErr: "has no transformer_prefix label",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			got, err := parseKMSMetrics(strings.NewReader(s.text), model.LegacyValidation)
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, s.wantErr)
				}
				if got != nil {
					t.Errorf("a sample came with the error: %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, s.want) {
				t.Errorf("got %+v, want %+v", got, s.want)
			}
		})
	}
}

// TestParseExpositionParsesOneFamilyAtATime checks that the exposition is cut between families, each delivered
// once and in order, which is what keeps only one family in memory.
func TestParseExpositionParsesOneFamilyAtATime(t *testing.T) {
	f, err := os.Open("testdata/kms_metrics.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []string
	keepAll := func(string) bool { return true }
	err = parseExposition(f, model.LegacyValidation, keepAll, func(family *dto.MetricFamily) error {
		got = append(got, family.GetName())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"aggregator_discovery_aggregation_count_total",
		"apiserver_envelope_encryption_dek_source_cache_size",
		"apiserver_envelope_encryption_key_id_hash_last_timestamp_seconds",
		keyIDStatusMetric,
		"apiserver_envelope_encryption_key_id_hash_total",
		kmsOperationsMetric,
		"apiserver_storage_transformation_duration_seconds",
		transformationsMetric,
		"go_gc_duration_seconds",
		"kubernetes_build_info",
		"process_start_time_seconds",
		"rest_client_requests_total",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("families in order:\n got %q\nwant %q", got, want)
	}
}

func TestFamilyOpened(t *testing.T) {
	scenarios := []struct {
		line     string
		wantName string
		wantOK   bool
	}{
		{line: "# HELP x_total Some help.\n", wantName: "x_total", wantOK: true},
		{line: "# TYPE x_total counter\n", wantName: "x_total", wantOK: true},
		{line: "  #\tTYPE x histogram\n", wantName: "x", wantOK: true},
		{line: "#HELP x\n", wantName: "x", wantOK: true},
		{line: "# a comment\n"},
		{line: "# HELP\n"},
		{line: "x_total 1\n"},
		{line: "\n"},
	}
	for _, s := range scenarios {
		t.Run(strings.TrimSpace(s.line), func(t *testing.T) {
			name, ok := familyOpened([]byte(s.line))
			if name != s.wantName || ok != s.wantOK {
				t.Errorf("familyOpened(%q) = %q, %v; want %q, %v", s.line, name, ok, s.wantName, s.wantOK)
			}
		})
	}
}

// bigHistogram is a histogram family of n series with a bucket line each, several chunks long when n is large.
func bigHistogram(name string, n int) string {
	var b strings.Builder
	b.WriteString("# HELP " + name + " A large family.\n# TYPE " + name + " histogram\n")
	for i := range n {
		labels := `resource="r` + strconv.Itoa(i) + `",verb="GET"`
		b.WriteString(name + "_bucket{" + labels + `,le="+Inf"} 1` + "\n")
		b.WriteString(name + "_sum{" + labels + "} 0.5\n")
		b.WriteString(name + "_count{" + labels + "} 1\n")
	}
	return b.String()
}

// TestParseKMSMetricsHoldsOnlyKMSFamilies: a family that is not kept is checked in chunks and never held whole,
// so it may be far larger than a kept family may be; a kept family over the bound is refused.
func TestParseKMSMetricsHoldsOnlyKMSFamilies(t *testing.T) {
	defer func(old int) { maxKeptFamilyBytes = old }(maxKeptFamilyBytes)
	maxKeptFamilyBytes = 64 << 10 // more than any KMS family of the fixture, far less than the large family

	large := bigHistogram("apiserver_request_duration_seconds", 20000) // about 2 MiB, several chunks
	if len(large) < 4*chunkBytes {
		t.Fatalf("the large family is %d bytes, want several chunks of %d", len(large), chunkBytes)
	}
	fixture := readFixtureFile(t)
	got, err := parseKMSMetrics(strings.NewReader(large+fixture), model.LegacyValidation)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, fixtureSample) {
		t.Errorf("sample behind a large family:\n got %+v\nwant %+v", got, fixtureSample)
	}

	// The same family, kept, is held until it ends, so it is bounded.
	keepAll := func(string) bool { return true }
	err = parseExposition(strings.NewReader(large), model.LegacyValidation, keepAll, func(*dto.MetricFamily) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "is larger than") {
		t.Errorf("a kept family over %d bytes: error %v, want one saying it is too large", maxKeptFamilyBytes, err)
	}
}

// TestParseExpositionChecksEveryChunk: a bad line deep inside a family that is not kept is still found, with its
// line number, and so is one in its HELP or TYPE lines.
func TestParseExpositionChecksEveryChunk(t *testing.T) {
	large := bigHistogram("apiserver_request_duration_seconds", 20000)
	lines := strings.Count(large, "\n")
	scenarios := []struct {
		name, text, wantErr string
	}{
		{
			name:    "a bad value in the last chunk",
			text:    large + "apiserver_request_duration_seconds_count{resource=\"x\",verb=\"GET\"} many\n",
			wantErr: "line " + strconv.Itoa(lines+1) + ":",
		},
		{
			name:    "a bad value in a middle chunk",
			text:    strings.Replace(large, `resource="r12345",verb="GET"} 0.5`, `resource="r12345",verb="GET"} half`, 1),
			wantErr: "line " + strconv.Itoa(2+12345*3+2) + ":",
		},
		{
			name:    "a bad TYPE line",
			text:    "# TYPE x nonsense\nx 1\n",
			wantErr: "line 1:",
		},
		{
			name:    "KMS series hidden inside another family",
			text:    "# TYPE x counter\nx 1\n" + transformationsMetric + `{transformation_type="from_storage",transformer_prefix="k8s:enc:kms:v2:p:",status="Unavailable"} 3` + "\n",
			wantErr: `"` + transformationsMetric + `" has series under family "x"`,
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			_, err := parseKMSMetrics(strings.NewReader(s.text), model.LegacyValidation)
			if err == nil || !strings.Contains(err.Error(), s.wantErr) {
				t.Errorf("error %v, want one containing %q", err, s.wantErr)
			}
		})
	}
}

func readFixtureFile(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/kms_metrics.txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
