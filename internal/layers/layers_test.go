package layers

import (
	"os/exec"
	"strings"
	"testing"

	// The packages checked are linked into this test, so that a change to
	// any of them invalidates its cached result: go list, which the test
	// runs, is invisible to the test cache.
	_ "github.com/mcpeval/mcpeval/actions"
	_ "github.com/mcpeval/mcpeval/compare"
	_ "github.com/mcpeval/mcpeval/grade"
	_ "github.com/mcpeval/mcpeval/htmlreport"
	_ "github.com/mcpeval/mcpeval/junit"
	_ "github.com/mcpeval/mcpeval/ladder"
	_ "github.com/mcpeval/mcpeval/overlay"
	_ "github.com/mcpeval/mcpeval/publish"
	_ "github.com/mcpeval/mcpeval/redact"
	_ "github.com/mcpeval/mcpeval/review"
	_ "github.com/mcpeval/mcpeval/shard"
)

const mod = "github.com/mcpeval/mcpeval/"

// offline is what no package that only reads records may depend on.
var offline = []string{
	mod + "runner", mod + "target", mod + "provider",
	mod + "model/anthropic", mod + "model/openai",
	"github.com/modelcontextprotocol/", "github.com/anthropics/", "github.com/openai/",
}

// rule says what a set of packages may not depend on (each entry a
// package path or, ending in "/", a prefix), or, with allow, the only
// non-standard packages they may depend on.
type rule struct {
	why      string
	packages []string
	banned   []string
	allow    []string
	// bannedStd are standard packages (or prefixes ending in "/") that are
	// banned too, checked in allow rules.
	bannedStd []string
}

var rules = []rule{
	{
		why:      "grading is a pure function of record and suite",
		packages: []string{"grade"},
		banned:   append([]string{"net", "net/", mod + "model/", mod + "household"}, offline...),
	},
	{
		why:      "the CI packages are renderers and pure functions over records and grades",
		packages: []string{"compare", "junit", "ladder", "overlay", "shard"},
		banned:   append([]string{"net", "net/", mod + "model/"}, offline...),
	},
	{
		why:      "reviewing, redacting, rendering and publishing read records and grades",
		packages: []string{"review", "redact", "htmlreport", "publish"},
		banned:   append([]string{"net/http", "github.com/modelcontextprotocol/go-sdk/mcp"}, offline...),
	},
	{
		why:       "action scoring reads only records and suites",
		packages:  []string{"actions"},
		allow:     []string{mod + "actions", mod + "record", mod + "suite", mod + "stats", mod + "model", "go.yaml.in/yaml/"},
		bannedStd: []string{"net", "net/", "os/exec"},
	},
}

func matches(dep string, patterns []string) bool {
	for _, p := range patterns {
		if dep == p || (strings.HasSuffix(p, "/") && strings.HasPrefix(dep, p)) {
			return true
		}
	}
	return false
}

// deps lists pkg's dependencies, standard ones prefixed "std:".
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if .Standard}}std:{{end}}{{.ImportPath}}", mod+pkg).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pkg, err) // go is on PATH under go test: a failure is a real problem
	}
	return strings.Fields(string(out))
}

func TestDependenciesPointOneWay(t *testing.T) {
	for _, r := range rules {
		for _, pkg := range r.packages {
			for _, dep := range deps(t, pkg) {
				std, isStd := strings.CutPrefix(dep, "std:")
				switch {
				case r.allow != nil && isStd:
					if matches(std, r.bannedStd) {
						t.Errorf("%s depends on %s, but %s", pkg, std, r.why)
					}
				case r.allow != nil:
					if !matches(dep, r.allow) {
						t.Errorf("%s depends on %s, but %s", pkg, dep, r.why)
					}
				case matches(std, r.banned):
					t.Errorf("%s depends on %s, but %s", pkg, std, r.why)
				}
			}
		}
	}
}

// TestRulesBite proves the rules can fail: packages that do reach the
// network and the providers break them.
func TestRulesBite(t *testing.T) {
	for _, pkg := range []string{"runner", "provider"} {
		broken := false
		for _, dep := range deps(t, pkg) {
			std, _ := strings.CutPrefix(dep, "std:")
			if matches(std, rules[0].banned) {
				broken = true
			}
		}
		if !broken {
			t.Errorf("%s passes the grading rule; the rule checks nothing", pkg)
		}
	}
}
