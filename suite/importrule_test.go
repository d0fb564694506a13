package suite

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestImportRule: the suite's import: settings load, and a rule that
// picks nothing, names no case of the suite or does not compile is
// refused at its line.
func TestImportRule(t *testing.T) {
	const cases = "cases:\n  - {id: a/one, prompt: One?, decline: true}\n  - {id: a/two, prompt: Two?, decline: true}\n"
	for _, tc := range []struct {
		name, settings string
		want           []string // empty: it loads
	}{
		{"attribute", "import: {match: attribute, attribute: app.case_id}\n", nil},
		{"rules", "import:\n  match: rules\n  rules:\n    - {case: a/one, prompt_regex: '(?i)^one\\?$'}\n    - {case: a/two, attribute: app.route, equals: /two}\n", nil},
		{"no match", "import: {attribute: x}\n", []string{"s/suite.yaml:2: import: no match: want match: prompt, attribute or rules", "s/suite.yaml:2: import: attribute goes with match: attribute"}},
		{"bad match", "import: {match: regex}\n", []string{`s/suite.yaml:2: import: match "regex": want prompt, attribute or rules`}},
		{"rules without", "import: {match: rules}\n", []string{"s/suite.yaml:2: import: match: rules needs rules"}},
		{"bad rules", "import:\n  match: rules\n  rules:\n    - {case: a/one}\n    - {case: a/three, prompt_regex: '('}\n    - {case: a/two, attribute: k}\n    - {case: a/two, prompt_regex: '.*'}\n    - {case: a/one, prompt_regex: x, attribute: k, equals: v}\n",
			[]string{
				"s/suite.yaml:5: import: rule 1: picks nothing",
				"s/suite.yaml:6: import: rule 2: prompt_regex: error parsing regexp",
				"s/suite.yaml:6: import: rule 2: no case a/three in the suite",
				"s/suite.yaml:7: import: rule 3: want attribute and equals together",
				`s/suite.yaml:8: import: rule 4: prompt_regex ".*" matches the empty string`,
				"s/suite.yaml:9: import: rule 5: want prompt_regex, or attribute with equals, not both",
			}},
		{"unknown field", "import:\n  match: rules\n  rules:\n    - {cases: a/one}\n", []string{`s/suite.yaml:5:8: unknown field "cases" in an import rule (want case, prompt_regex, attribute, equals): did you mean "case"?`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{"suite.yaml": {Data: []byte("name: s\n" + tc.settings + cases)}}
			s, err := LoadFS(fsys, ".", "s")
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				if s.Import == nil || s.Import.Match == "" {
					t.Fatalf("import %+v: want the settings read", s.Import)
				}
				return
			}
			if err == nil {
				t.Fatal("loaded, want an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\ndoes not hold\n%s", err, w)
				}
			}
		})
	}
}
