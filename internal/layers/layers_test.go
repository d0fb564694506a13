package layers

import (
	"os/exec"
	"strings"
	"testing"

	// The packages checked are linked into this test, so that a change to
	// any of them invalidates its cached result: go list, which the test
	// runs, is invisible to the test cache.
	_ "github.com/mcpeval/mcpeval/grade"
	_ "github.com/mcpeval/mcpeval/grade/actions"
	_ "github.com/mcpeval/mcpeval/internal/compare"
	_ "github.com/mcpeval/mcpeval/internal/corpus"
	_ "github.com/mcpeval/mcpeval/internal/ladder"
	_ "github.com/mcpeval/mcpeval/internal/overlay"
	_ "github.com/mcpeval/mcpeval/internal/plan"
	_ "github.com/mcpeval/mcpeval/internal/publish"
	_ "github.com/mcpeval/mcpeval/internal/redact"
	_ "github.com/mcpeval/mcpeval/internal/report"
	_ "github.com/mcpeval/mcpeval/internal/report/htmlreport"
	_ "github.com/mcpeval/mcpeval/internal/report/junit"
	_ "github.com/mcpeval/mcpeval/internal/review"
	_ "github.com/mcpeval/mcpeval/internal/sequential"
	_ "github.com/mcpeval/mcpeval/internal/shard"
	_ "github.com/mcpeval/mcpeval/runner"
	_ "github.com/mcpeval/mcpeval/suite"
	_ "github.com/mcpeval/mcpeval/target"
)

const mod = "github.com/mcpeval/mcpeval/"

// online is what reaches a model or an MCP server: no package that only
// reads records may depend on any of it.
var online = []string{
	mod + "runner", mod + "target", mod + "internal/provider", mod + "internal/pipeline",
	mod + "model/anthropic", mod + "model/openai", mod + "model/gemini", mod + "model/bedrock", mod + "internal/builtin/",
	"github.com/modelcontextprotocol/", "github.com/anthropics/", "github.com/openai/", "google.golang.org/genai", "github.com/aws/",
}

// network is the standard library that talks over a network. net/url is
// not in it: it parses strings.
var network = []string{"net", "net/http", "net/http/", "net/rpc", "net/smtp"}

// rule says what the packages under some directories may not depend on
// (each entry a package path or, ending in "/", a prefix).
type rule struct {
	why string
	// dirs are the packages the rule covers, by directory; "dir/..."
	// covers every package below dir too, as go list reads it.
	dirs   []string
	banned []string
	// allowed are exceptions to banned: pure leaves a format package
	// reads its files with.
	allowed []string
}

var rules = []rule{
	{
		why:    "grading is a pure function of record and suite",
		dirs:   []string{"grade/...", "stats"},
		banned: join(network, online, []string{"os/exec", mod + "model/", mod + "internal/"}),
		// suite places its YAML errors with yamlloc, a leaf that reads
		// bytes and nothing else, and suggests field names with
		// textdist, a leaf that compares strings; grading and the suite
		// compile their patterns on first use with lazyregexp, a leaf over
		// regexp.
		allowed: []string{mod + "internal/yamlloc", mod + "internal/textdist", mod + "internal/lazyregexp"},
	},
	{
		why:    "rendering, comparing, reviewing, redacting and publishing read records and grades",
		dirs:   []string{"internal/report/...", "internal/compare", "internal/ladder", "internal/overlay", "internal/shard", "internal/review", "internal/redact", "internal/publish", "internal/sequential", "internal/plan", "internal/corpus"},
		banned: join(network, online),
	},
	{
		why:    "the public packages are contracts a library user can name; the test servers are for tests only",
		dirs:   []string{"suite", "record", "model/...", "target", "runner", "grade/...", "stats", "internal/pipeline"},
		banned: []string{mod + "internal/testkit/"},
	},
	{
		why: "the test kits (servers, stand-ins, helpers) are for tests: nothing the product runs links them",
		dirs: []string{"cmd/...", "internal/pipeline", "internal/provider/...", "internal/builtin/...", "internal/view",
			"internal/export/...", "internal/report/...", "internal/publish", "internal/review", "internal/compare",
			"internal/ladder", "internal/judge", "internal/fixture", "internal/probe", "internal/rundir"},
		banned: []string{mod + "internal/testkit/"},
	},
	{
		why:    "the viewer, the exporters and judge agreement read runs already recorded: they never start one, nor reach a model or a target",
		dirs:   []string{"internal/view", "internal/export/...", "internal/agreement"},
		banned: online,
	},
	{
		why:    "the record and suite formats are data: they neither run nor reach anything",
		dirs:   []string{"suite", "record", "model"},
		banned: join(network, online, []string{mod + "grade"}),
	},
	{
		why:    "the MCP client connects to what it is given and knows no server of ours",
		dirs:   []string{"target"},
		banned: []string{mod + "internal/builtin/"},
	},
}

func join(lists ...[]string) []string {
	var all []string
	for _, l := range lists {
		all = append(all, l...)
	}
	return all
}

func matches(dep string, patterns []string) bool {
	for _, p := range patterns {
		if dep == p || (strings.HasSuffix(p, "/") && strings.HasPrefix(dep, p)) {
			return true
		}
	}
	return false
}

// deps maps each package that pattern names to its dependencies, direct
// and indirect, standard ones included.
func deps(t *testing.T, pattern string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, pattern).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err) // go is on PATH under go test: a failure is a real problem
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			m[f[0]] = f[1:]
		}
	}
	return m
}

// broken lists the rule's violations by the packages below dir.
func broken(t *testing.T, r rule, dir string) []string {
	var bad []string
	for pkg, ds := range deps(t, mod+dir) {
		for _, dep := range ds {
			if matches(dep, r.banned) && !matches(dep, r.allowed) {
				bad = append(bad, strings.TrimPrefix(pkg, mod)+" depends on "+dep)
			}
		}
	}
	return bad
}

func TestDependenciesPointOneWay(t *testing.T) {
	for _, r := range rules {
		for _, dir := range r.dirs {
			for _, b := range broken(t, r, dir) {
				t.Errorf("%s, but %s", b, r.why)
			}
		}
	}
}

// TestRulesBite proves the rules can fail: the packages that do reach the
// network and the providers break the grading rule, and the command
// breaks the test-server rule's sibling, reaching every builtin.
func TestRulesBite(t *testing.T) {
	// Each rule, with packages that do what it forbids.
	for _, c := range []struct {
		rule string // the start of the rule's why
		dirs []string
	}{
		{"grading is a pure function", []string{"runner", "internal/provider", "cmd/..."}},
		{"rendering, comparing", []string{"runner", "internal/pipeline"}},
		{"the public packages are contracts", []string{"internal/testkit/providertest"}},
		{"the test kits", []string{"internal/testkit/providertest", "scripts/sidebyside/standin"}},
		{"the viewer, the exporters", []string{"internal/pipeline", "cmd/..."}},
		{"the record and suite formats", []string{"runner"}},
		{"the MCP client connects", []string{"internal/builtin"}},
	} {
		var r *rule
		for i := range rules {
			if strings.HasPrefix(rules[i].why, c.rule) {
				r = &rules[i]
			}
		}
		if r == nil {
			t.Fatalf("no rule %q", c.rule)
		}
		for _, dir := range c.dirs {
			if len(broken(t, *r, dir)) == 0 {
				t.Errorf("%s passes the rule %q; the rule checks nothing", dir, c.rule)
			}
		}
	}
}
