package fake

import (
	"os"
	"path/filepath"
	"testing"
)

// StartForTest serves a plugin for kms on a socket in a new directory, and stops it and removes the directory
// when tb ends. The directory comes from os.MkdirTemp rather than tb.TempDir: a unix socket path is limited
// to 108 bytes, and tb.TempDir embeds the test name.
func StartForTest(tb testing.TB, kms *KMS) *Plugin {
	tb.Helper()
	dir, err := os.MkdirTemp("", "kms")
	if err != nil {
		tb.Fatalf("creating a socket directory: %v", err)
	}
	tb.Cleanup(func() { _ = os.RemoveAll(dir) })
	plugin := NewPlugin(kms, filepath.Join(dir, "kms.sock"))
	if err := plugin.Start(); err != nil {
		tb.Fatalf("starting the fake KMS plugin: %v", err)
	}
	tb.Cleanup(plugin.Stop)
	return plugin
}
