package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSecurityDocNamesRealTests checks that every test docs/security.md
// names as the proof of a promise exists, so that the page cannot point
// at a test that was renamed or removed.
func TestSecurityDocNamesRealTests(t *testing.T) {
	doc, err := os.ReadFile("../../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile("`(?:[a-z]+\\.)?(Test[A-Za-z0-9_]+)`").FindAllStringSubmatch(string(doc), -1)
	if len(named) < 10 {
		t.Fatalf("docs/security.md names %d tests; the page should prove its promises", len(named))
	}
	var src strings.Builder
	filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, "_test.go") {
			b, _ := os.ReadFile(p)
			src.Write(b)
		}
		return nil
	})
	for _, m := range named {
		if !strings.Contains(src.String(), "func "+m[1]+"(") {
			t.Errorf("docs/security.md names %s, which no test file defines", m[1])
		}
	}
	for _, script := range regexp.MustCompile(`testdata/script/[a-z_]+\.txtar`).FindAllString(string(doc), -1) {
		if _, err := os.Stat(script); err != nil {
			t.Errorf("docs/security.md names %s: %v", script, err)
		}
	}
}
