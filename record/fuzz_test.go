package record

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParse checks that the record reader never panics, that its errors
// and warnings are located, and that what it accepts is a usable record:
// a header of this format, no attempt twice, each attempt well formed, and
// the same when written out again and read back. Seeds are in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	a, _ := json.Marshal(line{Attempt: &Attempt{Case: "a/b", N: 1, End: EndAnswered, Answer: "SGD 1",
		Turns: []Turn{{Text: "x", Calls: []Call{{ID: "1", Name: "t", Args: json.RawMessage(`{"m":7}`), Result: "r", Shown: true}}}}}})
	f.Add([]byte(hdr + string(a) + "\n" + `{"end":{"complete":true}}` + "\n"))
	f.Add([]byte(hdr + `{"attempt":{"case":"a/b","n":2,"pro`))
	f.Fuzz(func(t *testing.T, data []byte) {
		run, err := Parse(bytes.NewReader(data), "r.jsonl")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "r.jsonl:") {
				t.Fatalf("error not located: %v", err)
			}
			return
		}
		if run.Header.Format != Format {
			t.Fatalf("accepted format %q", run.Header.Format)
		}
		for _, w := range run.Warnings {
			if !strings.HasPrefix(w, "r.jsonl:") {
				t.Fatalf("warning not located: %q", w)
			}
		}
		seen := map[Planned]bool{}
		for i := range run.Attempts {
			a := &run.Attempts[i]
			k := Planned{a.Case, a.N}
			if seen[k] || a.check() != nil {
				t.Fatalf("accepted attempt %+v (duplicate %v)", k, seen[k])
			}
			seen[k] = true
			a.Calls()
			a.Usage()
		}
		// What was read writes out and reads back the same.
		var buf bytes.Buffer
		for _, l := range []line{{Header: &run.Header}} {
			b, err := json.Marshal(l)
			if err != nil {
				t.Fatalf("re-encoding the header: %v", err)
			}
			buf.Write(append(escapeJSON(b), '\n'))
		}
		for i := range run.Attempts {
			b, err := json.Marshal(line{Attempt: &run.Attempts[i]})
			if err != nil {
				t.Fatalf("re-encoding an attempt: %v", err)
			}
			buf.Write(append(escapeJSON(b), '\n'))
		}
		again, err := Parse(&buf, "again.jsonl")
		if err != nil {
			t.Fatalf("a record read back does not read again: %v", err)
		}
		if len(again.Attempts) != len(run.Attempts) || len(again.Warnings) != 0 {
			t.Fatalf("read again: %d attempts (had %d), warnings %q", len(again.Attempts), len(run.Attempts), again.Warnings)
		}
	})
}
