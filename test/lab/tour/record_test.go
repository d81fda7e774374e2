package tour

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRecord: a run's block replaces exactly the one of its key, keeps everything around it, says what produced
// the figures, and a page without the key's markers is left as it was.
func TestRecord(t *testing.T) {
	begin3, end3 := RecordMarkers("3-nodes")
	begin1, end1 := RecordMarkers("1-node")
	page := "# The tour\n\nintro\n\n" + begin3 + "\nan old run\n" + end3 + "\n\nbetween\n\n" + begin1 + "\nthe single-node run\n" + end1 + "\n\nafter\n"
	path := filepath.Join(t.TempDir(), "tour.md")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	run := RunInfo{Commit: "abc1234", Command: "kmsguard-lab tour", Machine: "2 CPUs, 8 GiB", Started: time.Date(2026, 12, 7, 16, 30, 0, 0, time.UTC),
		Took: 17*time.Minute + 3*time.Second, Setup: "3 nodes"}
	results := []Result{
		{Story: "enable-kms", Recovered: time.Minute, Recovery: "done", ReadBack: 300, Took: 80 * time.Second},
		{Story: "kms-slow", Problems: []string{"never detected"}, Took: 2 * time.Minute},
	}
	if err := Record(path, "3-nodes", run, results); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	for _, want := range []string{
		"# The tour\n\nintro\n\n" + begin3 + "\n",
		"`kmsguard-lab tour` at commit abc1234, on 2 CPUs, 8 GiB, started 2026-12-07 16:30 UTC, 17m3s in all; 1 of 2 stories passed.",
		"Lab: 3 nodes.",
		"enable-kms", "1m20s", "FAILED: never detected",
		"```\n" + end3 + "\n\nbetween\n\n" + begin1 + "\nthe single-node run\n" + end1 + "\n\nafter\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the page does not hold %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "an old run") {
		t.Errorf("the old run is still on the page:\n%s", got)
	}

	// Again: the block is replaced, not added.
	if err := Record(path, "3-nodes", run, results[:1]); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	if n := strings.Count(string(data), "kmsguard-lab tour` at commit"); n != 1 {
		t.Errorf("%d run headers after recording twice, want 1:\n%s", n, data)
	}

	for _, tc := range []struct {
		name, page, key, wantErr string
	}{
		{"no such key", page, "5-nodes", "no line"},
		{"no end marker", "# x\n" + begin3 + "\nold\n", "3-nodes", "no line \"" + end3 + "\""},
		{"markers twice", begin3 + "\n" + end3 + "\n" + begin3 + "\n" + end3 + "\n", "3-nodes", "more than once"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "page.md")
			if err := os.WriteFile(path, []byte(tc.page), 0o644); err != nil {
				t.Fatal(err)
			}
			err := Record(path, tc.key, run, results)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Record: %v, want an error with %q", err, tc.wantErr)
			}
			if data, _ := os.ReadFile(path); string(data) != tc.page {
				t.Errorf("the page changed:\n%s", data)
			}
		})
	}
	if err := Record(filepath.Join(t.TempDir(), "missing.md"), "3-nodes", run, results); err == nil {
		t.Error("Record into a missing page: no error")
	}
}
