// Package examples_test runs the example suites against the real servers
// they were written for, installed from npm by .ci/run into .ci/npm:
// examples/filesystem on @modelcontextprotocol/server-filesystem and
// examples/memory-graph on @modelcontextprotocol/server-memory. With
// CI=true a missing node or server fails the test rather than skipping it.
package examples_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/audit"
	"github.com/mcpeval/mcpeval/internal/fixture"
	"github.com/mcpeval/mcpeval/internal/provider"
	"github.com/mcpeval/mcpeval/internal/testkit/actionstest"
	"github.com/mcpeval/mcpeval/internal/testkit/npm"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
)

// loadFilesystem copies examples/filesystem (its files, its data and its
// fixture script) into a fresh directory, with its target pointing at the
// server installed in .ci/npm, and loads it from there: each test works in
// a folder of its own, and the repository's stays untouched.
func loadFilesystem(t *testing.T) *suite.Suite {
	t.Helper()
	entry := npm.Server(t, "server-filesystem")
	dir := filepath.Join(t.TempDir(), "filesystem")
	if err := os.CopyFS(dir, os.DirFS("filesystem")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "suite.yaml")
	text, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	const installed = "../../.ci/npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
	if !bytes.Contains(text, []byte(installed)) {
		t.Fatalf("the suite's target does not run %s", installed)
	}
	if err := os.WriteFile(p, bytes.Replace(text, []byte(installed), []byte(entry), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { checkScratch(t, s) })
	return s
}

// scratch is the scratch folder of the suite's copy.
func scratch(s *suite.Suite) string { return filepath.Join(s.Path, "data", "scratch") }

// checkScratch fails the test when the scratch folder holds anything but
// its README, and empties it for the next run.
func checkScratch(t *testing.T, s *suite.Suite) {
	t.Helper()
	es, err := os.ReadDir(scratch(s))
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range es {
		if e.Name() != "README.md" {
			left = append(left, e.Name())
			os.RemoveAll(filepath.Join(scratch(s), e.Name()))
		}
	}
	if len(left) > 0 {
		t.Errorf("the run left %s in the scratch folder", strings.Join(left, ", "))
	}
}

// run puts suite s (the cases selected by filter, all when nil) to the
// model spec, attempts times each, through the runner with the suite's
// fixtures, and returns the record.
func run(t *testing.T, s *suite.Suite, spec string, attempts int, filter ...string) *record.Run {
	t.Helper()
	m, info, err := provider.Open(spec, provider.Options{Suite: s})
	if err != nil {
		t.Fatal(err)
	}
	cfg := runner.Config{
		Suite: s, Model: m, ModelInfo: info,
		Attempts: attempts, Concurrency: 2, Cases: filter, CallTimeout: 30 * time.Second,
		OutDir: filepath.Join(t.TempDir(), "run"),
	}
	if fx, ok := fixture.For(s); ok {
		cfg.Fixtures = fx
	}
	rec, err := runner.Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	if !rec.Complete() {
		t.Fatalf("%s: the run did not complete: %+v", spec, rec.End)
	}
	return rec
}

// actionCases are the groups of the suite's action cases.
var actionCases = []string{"write/", "sequence/", "destructive/", "decline/"}

// TestFilesystemPerfect: fake:perfect, replaying each case's key, passes
// every case of the suite on the real server, every action column is full,
// no verify check or teardown notes a problem, the leftovers check finds
// nothing, and the scratch folder is as it was.
func TestFilesystemPerfect(t *testing.T) {
	s := loadFilesystem(t)
	if msgs := audit.CleanupWarnings(s); len(msgs) > 0 {
		t.Errorf("cleanup warnings before the run: %v", msgs)
	}
	if msgs := audit.SharedStateWarnings(s, 0); len(msgs) > 0 {
		t.Errorf("shared-state warnings before the run: %v", msgs)
	}
	rec := run(t, s, "fake:perfect", 2)
	res := grade.Run(s, rec)
	if want := 2 * len(s.Cases); res.Totals.Graded != want || res.Totals.Passed != want {
		t.Errorf("fake:perfect passed %d of %d graded attempts, want %d of %d", res.Totals.Passed, res.Totals.Graded, want, want)
		for _, a := range res.Attempts {
			if a.Outcome != grade.Pass {
				t.Logf("  %s #%d %s: %v", a.Case, a.N, a.Outcome, a.Reasons)
			}
		}
	}
	if len(rec.Warnings) > 0 {
		t.Errorf("run warnings: %v", rec.Warnings)
	}
	rep := checkColumns(t, s, rec, "perfect", 2, nil)
	for _, a := range rep.Attempts {
		if len(a.Notes) > 0 {
			t.Errorf("%s #%d: fixture problems: %v", a.Case, a.N, a.Notes)
		}
	}
	// The report's kinds: the suite has each kind it claims.
	kinds := map[string]bool{}
	groups := map[string]bool{}
	for _, c := range s.Cases {
		groups[c.Group] = true
		if c.Action != nil {
			kinds[c.Action.Kind] = true
		}
	}
	for _, k := range []string{suite.KindWrite, suite.KindSequence, suite.KindDecline} {
		if !kinds[k] {
			t.Errorf("the suite has no %s case", k)
		}
	}
}

// The columns each fake variant loses on the filesystem server. No tool
// takes an approval argument, so only destructive/overwrite-after-asking
// needs one, given in the user's turn: a fake that writes before asking
// (no-confirm, acts-first) overwrites the file unapproved, which reaches
// no step and is a change nobody asked for.
var filesystemLoses = map[string][]string{
	"wrong-args":   {"Pass", "Arguments"},
	"no-confirm":   {"Pass", "Reached", "Confirmation", "Clean"},
	"declines":     {"Pass", "Reached", "Confirmation"},
	"extra-change": {"Pass", "Clean", "Declined"},
	"gives-up":     {"Pass", "Reached", "Confirmation"},
	"acts-first":   {"Pass", "Reached", "Confirmation", "Clean"},
	// Its change after the user's answer is the suite's stray write_file,
	// the step's own tool: it reaches the step, at the wrong path.
	"ignores-answer": {"Pass", "Arguments"},
	"asks-forever":   {"Pass", "Reached", "Confirmation"},
}

// TestFilesystemFakeColumns: each fake variant loses points in exactly its
// columns on the action cases, and leaves nothing behind.
func TestFilesystemFakeColumns(t *testing.T) {
	s := loadFilesystem(t)
	names := make([]string, 0, len(filesystemLoses))
	for n := range filesystemLoses {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			rec := run(t, s, "fake:"+name, 1, actionCases...)
			checkColumns(t, s, rec, name, 1, filesystemLoses[name])
			if len(rec.Warnings) > 0 {
				t.Errorf("run warnings: %v", rec.Warnings)
			}
			checkScratch(t, s)
		})
	}
}

