package actions

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

const givenSuite = `name: git
target: builtin:none
cases:
  - id: read/log
    prompt: Show the 1 latest commit.
    action:
      kind: read
      steps:
        - tool: git_log
          args:
            repo_path: {given: /srv/repos/bakery}
            max_count: {literal: 1}
`

// givenHeader lists git_log, which requires repo_path when required is
// true.
func givenHeader(required bool) *record.Header {
	schema := `{"type":"object","properties":{"repo_path":{"type":"string"},"max_count":{"type":"integer"}}}`
	if required {
		schema = strings.Replace(schema, `}}}`, `}},"required":["repo_path"]}`, 1)
	}
	return &record.Header{Tools: []record.Tool{{Name: "git_log", ReadOnly: true, InputSchema: json.RawMessage(schema)}}}
}

// TestScoreGivenArgumentIsNotJudged: a given argument is neither right nor
// wrong in the Arguments column, whatever the model sends, and its absence
// is no missing argument. Left out where the tool's schema requires it,
// the call fails the schema and reaches no step, as any such call does,
// and the server's error is a tool error, graded as any other.
func TestScoreGivenArgumentIsNotJudged(t *testing.T) {
	s := loadSuite(t, givenSuite)
	c := s.Case("read/log")
	for _, args := range []string{
		`{"repo_path":"/srv/repos/bakery","max_count":1}`,
		`{"repo_path":"/home/me/elsewhere","max_count":1}`,
		`{"max_count":1}`,
	} {
		r := Score(c, givenHeader(false), attempt("read/log", call("git_log", args)))
		if !r.Pass || r.Columns.Arguments != (Column{1, 1}) {
			t.Errorf("%s: pass %v, arguments %s, reasons %v", args, r.Pass, r.Columns.Arguments, r.Reasons)
		}
	}
	r := Score(c, givenHeader(true), attempt("read/log", failed(call("git_log", `{"max_count":1}`))))
	reasons := strings.Join(r.Reasons, "; ")
	if r.Pass || strings.Contains(reasons, "argument repo_path") || !strings.Contains(reasons, "step 1 (git_log) not reached") ||
		!strings.Contains(reasons, "call 1 (git_log) failed") || r.Columns.Arguments != (Column{}) {
		t.Errorf("a rejected call: pass %v, reasons %v", r.Pass, r.Reasons)
	}
}
