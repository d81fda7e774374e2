package pins

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// allowed are modules the library may require beyond the operators' pins, each for a reason that must be
// written here and in go.mod's comment. None today.
var allowed = map[string]bool{}

// TestLibraryFitsTheOperatorsPins is make verify's check that vendoring kmsguard moves no module in
// kube-apiserver-operator or openshift-apiserver-operator: every module in the root module's graph (what a
// consumer's MVS sees of kmsguard's go.mod) is at or below the operators' version, and every module that provides
// a package of pkg/... is one they already have. It reads the root module alone (GOWORK=off): the test module's
// requirements never reach a consumer.
func TestLibraryFitsTheOperatorsPins(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	pins, err := Read(filepath.Join(root, "hack", "operator-pins.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// go list -m all records the go.mod checksum of every module in the graph in go.sum; a copy of go.mod and
	// go.sum (-modfile) takes those writes, so that the check leaves the tree as tidy as it found it.
	modfile := filepath.Join(t.TempDir(), "go.mod")
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(filepath.Dir(modfile), name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	graph := goList(t, root, modfile, "list", "-m", "-f", "{{.Path}} {{.Version}}", "all")
	providers := goList(t, root, modfile, "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}}{{end}}{{end}}", "./pkg/...")
	if len(graph) == 0 || len(providers) == 0 {
		t.Fatalf("go list saw %d modules in the graph and %d providing packages: nothing was checked", len(graph), len(providers))
	}
	for _, v := range Check(pins, graph, providers, allowed) {
		t.Errorf("%s", v)
	}
	t.Logf("%d modules in the library's graph, %d providing its packages, checked against %d pins", len(graph), len(providers), len(pins))
}

// goList runs the go command in the root module alone, with modfile in place of its go.mod, and returns the
// "path version" lines it printed.
func goList(t *testing.T, dir, modfile string, args ...string) map[string]string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod -modfile="+modfile)
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, exit.Stderr)
		}
		t.Fatalf("go %s: %v", strings.Join(args, " "), err)
	}
	modules := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if fields := strings.Fields(line); len(fields) == 2 {
			modules[fields[0]] = fields[1]
		}
	}
	return modules
}

func TestFromGoMods(t *testing.T) {
	kao := []byte(`module example.com/kao
go 1.26.0
require (
	example.com/both v1.2.0
	example.com/pseudo v0.0.0-20260805215214-cfb63858e9d7
	example.com/kao-only v1.0.0
	example.com/replaced v1.0.0
)
replace example.com/replaced => example.com/replaced v1.1.0
`)
	oao := []byte(`module example.com/oao
go 1.26.0
require (
	example.com/both v1.10.0
	example.com/pseudo v0.0.0-20260715165912-72066cc9718b
	example.com/replaced v1.5.0
)
`)
	got, err := FromGoMods(map[string][]byte{"kao": kao, "oao": oao})
	if err != nil {
		t.Fatal(err)
	}
	want := Pins{
		// v1.2.0 < v1.10.0: compared as versions, not strings.
		"example.com/both":   "v1.2.0",
		"example.com/pseudo": "v0.0.0-20260715165912-72066cc9718b",
		// example.com/kao-only is new to openshift-apiserver-operator; example.com/replaced builds from its
		// replacement in kube-apiserver-operator, whatever version kmsguard requires.
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pins differ (-want +got):\n%s", diff)
	}
}

func TestCheck(t *testing.T) {
	pins := Pins{"example.com/a": "v1.2.0", "example.com/b": "v0.55.1-0.20260602153038-42abb857022c"}
	scenarios := []struct {
		name      string
		graph     map[string]string
		providers map[string]string
		allowed   map[string]bool
		want      []string
	}{
		{name: "at the pins", graph: map[string]string{"example.com/a": "v1.2.0", "example.com/b": "v0.55.1-0.20260602153038-42abb857022c"}},
		{name: "below the pins", graph: map[string]string{"example.com/a": "v1.1.9", "example.com/b": "v0.55.0"}},
		{name: "a module the operators do not build, in the graph only", graph: map[string]string{"example.com/c": "v9.0.0"}},
		{
			name:  "newer than a pin",
			graph: map[string]string{"example.com/a": "v1.10.0", "example.com/b": "v0.55.1"},
			want: []string{
				"example.com/a v1.10.0: newer than the operators' v1.2.0",
				// A release is newer than its own pre-release.
				"example.com/b v0.55.1: newer than the operators' v0.55.1-0.20260602153038-42abb857022c",
			},
		},
		{
			name:      "a package from a module the operators do not have",
			providers: map[string]string{"example.com/c": "v0.1.0"},
			want:      []string{"example.com/c v0.1.0: a library package needs it, and the operators do not have it"},
		},
		{
			name:      "allowed",
			graph:     map[string]string{"example.com/a": "v1.3.0"},
			providers: map[string]string{"example.com/c": "v0.1.0"},
			allowed:   map[string]bool{"example.com/a": true, "example.com/c": true},
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			var got []string
			for _, v := range Check(pins, s.graph, s.providers, s.allowed) {
				got = append(got, v.String())
			}
			if diff := cmp.Diff(s.want, got); diff != "" {
				t.Errorf("violations differ (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadWhatWriteWrote(t *testing.T) {
	pins := Pins{"example.com/a": "v1.2.0", "example.com/b": "v0.0.0-20260715165912-72066cc9718b"}
	file := filepath.Join(t.TempDir(), "pins.txt")
	if err := os.WriteFile(file, pins.Write("header\nsecond line"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(pins, got); diff != "" {
		t.Errorf("pins differ (-want +got):\n%s", diff)
	}
	if err := os.WriteFile(file, []byte("# only a header\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(file); err == nil {
		t.Error("Read of a file without pins succeeded")
	}
	if err := os.WriteFile(file, []byte("example.com/a 1.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(file); err == nil {
		t.Error("Read of a malformed version succeeded")
	}
}
