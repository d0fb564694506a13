package script

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/suite"
)

// TestCheckCases checks that a script key matching no case of the suite
// is an error located in the script and naming the nearest case id.
func TestCheckCases(t *testing.T) {
	su, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(`name: demo
cases:
  - {id: single-tool/net-worth-now, prompt: p, decline: true}
  - {id: single-tool/fd-balance, prompt: p, decline: true}
  - {id: dates/net-worth-march-2026, prompt: p, decline: true}
`)}}, "suite.yaml", "suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse([]byte(`single-tool/net-worth-now:
  - say: fine
singel-tool/fd-balance:
  - say: typo
dates/net-worth-march:
  - say: cut short
`), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	err = s.CheckCases(su)
	if err == nil {
		t.Fatal("no error for two unknown case ids")
	}
	want := []string{
		`s.yaml:3: case "singel-tool/fd-balance" is not in suite demo (nearest: single-tool/fd-balance)`,
		`s.yaml:5: case "dates/net-worth-march" is not in suite demo (nearest: dates/net-worth-march-2026)`,
	}
	if got := err.Error(); got != strings.Join(want, "\n") {
		t.Errorf("error\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	ok, _ := Parse([]byte("single-tool/fd-balance:\n  - say: fine\n"), "ok.yaml")
	if err := ok.CheckCases(su); err != nil {
		t.Errorf("a script of known cases: %v", err)
	}
	if err := s.CheckCases(nil); err != nil {
		t.Errorf("no suite: %v", err)
	}
}
