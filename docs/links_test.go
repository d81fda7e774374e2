package docs_test

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// brokenLinks returns "name: target" for every relative link of a Markdown page that leads to no file: pages by
// their path from the repository root, exists by a path from the same root. A link's #fragment and links with a
// scheme are not checked.
func brokenLinks(pages map[string]string, exists func(rel string) bool) []string {
	var broken []string
	for _, name := range slices.Sorted(maps.Keys(pages)) {
		for _, m := range markdownLink.FindAllStringSubmatch(pages[name], -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if !exists(path.Clean(path.Join(path.Dir(name), target))) {
				broken = append(broken, fmt.Sprintf("%s: %s", name, m[1]))
			}
		}
	}
	return broken
}

func TestBrokenLinks(t *testing.T) {
	pages := map[string]string{
		"README.md":        "[tour](docs/tour.md) [x](https://example.com) [here](#section) [gone](docs/gone.md)",
		"docs/tour.md":     "[lab](lab.md#start) [root](../README.md) [pkg](../pkg/kmsstate/doc.go) [no](../nothing.md)",
		"docs/runbooks/X.": "[up](../tour.md)",
	}
	files := map[string]bool{"README.md": true, "docs/tour.md": true, "docs/lab.md": true, "pkg/kmsstate/doc.go": true}
	got := brokenLinks(pages, func(rel string) bool { return files[rel] })
	want := []string{"README.md: docs/gone.md", "docs/tour.md: ../nothing.md"}
	if !slices.Equal(got, want) {
		t.Errorf("brokenLinks = %q, want %q", got, want)
	}
}

// TestLinksResolve: every relative link in the README and the pages under docs/ leads to a file of the repository,
// so that moving a page or a file breaks the test, not the reader's click.
func TestLinksResolve(t *testing.T) {
	root := ".."
	pages := map[string]string{}
	add := func(rel string) {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		pages[rel] = string(data)
	}
	add("README.md")
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		add(filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 5 {
		t.Fatalf("read %d pages; the walk found no docs", len(pages))
	}
	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		return err == nil
	}
	for _, b := range brokenLinks(pages, exists) {
		t.Errorf("broken link %s", b)
	}
}
