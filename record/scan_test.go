package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// readThrough reads dir with Open, collecting what Read returns at once.
func readThrough(dir string) (*Run, error) {
	r, err := Open(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	run := r.Run()
	if err := r.Each(func(a *Attempt) error { run.Attempts = append(run.Attempts, *a); return nil }); err != nil {
		return nil, err
	}
	if err := r.EachSuperseded(func(a *Attempt) error { run.Superseded = append(run.Superseded, *a); return nil }); err != nil {
		return nil, err
	}
	if len(run.Attempts) != r.Len() {
		return nil, errors.New("Len disagrees with Each")
	}
	return run, nil
}

// sameAsRead checks that a record file read attempt by attempt gives what
// Read gives: the same attempts in the same order, the same superseded
// ones, warnings, header and end, or the same error.
func sameAsRead(t *testing.T, dir string) {
	t.Helper()
	want, werr := Read(dir)
	got, gerr := readThrough(dir)
	if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
		t.Fatalf("errors differ: Read %v, Open %v", werr, gerr)
	}
	if werr != nil {
		return
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Open differs from Read (-Read +Open):\n%s", d)
	}
}

func writeRecord(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func attemptLine(t testing.TB, a *Attempt) string {
	b, err := json.Marshal(line{Attempt: a})
	if err != nil {
		t.Fatal(err)
	}
	return string(escapeJSON(b)) + "\n"
}

// TestOpenMatchesRead runs both readers over the repository's record
// fixtures, over records with retries, duplicates and torn lines, and
// over hostile records.
func TestOpenMatchesRead(t *testing.T) {
	for _, p := range []string{
		"../internal/report/testdata/record.jsonl",
		"../internal/report/htmlreport/testdata/run/record.jsonl",
		"../internal/publish/testdata/run/record.jsonl",
	} {
		t.Run(p, func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			sameAsRead(t, writeRecord(t, string(data)))
			sameAsRead(t, p) // a record file named directly
		})
	}
	errored := func(n int, msg string) *Attempt {
		return &Attempt{Case: "a/b", N: n, End: EndError, Error: &Error{Kind: KindProvider, Message: msg}}
	}
	answered := func(c string, n int, ans string) *Attempt {
		return &Attempt{Case: c, N: n, End: EndAnswered, Answer: ans, Turns: []Turn{{Text: ans, Calls: []Call{{ID: "1", Name: "t", Args: json.RawMessage(`{"x":1}`), Shown: true}}}}}
	}
	cases := map[string]string{
		"plain": hdr + attemptLine(t, answered("a/b", 1, "one")) + attemptLine(t, answered("c/d", 1, "two")) + `{"end":{"complete":true,"warnings":["left over"]}}` + "\n",
		"retry supersedes error": hdr + attemptLine(t, errored(1, "503")) + attemptLine(t, answered("a/b", 2, "kept")) +
			attemptLine(t, answered("a/b", 1, "retried")) + attemptLine(t, answered("a/b", 2, "ignored")),
		"retries chained": hdr + attemptLine(t, errored(1, "first")) + attemptLine(t, errored(1, "second")) +
			attemptLine(t, answered("a/b", 1, "third")) + attemptLine(t, errored(1, "fourth: ignored")),
		"torn last line":         hdr + attemptLine(t, answered("a/b", 1, "one")) + `{"attempt":{"case":"a/b","n":2,"pro`,
		"whole line, no newline": hdr + strings.TrimSuffix(attemptLine(t, answered("a/b", 1, "one")), "\n"),
		"two ends":               hdr + `{"end":{"complete":false,"reason":"interrupted"}}` + "\n" + attemptLine(t, answered("a/b", 1, "one")) + `{"end":{"complete":true}}` + "\n",
		"only a header":          hdr,
		"empty":                  "",
		"no header":              attemptLine(t, answered("a/b", 1, "one")),
		"second header":          hdr + hdr,
		"bad line later":         hdr + attemptLine(t, answered("a/b", 1, "one")) + "{\n",
		"wrong format":           `{"header":{"format":"mcpeval-record/0"}}` + "\n",
		"control chars":          hdr + attemptLine(t, answered("a/b", 1, "SGD 1\x1b[31m\x00\u2028")),
		"error no why":           hdr + `{"attempt":{"case":"a/b","n":1,"end":"error"}}` + "\n",
		"case id shared":         hdr + attemptLine(t, answered("a/b", 1, "x")) + attemptLine(t, answered("a/b", 2, "y")) + attemptLine(t, answered("a/b", 3, "z")),
		// Lines that only a full decoding refuses, wherever they are: Open
		// decodes attempt lines in full only when it reads them back.
		"turns an object":  hdr + attemptLine(t, answered("a/b", 1, "x")) + `{"attempt":{"case":"a/b","n":2,"end":"answered","turns":{}}}` + "\n",
		"error a string":   hdr + `{"attempt":{"case":"a/b","n":1,"end":"answered","error":"x"}}` + "\n",
		"error null":       hdr + `{"attempt":{"case":"a/b","n":1,"end":"error","error":null}}` + "\n",
		"bad duplicate":    hdr + attemptLine(t, answered("a/b", 1, "x")) + `{"attempt":{"case":"a/b","n":1,"end":"answered","turns":7}}` + "\n",
		"bad superseded":   hdr + `{"attempt":{"case":"a/b","n":1,"end":"error","error":{"kind":"provider"},"turns":7}}` + "\n" + attemptLine(t, answered("a/b", 1, "x")),
		"bad, then broken": hdr + `{"attempt":{"case":"a/b","n":1,"end":"answered","turns":7}}` + "\n" + attemptLine(t, answered("a/b", 2, "x")) + "{\n",
		"bad before a bad retry": hdr + attemptLine(t, errored(1, "503")) + `{"attempt":{"case":"c/d","n":1,"end":"answered","answer":5}}` + "\n" +
			`{"attempt":{"case":"a/b","n":1,"end":"answered","turns":7}}` + "\n",
		"attempt first": `{"attempt":{"case":"a/b","n":1,"turns":{}}}` + "\n",
		"torn, bad":     hdr + attemptLine(t, answered("a/b", 1, "x")) + `{"attempt":{"case":"a/b","n":2,"end":"answered","turns":7}}`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) { sameAsRead(t, writeRecord(t, body)) })
	}
}

