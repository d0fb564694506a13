package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// dupServer is an MCP server over streamable HTTP, written by hand, whose
// tools/list names one tool twice (the SDK's server would not let it).
func dupServer(t *testing.T) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "post only", http.StatusMethodNotAllowed)
			return
		}
		b, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(b, &msg)
		if len(msg.ID) == 0 { // a notification
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var result any
		switch msg.Method {
		case "initialize":
			result = map[string]any{
				"protocolVersion": "2025-06-18",
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "dup", "version": "1"},
			}
		case "tools/list":
			tool := map[string]any{"name": "get_net_worth", "description": "Net worth.", "inputSchema": map[string]any{"type": "object"}}
			result = map[string]any{"tools": []any{tool, tool}}
		default:
			result = map[string]any{}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result})
	}))
}

// TestDuplicateToolsRefused: a target listing two tools by one name is
// refused with exit 2, before any model request, and nothing is recorded.
func TestDuplicateToolsRefused(t *testing.T) {
	srv := dupServer(t)
	defer srv.Close()
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "suite.yaml")
	os.WriteFile(suitePath, []byte("name: dup\ncases:\n  - id: decline/weather\n    prompt: What's the weather in Lisbon?\n    decline: true\n"), 0o644)
	out := filepath.Join(dir, "run")
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"run", "--suite", suitePath, "--target", srv.URL + "/mcp", "--out", out, "--quiet"}, nil, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), `lists the tool "get_net_worth" twice`) {
		t.Errorf("exit %d, stderr %q; want 2 naming the duplicated tool", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "record.jsonl")); err == nil {
		t.Error("a record was written")
	}
}

// TestResumeKeepsBudget: a resume runs on the budget the run was given,
// unless the flags give another.
func TestResumeKeepsBudget(t *testing.T) {
	h := &record.Header{Extra: budgetExtra(1234, 2.5)}
	for _, tc := range []struct {
		args   []string
		tokens int64
		usd    float64
	}{
		{nil, 1234, 2.5},
		{[]string{"--budget-tokens", "99"}, 99, 2.5},
		{[]string{"--budget-usd", "0"}, 1234, 0},
	} {
		var f runFlags
		fs := newFlags(&env{stdout: io.Discard}, "run", "")
		fs.Int64Var(&f.budgetTokens, "budget-tokens", 2_000_000, "")
		fs.Float64Var(&f.budgetUSD, "budget-usd", 0, "")
		if _, err := parse(fs, tc.args); err != nil {
			t.Fatal(err)
		}
		f.resumeBudget(fs, h)
		if f.budgetTokens != tc.tokens || f.budgetUSD != tc.usd {
			t.Errorf("%v: budget %d tokens, $%g; want %d, $%g", tc.args, f.budgetTokens, f.budgetUSD, tc.tokens, tc.usd)
		}
	}
	// A run recorded before budgets were: the flags' defaults stand.
	var f runFlags
	fs := newFlags(&env{stdout: io.Discard}, "run", "")
	fs.Int64Var(&f.budgetTokens, "budget-tokens", 2_000_000, "")
	parse(fs, nil)
	f.resumeBudget(fs, &record.Header{})
	if f.budgetTokens != 2_000_000 {
		t.Errorf("no recorded budget: %d tokens, want the default", f.budgetTokens)
	}
}

