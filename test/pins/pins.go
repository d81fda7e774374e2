// Package pins is the check that kmsguard forces no dependency on the operators that vendor it: every module
// in the library's module graph must be at or below the version both kube-apiserver-operator and
// openshift-apiserver-operator already require, and every module that provides a library package must be one
// they already have.
//
// The operators' versions are recorded in hack/operator-pins.txt (written by
// `go run ./test/cmd/update-operator-pins`), so that the check runs without their repositories.
package pins

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// Pins are module versions by module path.
type Pins map[string]string

// FromGoMods returns the modules every one of the go.mod files requires, each at the lowest version any of them
// requires: a dependency that needs more than that would move at least one operator. A module missing from one
// of them is left out: it would be new to that operator.
func FromGoMods(goMods map[string][]byte) (Pins, error) {
	var all []Pins
	for name, data := range goMods {
		f, err := modfile.Parse(name, data, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		p := Pins{}
		for _, r := range f.Require {
			p[r.Mod.Path] = r.Mod.Version
		}
		// A module the operator replaces at every version builds from the replacement, whatever version a
		// dependency requires: no requirement of kmsguard's can move it, so it gets no pin. (The provider check
		// still flags it, conservatively, should a library package ever import it.)
		for _, r := range f.Replace {
			if r.Old.Version == "" || r.Old.Version == p[r.Old.Path] {
				delete(p, r.Old.Path)
			}
		}
		all = append(all, p)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no go.mod given")
	}
	pins := Pins{}
	for path, version := range all[0] {
		lowest, inAll := version, true
		for _, other := range all[1:] {
			v, ok := other[path]
			if !ok {
				inAll = false
				break
			}
			if semver.Compare(v, lowest) < 0 {
				lowest = v
			}
		}
		if inAll {
			pins[path] = lowest
		}
	}
	return pins, nil
}

// Write writes pins as "path version" lines, sorted by path, under a header.
func (p Pins) Write(header string) []byte {
	var b bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(header), "\n") {
		fmt.Fprintf(&b, "# %s\n", line)
	}
	paths := make([]string, 0, len(p))
	for path := range p {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		fmt.Fprintf(&b, "%s %s\n", path, p[path])
	}
	return b.Bytes()
}

// Read reads a file Write wrote.
func Read(file string) (Pins, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	pins := Pins{}
	scanner := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; scanner.Scan(); n++ {
		line := strings.TrimSpace(scanner.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 || !semver.IsValid(fields[1]) {
			return nil, fmt.Errorf("%s:%d: want \"<module> <version>\", got %q", file, n, line)
		}
		pins[fields[0]] = fields[1]
	}
	if len(pins) == 0 {
		return nil, fmt.Errorf("%s: no pins", file)
	}
	return pins, scanner.Err()
}

// Violation is one module the library would move or add in the operators.
type Violation struct {
	Path, Version string
	// Pin is the operators' version; empty when they do not have the module at all.
	Pin string
}

func (v Violation) String() string {
	if v.Pin == "" {
		return fmt.Sprintf("%s %s: a library package needs it, and the operators do not have it", v.Path, v.Version)
	}
	return fmt.Sprintf("%s %s: newer than the operators' %s", v.Path, v.Version, v.Pin)
}

// Check returns the modules of graph (every module in the library's module graph, by path, at its selected
// version) newer than their pin, and the modules of providers (those that provide the library's packages) the
// operators do not have. allowed are modules the operators may take new, each for a reason its caller records.
func Check(pins Pins, graph, providers map[string]string, allowed map[string]bool) []Violation {
	var violations []Violation
	for path, version := range graph {
		if pin, ok := pins[path]; ok && semver.Compare(version, pin) > 0 && !allowed[path] {
			violations = append(violations, Violation{Path: path, Version: version, Pin: pin})
		}
	}
	for path, version := range providers {
		if _, ok := pins[path]; !ok && !allowed[path] {
			violations = append(violations, Violation{Path: path, Version: version})
		}
	}
	sort.Slice(violations, func(i, j int) bool { return violations[i].Path < violations[j].Path })
	return violations
}
