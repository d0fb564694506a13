package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
)

// withReads grades testdata/record.jsonl against testdata/suite.yaml, its
// first attempt having read the server's resources twice and its second
// once when reads is set, as a suite with resources: true records them.
func withReads(t *testing.T, reads bool) (*grade.Result, *record.Header) {
	t.Helper()
	s, r := testRun(t, "record")
	if reads {
		read := func(name, args string) record.Call {
			return record.Call{ID: name, Name: name, Args: json.RawMessage(args), Result: "{}", Kind: record.CallResource}
		}
		r.Attempts[0].Turns = append([]record.Turn{{Calls: []record.Call{read("list_resources", `{}`), read("read_resource", `{"uri":"file:///a"}`)}}}, r.Attempts[0].Turns...)
		r.Attempts[1].Turns = append([]record.Turn{{Calls: []record.Call{read("read_resource", `{"uri":"file:///b"}`)}}}, r.Attempts[1].Turns...)
	}
	return grade.Run(s, r), &r.Header
}

// TestResourceReadsInReports: a run whose model read the server's
// resources says how often in text, Markdown and JSON; a run that read
// none says nothing of them.
func TestResourceReadsInReports(t *testing.T) {
	const line = "resource reads: 3 (in 2 attempts)"
	for _, reads := range []bool{true, false} {
		res, h := withReads(t, reads)
		out := render(t, res, h, "record.jsonl", nil)
		var got struct {
			ResourceReads *grade.ResourceReads `json:"resource_reads"`
		}
		if err := json.Unmarshal([]byte(out.js), &got); err != nil {
			t.Fatal(err)
		}
		if !reads {
			if strings.Contains(out.text, "resource reads") || strings.Contains(out.md, "resource reads") || strings.Contains(out.js, "resource_reads") {
				t.Errorf("a run without resource reads mentions them:\n%s\n%s\n%s", out.text, out.md, out.js)
			}
			continue
		}
		if !strings.Contains(out.text, "\n"+line+"\n") {
			t.Errorf("text lacks %q:\n%s", line, out.text)
		}
		if !strings.Contains(out.md, "\nresource reads: 3 \\(in 2 attempts\\)\n") && !strings.Contains(out.md, "\n"+line+"\n") {
			t.Errorf("Markdown lacks %q:\n%s", line, out.md)
		}
		if got.ResourceReads == nil || *got.ResourceReads != (grade.ResourceReads{Reads: 3, Attempts: 2}) {
			t.Errorf("JSON resource_reads = %+v, want 3 reads in 2 attempts:\n%s", got.ResourceReads, out.js)
		}
	}
}

// TestResourceReadsLine: one attempt is one attempt, none is no line.
func TestResourceReadsLine(t *testing.T) {
	for _, c := range []struct {
		rr   *grade.ResourceReads
		want string
	}{
		{nil, ""},
		{&grade.ResourceReads{}, ""},
		{&grade.ResourceReads{Reads: 1, Attempts: 1}, "resource reads: 1 (in 1 attempt)"},
		{&grade.ResourceReads{Reads: 5, Attempts: 3}, "resource reads: 5 (in 3 attempts)"},
	} {
		if got := ResourceReadsLine(c.rr); got != c.want {
			t.Errorf("ResourceReadsLine(%+v) = %q, want %q", c.rr, got, c.want)
		}
	}
}
