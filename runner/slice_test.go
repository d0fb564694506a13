package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bigServer is an in-process server of 500 read-only tools, d00_t000 to
// d09_t049: ten domains of fifty.
func bigServer(bool) (*mcp.Server, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "1"}, nil)
	for d := range 10 {
		for i := range 50 {
			name := fmt.Sprintf("d%02d_t%03d", d, i)
			s.AddTool(&mcp.Tool{Name: name, Description: "Tool " + name + ".", InputSchema: json.RawMessage(`{"type":"object"}`),
				Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " done"}}}, nil
				})
		}
	}
	return s, nil
}

// requestsModel answers like fake:perfect and keeps every request's tools
// and tool choice, by case.
type requestsModel struct {
	model.Model
	mu   sync.Mutex
	reqs map[string][]sentRequest
}

type sentRequest struct {
	tools  []string
	choice string
}

func (m *requestsModel) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	m.mu.Lock()
	m.reqs[req.CaseID] = append(m.reqs[req.CaseID], sentRequest{toolNames(req), req.ToolChoice.String()})
	m.mu.Unlock()
	return m.Model.Generate(ctx, req)
}

const sliceSuite = `name: sliced
target: builtin:big
slice:
  max_tools: 64
  seed: SEED
  domains:
    first: [d00_*]
    last: [d09_*]
cases:
  - id: dom/first
    prompt: Do the first thing.
    tools: {required: [d00_t001]}
    key: {calls: [{tool: d00_t001}], answer: Done.}
  - id: spread/two
    prompt: Do two things.
    tools: {required: [d05_t010], accepted: [d07_t003, d07_t004]}
    key: {calls: [{tool: d05_t010}, {tool: d07_t004}], answer: Done.}
  - id: dom/last
    prompt: Do the last thing, carefully.
    tools: {forbidden: [d01_t000], domains: [last]}
    key: {calls: [{tool: d09_t049}], answer: Done.}
  - id: choice/named
    prompt: Pick one.
    mode: tool-call
    expect_tools: [d02_t002]
    tool_choice: {tool: d02_t002}
    key: {calls: [{tool: d02_t002}]}
  - id: choice/any
    prompt: Do the first thing again.
    tools: {required: [d03_t000]}
    tool_choice: any
    key: {calls: [{tool: d03_t000}], answer: Done.}
`

func runSliced(t *testing.T, seed int) (*record.Run, *requestsModel, *suite.Suite) {
	t.Helper()
	s := loadSuite(t, strings.Replace(sliceSuite, "SEED", fmt.Sprint(seed), 1))
	perfect, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	m := &requestsModel{Model: perfect, reqs: map[string][]sentRequest{}}
	rec, err := Run(context.Background(), Config{
		Target: target.Config{Spec: "builtin:big", Builtins: target.Builtins{"big": bigServer}},
		Suite:  s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect", Fake: true}, Attempts: 2,
		OutDir: t.TempDir(), Now: clock(), NewID: func() string { return "run-slice" },
	})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return rec, m, s
}

// TestSliceOfALargeCatalog runs a suite with a slice against a generated
// server of 500 tools: every request stays within the cap and holds the
// tools the case names and its domains' tools; the record says what each
// case was shown, which is what its requests held; the same seed gives the
// same slices and another seed other distractors; and every case passes.
func TestSliceOfALargeCatalog(t *testing.T) {
	rec, m, s := runSliced(t, 3)
	shown := map[string][]string{}
	for _, c := range s.Cases {
		shown[c.ID] = checkCaseRequests(t, rec, c, m.reqs[c.ID])
	}
	checkDomainsShown(t, shown)
	if slices.Equal(shown["spread/two"], shown["choice/any"]) {
		t.Errorf("two cases were shown the same distractors")
	}
	checkSliceHeader(t, rec)
	checkCallsShown(t, rec)
	checkSliceGrade(t, s, rec)
	checkSeeds(t, s, shown)
}

