package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func header() *Header {
	return &Header{RunID: "r1", Start: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Attempts: 3,
		Planned: []Planned{{"a/b", 1}, {"a/b", 2}}, Preflight: Preflight{Valid: true}}
}

func TestWriteRead(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, header())
	if err != nil {
		t.Fatal(err)
	}
	a1 := &Attempt{Case: "a/b", N: 1, Prompt: "p", End: EndAnswered, Answer: "SGD 1\x1b[31m\x00", Turns: []Turn{{Text: "x"}}}
	a2 := &Attempt{Case: "a/b", N: 2, Prompt: "p", End: EndError, Error: &Error{Kind: KindTarget, Message: "crashed"}}
	for _, a := range []*Attempt{a1, a2} {
		if err := w.Attempt(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.End(&End{Complete: true}); err != nil {
		t.Fatal(err)
	}
	run, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]Attempt{*a1, *a2}, run.Attempts); d != "" {
		t.Errorf("attempts (-want +got):\n%s", d)
	}
	if !run.Complete() || run.Header.RunID != "r1" || run.Header.Format != Format || len(run.Warnings) != 0 {
		t.Errorf("run %+v", run)
	}
	if _, err := Create(dir, header()); err == nil || !strings.Contains(err.Error(), "already holds a record") {
		t.Errorf("second Create in the same directory: %v", err)
	}
	// Control characters are escaped: every record line is one line.
	data, _ := os.ReadFile(filepath.Join(dir, FileName))
	if n := strings.Count(string(data), "\n"); n != 4 {
		t.Errorf("record has %d lines, want 4", n)
	}
}

func TestTornLastLine(t *testing.T) {
	dir := t.TempDir()
	w, _ := Create(dir, header())
	w.Attempt(&Attempt{Case: "a/b", N: 1, End: EndAnswered})
	w.Close()
	p := filepath.Join(dir, FileName)
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"attempt":{"case":"a/b","n":2,"pro`)
	f.Close()
	run, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Attempts) != 1 || len(run.Warnings) != 1 || !strings.Contains(run.Warnings[0], "record.jsonl:3: torn last line") {
		t.Fatalf("attempts %d warnings %q", len(run.Attempts), run.Warnings)
	}
	if run.End != nil {
		t.Error("a killed run has an end")
	}
	// Resuming cuts the torn line off and appends after it.
	w2, err := Append(dir)
	if err != nil {
		t.Fatal(err)
	}
	w2.Attempt(&Attempt{Case: "a/b", N: 2, End: EndAnswered})
	w2.End(&End{Complete: true})
	run, err = Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Attempts) != 2 || len(run.Warnings) != 0 || !run.Complete() {
		t.Errorf("after resume: attempts %d warnings %q complete %v", len(run.Attempts), run.Warnings, run.Complete())
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"empty", "", "empty record"},
		{"no header", `{"attempt":{"case":"a","n":1}}` + "\n", "record.jsonl:1: not a record"},
		{"wrong format", `{"header":{"format":"other/9"}}` + "\n", `record format "other/9"`},
		{"garbage middle", `{"header":{"format":"mcpeval-record/1"}}` + "\nnot json\n" + `{"end":{}}` + "\n", "record.jsonl:2: not a record line"},
		{"second header", `{"header":{"format":"mcpeval-record/1"}}` + "\n" + `{"header":{"format":"mcpeval-record/1"}}` + "\n", "record.jsonl:2: a second header"},
		{"empty line object", `{"header":{"format":"mcpeval-record/1"}}` + "\n{}\n", "record.jsonl:2: an empty record line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, FileName), []byte(tc.body), 0o644)
			_, err := Read(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Read: %v, want %q", err, tc.want)
			}
		})
	}
}

func TestDuplicateAttemptIgnored(t *testing.T) {
	dir := t.TempDir()
	w, _ := Create(dir, header())
	w.Attempt(&Attempt{Case: "a/b", N: 1, Answer: "first"})
	w.Attempt(&Attempt{Case: "a/b", N: 1, Answer: "second"})
	w.Close()
	run, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Attempts) != 1 || run.Attempts[0].Answer != "first" || len(run.Warnings) != 1 {
		t.Errorf("attempts %+v warnings %q", run.Attempts, run.Warnings)
	}
}