// TestReaderLoad reads single attempts back by key, after a retry.
func TestReaderLoad(t *testing.T) {
	body := hdr + attemptLine(t, &Attempt{Case: "a/b", N: 1, End: EndError, Error: &Error{Kind: KindTimeout, Message: "slow"}}) +
		attemptLine(t, &Attempt{Case: "a/b", N: 1, End: EndAnswered, Answer: "retried"})
	r, err := Open(writeRecord(t, body))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	a, err := r.Load(AttemptKey{"a/b", 1})
	if err != nil || a == nil || a.Answer != "retried" {
		t.Fatalf("Load a/b #1: %+v, %v; want the retry", a, err)
	}
	if a, err := r.Load(AttemptKey{"a/b", 2}); a != nil || err != nil {
		t.Errorf("Load a/b #2: %+v, %v; want nil, nil", a, err)
	}
	if d := cmp.Diff([]AttemptKey{{"a/b", 1}}, r.Keys()); d != "" {
		t.Errorf("keys (-want +got):\n%s", d)
	}
	n := 0
	for a, err := range r.Attempts() {
		if err != nil || a.Answer != "retried" {
			t.Errorf("iterator: %+v, %v", a, err)
		}
		n++
	}
	if n != 1 {
		t.Errorf("iterator gave %d attempts, want 1", n)
	}
}