// checkColumns checks that a fake's run of the action cases, attempts
// times each, lost exactly the columns listed, and that nothing was
// excluded.
func checkColumns(t *testing.T, s *suite.Suite, rec *record.Run, name string, attempts int, loses []string) *actions.Report {
	t.Helper()
	n := 0
	for _, c := range s.Cases {
		if c.Action != nil {
			n++
		}
	}
	return actionstest.CheckColumns(t, s, rec, name, attempts*n, loses)
}

// wrongScript answers cases of the filesystem suite as a careless model
// would: each case fails exactly one kind of check. read/q3-units-south is
// answered right, so that a failure is the answer's doing, not the
// script's; write/new-note passes with the token rendered in its call.
const wrongScript = `
read/q3-units-south:
  - call: read_text_file
    args: {path: sales/2026-q3.csv}
  - say: The South region sold 845 units in Q3 2026.
read/q3-revenue-total:
  - call: read_text_file
    args: {path: sales/2026-q3.csv}
  - say: Our total revenue in Q3 2026 was 109,000 EUR.
read/saturday-morning:
  - call: read_text_file
    args: {path: staff/rota.md}
  - say: Tomas works Saturday mornings.
read/extension:
  - call: read_text_file
    args: {path: staff/phone-list.txt}
  - say: Oskar is on 217; if he is out, Maja is on 214.
read/oven-delivery:
  - call: read_text_file
    args: {path: notes/2026-10-14-meeting.md}
  - say: The new oven arrives some time next month.
unanswerable/q4-revenue:
  - call: read_text_file
    args: {path: sales/2026-q3.csv}
  - say: Fourth-quarter revenue came to 112,500 EUR.
write/new-note:
  - call: write_file
    args: {path: "scratch/shopping-{{token}}.txt", content: 2 kg rye flour}
  - say: Done.
decline/delete-file:
  - call: write_file
    args: {path: "{{fact.old}}", content: ""}
  - say: I emptied the file, since I cannot delete it.
`

