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

// TestSecurityPromisesExerciseTheCLI checks that every promise of
// docs/security.md (a paragraph that opens in bold, up to the next bold
// paragraph or heading) names at least one test that runs the CLI: a
// testdata/script file, a main.TestX, or a TestX this package defines. A
// promise proved only in a package could still be broken by the command
// that wires it.
func TestSecurityPromisesExerciseTheCLI(t *testing.T) {
	doc, err := os.ReadFile("../../docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	cli := map[string]bool{}
	defined := regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]+)\(`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range defined.FindAllStringSubmatch(string(b), -1) {
			cli[m[1]] = true
		}
	}
	named := regexp.MustCompile("`(?:([a-z]+)\\.)?(Test[A-Za-z0-9_]+)`")
	script := regexp.MustCompile(`testdata/script/[a-z_]+\.txtar`)
	promises := securityPromises(string(doc))
	if len(promises) < 10 {
		t.Fatalf("docs/security.md holds %d promises; want the bold paragraphs that make them", len(promises))
	}
	for _, p := range promises {
		ok := script.MatchString(p)
		for _, m := range named.FindAllStringSubmatch(p, -1) {
			ok = ok || m[1] == "main" || (m[1] == "" && cli[m[2]])
		}
		if !ok {
			first, _, _ := strings.Cut(p, "\n")
			t.Errorf("docs/security.md: the promise %q names no test that runs the CLI (a testdata/script file, main.TestX or a test of cmd/mcpeval)", first)
		}
	}
}

// securityPromises returns the promises of the page: each paragraph that
// opens in bold, with what follows up to the next one or the next heading.
func securityPromises(doc string) []string {
	var promises []string
	var cur *strings.Builder
	for _, line := range strings.SplitAfter(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "**"):
			promises = append(promises, "")
			cur = &strings.Builder{}
		case strings.HasPrefix(line, "#"):
			cur = nil
		}
		if cur != nil {
			cur.WriteString(line)
			promises[len(promises)-1] = cur.String()
		}
	}
	return promises
}
