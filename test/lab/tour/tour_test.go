package tour

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kmsguard/kmsguard/test/lab"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

func TestSelect(t *testing.T) {
	all := []Story{{Name: "a", MinNodes: 1}, {Name: "b", MinNodes: 3}, {Name: "c", MinNodes: 1}}
	scenarios := []struct {
		name    string
		names   []string
		nodes   int
		want    []string
		wantErr string
	}{
		{name: "all on three nodes", nodes: 3, want: []string{"a", "b", "c"}},
		{name: "all that apply to one node", nodes: 1, want: []string{"a", "c"}},
		{name: "named, in the tour's order", names: []string{"c", "a"}, nodes: 1, want: []string{"a", "c"}},
		{name: "a story that needs more nodes", names: []string{"b"}, nodes: 1, wantErr: "story b needs 3 nodes, the lab has 1"},
		{name: "an unknown story", names: []string{"a", "z"}, nodes: 3, wantErr: `no story "z" (the stories: a, b, c)`},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			got, err := Select(all, s.names, s.nodes)
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("error %v, want %q", err, s.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, st := range got {
				names = append(names, st.Name)
			}
			if strings.Join(names, ",") != strings.Join(s.want, ",") {
				t.Errorf("selected %v, want %v", names, s.want)
			}
		})
	}
}

// TestWritersCheck: an acknowledged value must read back; a value sent after it whose request failed may have
// been stored and reads back too; a lost object, once forgotten, is not checked; anything else is a lost write.
func TestWritersCheck(t *testing.T) {
	client := fake.NewSimpleClientset()
	w := NewWriters(client, "ns")
	ctx := context.Background()
	for _, name := range []string{"kept", "overwritten", "maybe", "gone", "lost"} {
		if err := w.write(ctx, name, "v1"); err != nil {
			t.Fatal(err)
		}
	}
	// A write that fails after the apiserver stored it (a timeout on the way back).
	client.PrependReactor("update", "secrets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if obj := a.(clienttesting.UpdateAction).GetObject().(*corev1.Secret); obj.Name == "maybe" {
			_ = client.Tracker().Update(a.GetResource(), obj, "ns")
			return true, nil, errors.New("the request timed out")
		}
		return false, nil, nil
	})
	if err := w.write(ctx, "maybe", "v2"); err == nil {
		t.Fatal("the failing write succeeded")
	}
	// What the cluster did behind the writers' back: one value changed, one object deleted.
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "overwritten", Namespace: "ns"}, Data: map[string][]byte{"value": []byte("someone else")}}
	if _, err := client.CoreV1().Secrets("ns").Update(ctx, secret, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gone", "lost"} {
		if err := client.CoreV1().Secrets("ns").Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	// A writer sends a new value of "kept" while the check lists: it must not count as a lost write.
	client.PrependReactor("list", "secrets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		w.mu.Lock()
		w.unsure["kept"] = append(w.unsure["kept"], "v9")
		w.mu.Unlock()
		secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "kept", Namespace: "ns"}, Data: map[string][]byte{"value": []byte("v9")}}
		_ = client.Tracker().Update(a.GetResource(), secret, "ns")
		return false, nil, nil
	})

	w.Forget([]string{"lost"})
	checked, problems, err := w.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if checked != 4 {
		t.Errorf("checked %d, want 4 (all but the lost one)", checked)
	}
	want := []string{
		`secret ns/gone is gone; "v1" was acknowledged`,
		`secret ns/overwritten reads "someone else"; "v1" was acknowledged`,
	}
	if strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
	counts, lastErr := w.Counts()
	if counts != (Counts{Attempted: 6, Failed: 1}) || !strings.Contains(lastErr, "timed out") {
		t.Errorf("counts %+v, last error %q", counts, lastErr)
	}
}

func TestResultJSONAndTable(t *testing.T) {
	results := []Result{
		{Story: "plugin-down-one-node", Recovered: 20 * time.Second, Recovery: "automatic", Writes: Counts{Attempted: 100, Failed: 0},
			ReadBack: 240, Notes: []string{"a note"}},
		{Story: "kms-slow"},
		{Story: "key-disabled", Problems: []string{"KMSPluginsDegraded never turned True"}},
	}
	results[0].detected(4200*time.Millisecond, "KMSPluginsDegraded True PluginUnreachable", bound{7500 * time.Millisecond, "the next report + 2s"})
	results[1].detected(13*time.Second, "KMSPluginsDegraded True PluginUnreachable", bound{12500 * time.Millisecond, "the call timeout + 2s"})
	data, err := json.Marshal(results[0])
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got["detectedAfterSeconds"] != 4.2 || got["boundSeconds"] != 7.5 || got["withinBound"] != true || got["boundBy"] != "the next report + 2s" ||
		got["recoveredAfterSeconds"] != 20.0 || got["passed"] != true {
		t.Errorf("JSON %s", data)
	}
	// Above its bound: noted and marked, and still passed.
	if results[1].WithinBound() || !results[1].Passed() {
		t.Errorf("13s against 12.5s: within %t, passed %t; want false, true", results[1].WithinBound(), results[1].Passed())
	}
	var b bytes.Buffer
	if err := PrintTable(&b, results); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"plugin-down-one-node  4.2s      <= 7.5s     KMSPluginsDegraded True PluginUnreachable  20s",
		"kms-slow              13s       OVER 12.5s",
		"100 (0)",
		"FAILED: KMSPluginsDegraded never turned True",
		"plugin-down-one-node: bound 7.5s: the next report + 2s",
		"plugin-down-one-node: a note",
		"kms-slow: detected after 13s, above its bound of 12.5s: the call timeout + 2s",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table does not show %q:\n%s", want, b.String())
		}
	}
	if AllPassed(results) {
		t.Error("AllPassed with a failed story")
	}
}

