package runner_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// resolving matches code that works out part of what a suite connects to:
// reading a server from an mcp.json, picking a surface's target, walking a
// suite's several servers.
var resolving = regexp.MustCompile(`FromMCPJSON\(|MCPJSONRef\(|\.SurfaceTarget\(|\.TargetNames\(\)|\.Targets\[`)

// TestOneTargetResolver: outside the suite format (which reads and checks
// the settings) and the MCP client (which reads mcp.json files), only
// runner/resolve.go works out a suite's target; every other caller asks
// ResolveTarget, so no second resolver drifts from it.
func TestOneTargetResolver(t *testing.T) {
	root := ".."
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || rel == "suite" || rel == "target") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || rel == "runner/resolve.go" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if code, _, _ := strings.Cut(line, "//"); resolving.MatchString(code) {
				t.Errorf("%s:%d resolves a suite's target itself (%s): ask runner.ResolveTarget", rel, i+1, strings.TrimSpace(code))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
