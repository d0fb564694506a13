package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/model"
)

// benchAttempt is an attempt the size of a household one: a tool call
// whose result is about 1 KB of text and its structured copy, then the
// answer, with the blocks the model sent.
func benchAttempt(n int) *Attempt {
	rows := make([]string, 0, 24)
	for m := 1; m <= 24; m++ {
		rows = append(rows, fmt.Sprintf(`{"month":"2025-%02d","income":%d.50,"spent":%d.25}`, m%12+1, 5000+m*37, 3000+m*29))
	}
	structured := json.RawMessage(`{"rows":[` + strings.Join(rows, ",") + `]}`)
	args := json.RawMessage(`{"months":12}`)
	call := Call{ID: "toolu_01", Name: "cash_flow", Args: args, Result: string(structured), Structured: structured, Shown: true, DurationMS: 1}
	return &Attempt{
		Case: "single-tool/cash-flow", N: n, Prompt: "How much did we spend last month, and how does it compare with the month before?",
		Start: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), End: EndAnswered, DurationMS: 12,
		Answer: "Last month you spent SGD 3,696.25, SGD 29 more than the month before (SGD 3,667.25).",
		Turns: []Turn{
			{StopReason: "tool_use", Usage: model.Usage{Input: 1200, Output: 40}, LatencyMS: 5, Calls: []Call{call},
				Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "toolu_01", Name: "cash_flow", Args: args}}}},
			{Text: "Last month you spent SGD 3,696.25, SGD 29 more than the month before (SGD 3,667.25).",
				StopReason: "end_turn", Usage: model.Usage{Input: 2100, Output: 38}, LatencyMS: 6},
		},
	}
}

// BenchmarkEncodeAttempt measures encoding one attempt line as the writer
// does (JSON, then the line-terminator escapes), without the disk.
func BenchmarkEncodeAttempt(b *testing.B) {
	a := benchAttempt(1)
	b.ReportAllocs()
	for b.Loop() {
		buf, err := json.Marshal(line{Attempt: a})
		if err != nil {
			b.Fatal(err)
		}
		buf = escapeJSON(buf)
		b.SetBytes(int64(len(buf)))
	}
}

// BenchmarkWriteAttempt measures appending one attempt to a record file,
// synced to disk before it returns, as a run does for every attempt.
func BenchmarkWriteAttempt(b *testing.B) {
	w, err := Create(b.TempDir(), &Header{RunID: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	a := benchAttempt(1)
	b.ReportAllocs()
	for b.Loop() {
		if err := w.Attempt(a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse measures reading back a record of 100 attempts; the
// figures are per attempt.
func BenchmarkParse(b *testing.B) {
	var rec bytes.Buffer
	hb, _ := json.Marshal(line{Header: &Header{Format: Format, RunID: "bench"}})
	rec.Write(append(hb, '\n'))
	const n = 100
	for i := 1; i <= n; i++ {
		ab, _ := json.Marshal(line{Attempt: benchAttempt(i)})
		rec.Write(append(ab, '\n'))
	}
	data := rec.Bytes()
	b.SetBytes(int64(len(data) / n))
	b.ReportAllocs()
	for b.Loop() {
		r, err := Parse(bytes.NewReader(data), "bench")
		if err != nil || len(r.Attempts) != n {
			b.Fatalf("parse: %v (%d attempts)", err, len(r.Attempts))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/attempt")
}
