package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpeval/mcpeval/suite"
)

// TestSecretsOfTheSuiteTarget: what a suite's target makes secret (a
// header written in the suite, an environment value of a server read from
// an mcp.json) is among the secrets scrubbed from what shows the suite, as
// the runner scrubs it from the record, for a suite of one server as for
// a suite of several.
func TestSecretsOfTheSuiteTarget(t *testing.T) {
	dir := t.TempDir()
	const header, env = "header-secret-0123456789", "env-secret-9876543210"
	mcpJSON := `{"mcpServers": {"local": {"command": "./srv", "env": {"TOKEN": "` + env + `"}}}}`
	if err := os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(mcpJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	web := suite.Target{Spec: "https://mcp.example.com/mcp", Headers: map[string]string{"X-Api-Key": header}}
	local := suite.Target{From: "mcp.json", Name: "local"}
	for _, tc := range []struct {
		name string
		s    *suite.Suite
		want []string
	}{
		{"one http server", &suite.Suite{Path: dir, Target: web}, []string{header}},
		{"one server of an mcp.json", &suite.Suite{Path: dir, Target: local}, []string{env}},
		{"several servers", &suite.Suite{Path: dir, Targets: map[string]suite.Target{"web": web, "local": local}}, []string{header, env}},
	} {
		got := Secrets(tc.s).Values()
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: Secrets does not hold %q", tc.name, w)
			}
		}
	}
}
