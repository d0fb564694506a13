package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
)

// TestReplayCommand replays a household run made with fake:perfect: against
// the same server nothing differs (exit 0); against a household whose
// fixture renames a bank, served over stdio, exactly the calls whose
// recorded result names the bank differ (exit 5), in every format.
func TestReplayCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "base")
	if _, code, stderr := runJSON(t, "run", "--attempts", "1", "--out", dir, "--quiet", "--json"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	replay := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := Main(context.Background(), append([]string{"replay", dir}, args...), nil, &out, &errb)
		return out.String(), errb.String(), code
	}
	out, stderr, code := replay("--target", "builtin:household")
	if code != 0 || !regexp.MustCompile(`(?m)^  ([1-9]\d*) calls replayed: (\d+) same, 0 different, 0 errors$`).MatchString(out) {
		t.Fatalf("replay against the same server: exit %d\n%s%s", code, out, stderr)
	}

	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	calls := 0
	for _, a := range rec.Attempts {
		for ti, tu := range a.Turns {
			for ci, c := range tu.Calls {
				calls++
				if strings.Contains(c.Result+string(c.Structured), "Straits Federal Bank") {
					want[fmt.Sprintf("%s %d.%d", a.Key().ID(), ti+1, ci+1)] = true
				}
			}
		}
	}
	if len(want) == 0 || len(want) == calls {
		t.Fatalf("%d of %d calls name the bank: the test needs some that do and some that do not", len(want), calls)
	}
	b, err := os.ReadFile("../../internal/builtin/household/fixture.yaml")
	if err != nil {
		t.Fatal(err)
	}
	fixture := filepath.Join(t.TempDir(), "fixture.yaml")
	if err := os.WriteFile(fixture, []byte(strings.ReplaceAll(string(b), "Straits Federal Bank", "Straits Federal Savings")), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := "stdio:faultserver --serve household --fixture " + fixture
	out, stderr, code = replay("--target", changed, "--json")
	if code != exitGate {
		t.Fatalf("replay against the changed fixture: exit %d, want %d\n%s%s", code, exitGate, out, stderr)
	}
	var got replayJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("replay --json: %v\n%s", err, out)
	}
	if got.Replayed != calls || got.Different != len(want) || got.Same != calls-len(want) || got.Errors != 0 {
		t.Errorf("replay --json counts %+v, want %d calls, %d different", got, calls, len(want))
	}
	for _, d := range got.Differences {
		k := fmt.Sprintf("%s %d.%d", d.Attempt, d.Turn, d.Call)
		if !want[k] {
			t.Errorf("call %s differs and does not name the bank:\n%s", k, d.Diff)
		}
		if !strings.Contains(d.Diff, "\n-") || !strings.Contains(d.Diff, "Straits Federal Savings") {
			t.Errorf("call %s: the diff does not show the change:\n%s", k, d.Diff)
		}
		delete(want, k)
	}
	if len(want) > 0 {
		t.Errorf("calls naming the bank not reported: %v", want)
	}
	if !strings.Contains(stderr, fmt.Sprintf("replay: %d of %d calls differ from the run, 0 failed", got.Different, calls)) {
		t.Errorf("replay stderr = %q", stderr)
	}

	out, _, code = replay("--target", changed, "--markdown")
	if code != exitGate || !strings.Contains(out, "| replayed | same | different | errors |") || !strings.Contains(out, "```diff\n--- recorded\n+++ replay\n") {
		t.Errorf("replay --markdown: exit %d\n%s", code, out)
	}
	out, _, code = replay("--target", changed)
	if code != exitGate || !strings.Contains(out, "\n  --- recorded\n  +++ replay\n  @@ ") || !strings.Contains(out, "different, 0 errors") {
		t.Errorf("replay: exit %d\n%s", code, out)
	}

	// A run of action cases is bad input: its fixtures are not rebuilt.
	b, err = os.ReadFile(filepath.Join(dir, record.FileName))
	if err != nil {
		t.Fatal(err)
	}
	acted := filepath.Join(t.TempDir(), "acted")
	if err := os.Mkdir(acted, 0o755); err != nil {
		t.Fatal(err)
	}
	withFixture := strings.Replace(string(b), `{"attempt":{`, `{"attempt":{"fixture":{"token":"t"},`, 1)
	if err := os.WriteFile(filepath.Join(acted, record.FileName), []byte(withFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	if code := Main(context.Background(), []string{"replay", acted, "--target", "builtin:household"}, nil, &bytes.Buffer{}, &errb); code != exitUsage || !strings.Contains(errb.String(), "is an action case, whose fixtures replay does not rebuild") {
		t.Errorf("replay of an action run: exit %d, %s", code, errb.String())
	}

	if _, stderr, code := replay("--json", "--markdown"); code != exitUsage || !strings.Contains(stderr, "give --json or --markdown, not both") {
		t.Errorf("replay --json --markdown: exit %d, %s", code, stderr)
	}
}

// TestReplayDocRules checks the replay: example of docs/ci.md: the suite
// setting loads, and its rules make the two results the page shows the
// same, while a change elsewhere still differs.
func TestReplayDocRules(t *testing.T) {
	b, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Replay\n")
	if !ok {
		t.Fatal("docs/ci.md has no Replay section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	blocks := regexp.MustCompile("(?s)```(yaml|json)\n(.*?)```").FindAllStringSubmatch(sec, -1)
	if len(blocks) != 3 || blocks[0][1] != "yaml" {
		t.Fatalf("docs/ci.md's Replay section has %d yaml and json blocks, want the setting and two results", len(blocks))
	}
	path := filepath.Join(t.TempDir(), "suite.yaml")
	body := "name: replay-doc\ntarget: builtin:household\n" + blocks[0][2] + "cases:\n  - id: g/a\n    prompt: p\n    answer: {contains: [x]}\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := s.ReplayRules()
	if err != nil || len(rules) == 0 {
		t.Fatalf("rules %v, %v", rules, err)
	}
	a, c := record.Call{Result: blocks[1][2]}, record.Call{Result: blocks[2][2]}
	if d := runner.ResultDiff(a, c, rules); d != "" {
		t.Errorf("the page's two results differ under its rules:\n%s", d)
	}
	if d := runner.ResultDiff(a, c, nil); d == "" {
		t.Error("the page's two results are the same without rules: the example shows nothing")
	}
	c.Result = strings.Replace(c.Result, "84250", "84251", 1)
	if d := runner.ResultDiff(a, c, rules); d == "" {
		t.Error("a changed balance is ignored by the page's rules")
	}
}

// TestReplayEscapesServerText: a server whose changed result carries
// terminal escapes and a Markdown fence cannot reach the terminal or close
// the pull-request comment's diff block.
func TestReplayEscapesServerText(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "base")
	if _, code, stderr := runJSON(t, "run", "--attempts", "1", "--case", "single-tool/", "--out", dir, "--quiet", "--json"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile("../../internal/builtin/household/fixture.yaml")
	if err != nil {
		t.Fatal(err)
	}
	fixture := filepath.Join(t.TempDir(), "fixture.yaml")
	hostile := strings.ReplaceAll(string(b), "institution: Straits Federal Bank", `institution: "Evil `+"```"+` \e]0;owned\a\e[2J Bank"`)
	if err := os.WriteFile(fixture, []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := "stdio:faultserver --serve household --fixture " + fixture
	for _, f := range []string{"--markdown", ""} {
		var out, errb bytes.Buffer
		args := []string{"replay", dir, "--target", changed}
		if f != "" {
			args = append(args, f)
		}
		code := Main(context.Background(), args, nil, &out, &errb)
		if code != exitGate || !strings.Contains(out.String(), "Evil") {
			t.Fatalf("replay %s: exit %d, want 5 and the new name\n%s%s", f, code, out.String(), errb.String())
		}
		if strings.ContainsAny(out.String(), "\x1b\x07") {
			t.Errorf("replay %s printed a terminal escape:\n%q", f, out.String())
		}
		if f == "--markdown" && !strings.Contains(out.String(), "````diff\n") {
			t.Errorf("replay --markdown: the diff block's fence is not longer than the server's backticks:\n%s", out.String())
		}
	}
}
