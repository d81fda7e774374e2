package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kmsguard/kmsguard/pkg/version"
)

func TestVersionCommand(t *testing.T) {
	scenarios := []struct {
		name    string
		args    []string
		wantErr string
		check   func(t *testing.T, out string)
	}{
		{
			name: "plain",
			args: []string{"version"},
			check: func(t *testing.T, out string) {
				if !strings.HasPrefix(out, "kmsguard ") || !strings.Contains(out, version.Get().GitVersion) {
					t.Errorf("unexpected output %q", out)
				}
			},
		},
		{
			name: "json",
			args: []string{"version", "-o", "json"},
			check: func(t *testing.T, out string) {
				var info version.Info
				if err := json.Unmarshal([]byte(out), &info); err != nil {
					t.Fatalf("output is not JSON: %v: %q", err, out)
				}
				if info != version.Get() {
					t.Errorf("got %+v, want %+v", info, version.Get())
				}
			},
		},
		{name: "unknown format", args: []string{"version", "-o", "xml"}, wantErr: `unknown output format "xml"`},
		{name: "extra argument", args: []string{"version", "now"}, wantErr: "unknown command"},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			var out bytes.Buffer
			cmd := NewCommand()
			cmd.SetOut(&out)
			cmd.SetErr(&bytes.Buffer{})
			cmd.SetArgs(s.args)
			err := cmd.Execute()
			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("want error containing %q, got %v", s.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s.check(t, out.String())
		})
	}
}
