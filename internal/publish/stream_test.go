package publish

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/record"
)

// plantedRecord rewrites the record of e's run as times copies of its
// attempts (numbered on), each answer and tool result carrying an email
// address that redaction must remove, and rereads e.rec from it.
func plantedRecord(t *testing.T, e *env, times int, email string) {
	t.Helper()
	base := e.rec
	perCase := map[string]int{}
	for _, a := range base.Attempts {
		perCase[a.Case] = max(perCase[a.Case], a.N)
	}
	h := base.Header
	h.Planned = nil
	var lines bytes.Buffer
	enc := json.NewEncoder(&lines)
	for k := 0; k < times; k++ {
		for _, a := range base.Attempts {
			a.N += k * perCase[a.Case]
			h.Planned = append(h.Planned, record.Planned{Case: a.Case, N: a.N})
			a.Turns = append([]record.Turn(nil), a.Turns...)
			for j := range a.Turns {
				a.Turns[j].Calls = append([]record.Call(nil), a.Turns[j].Calls...)
				for c := range a.Turns[j].Calls {
					a.Turns[j].Calls[c].Result = `{"owner":"` + email + `"}`
				}
			}
			if a.Answer != "" {
				a.Answer += " Asked by " + email + "."
			}
			if err := enc.Encode(struct {
				Attempt *record.Attempt `json:"attempt"`
			}{&a}); err != nil {
				t.Fatal(err)
			}
		}
	}
	h.Attempts *= times
	dir := filepath.Join(e.dir, "run")
	os.Remove(filepath.Join(dir, record.FileName))
	w, err := record.Create(dir, &h)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	f, err := os.OpenFile(filepath.Join(dir, record.FileName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(lines.Bytes())
	json.NewEncoder(f).Encode(struct {
		End *record.End `json:"end"`
	}{base.End})
	f.Close()
	if e.rec, err = record.Read(dir); err != nil {
		t.Fatal(err)
	}
}

// TestStreamedRunPublishesAsWhole: a run handed to Publish without its
// attempts (read as a stream, as mcpeval publish reads it) is graded,
// reviewed, counted and priced from its record, and its page's
// transcripts are read from it and redacted: the row and every file
// written are those of the run read whole. Both for a run whose page
// shows every attempt and for one large enough to be paged.
func TestStreamedRunPublishesAsWhole(t *testing.T) {
	const email = "ops@family.example"
	for _, times := range []int{1, htmlreport.SmallRun/12 + 1} {
		t.Run(fmt.Sprint(times*12), func(t *testing.T) {
			e := setup(t, "testdata/suite.yaml")
			plantedRecord(t, e, times, email)
			path, hash := e.rec.Header.Suite.Path, e.rec.Header.Suite.Hash
			e.review("single-tool/net-worth", 2, review.GraderFalseFail, "fine, asked by "+email)
			e.opts.Redact = &redact.Config{Emails: []string{email}}
			rd, err := record.Open(filepath.Join(e.dir, "run"))
			if err != nil {
				t.Fatal(err)
			}
			streamed := rd.Run()
			rd.Close()
			streamed.Header.Suite.Path, streamed.Header.Suite.Hash = path, hash
			e.rec.Header.Suite.Path, e.rec.Header.Suite.Hash = path, hash

			publishInto := func(rec *record.Run, into string) (*Outcome, map[string]string) {
				opts := e.opts
				opts.Ledger, opts.Site = filepath.Join(e.dir, into, "results.json"), filepath.Join(e.dir, into, "site")
				out, err := Publish(rec, opts)
				if err != nil {
					t.Fatal(err)
				}
				if len(out.Refusals) > 0 {
					t.Fatalf("refused: %v", out.Refusals)
				}
				written := map[string]string{}
				for p, body := range files(t, filepath.Join(e.dir, into)) {
					rel, _ := filepath.Rel(filepath.Join(e.dir, into), p)
					written[rel] = body
				}
				return out, written
			}
			wholeOut, whole := publishInto(e.rec, "whole")
			streamOut, stream := publishInto(streamed, "stream")
			if streamed.Attempts != nil {
				t.Fatal("publishing read the run into the caller's run")
			}
			sj, _ := json.Marshal(streamOut.Row)
			wj, _ := json.Marshal(wholeOut.Row)
			if string(sj) != string(wj) {
				t.Errorf("row read as a stream:\n%s\nwant, read whole:\n%s", sj, wj)
			}
			if streamOut.Row.Attempts != times*12 {
				t.Errorf("the row counts %d attempts, want %d", streamOut.Row.Attempts, times*12)
			}
			if len(stream) != 3 || len(stream) != len(whole) {
				t.Fatalf("wrote %d files read as a stream, %d read whole", len(stream), len(whole))
			}
			for name, body := range whole {
				if stream[name] != body {
					t.Errorf("%s differs, read as a stream from read whole", name)
				}
				if strings.Contains(stream[name], email) {
					t.Errorf("%s holds the planted address", name)
				}
			}
			if page := stream[filepath.Join("site", streamOut.Row.Page)]; !strings.Contains(page, "Asked by [redacted:email]") {
				t.Error("the page shows no redacted transcript")
			}
		})
	}
}
