package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
)

func TestHealthReporterFlags(t *testing.T) {
	const (
		socket1 = "unix:///var/run/kmsplugin/kms-1.sock"
		socket2 = "unix:///var/run/kmsplugin/kms-2.sock"
	)
	// valid returns a complete, valid command line followed by extra. A
	// scalar flag given twice takes its last value; --kms-sockets
	// accumulates.
	valid := func(extra ...string) []string {
		return append([]string{"--kms-sockets=" + socket1, "--node-name=master-0"}, extra...)
	}

	scenarios := []struct {
		name    string
		args    []string
		wantErr string
		check   func(t *testing.T, o *healthReporterOptions)
	}{
		{
			name: "library-go's defaults",
			args: valid(),
			check: func(t *testing.T, o *healthReporterOptions) {
				want := &healthReporterOptions{
					kmsSockets:        []string{socket1},
					interval:          30 * time.Second,
					roundTripInterval: 5 * time.Minute,
					readTimeout:       5 * time.Second,
					writeTimeout:      10 * time.Second,
					nodeName:          "master-0",
					operator:          "kubeapiserver",
				}
				if diff := cmp.Diff(want, o, cmp.AllowUnexported(healthReporterOptions{})); diff != "" {
					t.Errorf("options differ (-want +got):\n%s", diff)
				}
			},
		},
		{
			name: "several sockets, comma separated and repeated",
			args: []string{"--node-name=master-0", "--kms-sockets=" + socket1 + "," + socket2, "--kms-sockets=unix:///var/run/kmsplugin/kms-10.sock"},
			check: func(t *testing.T, o *healthReporterOptions) {
				want := []string{socket1, socket2, "unix:///var/run/kmsplugin/kms-10.sock"}
				if diff := cmp.Diff(want, o.kmsSockets); diff != "" {
					t.Errorf("sockets differ (-want +got):\n%s", diff)
				}
			},
		},
		{name: "openshift-apiserver", args: valid("--operator=openshiftapiserver")},
		{name: "oauth-apiserver", args: valid("--operator=authentication")},
		{name: "long node name", args: valid("--node-name=" + strings.Repeat("n", 253))},
		{name: "no sockets", args: []string{"--node-name=master-0"}, wantErr: "--kms-sockets is required"},
		{name: "empty socket", args: []string{"--kms-sockets=", "--node-name=master-0"}, wantErr: "--kms-sockets is required"},
		{name: "socket without scheme", args: valid("--kms-sockets=/var/run/kmsplugin/kms-2.sock"), wantErr: "does not match"},
		{name: "socket in another directory", args: valid("--kms-sockets=unix:///tmp/kms-1.sock"), wantErr: "does not match"},
		{name: "socket with a non-numeric key id", args: valid("--kms-sockets=unix:///var/run/kmsplugin/kms-a.sock"), wantErr: "does not match"},
		{name: "socket without .sock", args: valid("--kms-sockets=unix:///var/run/kmsplugin/kms-1"), wantErr: "does not match"},
		{name: "socket with spaces", args: []string{"--node-name=master-0", "--kms-sockets= " + socket1}, wantErr: "does not match"},
		{name: "duplicate socket", args: valid("--kms-sockets=" + socket1), wantErr: "is given twice"},
		{name: "zero interval", args: valid("--interval=0"), wantErr: "--interval must be positive"},
		{name: "negative interval", args: valid("--interval=-1s"), wantErr: "--interval must be positive"},
		{
			name: "round trip interval",
			args: valid("--round-trip-interval=10m"),
			check: func(t *testing.T, o *healthReporterOptions) {
				if o.roundTripInterval != 10*time.Minute {
					t.Errorf("round trip interval %s, want 10m", o.roundTripInterval)
				}
			},
		},
		{name: "round trip every cycle", args: valid("--round-trip-interval=0")},
		{name: "negative round trip interval", args: valid("--round-trip-interval=-1m"), wantErr: "--round-trip-interval must not be negative"},
		{name: "zero read timeout", args: valid("--read-timeout=0s"), wantErr: "--read-timeout must be positive"},
		{name: "zero write timeout", args: valid("--write-timeout=0s"), wantErr: "--write-timeout must be positive"},
		{name: "no node name", args: []string{"--kms-sockets=" + socket1}, wantErr: "--node-name is required"},
		{name: "unknown operator", args: valid("--operator=etcd"), wantErr: `--operator "etcd" is not one of authentication, kubeapiserver, openshiftapiserver`},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			o := &healthReporterOptions{}
			fs := pflag.NewFlagSet("health-reporter", pflag.ContinueOnError)
			o.addFlags(fs)
			if err := fs.Parse(s.args); err != nil {
				t.Fatalf("parsing %q: %v", s.args, err)
			}

			err := o.validate()

			if s.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), s.wantErr) {
					t.Fatalf("want error containing %q, got %v", s.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.check != nil {
				s.check(t, o)
			}
		})
	}
}

// TestHealthReporterCommand checks that the subcommand is registered and
// validates its flags before it connects to anything.
func TestHealthReporterCommand(t *testing.T) {
	scenarios := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{name: "invalid flags", args: []string{"health-reporter", "--node-name=master-0"}, wantErr: "--kms-sockets is required"},
		{name: "extra argument", args: []string{"health-reporter", "now"}, wantErr: "unknown command"},
		{
			name: "valid flags reach the kubeconfig",
			args: []string{"health-reporter", "--kms-sockets=unix:///var/run/kmsplugin/kms-1.sock", "--node-name=master-0",
				"--kubeconfig=/nonexistent/kubeconfig"},
			wantErr: "loading kubeconfig",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			cmd := NewCommand()
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			cmd.SetArgs(s.args)
			err := cmd.Execute()
			if err == nil || !strings.Contains(err.Error(), s.wantErr) {
				t.Fatalf("want error containing %q, got %v", s.wantErr, err)
			}
		})
	}
}
