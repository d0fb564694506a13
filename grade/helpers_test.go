package grade

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// household holds the household server's tools and results, captured in
// testdata/household.
type household struct {
	tools   []record.Tool
	results map[string]struct {
		Text       string          `json:"text"`
		Structured json.RawMessage `json:"structured"`
	}
}

// loadHousehold reads the household server's tools and results captured
// in testdata/household.
func loadHousehold(t testing.TB) *household {
	t.Helper()
	h := &household{}
	for name, v := range map[string]any{"tools.json": &h.tools, "results.json": &h.results} {
		b, err := os.ReadFile(filepath.Join("testdata", "household", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return h
}

// header is a valid run's header showing the read-only tools, and the write
// tools too when writes is set.
func (h *household) header(writes bool) *record.Header {
	hd := &record.Header{Format: record.Format, RunID: "test", Preflight: record.Preflight{Valid: true}, Attempts: 3}
	for _, t := range h.tools {
		if t.ReadOnly || writes {
			hd.Tools = append(hd.Tools, t)
		}
	}
	return hd
}

// call is a successful call of a tool with args (JSON), answered with the
// captured result for "tool?months=N" when args set months, else "tool".
func (h *household) call(t testing.TB, tool, args string) record.Call {
	t.Helper()
	key := tool
	if args != "" {
		var m map[string]any
		if json.Unmarshal([]byte(args), &m) == nil {
			if months, ok := m["months"]; ok {
				b, _ := json.Marshal(months)
				key = tool + "?months=" + strings.Trim(string(b), `"`)
			}
		}
	} else {
		args = "{}"
	}
	r, ok := h.results[key]
	if !ok {
		r, ok = h.results[tool]
	}
	c := record.Call{ID: "c-" + tool, Name: tool, Args: json.RawMessage(args), Shown: true}
	if ok {
		c.Result, c.Structured = r.Text, r.Structured
	}
	return c
}

// keyCalls are the calls of case c's key, answered with the captured
// results.
func (h *household) keyCalls(t testing.TB, c *suite.Case) []record.Call {
	t.Helper()
	var calls []record.Call
	for _, k := range c.Key.Calls {
		args := ""
		if len(k.Args) > 0 {
			b, _ := json.Marshal(k.Args)
			args = string(b)
		}
		calls = append(calls, h.call(t, k.Tool, args))
	}
	return calls
}

// Answers to any household case that must fail it: a bare refusal (which
// does not say the data cannot answer) and one that invents numbers.
const (
	refusal  = "I'm sorry, I can't help with that."
	invented = "It is SGD 1,234,567 (up 12.5%), about 4,321 units."
)

// answered is an answered attempt with the given calls, one turn each.
func answered(c *suite.Case, answer string, calls ...record.Call) *record.Attempt {
	a := &record.Attempt{Case: c.ID, N: 1, Prompt: c.Prompt, End: record.EndAnswered, Answer: answer}
	for _, call := range calls {
		a.Turns = append(a.Turns, record.Turn{Calls: []record.Call{call}})
	}
	a.Turns = append(a.Turns, record.Turn{Text: answer})
	return a
}

func loadSuite(t *testing.T) *suite.Suite {
	t.Helper()
	s, err := suite.Load(filepath.Join("testdata", "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustCase(t *testing.T, s *suite.Suite, id string) *suite.Case {
	t.Helper()
	c := s.Case(id)
	if c == nil {
		t.Fatalf("no case %s in testdata/suite.yaml", id)
	}
	return c
}

func reasonsText(rs []Reason) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString("\n\t" + r.String())
	}
	return b.String()
}
