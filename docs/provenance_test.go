package docs_test

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// howItWasMade matches words about how the project was made rather than about the project: working notes and
// their numbering, the tracker the work was filed in and its commands. A reader can follow none of them; the
// evidence for a claim is a test, a command anyone can run, or a commit.
var howItWasMade = regexp.MustCompile(`(?i)\bsessions?\b|\b(?:working|closing) notes?\b|\bissues? #?\d+|\bissues (?:show|note|resolved|list|stops)\b|\bissue tracker\b`)

// ownedTextFiles are the kinds of files the project writes prose in.
var ownedTextFiles = []string{".go", ".md", ".sh", ".yaml", ".yml", ".patch", ".txt", ".json", "Makefile", "OWNERS", "OWNERS_ALIASES"}

// notOwned are the trees the project carries but did not write.
var notOwned = []string{".git", "vendor", "third_party", "_output"}

// findHowItWasMade returns "name:line: match" for every line of text that matches howItWasMade.
func findHowItWasMade(name string, text string) []string {
	var found []string
	scanner := bufio.NewScanner(strings.NewReader(text))
	scanner.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for line := 1; scanner.Scan(); line++ {
		if m := howItWasMade.FindString(scanner.Text()); m != "" {
			found = append(found, fmt.Sprintf("%s:%d: %q", name, line, m))
		}
	}
	return found
}

func TestFindHowItWasMade(t *testing.T) {
	for _, s := range []struct {
		line string
		want bool
	}{
		{"measured in session 5 (session-5 note)", true},
		{"the closing note says so", true},
		{"goals (issue 26) of that run", true},
		{"issues 5 and 26", true},
		{"run `issues show 3`", true},
		{"which issue(s) this PR fixes", false},
		{"a TLS handshake that failed", false},
		{"the tissue 5 of a kmsguard", false},
	} {
		if got := len(findHowItWasMade("f", s.line)) > 0; got != s.want {
			t.Errorf("%q: found %v, want %v", s.line, got, s.want)
		}
	}
}

// TestTheProjectSpeaksOnlyOfItself: no file the project wrote, document, comment, script or test, speaks of how
// it was made.
func TestTheProjectSpeaksOnlyOfItself(t *testing.T) {
	root := ".."
	self, err := filepath.Abs("provenance_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if slices.Contains(notOwned, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !slices.ContainsFunc(ownedTextFiles, func(suffix string) bool { return strings.HasSuffix(d.Name(), suffix) }) {
			return nil
		}
		if abs, err := filepath.Abs(path); err != nil || abs == self {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		rel, _ := filepath.Rel(root, path)
		found = append(found, findHowItWasMade(rel, string(b))...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d files: the walk did not reach the project's tree", checked)
	}
	for _, f := range found {
		t.Errorf("%s: say what the project is, with a test, a command or a commit as evidence, not how it was made", f)
	}
}