// checkCaseRequests checks case c's requests: each within the cap of 64,
// holding the tools the case names, and holding what the record says the
// case was shown, which is the cap's worth. It returns what was shown.
func checkCaseRequests(t *testing.T, rec *record.Run, c *suite.Case, reqs []sentRequest) []string {
	t.Helper()
	if len(reqs) == 0 {
		t.Fatalf("case %s sent no request", c.ID)
	}
	recorded := CaseTools(&rec.Header, c.ID)
	for i, r := range reqs {
		if len(r.tools) > 64 {
			t.Errorf("case %s request %d offered %d tools, over the cap 64", c.ID, i+1, len(r.tools))
		}
		for _, need := range suite.SliceNamed(c) {
			if !slices.Contains(r.tools, need) {
				t.Errorf("case %s request %d lacks %s, which the case names", c.ID, i+1, need)
			}
		}
		if !slices.Equal(r.tools, recorded) {
			t.Errorf("case %s request %d offered other tools than the record says it was shown", c.ID, i+1)
		}
	}
	if len(recorded) != 64 {
		t.Errorf("case %s was shown %d tools, want the cap 64", c.ID, len(recorded))
	}
	return recorded
}

// checkDomainsShown checks that a case with a domain was shown all fifty
// of its tools.
func checkDomainsShown(t *testing.T, shown map[string][]string) {
	t.Helper()
	for _, dom := range []struct{ id, prefix string }{{"dom/first", "d00_"}, {"dom/last", "d09_"}} {
		for i := range 50 {
			if n := fmt.Sprintf("%st%03d", dom.prefix, i); !slices.Contains(shown[dom.id], n) {
				t.Errorf("case %s was not shown %s, of its domain", dom.id, n)
			}
		}
	}
}

// checkSliceHeader checks that the header lists the union of the slices'
// tools and the slice's cap and seed.
func checkSliceHeader(t *testing.T, rec *record.Run) {
	t.Helper()
	if len(rec.Header.Tools) >= 500 || len(rec.Header.Tools) < 64 {
		t.Errorf("the header lists %d tools: want the union of the slices", len(rec.Header.Tools))
	}
	var sl struct {
		MaxTools int   `json:"max_tools"`
		Seed     int64 `json:"seed"`
	}
	if err := json.Unmarshal(rec.Header.Extra[SliceKey], &sl); err != nil || sl.MaxTools != 64 || sl.Seed != 3 {
		t.Errorf("header slice %s (%v)", rec.Header.Extra[SliceKey], err)
	}
}

// checkCallsShown checks that no attempt ended in an error and every call
// was of a tool shown, accepted and without error.
func checkCallsShown(t *testing.T, rec *record.Run) {
	t.Helper()
	for _, a := range rec.Attempts {
		if a.End == record.EndError {
			t.Errorf("%s #%d: %v", a.Case, a.N, a.Error)
		}
		for _, c := range a.Calls() {
			if !c.Shown || c.Rejected != "" || c.IsError {
				t.Errorf("%s #%d: call %+v", a.Case, a.N, c)
			}
		}
	}
}

// checkSliceGrade checks that every attempt passes and the grade warns
// the measure is choice within the slice, and that it does not warn so
// once the record has no slice (it drops the record's slice).
func checkSliceGrade(t *testing.T, s *suite.Suite, rec *record.Run) {
	t.Helper()
	res := grade.Run(s, rec)
	if res.Totals.Passed != res.Totals.Graded || res.Totals.Graded != 10 {
		t.Errorf("graded %+v, want every attempt to pass", res.Totals)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool {
		return strings.Contains(w, "choice within the slice, not across the whole catalog")
	}) {
		t.Errorf("warnings %q do not say the measure is choice within the slice", res.Warnings)
	}
	delete(rec.Header.Extra, SliceKey)
	if w := grade.Run(s, rec).Warnings; slices.ContainsFunc(w, func(w string) bool { return strings.Contains(w, "slice") }) {
		t.Errorf("a run without a slice warns %q", w)
	}
}

// checkSeeds runs the suite again: the same seed gives the same slices,
// another seed other distractors.
func checkSeeds(t *testing.T, s *suite.Suite, shown map[string][]string) {
	t.Helper()
	again, _, _ := runSliced(t, 3)
	other, _, _ := runSliced(t, 4)
	for _, c := range s.Cases {
		if !slices.Equal(CaseTools(&again.Header, c.ID), shown[c.ID]) {
			t.Errorf("case %s: the same seed gave another slice", c.ID)
		}
	}
	if slices.Equal(CaseTools(&other.Header, "spread/two"), shown["spread/two"]) {
		t.Errorf("another seed gave the same distractors")
	}
}

