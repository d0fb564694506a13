package suite

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestCaseDataFiles loads each suite of testdata/casedata: one whose
// comment says "ids: ..." must load with those cases in that order; one
// whose comment has "error: ..." lines must be refused with an error
// holding each.
func TestCaseDataFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/casedata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/casedata archives: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			fsys := fstest.MapFS{}
			for _, af := range a.Files {
				fsys[af.Name] = &fstest.MapFile{Data: af.Data}
			}
			var ids, wantErrs []string
			for _, l := range strings.Split(string(a.Comment), "\n") {
				if v, ok := strings.CutPrefix(l, "ids: "); ok {
					ids = strings.Fields(v)
				}
				if v, ok := strings.CutPrefix(l, "error: "); ok {
					wantErrs = append(wantErrs, v)
				}
			}
			s, err := LoadFS(fsys, ".", "s")
			if len(wantErrs) == 0 {
				if err != nil {
					t.Fatalf("want it to load: %v", err)
				}
				var got []string
				for _, c := range s.Cases {
					got = append(got, c.ID)
				}
				if !slices.Equal(got, ids) {
					t.Errorf("cases %v, want %v", got, ids)
				}
				return
			}
			if err == nil {
				t.Fatal("loaded, want an error")
			}
			for _, w := range wantErrs {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\ndoes not hold\n%s", err, w)
				}
			}
		})
	}
}

// TestCSVCells: a CSV cell of an argument reads as a number or a boolean
// when it is written as one, and as text otherwise: a date stays text, as
// it does in JSON; a text field keeps a cell that reads as a number.
func TestCSVCells(t *testing.T) {
	s, err := LoadFS(fstest.MapFS{
		"suite.yaml": {Data: []byte("name: s\ncases_from: [a.csv]\n")},
		"a.csv":      {Data: []byte("id,prompt,no_invented_figures,key.calls.1.tool,key.calls.1.args.as_of,key.calls.1.args.n,key.calls.1.args.x,key.calls.1.args.ok,key.answer\na/b,2026,true,t,2026-03-31,3,1.5,false,42\n")},
	}, ".", "s")
	if err != nil {
		t.Fatal(err)
	}
	c := s.Cases[0]
	args := c.Key.Calls[0].Args
	if args["as_of"] != "2026-03-31" || args["n"] != 3 || args["x"] != 1.5 || args["ok"] != false {
		t.Errorf("args %#v: want as_of text, n 3, x 1.5, ok false", args)
	}
	if c.Prompt != "2026" || c.Key.Answer != "42" {
		t.Errorf("prompt %q, answer %q: want the cells' text", c.Prompt, c.Key.Answer)
	}
}

// docDataFiles are the case data files docs/suite.md shows: each block
// fenced as ```jsonl NAME or ```csv NAME, by NAME.
func docDataFiles(t *testing.T) map[string][]byte {
	t.Helper()
	b, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	rest := string(b)
	for {
		i := strings.Index(rest, "\n```")
		if i < 0 {
			return out
		}
		rest = rest[i+4:]
		info, body, ok := strings.Cut(rest, "\n")
		if !ok {
			return out
		}
		text, after, _ := strings.Cut(body, "```")
		rest = after
		lang, name, named := strings.Cut(info, " ")
		if named && (lang == "jsonl" || lang == "csv") {
			out[name] = []byte(text)
		}
	}
}

// messageRE finds a loader's message about a data file: FILE:LINE: ...
var messageRE = regexp.MustCompile(`\.(jsonl|csv):\d+:`)

// TestDocCaseData loads the suite of docs/suite.md's "Cases from data
// files" with the files it shows, and checks that each message the
// section quotes of a .jsonl or .csv file is one the loader gives (as
// testdata/casedata expects it).
func TestDocCaseData(t *testing.T) {
	b, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "### Cases from data files\n")
	if !ok {
		t.Fatalf("%s has no section Cases from data files", docFile)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	suiteYAML, _, _ := strings.Cut(sec[strings.Index(sec, "```yaml\n")+len("```yaml\n"):], "```")
	fsys := fstest.MapFS{"suite.yaml": {Data: []byte(suiteYAML)}}
	data := docDataFiles(t)
	if len(data) < 2 {
		t.Fatalf("%s shows %d case data files, want a .jsonl and a .csv", docFile, len(data))
	}
	for name, d := range data {
		fsys[name] = &fstest.MapFile{Data: d}
	}
	s, err := LoadFS(fsys, ".", "s")
	if err != nil {
		t.Fatalf("the section's suite does not load: %v", err)
	}
	var ids []string
	for _, c := range s.Cases {
		ids = append(ids, c.ID)
	}
	if want := []string{"unanswerable/stock-market", "single-tool/net-worth-today", "dates/net-worth-march"}; !slices.Equal(ids, want) {
		t.Errorf("cases %v, want %v", ids, want)
	}
	var expected strings.Builder
	archives, _ := filepath.Glob("testdata/casedata/*.txtar")
	for _, f := range archives {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		expected.Write(a.Comment)
	}
	quoted := 0
	for _, q := range strings.Split(sec, "`") {
		q = strings.Join(strings.Fields(q), " ")
		if !messageRE.MatchString(q) || strings.Contains(q, "...") {
			continue
		}
		quoted++
		if !strings.Contains(expected.String(), "s/"+q) {
			t.Errorf("%s quotes %q, which no test of testdata/casedata expects", docFile, q)
		}
	}
	if quoted < 2 {
		t.Errorf("%s quotes %d messages of data files, want at least 2", docFile, quoted)
	}
}