// TestPrintDetections: one line per story of the first tour, each tour's detection, bound and condition side by
// side; "not seen" for a fault that went unreported as expected, "not run" for a story a tour lacks.
func TestPrintDetections(t *testing.T) {
	libraryGo := []Result{
		{Story: "enable-kms", Reporter: "library-go"},
		{Story: "plugin-down-one-node", Reporter: "library-go", Detected: 31 * time.Second, DetectedBy: "KMSPluginsDegraded True PluginUnreachable", Bound: 40 * time.Second},
		{Story: "key-disabled", Reporter: "library-go", NotSeen: true},
		{Story: "kms-slow", Reporter: "library-go", Detected: 20 * time.Second, DetectedBy: "KMSPluginsDegraded True PluginUnreachable", Bound: 40 * time.Second},
	}
	kmsguard := []Result{
		{Story: "enable-kms", Reporter: "kmsguard"},
		{Story: "plugin-down-one-node", Reporter: "kmsguard", Detected: 4500 * time.Millisecond, DetectedBy: "KMSPluginsDegraded True PluginUnreachable", Bound: 7500 * time.Millisecond},
		{Story: "key-disabled", Reporter: "kmsguard", Detected: 13 * time.Second, DetectedBy: "KMSPluginsDegraded True PluginUnhealthy", Bound: 12 * time.Second},
	}
	var b bytes.Buffer
	if err := PrintDetections(&b, libraryGo, kmsguard); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := [][]string{
		{"STORY", "DETECTED", "(library-go)", "BOUND", "BY", "DETECTED", "(kmsguard)", "BOUND", "BY"},
		{"enable-kms", "-", "-", "-", "-", "-", "-"},
		{"plugin-down-one-node", "31s", "<=", "40s", "KMSPluginsDegraded", "True", "PluginUnreachable", "4.5s", "<=", "7.5s", "KMSPluginsDegraded", "True", "PluginUnreachable"},
		{"key-disabled", "not", "seen", "-", "-", "13s", "OVER", "12s", "KMSPluginsDegraded", "True", "PluginUnhealthy"},
		{"kms-slow", "20s", "<=", "40s", "KMSPluginsDegraded", "True", "PluginUnreachable", "not", "run", "-", "-"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), b.String())
	}
	for i, line := range lines {
		if got := strings.Fields(line); strings.Join(got, " ") != strings.Join(want[i], " ") {
			t.Errorf("line %d = %q, want %q", i, strings.Join(got, " "), strings.Join(want[i], " "))
		}
	}
}

// TestPoll: done at once is nil, never done is errTimedOut, an ended context is its own error.
func TestPoll(t *testing.T) {
	calls := 0
	if err := poll(context.Background(), time.Millisecond, time.Second, func() bool { calls++; return calls == 3 }); err != nil || calls != 3 {
		t.Errorf("done on the third call: %v after %d calls", err, calls)
	}
	if err := poll(context.Background(), time.Millisecond, 20*time.Millisecond, func() bool { return false }); !errors.Is(err, errTimedOut) {
		t.Errorf("never done: %v, want errTimedOut", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := poll(ctx, time.Millisecond, time.Second, func() bool { return false }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// TestBoundsFollowTheReporter: with kmsguard's reporter a dead or hanging plugin is bounded by its next report;
// with library-go's, which publishes no failing plugin, by kmsstate's next look at the apiservers and their
// Status call.
func TestBoundsFollowTheReporter(t *testing.T) {
	kmsguard := lab.Timings{ReportInterval: 5 * time.Second, CallTimeout: 5 * time.Second, RoundTripInterval: 15 * time.Second,
		ReportsFailures: true, APIServerCallTimeout: 10 * time.Second}
	libraryGo := lab.Timings{ReportInterval: 30 * time.Second, CallTimeout: 5 * time.Second, APIServerCallTimeout: 10 * time.Second}
	for _, s := range []struct {
		name string
		got  bound
		want time.Duration
	}{
		{"kmsguard, dead plugin: next report + slack", byDeadPlugin(kmsguard), 5500*time.Millisecond + detectionSlack},
		{"kmsguard, hanging plugin: next report + call timeout + slack", bySlowCall(kmsguard), 10500*time.Millisecond + detectionSlack},
		{"kmsguard, disabled key: round trip + next report + slack", byRoundTrip(kmsguard), 20500*time.Millisecond + detectionSlack},
		{"library-go, dead plugin: the apiservers' cached check and two looks", byDeadPlugin(libraryGo), 86*time.Second + detectionSlack},
		{"library-go, hanging plugin: the apiservers' cached check and two looks", bySlowCall(libraryGo), 86*time.Second + detectionSlack},
		{"library-go, rotation: next report + slack", byNextReport(libraryGo), 33*time.Second + detectionSlack},
	} {
		if s.got.d != s.want {
			t.Errorf("%s: %s (%s), want %s", s.name, s.got.d, s.got.by, s.want)
		}
	}
}
