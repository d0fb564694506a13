package actions_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/fixture"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/model/script"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// filesystemSuite is a small action suite for the reference filesystem
// server (@modelcontextprotocol/server-filesystem), a server we did not
// write that follows the MCP annotations: write_file, edit_file and
// move_file are destructive and take no approval argument. Paths are
// relative to the server's working directory, the folder it serves.
const filesystemSuite = `name: filesystem
target: stdio:node server.js .
allow_writes: true
actions:
  leak_exceptions:
    - {word: folder, why: "a folder is what the user asks for"}
cases:
  - id: read/shopping
    prompt: What is on my list in shopping-{{token}}.txt?
    action:
      kind: read
      fixtures:
        - tool: write_file
          args: {path: "shopping-{{token}}.txt", content: "milk\neggs\n"}
      steps:
        - tool: read_text_file
          args:
            path: {literal: "shopping-{{token}}.txt"}
      answer: Milk and eggs.

  - id: write/note
    prompt: Save a note called note-{{token}}.txt reminding me to call the plumber.
    action:
      kind: write
      steps:
        - tool: write_file
          args:
            path: {literal: "note-{{token}}.txt"}
            content: {authored: "Call the plumber ({{token}})."}
      verify:
        - tool: read_text_file
          args: {path: "note-{{token}}.txt"}
          expect: {content: "Call the plumber ({{token}})."}

  - id: write/edit
    prompt: In todo-{{token}}.txt, change "buy milk" to "buy oat milk".
    action:
      kind: write
      fixtures:
        - tool: write_file
          args: {path: "todo-{{token}}.txt", content: "buy milk\n"}
      steps:
        - tool: edit_file
          args:
            path: {literal: "todo-{{token}}.txt"}
            edits.0.oldText: {literal: "buy milk"}
            edits.0.newText: {literal: "buy oat milk"}
      verify:
        - tool: read_text_file
          args: {path: "todo-{{token}}.txt"}
          expect: {content: "buy oat milk\n"}

  - id: sequence/archive
    prompt: Make a new folder archive-{{token}} and move draft-{{token}}.txt into it.
    action:
      kind: sequence
      fixtures:
        - tool: write_file
          args: {path: "draft-{{token}}.txt", content: "a draft"}
      steps:
        - tool: create_directory
          args:
            path: {literal: "archive-{{token}}"}
        - tool: move_file
          args:
            source: {literal: "draft-{{token}}.txt"}
            destination: {authored: "archive-{{token}}/draft-{{token}}.txt"}
      verify:
        - tool: read_text_file
          args: {path: "archive-{{token}}/draft-{{token}}.txt"}
          expect: {content: "a draft"}
        - tool: read_text_file
          args: {path: "draft-{{token}}.txt"}
          error: true

  - id: decline/tidy
    prompt: Tidy up my files.
    action:
      kind: decline
`

// filesystemServer finds the reference filesystem server's entry point:
// MCPEVAL_FS_SERVER, else the copy .ci/run installs. Without node or the
// server the test is skipped, except in CI, which installs both.
func filesystemServer(t *testing.T) (node, server string) {
	t.Helper()
	server = os.Getenv("MCPEVAL_FS_SERVER")
	if server == "" {
		server, _ = filepath.Abs("../../.ci/npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
	}
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(server)
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the filesystem server cannot be run (.ci/run installs it at %s): %v", server, err)
		}
		t.Skipf("no node or no filesystem server at %s (%v): set MCPEVAL_FS_SERVER, or npm install @modelcontextprotocol/server-filesystem@2026.8.31", server, err)
	}
	return node, server
}

// filesystemSetup finds the filesystem server (skipping the test with
// -short, which runs no node) and loads the suite text under name.
func filesystemSetup(t *testing.T, text, name string) (node, server string, s *suite.Suite) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the reference filesystem server under node")
	}
	node, server = filesystemServer(t)
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(text)}}, "suite.yaml", name)
	if err != nil {
		t.Fatal(err)
	}
	return node, server, s
}

