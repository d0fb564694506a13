package main

import (
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/record"
)

// TestMarkdownTranscriptsPickFailuresFirst checks what mcpeval report
// --markdown promises: the transcripts of up to
// report.MaxMarkdownTranscripts attempts, failing and errored ones
// first, the rest counted.
func TestMarkdownTranscriptsPickFailuresFirst(t *testing.T) {
	n := report.MaxMarkdownTranscripts + 10
	res := &grade.Result{}
	var as []record.Attempt
	for i := 1; i <= n; i++ {
		o := grade.Pass
		switch {
		case i == n:
			o = grade.Fail
		case i == n-1:
			o = grade.Error
		}
		res.Attempts = append(res.Attempts, grade.AttemptGrade{Case: "a/b", N: i, Outcome: o})
		as = append(as, record.Attempt{Case: "a/b", N: i})
	}
	tr := newMDTranscripts(res)
	for i := range as {
		tr.add(&as[i])
	}
	got := tr.picked()
	if len(got.Attempts) != report.MaxMarkdownTranscripts || got.More != 10 {
		t.Fatalf("%d shown, %d more: want %d and 10", len(got.Attempts), got.More, report.MaxMarkdownTranscripts)
	}
	if got.Attempts[0].N != n-1 || got.Attempts[1].N != n || got.Attempts[2].N != 1 {
		t.Errorf("shown first: #%d, #%d, #%d: want the error, the failure, then #1", got.Attempts[0].N, got.Attempts[1].N, got.Attempts[2].N)
	}
	var none *mdTranscripts
	none.add(&as[0])
	if none.option() != nil || none.picked() != nil {
		t.Error("no Markdown asked for, yet transcripts were picked")
	}
}
