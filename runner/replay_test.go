package runner_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/builtin/household"
	"github.com/mcpeval/mcpeval/internal/testkit/recordtest"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestReplayHousehold replays a household run against the same server
// (no difference) and against one whose fixture renames a bank: exactly
// the calls whose recorded result names the bank differ.
func TestReplayHousehold(t *testing.T) {
	s, rec := recordtest.Household(t)
	same, err := runner.Replay(context.Background(), runner.ReplayConfig{Suite: s, Record: rec, Target: target.Config{Spec: "builtin:household", Builtins: builtin.All()}})
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for _, a := range rec.Attempts {
		sent += len(a.Calls())
	}
	if len(same) != sent || sent == 0 {
		t.Fatalf("replayed %d calls, the run made %d", len(same), sent)
	}
	for _, p := range same {
		if p.Diff != "" || p.Err != "" {
			t.Errorf("%s call %d.%d %s differs against the same server:\n%s%s", p.Attempt, p.Turn, p.Call, p.Tool, p.Diff, p.Err)
		}
	}

	b, err := os.ReadFile("../internal/builtin/household/fixture.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "fixture.yaml")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(b), "Straits Federal Bank", "Straits Federal Savings")), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := household.LoadFixture(path)
	if err != nil {
		t.Fatal(err)
	}
	changed := target.Builtins{"household": func(bool) (*mcp.Server, error) { return household.NewServer(d, nil), nil }}
	got, err := runner.Replay(context.Background(), runner.ReplayConfig{Suite: s, Record: rec, Target: target.Config{Spec: "builtin:household", Builtins: changed}})
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for _, p := range got {
		names := strings.Contains(p.Recorded.Result+string(p.Recorded.Structured), "Straits Federal Bank")
		if names {
			differ++
		}
		if names != (p.Diff != "") || p.Err != "" {
			t.Errorf("%s call %d.%d %s: names the bank %t, differs %t (%s)\n%s", p.Attempt, p.Turn, p.Call, p.Tool, names, p.Diff != "", p.Err, p.Diff)
		}
		if names && !strings.Contains(p.Diff, "+") || !strings.Contains(p.Diff, "Straits Federal Savings") && names {
			t.Errorf("%s call %d.%d: the diff does not show the new name:\n%s", p.Attempt, p.Turn, p.Call, p.Diff)
		}
	}
	if differ == 0 || differ == len(got) {
		t.Fatalf("%d of %d calls name the bank: the test needs some that do and some that do not", differ, len(got))
	}
}

// TestReplayRefusesActionCases checks that a run of action cases, and one
// on a search surface, is refused before any call is sent.
func TestReplayRefusesActionCases(t *testing.T) {
	s, rec := recordtest.Household(t)
	rec.Attempts[0].Fixture = &record.Fixture{Token: "t"}
	_, err := runner.Replay(context.Background(), runner.ReplayConfig{Suite: s, Record: rec, Target: target.Config{Spec: "builtin:nothing"}})
	if !errors.Is(err, runner.ErrNotReplayable) || !strings.Contains(err.Error(), "is an action case") {
		t.Fatalf("Replay = %v, want the action case refused", err)
	}
	rec.Attempts[0].Fixture = nil
	rec.Header.Surface = &record.Surface{Name: "find", Kind: "search"}
	_, err = runner.Replay(context.Background(), runner.ReplayConfig{Suite: s, Record: rec, Target: target.Config{Spec: "builtin:nothing"}})
	if !errors.Is(err, runner.ErrNotReplayable) || !strings.Contains(err.Error(), "search surface find") {
		t.Fatalf("Replay = %v, want the search surface refused", err)
	}
}

// TestResultDiffIgnores checks the replay: ignore rules: a path leaves a
// field out of both sides, a pattern its matches; anything else differs.
func TestResultDiffIgnores(t *testing.T) {
	rule := func(s string) suite.ReplayRule {
		r, err := suite.ParseReplayRule(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a := record.Call{Result: `{"total": 5, "generated_at": "2026-01-01T10:00:00Z", "items": [{"id": 1, "at": "x"}]}`, Structured: []byte(`{"note": "built 10:00:01"}`)}
	b := record.Call{Result: `{"total": 5, "generated_at": "2026-02-02T11:00:00Z", "items": [{"id": 1, "at": "y"}]}`, Structured: []byte(`{"note": "built 11:59:59"}`)}
	rules := []suite.ReplayRule{rule("$.generated_at"), rule("$.items.*.at"), rule(`regex:\d\d:\d\d:\d\d`)}
	if d := runner.ResultDiff(a, b, rules); d != "" {
		t.Errorf("ResultDiff with the rules = \n%s, want none", d)
	}
	if d := runner.ResultDiff(a, b, rules[:2]); !strings.Contains(d, "-  \"note\": \"built 10:00:01\"\n+  \"note\": \"built 11:59:59\"") {
		t.Errorf("ResultDiff without the pattern = \n%s, want the note's lines", d)
	}
	b.Result = strings.Replace(b.Result, `"total": 5`, `"total": 6`, 1)
	if d := runner.ResultDiff(a, b, rules); !strings.Contains(d, "-  \"total\": 5\n+  \"total\": 6\n") || !strings.HasPrefix(d, "--- recorded\n+++ replay\n@@ ") {
		t.Errorf("ResultDiff of another total = \n%s", d)
	}
	b.IsError = true
	if d := runner.ResultDiff(a, b, rules); !strings.Contains(d, "+is_error: true") {
		t.Errorf("ResultDiff of an error = \n%s", d)
	}
}

// TestReplayConnections checks that a read-only suite's attempts share one
// connection, as its run's did, and that a suite letting the model write
// connects anew for each attempt.
func TestReplayConnections(t *testing.T) {
	s, rec := recordtest.Household(t)
	withCalls := 0
	for _, a := range rec.Attempts {
		if len(a.Calls()) > 0 {
			withCalls++
		}
	}
	for _, writes := range []bool{false, true} {
		dials := 0
		counting := target.Builtins{"household": func(w bool) (*mcp.Server, error) {
			dials++
			return builtin.Server("household", w)
		}}
		ws := *s
		ws.AllowWrites = writes
		if _, err := runner.Replay(context.Background(), runner.ReplayConfig{Suite: &ws, Record: rec, Target: target.Config{Spec: "builtin:household", Builtins: counting}}); err != nil {
			t.Fatal(err)
		}
		want := 1
		if writes {
			want = withCalls
		}
		if dials != want || withCalls < 2 {
			t.Errorf("allow_writes %t: %d connections for %d attempts with calls, want %d", writes, dials, withCalls, want)
		}
	}
}
