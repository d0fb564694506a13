// Package npm finds the third-party MCP servers that .ci/run installs from
// npm into .ci/npm, for the tests that run suites against them.
package npm

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Version is the version of the @modelcontextprotocol servers .ci/run
// installs.
const Version = "2026.8.31"

// Server returns the entry point of @modelcontextprotocol/pkg installed in
// the module's .ci/npm, skipping the test when it or node is missing, or
// failing it under CI (CI=true).
func Server(t *testing.T, pkg string) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatalf("finding the module root: %v", err)
	}
	p := filepath.Join(root, ".ci", "npm", "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	_, statErr := os.Stat(p)
	_, nodeErr := exec.LookPath("node")
	if statErr == nil && nodeErr == nil {
		return p
	}
	why := "node is not on PATH"
	if nodeErr == nil {
		why = "the server is not installed (npm install --prefix .ci/npm @modelcontextprotocol/" + pkg + "@" + Version + ", as .ci/run does)"
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s: %s", pkg, why)
	}
	t.Skipf("%s: %s", pkg, why)
	return ""
}

// moduleRoot is the nearest directory above the working directory (a
// test's package directory) that holds go.mod.
func moduleRoot() (string, error) {
	start, err := os.Getwd()
	if err != nil {
		return "", err
	}
	dir := start
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod in %s or above", start)
		}
		dir = up
	}
}