// TestToolChoiceFirstRequestOnly: a case's tool_choice goes with its first
// request and no later one, a case without one sends none, and the record
// keeps what each case asked.
func TestToolChoiceFirstRequestOnly(t *testing.T) {
	rec, m, _ := runSliced(t, 3)
	for id, want := range map[string][]string{
		"choice/named": {"tool:d02_t002", "tool:d02_t002"}, // one request an attempt
		"choice/any":   {"any", "", "any", ""},             // two attempts of two turns
		"spread/two":   {"", "", "", "", "", ""},
	} {
		var got []string
		for _, r := range m.reqs[id] {
			got = append(got, r.choice)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("case %s sent tool choices %q, want %q", id, got, want)
		}
	}
	var choices map[string]string
	if err := json.Unmarshal(rec.Header.Extra[ToolChoiceKey], &choices); err != nil ||
		len(choices) != 2 || choices["choice/named"] != "tool:d02_t002" || choices["choice/any"] != "any" {
		t.Errorf("header tool_choice %s (%v)", rec.Header.Extra[ToolChoiceKey], err)
	}
}

// TestSliceStopsBeforeAnyRequest: a domain matching no tool, a case whose
// domains overflow the cap, and a tool_choice naming a tool the target
// does not list each stop the run before any model request.
func TestSliceStopsBeforeAnyRequest(t *testing.T) {
	base := strings.Replace(sliceSuite, "SEED", "1", 1)
	for _, tc := range []struct{ old, new, want string }{
		{"last: [d09_*]", "last: [d09_*, x_*]", `slice.domains.last: "x_*" matches no tool of the target`},
		{"tools: {forbidden: [d01_t000], domains: [last]}", "tools: {forbidden: [d01_t000], domains: [last, first]}", "case dom/last: its slice needs 101 tools (2 it names, 99 more of their domains), more than slice.max_tools 64"},
		{"expect_tools: [d02_t002]\n    tool_choice: {tool: d02_t002}", "expect_tools: [d02_t999]\n    tool_choice: {tool: d02_t999}", "unknown tool \"d02_t999\""},
	} {
		body := strings.Replace(base, tc.old, tc.new, 1)
		s, err := loadSuiteB(body)
		if err != nil {
			if strings.Contains(err.Error(), tc.want) {
				continue // caught when the suite is read
			}
			t.Fatalf("%s: %v", tc.new, err)
		}
		perfect, _ := fake.New("perfect", s)
		m := &requestsModel{Model: perfect, reqs: map[string][]sentRequest{}}
		_, err = Run(context.Background(), Config{
			Target: target.Config{Spec: "builtin:big", Builtins: target.Builtins{"big": bigServer}},
			Suite:  s, Model: m, Attempts: 1, OutDir: t.TempDir(),
		})
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(m.reqs) > 0 {
			t.Errorf("%s: err %v, %d cases asked; want %q before any request", tc.new, err, len(m.reqs), tc.want)
		}
	}
}

// TestSliceRecordedForEveryCase: a run of some cases (a filter, a shard)
// records every case's slice and tool choice, so that the headers of a
// run's shards agree and their merge says what each case was shown.
func TestSliceRecordedForEveryCase(t *testing.T) {
	full, _, s := runSliced(t, 3)
	perfect, _ := fake.New("perfect", s)
	part, err := Run(context.Background(), Config{
		Target: target.Config{Spec: "builtin:big", Builtins: target.Builtins{"big": bigServer}},
		Suite:  s, Model: perfect, Attempts: 1, Cases: []string{"dom/first"}, OutDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Cases {
		if !slices.Equal(CaseTools(&part.Header, c.ID), CaseTools(&full.Header, c.ID)) {
			t.Errorf("case %s: a run of one case records another slice than the full run", c.ID)
		}
	}
	if string(part.Header.Extra[ToolChoiceKey]) != string(full.Header.Extra[ToolChoiceKey]) {
		t.Errorf("tool choices %s, the full run's %s", part.Header.Extra[ToolChoiceKey], full.Header.Extra[ToolChoiceKey])
	}
}