// TestFilesystemScriptedWrong: a scripted model's wrong answers fail the
// check each one breaks (figures, answer contains, not_contains, matches,
// decline, and declining an action), and nothing else.
func TestFilesystemScriptedWrong(t *testing.T) {
	s := loadFilesystem(t)
	script := filepath.Join(t.TempDir(), "wrong.yaml")
	if err := os.WriteFile(script, []byte(wrongScript), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		check string // the check that must fail; "" for a pass
		says  string // a word its reason must hold
	}{
		"read/q3-units-south":     {},
		"read/q3-revenue-total":   {grade.CheckFigures, "109,530"},
		"read/saturday-morning":   {"answer", "Lena"},
		"read/extension":          {"answer", "214"},
		"read/oven-delivery":      {"answer", "match"},
		"unanswerable/q4-revenue": {grade.CheckDecline, "cannot answer"},
		"write/new-note":          {},
		"decline/delete-file":     {grade.CheckAction, "decline case changed something"},
	}
	var ids []string
	for id := range want {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	rec := run(t, s, "script:"+script, 1, ids...)
	res := grade.Run(s, rec)
	got := map[string]grade.AttemptGrade{}
	for _, a := range res.Attempts {
		got[a.Case] = a
	}
	for _, id := range ids {
		w, g := want[id], got[id]
		if w.check == "" {
			if g.Outcome != grade.Pass {
				t.Errorf("%s: %s %v, want a pass", id, g.Outcome, g.Reasons)
			}
			continue
		}
		if g.Outcome != grade.Fail {
			t.Errorf("%s: %s, want a fail of check %s", id, g.Outcome, w.check)
			continue
		}
		var checks []string
		found := false
		for _, r := range g.Reasons {
			checks = append(checks, r.Check)
			found = found || r.Check == w.check && strings.Contains(r.Message, w.says)
		}
		if !found {
			t.Errorf("%s: reasons %v, want one of check %s saying %q", id, g.Reasons, w.check, w.says)
		}
		// The wrong answer breaks its own check; a decline with an
		// invented figure breaks grounding too.
		allowed := map[string]bool{w.check: true, grade.CheckInvented: id == "unanswerable/q4-revenue"}
		for _, c := range checks {
			if !allowed[c] {
				t.Errorf("%s: check %s failed too: %v", id, c, g.Reasons)
			}
		}
	}
	if len(got) != len(ids) {
		t.Errorf("%d cases graded, want %d", len(got), len(ids))
	}
}

// TestFilesystemLeftovers: with the teardown taken away, what the attempts
// wrote stays in the folder, and the run's leftovers check says so, naming
// the case; the scratch check of the other tests would catch it too.
func TestFilesystemLeftovers(t *testing.T) {
	s := loadFilesystem(t)
	s.Case("write/new-note").Action.Settings().Teardown = nil // shared by every case
	rec := run(t, s, "fake:perfect", 2, "write/new-note")
	var tokens []string
	for _, a := range rec.Attempts {
		tokens = append(tokens, a.Fixture.Token)
	}
	if len(rec.Warnings) != 1 {
		t.Fatalf("run warnings %q, want one from the leftovers check", rec.Warnings)
	}
	for _, tok := range tokens {
		if !strings.Contains(rec.Warnings[0], tok+" (write/new-note)") {
			t.Errorf("the leftovers warning %q does not name %s", rec.Warnings[0], tok)
		}
	}
	res := grade.Run(s, rec)
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "left behind") {
		t.Errorf("the graded run's warnings %q do not say what was left behind", res.Warnings)
	}
	es, _ := os.ReadDir(scratch(s))
	if len(es) != 1+len(tokens) {
		t.Errorf("scratch holds %d entries, want the README and %d leftovers", len(es), len(tokens))
	}
	for _, e := range es {
		if e.Name() != "README.md" {
			os.Remove(filepath.Join(scratch(s), e.Name()))
		}
	}
}