// TestTwoResumesAtOnce: two "mcpeval run --resume" of one interrupted run
// at once. Exactly one proceeds; the other exits 2, refused by the lock
// (or, if the first finished already, finding nothing to resume); the
// record reads back whole, and score, report and resume accept it.
func TestTwoResumesAtOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	if _, code, stderr := runJSON(t, "run", "--json", "--quiet", "--out", dir); code != 0 {
		t.Fatalf("the first run: exit %d: %s", code, stderr)
	}
	// Interrupt it: keep the header and the first two attempts.
	p := filepath.Join(dir, "record.jsonl")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if err := os.WriteFile(p, []byte(strings.Join(lines[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	type result struct {
		code   int
		stderr string
	}
	results := make(chan result, 2)
	for range 2 {
		go func() {
			var out, errb bytes.Buffer
			code := Main(context.Background(), []string{"run", "--resume", dir, "--quiet", "--json"}, nil, &out, &errb)
			results <- result{code, errb.String()}
		}()
	}
	var ok, refused int
	for range 2 {
		r := <-results
		switch {
		case r.code == 0:
			ok++
		case r.code == exitUsage && (strings.Contains(r.stderr, "is being written") || strings.Contains(r.stderr, "has held") || strings.Contains(r.stderr, "nothing to resume")):
			refused++
		default:
			t.Errorf("a resume: exit %d: %s", r.code, r.stderr)
		}
	}
	if ok != 1 || refused != 1 {
		t.Errorf("%d resumes proceeded and %d were refused; want 1 and 1", ok, refused)
	}
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatalf("the record after two resumes: %v", err)
	}
	if !rec.Complete() || len(rec.Warnings) != 0 || len(rec.Attempts) != len(rec.Header.Planned) {
		t.Errorf("complete %v, %d of %d attempts, warnings %q", rec.Complete(), len(rec.Attempts), len(rec.Header.Planned), rec.Warnings)
	}
	for _, args := range [][]string{{"score", dir}, {"report", dir}} {
		var out, errb bytes.Buffer
		if code := Main(context.Background(), args, nil, &out, &errb); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"run", "--resume", dir, "--quiet"}, nil, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "nothing to resume") {
		t.Errorf("resuming it again: exit %d: %s", code, errb.String())
	}
}

// TestResumeKeepsSettings: a resume runs with the concurrency, turn cap
// and target pool the run recorded, unless a flag gives another, and says
// which flag overrode which recorded setting.
func TestResumeKeepsSettings(t *testing.T) {
	h := &record.Header{Concurrency: 1, TurnCap: 5, TargetPool: 3, Extra: budgetExtra(1234, 0)}
	for _, tc := range []struct {
		args                     []string
		concurrency, turns, pool int
		tokens                   int64
		said                     []string
	}{
		{nil, 1, 5, 3, 1234, nil},
		{[]string{"--concurrency", "1", "--turn-cap", "5"}, 1, 5, 3, 1234, nil},
		{[]string{"--concurrency", "4"}, 4, 5, 3, 1234, []string{"--concurrency 4 overrides the recorded concurrency 1"}},
		{[]string{"--turn-cap", "9", "--target-pool", "-1", "--budget-tokens", "7"}, 1, 9, -1, 7,
			[]string{"--turn-cap 9 overrides the recorded turn cap 5", "--target-pool -1 overrides the recorded target pool 3", "--budget-tokens 7 overrides the recorded budget of 1234 tokens"}},
	} {
		var f runFlags
		fs := newFlags(&env{stdout: io.Discard}, "run", "")
		fs.IntVar(&f.concurrency, "concurrency", 4, "")
		fs.IntVar(&f.turns, "turn-cap", 0, "")
		fs.IntVar(&f.targetPool, "target-pool", 0, "")
		fs.Int64Var(&f.budgetTokens, "budget-tokens", 2_000_000, "")
		fs.Float64Var(&f.budgetUSD, "budget-usd", 0, "")
		if _, err := parse(fs, tc.args); err != nil {
			t.Fatal(err)
		}
		said := f.resumeSettings(fs, h)
		if f.concurrency != tc.concurrency || f.turns != tc.turns || f.targetPool != tc.pool || f.budgetTokens != tc.tokens {
			t.Errorf("%v: concurrency %d, turn cap %d, pool %d, %d tokens; want %d, %d, %d, %d", tc.args,
				f.concurrency, f.turns, f.targetPool, f.budgetTokens, tc.concurrency, tc.turns, tc.pool, tc.tokens)
		}
		if strings.Join(said, "\n") != strings.Join(tc.said, "\n") {
			t.Errorf("%v: said %q, want %q", tc.args, said, tc.said)
		}
	}
}
