package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// TestEverythingRootsAndProgress runs a suite declaring roots (one a path
// beside the suite) on the reference test server over streamable HTTP:
// its get-roots-list tool answers with the roots the client declared,
// the record's header keeps them, and the call of its long-running
// operation keeps the progress the server reported.
func TestEverythingRootsAndProgress(t *testing.T) {
	base := startEverything(t)
	dir := t.TempDir()
	suiteDir := filepath.Join(dir, "suite")
	if err := os.MkdirAll(filepath.Join(suiteDir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	body := `name: roots
target: ` + base + `/mcp
tools:
  include: [get-roots-list, trigger-long-running-operation]
attempts: 1
roots:
  - {uri: data, name: suite-data}
  - {uri: "file:///srv/shared", name: shared}
cases:
  - id: roots/list
    prompt: Which roots does the client declare?
    tools: {required: [get-roots-list]}
    key:
      calls: [{tool: get-roots-list}]
      answer: suite-data and shared.
  - id: progress/run
    prompt: Run the long operation in three steps.
    tools: {required: [trigger-long-running-operation]}
    key:
      calls: [{tool: trigger-long-running-operation, args: {duration: 0.6, steps: 3}}]
      answer: It finished.
`
	if err := os.WriteFile(filepath.Join(suiteDir, "suite.yaml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	_, code, stderr := runJSON(t, "run", "--suite", suiteDir, "--model", "fake:perfect", "--json", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rec, err := record.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join(suiteDir, "data"))
	dataURI := "file://" + filepath.ToSlash(abs)
	if len(rec.Header.Roots) != 2 || rec.Header.Roots[0].URI != dataURI || rec.Header.Roots[1].URI != "file:///srv/shared" {
		t.Errorf("header roots %+v, want %s and file:///srv/shared", rec.Header.Roots, dataURI)
	}
	for _, a := range rec.Attempts {
		calls := a.Calls()
		if len(calls) != 1 {
			t.Fatalf("%s: calls %+v", a.Case, calls)
		}
		c := calls[0]
		switch a.Case {
		case "roots/list":
			for _, want := range []string{dataURI, "suite-data", "file:///srv/shared"} {
				if !strings.Contains(c.Result, want) {
					t.Errorf("get-roots-list answered %q: want %s in it", c.Result, want)
				}
			}
		case "progress/run":
			// The last step's report may come after the result over HTTP.
			if len(c.Notes) < 2 || c.Notes[0].Kind != "progress" || c.Notes[0].Progress != 1 || c.Notes[0].Total != 3 {
				t.Errorf("notes of the long operation %+v: want its progress, 1 of 3 first", c.Notes)
			}
		}
	}
}
