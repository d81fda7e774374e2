package kmsenv

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// logTailBytes is how much of each process log a failed test prints: enough for the startup error of a
// kube-apiserver (its last lines name the failing KMS provider), not a whole run.
const logTailBytes = 4 << 10

// logTails writes the end of every process log under dir to the test log.
func logTails(t testing.TB, dir string) {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*.log"))
	for _, path := range append(logs, more...) {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if len(data) > logTailBytes {
			data = data[len(data)-logTailBytes:]
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				data = data[i+1:]
			}
		}
		t.Logf("---- tail of %s ----\n%s", path, data)
	}
}
