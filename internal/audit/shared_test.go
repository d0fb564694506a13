package audit

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/suite"
)

// sharedSuite has two action cases: repo/shared builds its fixture with a
// command that names no token (one repository every attempt works on) and
// repo/own one named by the attempt's token.
const sharedSuite = `name: shared
allow_writes: true
actions:
  teardown:
    - command: [sh, fixture.sh, clean]
cases:
  - id: repo/shared
    prompt: Add a line to notes.txt saying done.
    action:
      kind: write
      fixtures:
        - command: [sh, fixture.sh, reset-repo]
      steps:
        - tool: write_file
          args: {path: {literal: notes.txt}}
  - id: repo/own
    prompt: Add a line to notes-{{token}}.txt saying done.
    action:
      kind: write
      fixtures:
        - command: [sh, fixture.sh, make, "notes-{{token}}.txt"]
      steps:
        - tool: write_file
          args: {path: {literal: "notes-{{token}}.txt"}}
`

func loadShared(t *testing.T, text string) *suite.Suite {
	t.Helper()
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(text)}}, "suite.yaml", "test")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSharedStateWarnings: a suite whose action cases build fixtures that
// carry no token warns, naming those cases, when attempts run at once;
// serial: true, concurrency: 1 or a run at concurrency 1 silence it.
func TestSharedStateWarnings(t *testing.T) {
	s := loadShared(t, sharedSuite)
	w := SharedStateWarnings(s, 0)
	if len(w) != 1 || !strings.Contains(w[0], "repo/shared") || strings.Contains(w[0], "repo/own") ||
		!strings.Contains(w[0], "4 attempts at once") || !strings.Contains(w[0], "serial: true") {
		t.Errorf("warnings %q: want one naming repo/shared alone, the concurrency and the remedy", w)
	}
	if w := SharedStateWarnings(s, 2); len(w) != 1 || !strings.Contains(w[0], "2 attempts at once") {
		t.Errorf("at concurrency 2: warnings %q", w)
	}
	if w := SharedStateWarnings(s, 1); len(w) != 0 {
		t.Errorf("at concurrency 1: warnings %q", w)
	}
	for _, setting := range []string{"serial: true\n", "concurrency: 1\n"} {
		if w := SharedStateWarnings(loadShared(t, setting+sharedSuite), 0); len(w) != 0 {
			t.Errorf("%q: warnings %q", setting, w)
		}
	}
	teardown := strings.Replace(sharedSuite, `        - command: [sh, fixture.sh, make, "notes-{{token}}.txt"]`,
		`        - command: [sh, fixture.sh, make, "notes-{{token}}.txt"]
          teardown: {command: [git, reset, --hard]}`, 1)
	if w := SharedStateWarnings(loadShared(t, teardown), 0); len(w) != 1 || !strings.Contains(w[0], "repo/shared, repo/own") {
		t.Errorf("a fixture's teardown that names no token: warnings %q, want both cases named", w)
	}
}