// TestReaderNoticesRewrite: a record rewritten under an open Reader (which
// no writer does) is an error, not another attempt passed off as the one
// asked for.
func TestReaderNoticesRewrite(t *testing.T) {
	dir := writeRecord(t, hdr+attemptLine(t, &Attempt{Case: "a/b", N: 1, End: EndAnswered, Answer: "one"}))
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	os.WriteFile(filepath.Join(dir, FileName), []byte(hdr+attemptLine(t, &Attempt{Case: "x/y", N: 1, End: EndAnswered, Answer: "two"})), 0o644)
	err = r.Each(func(*Attempt) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "changed since it was opened") {
		t.Errorf("err %v, want the record changed", err)
	}
}

// TestScanStopsAtCallerError: Scan returns fn's error and hands no more.
func TestScanStopsAtCallerError(t *testing.T) {
	body := hdr + attemptLine(t, &Attempt{Case: "a/b", N: 1, End: EndAnswered}) + attemptLine(t, &Attempt{Case: "a/b", N: 2, End: EndAnswered})
	stop := errors.New("stop")
	n := 0
	_, err := Scan(writeRecord(t, body), func(*Attempt) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("err %v after %d attempts, want stop after 1", err, n)
	}
}

// FuzzOpenMatchesRead checks Open against Read on any input. Seeds are
// FuzzParse's.
func FuzzOpenMatchesRead(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, FileName), data, 0o644); err != nil {
			t.Fatal(err)
		}
		sameAsRead(t, dir)
	})
}

// fuzzSeeds reads FuzzParse's seed corpus.
func fuzzSeeds(f *testing.F) [][]byte {
	ms, _ := filepath.Glob("testdata/fuzz/FuzzParse/*")
	var out [][]byte
	for _, m := range ms {
		data, err := os.ReadFile(m)
		if err != nil {
			f.Fatal(err)
		}
		// The corpus file format: a version line, then []byte("...").
		lines := bytes.SplitN(data, []byte("\n"), 2)
		if len(lines) < 2 {
			continue
		}
		body := strings.TrimSpace(string(lines[1]))
		body = strings.TrimSuffix(strings.TrimPrefix(body, "[]byte("), ")")
		s, err := strconv.Unquote(body)
		if err != nil {
			continue
		}
		out = append(out, []byte(s))
	}
	return out
}

// TestReadHeader reads only the first line, as Read reads it, and refuses
// what Read refuses there.
func TestReadHeader(t *testing.T) {
	p := "../internal/report/testdata/record.jsonl"
	whole, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	h, err := ReadHeader(p)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(&whole.Header, h); d != "" {
		t.Errorf("header (-Read +ReadHeader):\n%s", d)
	}
	for name, body := range map[string]string{
		"empty":        "",
		"not a header": `{"end":{}}` + "\n",
		"other format": `{"header":{"format":"mcpeval-record/0"}}` + "\n",
		"not JSON":     "name: x\n",
	} {
		dir := writeRecord(t, body)
		_, rerr := Read(dir)
		_, herr := ReadHeader(dir)
		if herr == nil || rerr == nil || herr.Error() != rerr.Error() {
			t.Errorf("%s: ReadHeader error %v, Read's %v", name, herr, rerr)
		}
	}
}

// TestOpenSharesPlannedIDs: the planned attempts of one case share one
// copy of its id, which a header decoded holds once per attempt.
func TestOpenSharesPlannedIDs(t *testing.T) {
	dir := t.TempDir()
	h := &Header{Planned: []Planned{{Case: "spend/groceries", N: 1}, {Case: "spend/groceries", N: 2}, {Case: "b", N: 1}}}
	w, err := Create(dir, h)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := r.Run().Header.Planned
	if len(p) != 3 || p[0].Case != "spend/groceries" || unsafe.StringData(p[0].Case) != unsafe.StringData(p[1].Case) {
		t.Errorf("planned %v: the attempts of one case hold two copies of its id", p)
	}
}
