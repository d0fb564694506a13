package suite

import (
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// fuzzLine is the form of every line of a load error: the file, then a line
// (and column), or a problem with the whole file.
var fuzzLine = regexp.MustCompile(`^suite\.yaml:(\d+(:\d+)?: |\s|\S+: (file is|reading))`)

// FuzzLoad checks that the suite loader never panics, that every error it
// gives is located, and that a suite it accepts is usable. Seeds are in
// testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(answerGood))
	f.Add([]byte("{name: x, tools: {include: [a], exclude: [a]}, cases: [{id: a/b, prompt: p, answer: {matches: '(', contains: []}}]}"))
	f.Add([]byte("name: x\ncases:\n  - id: a/b\n    mode: tool-call\n    prompt: p\n    expect_tools: [t]\n    expect_args: &c {a: *c}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := LoadFS(fstest.MapFS{"suite.yaml": {Data: data}}, "suite.yaml", "suite.yaml")
		if err != nil {
			for _, l := range strings.Split(err.Error(), "\n") {
				if !fuzzLine.MatchString(l) {
					t.Fatalf("error line %q is not located (whole error %q)", l, err)
				}
			}
			return
		}
		if s.Hash == "" || s.Name == "" {
			t.Fatalf("accepted a suite with no hash or name: %+v", s)
		}
		seen := map[string]bool{}
		for _, c := range s.Cases {
			if c.ID == "" || c.Group == "" || strings.TrimSpace(c.Prompt) == "" || c.Line <= 0 {
				t.Fatalf("accepted case %+v", c)
			}
			if seen[c.ID] {
				t.Fatalf("accepted duplicate id %s", c.ID)
			}
			seen[c.ID] = true
			if s.Case(c.ID) != c || s.AttemptsFor(c) <= 0 {
				t.Fatalf("case %s: lookup or attempts wrong", c.ID)
			}
			s.DatasetOf(c)
			for _, fig := range c.Figures {
				s.FigureTolerance(c, fig)
			}
		}
		s.Groups()
		if err := s.CheckTools(nil); err != nil {
			for _, l := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(l, "suite.yaml") {
					t.Fatalf("CheckTools error %q does not name the file", l)
				}
			}
		}
	})
}
