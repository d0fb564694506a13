package record

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

const hdr = `{"header":{"format":"mcpeval-record/1","run_id":"r"}}` + "\n"

// locatedRecord matches an error that names the record file and a line.
var locatedRecord = regexp.MustCompile(`^r\.jsonl:\d+: `)

// TestHostileRecords feeds Parse malformed records: each gets an error
// naming the file and line, never a panic.
func TestHostileRecords(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"header of the wrong type", `{"header":["mcpeval-record/1"]}` + "\n", "r.jsonl:1: not a record line"},
		{"run id a number", `{"header":{"format":"mcpeval-record/1","run_id":5}}` + "\n", "r.jsonl:1: not a record line"},
		{"attempt n a string", hdr + `{"attempt":{"case":"a/b","n":"one"}}` + "\n", "r.jsonl:2: not a record line"},
		{"turns an object", hdr + `{"attempt":{"case":"a/b","n":1,"turns":{}}}` + "\n", "r.jsonl:2: not a record line"},
		{"n overflows", hdr + `{"attempt":{"case":"a/b","n":99999999999999999999999}}` + "\n", "r.jsonl:2: not a record line"},
		{"attempt with no case", hdr + `{"attempt":{"n":1,"end":"answered"}}` + "\n", "r.jsonl:2: an attempt with no case"},
		{"attempt with no number", hdr + `{"attempt":{"case":"a/b","end":"answered"}}` + "\n", "r.jsonl:2: an attempt numbered below 1"},
		{"error without why", hdr + `{"attempt":{"case":"a/b","n":1,"end":"error"}}` + "\n", "r.jsonl:2: an attempt that ended in error without saying why"},
		{"null line", hdr + "null\n", "r.jsonl:2: an empty record line"},
		{"null attempt", hdr + `{"attempt":null}` + "\n", "r.jsonl:2: an empty record line"},
		{"blank line", hdr + "\n" + `{"end":{}}` + "\n", "r.jsonl:2: not a record line"},
		{"deep nesting", hdr + `{"attempt":{"case":"a/b","n":1,"turns":[{"calls":[{"args":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}]}]}}` + "\n", "r.jsonl:2: not a record line"},
		{"NUL bytes", hdr + "\x00\x00\x00\n", "r.jsonl:2: not a record line"},
		{"a YAML file", "name: household\ncases: []\n", "r.jsonl:1: not a record line"},
		{"binary", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "r.jsonl:1: not a record line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.body), "r.jsonl")
			if err == nil {
				t.Fatal("read, want an error")
			}
			if !strings.Contains(err.Error(), tc.want) || !locatedRecord.MatchString(err.Error()) {
				t.Errorf("error %q, want a located one containing %q", err, tc.want)
			}
		})
	}
}

// TestEnormousLine checks that a line longer than MaxLine is refused with
// its line number, without reading the rest.
func TestEnormousLine(t *testing.T) {
	rd := io.MultiReader(strings.NewReader(hdr+`{"attempt":{"case":"a/b","n":1,"answer":"`), endless{})
	_, err := Parse(rd, "r.jsonl")
	if err == nil || !strings.HasPrefix(err.Error(), "r.jsonl:2: line longer than") {
		t.Fatalf("err %v, want r.jsonl:2: line longer than ...", err)
	}
}

// endless reads as an unending run of x.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// TestInvalidUTF8IsRead checks that invalid UTF-8 inside a record's strings
// does not make it unreadable: it reads back as U+FFFD.
func TestInvalidUTF8IsRead(t *testing.T) {
	body := hdr + "{\"attempt\":{\"case\":\"a/b\",\"n\":1,\"end\":\"answered\",\"answer\":\"caf\xe9 \xff\xfe\"}}\n"
	run, err := Parse(strings.NewReader(body), "r.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if a := run.Attempts[0].Answer; !utf8.ValidString(a) || a != "caf\uFFFD \uFFFD\uFFFD" {
		t.Errorf("answer %q", a)
	}
}

// TestHostileTextRoundTrips writes a tool result and a model answer full
// of control characters, terminal escapes and invalid UTF-8, and checks
// that the record stays one line per attempt, printable, valid UTF-8
// JSON, and reads back with every valid character as it was.
func TestHostileTextRoundTrips(t *testing.T) {
	var b strings.Builder
	for c := 0; c < 0x20; c++ {
		b.WriteByte(byte(c))
	}
	b.WriteString("\x7f\u0085\u009b\u2028\u2029\u202e\ufeff")
	b.WriteString("\x1b[2J\x1b]0;owned\x07\x1b[31mred\x1b[0m")
	valid := b.String()
	hostile := valid + "\xff\xc3\x28\xed\xa0\x80"
	dir := t.TempDir()
	w, err := Create(dir, header())
	if err != nil {
		t.Fatal(err)
	}
	a := &Attempt{Case: "a/b", N: 1, Prompt: "p", End: EndAnswered, Answer: hostile,
		Turns: []Turn{{Text: hostile, Calls: []Call{{ID: "c1", Name: "t", Args: json.RawMessage(`{}`), Result: hostile, Shown: true}}}}}
	if err := w.Attempt(a); err != nil {
		t.Fatal(err)
	}
	if err := w.End(&End{Complete: true}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(data) {
		t.Error("the record is not valid UTF-8")
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if len(lines) != 3 {
		t.Fatalf("record has %d lines, want 3 (header, attempt, end)", len(lines))
	}
	for i, l := range lines {
		for _, r := range string(l) {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e {
				t.Errorf("line %d holds the raw control character %U", i+1, r)
			}
		}
	}
	run, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := run.Attempts[0]
	for name, s := range map[string]string{"answer": got.Answer, "turn text": got.Turns[0].Text, "tool result": got.Turns[0].Calls[0].Result} {
		if !strings.HasPrefix(s, valid) {
			t.Errorf("%s: the valid characters did not round-trip:\n got %q\nwant %q...", name, s, valid)
		}
		if !utf8.ValidString(s) || strings.Count(s[len(valid):], "\uFFFD") == 0 {
			t.Errorf("%s: invalid UTF-8 tail read back as %q", name, s[len(valid):])
		}
	}
}

// TestCreateLeavesNoPartialRecord checks that Create never leaves a record
// file without its whole header: a second Create in the same directory is
// refused, and no temporary file is left behind.
func TestCreateLeavesNoPartialRecord(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, header())
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, err := Create(dir, header()); err == nil || !strings.Contains(err.Error(), "already holds a record") {
		t.Errorf("second Create: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != FileName {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("run directory holds %v, want only %s", names, FileName)
	}
	st, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("record mode %v (%v), want 0644", st.Mode(), err)
	}
	run, err := Read(dir)
	if err != nil || run.Header.RunID != "r1" {
		t.Errorf("read back %+v, %v", run, err)
	}
}

// TestEscapeJSON checks that the extra escaping leaves a line's value as it
// was and its text free of terminal controls.
func TestEscapeJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "\x7f", "\u0085\u009b[31m", "a\u202eb\u2066c\u200fd\u061ce", "é ü € 日本 🙂", "\u00a0\u00bf\u2030"} {
		b, _ := json.Marshal(map[string]string{"s": s})
		e := escapeJSON(b)
		var got map[string]string
		if err := json.Unmarshal(e, &got); err != nil || got["s"] != s {
			t.Errorf("%q: escaped %s decodes to %q (%v)", s, e, got["s"], err)
		}
		for _, r := range string(e) {
			if escapeInRecord(r) {
				t.Errorf("%q: escaped %s still holds %U", s, e, r)
			}
		}
	}
}
