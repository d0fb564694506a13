package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
)

// TestEverythingAsks runs examples/everything-asks on the reference test
// server: its sampling request is answered by fake:perfect and its
// elicitation as the suite (and one case) says, and the record holds
// both on the call that asked, and the run's Markdown and HTML reports
// show them.
func TestEverythingAsks(t *testing.T) {
	base := startEverything(t)
	out := filepath.Join(t.TempDir(), "run")
	s, code, stderr := runJSON(t, "run", "--suite", filepath.Join("..", "..", "examples", "everything-asks"),
		"--target", base+"/mcp", "--json", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s.Totals.Graded != 3 || s.Totals.Passed != 3 {
		t.Errorf("totals %+v, want 3 of 3 passed", s.Totals)
		for _, c := range s.Cases {
			for _, a := range c.Attempts {
				t.Logf("  %s: %s %v", c.ID, a.Verdict, a.Reasons)
			}
		}
	}
	rec, err := record.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]record.Call{}
	for _, a := range rec.Attempts {
		for _, c := range a.Calls() {
			calls[a.Case] = c
		}
	}
	sc := calls["asks/sampling"]
	if len(sc.Sampling) != 1 {
		t.Fatalf("sampling call: %d sampling turns recorded, want 1: %+v", len(sc.Sampling), sc)
	}
	sm := sc.Sampling[0]
	if want := fake.SampledText("perfect"); sm.Turn.Text != want || !strings.Contains(sc.Result, want) {
		t.Errorf("sampling answered %q, result %q: want %q in both", sm.Turn.Text, sc.Result, want)
	}
	if sm.System == "" || len(sm.Messages) != 1 || !strings.Contains(sm.Messages[0].Text, "a haiku about herons") || sm.MaxTokens != 50 {
		t.Errorf("sampling request recorded as %+v", sm)
	}
	ec := calls["asks/elicitation"]
	if len(ec.Elicitations) != 1 || ec.Elicitations[0].Action != "accept" || !strings.Contains(string(ec.Elicitations[0].Content), "Ada Lovelace") || len(ec.Elicitations[0].Schema) == 0 {
		t.Errorf("elicitation recorded as %+v", ec.Elicitations)
	}
	if !strings.Contains(ec.Result, "Ada Lovelace") {
		t.Errorf("the server did not get the accepted content: %q", ec.Result)
	}
	dc := calls["asks/elicitation-declined"]
	if len(dc.Elicitations) != 1 || dc.Elicitations[0].Action != "decline" {
		t.Errorf("the case's own elicitation: recorded %+v, want decline", dc.Elicitations)
	}
	reportsShowAsks(t, out, sm.Turn.Text)
}

// reportsShowAsks checks that the Markdown and HTML reports of the run in
// dir show its sampling request with the answer sampled, and its
// elicitation answers.
func reportsShowAsks(t *testing.T, dir, sampled string) {
	t.Helper()
	page := filepath.Join(t.TempDir(), "run.html")
	var md, errb bytes.Buffer
	if code := Main(context.Background(), []string{"report", dir, "--markdown", "--html", page}, nil, &md, &errb); code != 0 {
		t.Fatalf("mcpeval report: exit %d: %s", code, errb.String())
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"    - **sampling** answered by the model under test (at most 50 tokens)",
		"      - user: ",
		"a haiku about herons",
		"      - answer (",
		"): " + report.EscapeMarkdown(sampled),
		"      - answer: **accept** `{\"check\":true,",
		`"name":"Ada Lovelace"`,
		"      - answer: **decline**",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown report does not say %q:\n%s", want, md.String())
		}
	}
	for _, want := range []string{
		"the server asked the model under test for at most 50 tokens",
		"a haiku about herons",
		sampled,
		`answer: <b class="elicit-action">accept</b>`,
		"Ada Lovelace",
		`answer: <b class="elicit-action">decline</b>`,
	} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the HTML report does not say %q", want)
		}
	}
}
