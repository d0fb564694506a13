package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/testkit/faultserver"
	"github.com/mcpeval/mcpeval/internal/testkit/mcphttp"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mcpeval": func() {
			os.Exit(Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
		"faultserver": func() {
			os.Exit(faultserver.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestScripts runs the CLI as a person would, from testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(e *testscript.Env) error {
			e.Setenv("HOME", e.WorkDir)
			return nil
		},
	})
}

// summary is the --json summary, as far as these tests read it.
type summary struct {
	RunID  string `json:"run_id"`
	Model  string `json:"model"`
	Valid  bool   `json:"valid"`
	Record string `json:"record"`
	Cases  []struct {
		ID       string `json:"id"`
		Group    string `json:"group"`
		Attempts []struct {
			Verdict string `json:"verdict"`
			Reasons []any  `json:"reasons"`
		} `json:"attempts"`
	} `json:"cases"`
	Totals struct {
		Passed, Failed, Errors, Graded int
		Rate, WilsonLow, WilsonHigh    float64
	} `json:"totals"`
}

func runJSON(t *testing.T, args ...string) (summary, int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, nil, &out, &errb)
	var s summary
	if code == 0 || code == 4 {
		if err := json.Unmarshal(out.Bytes(), &s); err != nil {
			t.Fatalf("summary is not JSON: %v\n%s\nstderr: %s", err, out.String(), errb.String())
		}
	}
	return s, code, errb.String()
}

// householdBehindToken serves the household server over streamable HTTP
// to requests that carry "Authorization: Bearer TOKEN", and refuses the
// rest with 401, as an authenticated remote server does.
func householdBehindToken(t *testing.T, token string) *httptest.Server {
	t.Helper()
	server, err := builtin.Server("household", false)
	if err != nil {
		t.Fatal(err)
	}
	return mcphttp.BehindToken(t, server, token)
}

// TestRunOverHTTP runs the household suite against the household target
// served over streamable HTTP.
func TestRunOverHTTP(t *testing.T) {
	const token = "tok-PLANTED-4711, with a comma"
	t.Setenv("MCPEVAL_TEST_TOKEN", token)
	ts := householdBehindToken(t, token)
	out := filepath.Join(t.TempDir(), "run")
	if _, code, _ := runJSON(t, "run", "--json", "--quiet", "--target", ts.URL+"/mcp", "--attempts", "1", "--out", out+"-noauth"); code == 0 {
		t.Fatal("a run without the bearer token succeeded against a server that requires it")
	}
	s, code, stderr := runJSON(t, "run", "--json", "--quiet", "--target", ts.URL+"/mcp", "--target-header", "Authorization: Bearer ${MCPEVAL_TEST_TOKEN}", "--attempts", "1", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// 20: the household suite with its conversation case.
	if len(s.Cases) != 20 || s.Totals.Graded != 20 || s.Totals.Passed != 20 {
		t.Errorf("over HTTP: %d cases, totals %+v", len(s.Cases), s.Totals)
	}
	// The token reached the server and nowhere else.
	noFileHolds(t, out, "PLANTED")
}
