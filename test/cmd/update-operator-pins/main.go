// Command update-operator-pins writes hack/operator-pins.txt, the module versions that both
// kube-apiserver-operator and openshift-apiserver-operator require, from their go.mod files:
//
//	go run ./test/cmd/update-operator-pins KUBE_APISERVER_OPERATOR_DIR OPENSHIFT_APISERVER_OPERATOR_DIR
//
// Run it from the repository root when kmsguard moves to newer operator commits; make verify then checks
// kmsguard against them (test/pins).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/kmsguard/kmsguard/test/pins"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: update-operator-pins KUBE_APISERVER_OPERATOR_DIR OPENSHIFT_APISERVER_OPERATOR_DIR")
		os.Exit(2)
	}
	goMods := map[string][]byte{}
	var header []string
	for _, dir := range os.Args[1:] {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil {
			fail(err)
		}
		goMods[dir] = data
		header = append(header, fmt.Sprintf("%s at %s", moduleOf(data), commitOf(dir)))
	}
	p, err := pins.FromGoMods(goMods)
	if err != nil {
		fail(err)
	}
	out := p.Write("The modules both operators require, each at the lower of their two versions (test/pins).\n" +
		strings.Join(header, "\n") + "\nWritten by: go run ./test/cmd/update-operator-pins KAO_DIR OAO_DIR")
	if err := os.WriteFile(filepath.Join("hack", "operator-pins.txt"), out, 0o644); err != nil {
		fail(err)
	}
}

func moduleOf(goMod []byte) string {
	for _, line := range strings.Split(string(goMod), "\n") {
		if rest, ok := strings.CutPrefix(line, "module "); ok {
			return strings.TrimSpace(rest)
		}
	}
	return "?"
}

// commitOf is the checkout's commit, or "unknown commit" where dir is not a git work tree.
func commitOf(dir string) string {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown commit"
	}
	return strings.TrimSpace(string(out))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "update-operator-pins:", err)
	os.Exit(1)
}
