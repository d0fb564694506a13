package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// textTarget serves tools whose results are text only, as most Python and
// TypeScript servers' are: no structured content.
var textTarget = target.Config{Builtins: target.Builtins{
	"runner-test-text": func(bool) (*mcp.Server, error) {
		s := mcp.NewServer(&mcp.Implementation{Name: "text", Version: "1"}, nil)
		text := func(name, out string) {
			s.AddTool(&mcp.Tool{Name: name, Description: name, Annotations: readOnly, InputSchema: map[string]any{"type": "object"}},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out}}}, nil
				})
		}
		text("get_report", "Q3 report\nregion,units,revenue_eur\nNorth,1204,36120\nSouth,845,25350\nTotal revenue: EUR 61,470 (up 4.5%)")
		text("get_json", `{"total": 42, "items": [{"name": "a"}]}`)
		return s, nil
	},
}}

// preflightOf runs the preflight of a suite whose settings are settings
// on the text server, as validate does, and returns each problem found.
func preflightOf(t *testing.T, dir, settings string) []string {
	t.Helper()
	body := "name: t\ntarget: builtin:runner-test-text\n" + settings + "cases:\n  - id: g/a\n    prompt: p\n    decline: true\n"
	if dir == "" {
		dir = t.TempDir()
	}
	p := filepath.Join(dir, "suite.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	ins, err := Validate(context.Background(), s, textTarget)
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	for _, c := range ins.Preflight.Checks {
		for _, pr := range c.Problems {
			problems = append(problems, c.Tool+": "+pr)
		}
	}
	if ins.Preflight.Valid != (len(problems) == 0) {
		t.Errorf("valid is %v with problems %q", ins.Preflight.Valid, problems)
	}
	return problems
}

// TestPreflightReadsTextAsJSON: the preflight reads a dotted path in a
// text result that is JSON, as the reference says ("the structured
// content, else its text read as JSON, else its text").
func TestPreflightReadsTextAsJSON(t *testing.T) {
	got := preflightOf(t, "", "preflight:\n  - tool: get_json\n    expect: {total: 42, items.0.name: a}\n")
	if len(got) > 0 {
		t.Errorf("problems: %q", got)
	}
}

// TestPreflightDottedPathOnPlainText: a path into a text that is not JSON
// leads nowhere, and the problem says what to use instead; the empty path
// is the whole text.
func TestPreflightDottedPathOnPlainText(t *testing.T) {
	got := preflightOf(t, "", "preflight:\n  - tool: get_report\n    expect: {total: 61470}\n")
	want := "get_report: check 1 (line 4): total: not in the result: the result is text, not JSON, so only the empty path leads into it (check its text with contains, matches or figures)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("problems %q\nwant %q", got, want)
	}
	whole := "Q3 report\nregion,units,revenue_eur\nNorth,1204,36120\nSouth,845,25350\nTotal revenue: EUR 61,470 (up 4.5%)"
	if got := preflightOf(t, "", "preflight:\n  - tool: get_report\n    expect: {\"\": \""+strings.ReplaceAll(whole, "\n", `\n`)+"\"}\n"); len(got) > 0 {
		t.Errorf("the empty path: %q", got)
	}
}

// TestPreflightChecksText: contains, matches and figures check a text
// result; a failed one names its check and line, says what was expected
// and quotes what came back.
func TestPreflightChecksText(t *testing.T) {
	pass := `preflight:
  - tool: get_report
    contains: [North, "South,845,25350"]
    matches: 'Total revenue: EUR [\d,]+'
    figures:
      - {value: 61470, kind: money, currency: EUR, tolerance: "0"}
      - {value: 4.5, kind: percent}
`
	if got := preflightOf(t, "", pass); len(got) > 0 {
		t.Errorf("problems: %q", got)
	}
	fail := `preflight:
  - tool: get_report
    contains: North
  - tool: get_report
    contains: West
    matches: 'Total revenue: USD'
    figures: [{value: 61480, label: total revenue}]
`
	got := preflightOf(t, "", fail)
	want := []string{
		`get_report: check 2 (line 6): contains "West": not in the text, which reads "Q3 report region,units,revenue_eur North,1204,36120`,
		`get_report: check 2 (line 6): matches "Total revenue: USD": nothing in the text matches, which reads "Q3 report`,
		`get_report: check 2 (line 6): figure 61,480 (exactly) for total revenue: not in the text, which reads "Q3 report`,
	}
	if len(got) != len(want) {
		t.Fatalf("problems %q, want %d", got, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d = %q\nwant it to start %q", i+1, got[i], want[i])
		}
	}
}

// TestPreflightCommand: a check may run a command instead of calling a
// tool, in the suite's directory, and check its output.
func TestPreflightCommand(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data.csv"), []byte("north,1204\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	settings := "preflight:\n  - command: [cat, data.csv]\n    contains: north\n    figures: [{value: 1204, kind: count}]\n"
	if got := preflightOf(t, dir, settings); len(got) > 0 {
		t.Errorf("problems: %q", got)
	}
	got := preflightOf(t, dir, "preflight:\n  - command: [cat, missing.csv]\n    contains: north\n")
	if len(got) != 1 || !strings.HasPrefix(got[0], "command cat missing.csv: check 1 (line 4): the command failed (exit status 1): ") || !strings.Contains(got[0], "missing.csv") {
		t.Errorf("a failed command: %q", got)
	}
}
