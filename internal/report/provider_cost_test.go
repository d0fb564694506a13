package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// TestNewProvidersCost: a Gemini model its table prices shows dollars;
// Bedrock and Azure OpenAI models no table lists say "unpriced", never
// $0, in text, Markdown, JSON and HTML.
func TestNewProvidersCost(t *testing.T) {
	res := &grade.Result{RunID: "r", Model: "m", Valid: true,
		Attempts: []grade.AttemptGrade{{Case: "a", N: 1, Outcome: grade.Pass}},
		Cases:    []grade.CaseStats{{ID: "a", Group: "g", Counts: grade.Counts{Passed: 1, Graded: 1, Rate: 1}}},
		Groups:   []grade.GroupStats{{Name: "g", Counts: grade.Counts{Passed: 1, Graded: 1, Rate: 1}}},
		Totals:   grade.Totals{Counts: grade.Counts{Passed: 1, Graded: 1, Rate: 1}}}
	for _, c := range []struct {
		info         model.Info
		want, absent string
	}{
		// A 1M-token prompt is past the 200k tier: 1M input at $2.50 and 100k
		// output at $15: $4.00.
		{model.Info{Spec: "gemini:gemini-2.5-pro", Provider: "gemini", Name: "gemini-2.5-pro"}, "$4.00", "unpriced"},
		{model.Info{Spec: "bedrock:amazon.nova-pro-v1:0", Provider: "bedrock", Name: "amazon.nova-pro-v1:0"}, "unpriced", "$0"},
		{model.Info{Spec: "azure-openai:my-deployment", Provider: "azure-openai", Name: "my-deployment"}, "unpriced", "$0"},
	} {
		rec := &record.Run{Header: record.Header{RunID: "r", Model: c.info, Preflight: record.Preflight{Valid: true}},
			Attempts: []record.Attempt{{Case: "a", N: 1, Turns: []record.Turn{{Usage: model.Usage{Input: 1_000_000, Output: 100_000}}}}}}
		cost := usage.NewCost(rec, 1, nil)
		got := checkCost(t, c.info.Spec, render(t, res, &rec.Header, "", cost), c.want, c.absent)
		wantState := usage.Priced
		if c.want == "unpriced" {
			wantState = usage.Unpriced
		}
		if got.State != wantState || (wantState == usage.Unpriced) != (got.RunUSD == nil) {
			t.Errorf("%s json cost %+v, want %s", c.info.Spec, got, wantState)
		}
		var page bytes.Buffer
		if err := HTML(&page, &RunPage{Run: rec, Result: res}); err != nil {
			t.Fatal(err)
		}
		sec := page.String()[strings.Index(page.String(), "<h2>Cost</h2>"):]
		sec = sec[:strings.Index(sec, "</p>")]
		if !strings.Contains(sec, c.want) || strings.Contains(sec, c.absent) {
			t.Errorf("%s html cost section %q, want %q and no %q", c.info.Spec, sec, c.want, c.absent)
		}
	}
}
