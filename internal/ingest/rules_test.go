package ingest

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const rulesSuite = `name: s
import:
  match: rules
  rules:
    - {case: q/net, prompt_regex: '(?i)\bnet worth\b'}
    - {case: q/net, attribute: app.route, equals: /net-worth}
    - {case: q/cash, prompt_regex: '(?i)cash ?flow'}
    - {case: q/cash, attribute: app.route, equals: /cashflow}
cases:
  - {id: q/net, prompt: What's our net worth?, decline: true}
  - {id: q/cash, prompt: What's our cashflow?, decline: true}
`

func conv(from, prompt string, attrs map[string]string) Conversation {
	return Conversation{From: from, Attempt: record.Attempt{Prompt: prompt}, Attrs: attrs}
}

// TestSuiteRules matches conversations by the suite's import rules: a
// prompt or an attribute picks a case; a conversation no rule takes, or
// that rules of two cases take, is listed unmatched with why.
func TestSuiteRules(t *testing.T) {
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(rulesSuite)}}, ".", "s")
	if err != nil {
		t.Fatal(err)
	}
	m, ok := SuiteMatch(s)
	if !ok || m.By != ByRules || len(m.Rules) != 4 {
		t.Fatalf("SuiteMatch: %+v, %v: want the suite's four rules", m, ok)
	}
	convs := []Conversation{
		conv("must-match/prompt", "how much is our NET WORTH today", nil),
		conv("must-match/attribute", "hello", map[string]string{"app.route": "/cashflow"}),
		conv("must-match/both-same-case", "net worth please", map[string]string{"app.route": "/net-worth"}),
		conv("must-not/no-rule", "what is the weather", map[string]string{"app.route": "/weather"}),
		conv("must-not/word-inside", "our networth", nil),
		conv("must-not/attribute-differs", "hi", map[string]string{"app.route": "/cashflow/x"}),
		conv("must-not/two-cases", "net worth and cash flow", nil),
		conv("must-not/no-prompt", "", nil),
	}
	res, err := m.Apply(s, convs)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range res.Attempts {
		got[a.Prompt] = a.Case
	}
	for _, w := range []struct{ prompt, id string }{
		{"how much is our NET WORTH today", "q/net"},
		{"hello", "q/cash"},
		{"net worth please", "q/net"},
	} {
		if got[w.prompt] != w.id {
			t.Errorf("%q matched %q, want %s", w.prompt, got[w.prompt], w.id)
		}
	}
	if len(res.Attempts) != 3 {
		t.Errorf("%d matched, want 3: %+v", len(res.Attempts), got)
	}
	whys := map[string]string{}
	for _, u := range res.Unmatched {
		if !strings.HasPrefix(u.From, "must-not/") {
			t.Errorf("%s is unmatched (%s)", u.From, u.Why)
		}
		whys[u.From] = u.Why
	}
	for from, why := range map[string]string{
		"must-not/no-rule":           "no import rule holds",
		"must-not/word-inside":       "no import rule holds",
		"must-not/attribute-differs": "no import rule holds",
		"must-not/two-cases":         "import rules of several cases hold (q/net, q/cash)",
		"must-not/no-prompt":         "no rule holds, and it has no prompt",
	} {
		if !strings.Contains(whys[from], why) {
			t.Errorf("%s: unmatched because %q, want %q", from, whys[from], why)
		}
	}
}

// TestSuiteAttribute: a suite's match: attribute names its own attribute.
func TestSuiteAttribute(t *testing.T) {
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte("name: s\nimport: {match: attribute, attribute: app.case_id}\ncases:\n  - {id: q/net, prompt: Net?, decline: true}\n")}}, ".", "s")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := SuiteMatch(s)
	res, err := m.Apply(s, []Conversation{
		conv("a", "x", map[string]string{"app.case_id": "q/net"}),
		conv("b", "y", map[string]string{CaseAttribute: "q/net"}),
	})
	if err != nil || len(res.Attempts) != 1 || res.Attempts[0].Prompt != "x" || len(res.Unmatched) != 1 || res.Unmatched[0].Why != "no attribute app.case_id" {
		t.Errorf("matched %+v, unmatched %+v, %v: want a by app.case_id, b unmatched", res.Attempts, res.Unmatched, err)
	}
}
