package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/agreement"
)

// TestJSONJudgedSaysTheAgreement: report --json's judged block names each
// judge model with its measured agreement with people (kappa, its
// interval, n, the day measured), as text and Markdown do, or
// "agreement": null when it is not measured.
func TestJSONJudgedSaysTheAgreement(t *testing.T) {
	type doc struct {
		Judged *struct {
			Passed int `json:"passed"`
			Graded int `json:"graded"`
			Judges []struct {
				Model     string           `json:"model"`
				Agreement *json.RawMessage `json:"agreement"`
			} `json:"judges"`
		} `json:"judged"`
	}
	res := judgedResult("anthropic:judge")
	for _, c := range []struct {
		name string
		opts []Option
		want string // the judge's agreement, as JSON; "null" when not measured
	}{
		{"none on file", nil, "null"},
		{"another judge's", []Option{WithAgreement(measured("openai:other"))}, "null"},
		{"measured", []Option{WithAgreement(withRuns(measured("anthropic:judge"), "r1", "r2"))}, `{"kappa":0.4,"kappa_low":0.15,"kappa_high":0.65,"n":50,"measured":"2026-11-30","runs":["r1","r2"]}`},
	} {
		var b bytes.Buffer
		if err := JSON(&b, res, nil, "record.jsonl", nil, c.opts...); err != nil {
			t.Fatal(err)
		}
		var d doc
		if err := json.Unmarshal(b.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		if d.Judged == nil || d.Judged.Passed != 3 || d.Judged.Graded != 4 || len(d.Judged.Judges) != 1 || d.Judged.Judges[0].Model != "anthropic:judge" {
			t.Fatalf("%s: judged block lacks its counts or its judge:\n%s", c.name, b.String())
		}
		got := "null"
		if a := d.Judged.Judges[0].Agreement; a != nil {
			var cb bytes.Buffer
			if err := json.Compact(&cb, *a); err != nil {
				t.Fatal(err)
			}
			got = cb.String()
		}
		if got != c.want {
			t.Errorf("%s: agreement = %s, want %s", c.name, got, c.want)
		}
		if c.want == "null" && !strings.Contains(b.String(), `"agreement": null`) {
			t.Errorf("%s: the unmeasured agreement is not written as null:\n%s", c.name, b.String())
		}
	}
}

func withRuns(s *agreement.Saved, runs ...string) *agreement.Saved {
	s.Runs = runs
	return s
}

// TestJSONJudgedWithoutJudge: judged cases no judge read list no judge,
// and a run without judged cases has no judged block.
func TestJSONJudgedWithoutJudge(t *testing.T) {
	res := judgedResult("m")
	for i := range res.Attempts {
		res.Attempts[i].Judged = nil
	}
	var b bytes.Buffer
	if err := JSON(&b, res, nil, "", nil, WithAgreement(measured("m"))); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"judges": []`) {
		t.Errorf("judged cases no judge read: want \"judges\": []:\n%s", b.String())
	}
	res.Judged = nil
	b.Reset()
	if err := JSON(&b, res, nil, "", nil, WithAgreement(measured("m"))); err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &top); err != nil {
		t.Fatal(err)
	}
	if _, ok := top["judged"]; ok || strings.Contains(b.String(), `"judges"`) {
		t.Errorf("a run without judged cases has a judged block:\n%s", b.String())
	}
}