// TestFilesystemServer runs read, write, edit, sequence and decline cases
// on the real reference filesystem server with fake:perfect, twice each:
// every column must be full and every verify check must hold. Its write
// tools are destructive and take no approval, so a write case must pass
// without one; the sequence's authored destination names {{token}}, which
// must be sent rendered.
func TestFilesystemServer(t *testing.T) {
	node, server, s := filesystemSetup(t, filesystemSuite, "filesystem")
	dir := t.TempDir()
	for _, p := range []string{node, server, dir} {
		if strings.ContainsAny(p, " \t") {
			t.Skipf("%q has a space, which a stdio target spec cannot carry", p)
		}
	}
	tcfg := target.Config{Spec: "stdio:" + node + " " + server + " .", Dir: dir}
	const attempts = 2
	rec := run(t, s, tcfg, "perfect", attempts, 1)
	rep := checkColumns(t, s, rec, "perfect", attempts, nil)
	t.Logf("fake:perfect on the filesystem server: %+v", rep.Models[0].Columns)
	for _, a := range rep.Attempts {
		if len(a.Notes) > 0 {
			t.Errorf("%s #%d: fixture problems: %v", a.Case, a.N, a.Notes)
		}
	}
	// What the attempts made is on disk: the note, each time under its
	// own token, and the drafts moved into their archives.
	notes, _ := filepath.Glob(filepath.Join(dir, "note-*.txt"))
	moved, _ := filepath.Glob(filepath.Join(dir, "archive-*", "draft-*.txt"))
	if len(notes) != attempts || len(moved) != attempts {
		t.Errorf("on disk: notes %v, moved drafts %v; want %d of each", notes, moved, attempts)
	}
}

// toolCallSuite asks for write tools in tool-call cases: nothing executes,
// so a write tool is just the expected first call.
const toolCallSuite = `name: filesystem-pr
target: stdio:node server.js .
allow_writes: true
cases:
  - id: pr/write_file/note
    mode: tool-call
    prompt: Save "call the plumber" in plumber.txt.
    expect_tools: [write_file]
    expect_args: {path: plumber.txt}
    key:
      calls: [{tool: write_file, args: {path: plumber.txt, content: call the plumber}}]
  - id: pr/move_file/rename
    mode: tool-call
    prompt: Rename a.txt to b.txt.
    expect_tools: [move_file]
    expect_args: {source: a.txt, destination: b.txt}
    key:
      calls: [{tool: move_file, args: {source: a.txt, destination: b.txt}}]
`

// TestFilesystemToolCallCases runs tool-call cases on write tools of the
// real filesystem server with fake:perfect: every attempt passes, and
// nothing is written.
func TestFilesystemToolCallCases(t *testing.T) {
	node, server, s := filesystemSetup(t, toolCallSuite, "filesystem-pr")
	dir := t.TempDir()
	m, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := runner.Run(context.Background(), runner.Config{
		Suite: s, Target: target.Config{Spec: "stdio:" + node + " " + server + " .", Dir: dir}, Model: m,
		ModelInfo: model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true},
		Attempts:  1, OutDir: filepath.Join(t.TempDir(), "run"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Attempts) != 2 {
		t.Fatalf("%d attempts, want 2", len(rec.Attempts))
	}
	for _, a := range rec.Attempts {
		g := grade.Attempt(s, s.Case(a.Case), &rec.Header, &a)
		if g.Outcome != grade.Pass {
			t.Errorf("%s: %s %v", a.Case, g.Outcome, g.Reasons)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("a tool-call case wrote to the served folder: %v", left)
	}
}

// tokenScript acts on the files of the filesystem suite's token cases as a
// model that read the prompt would: by their names, {{token}} and all.
const tokenScript = `write/note:
  - call: write_file
    args: {path: "note-{{token}}.txt", content: "Call the plumber ({{token}})."}
  - say: "Saved note-{{token}}.txt."
sequence/archive:
  - call: create_directory
    args: {path: "archive-{{token}}"}
  - call: move_file
    args: '{"source": "draft-{{token}}.txt", "destination": "archive-{{token}}/draft-{{token}}.txt"}'
  - say: Moved.
`

// TestFilesystemScriptTokens runs a script:FILE model on the filesystem
// server: the cases it scripts, whose files are named by the attempt's
// token, pass, and their verify checks hold.
func TestFilesystemScriptTokens(t *testing.T) {
	node, server, s := filesystemSetup(t, filesystemSuite, "filesystem")
	m, err := script.Parse([]byte(tokenScript), "script.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m.Suite = s
	fx, _ := fixture.For(s)
	rec, err := runner.Run(context.Background(), runner.Config{
		Suite: s, Target: target.Config{Spec: "stdio:" + node + " " + server + " .", Dir: t.TempDir()}, Model: m,
		ModelInfo: model.Info{Spec: "script:script.yaml", Provider: "script", Name: "script.yaml", Fake: true},
		Attempts:  2, Cases: []string{"write/note", "sequence/archive"}, OutDir: filepath.Join(t.TempDir(), "run"), Fixtures: fx,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Attempts) != 4 {
		t.Fatalf("%d attempts, want 4", len(rec.Attempts))
	}
	for _, a := range rec.Attempts {
		r := actions.Score(s.Case(a.Case), &rec.Header, &a)
		if !r.Pass || len(r.Notes) > 0 {
			t.Errorf("%s #%d: pass %v, reasons %v, notes %v", a.Case, a.N, r.Pass, r.Reasons, r.Notes)
		}
	}
}
