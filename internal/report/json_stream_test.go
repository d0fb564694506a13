package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
)

// TestJSONWritesWhatTheEncoderWrites checks that JSON, which writes the
// summary attempt by attempt, writes byte for byte what json.Encoder
// writes of NewSummary: on a graded run, on one with a case without
// attempts and text to escape, and on one without cases.
func TestJSONWritesWhatTheEncoderWrites(t *testing.T) {
	res, h := graded(t, "record")
	odd := *res
	odd.Cases = append([]grade.CaseStats{{ID: "none", Group: "g", Prompt: "<b>\"attempts\": []\n& é"}}, res.Cases...)
	odd.Attempts = append([]grade.AttemptGrade{{Case: "none-other", N: 1}}, res.Attempts...)
	empty := *res
	empty.Cases, empty.Attempts = nil, nil
	for name, r := range map[string]*grade.Result{"record": res, "odd": &odd, "empty": &empty} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(NewSummary(r, h, "r/record.jsonl", nil)); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := JSON(&got, r, h, "r/record.jsonl", nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: JSON wrote\n%s\nwant\n%s", name, got.Bytes(), want.Bytes())
		}
	}
}
