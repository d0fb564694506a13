package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/record"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRunRefusesRedirect runs against an HTTP target that redirects to
// another origin: at initialize, at the preflight's first tool call, and
// at the second attempt's tool call, the first attempt having passed. The
// run exits nonzero naming both origins (the last one stops, incomplete,
// starting no further attempt), and the other origin is sent neither the
// bearer token nor any other configured header (from --target-header or
// the suite's headers:).
func TestRunRefusesRedirect(t *testing.T) {
	const token, key = "tok-PLANTED-moved", "key-PLANTED-moved"
	t.Setenv("MCPEVAL_TEST_TOKEN", token)
	for _, stage := range []string{"initialize", "preflight", "attempt"} {
		t.Run(stage, func(t *testing.T) {
			var mu sync.Mutex
			var seen []string
			calls := 0
			other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				for k, vs := range r.Header {
					seen = append(seen, k+": "+strings.Join(vs, ","))
				}
				seen = append(seen, r.Method)
				mu.Unlock()
				http.NotFound(w, r)
			}))
			defer other.Close()
			server, err := builtin.Server("household", false)
			if err != nil {
				t.Fatal(err)
			}
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
				call := bytes.Contains(body, []byte(`"tools/call"`))
				if call {
					mu.Lock()
					calls++
					mu.Unlock()
				}
				if stage == "initialize" || stage == "preflight" && call || stage == "attempt" && call && calls > 1 {
					http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
					return
				}
				if r.Header.Get("Authorization") != "Bearer "+token {
					http.Error(w, "unauthorized", http.StatusUnauthorized)
					return
				}
				h.ServeHTTP(w, r)
			}))
			defer ts.Close()
			out := filepath.Join(t.TempDir(), "run")
			args := []string{"run", "--json", "--quiet", "--target", ts.URL + "/mcp", "--attempts", "1", "--out", out,
				"--target-header", "Authorization: Bearer ${MCPEVAL_TEST_TOKEN}", "--target-header", "X-Api-Key: " + key}
			if stage == "attempt" {
				// A suite with no preflight, one attempt at a time.
				p := filepath.Join(t.TempDir(), "moved.yaml")
				yaml := "name: moved\ntarget:\n  spec: " + ts.URL + "/mcp\n  headers: {Authorization: \"Bearer ${MCPEVAL_TEST_TOKEN}\", X-Api-Key: " + key + "}\ncases:\n"
				for _, id := range []string{"a", "b", "c"} {
					yaml += "  - id: worth/" + id + "\n    prompt: What's our net worth?\n    tools: {required: [get_net_worth]}\n    key: {calls: [{tool: get_net_worth}], answer: \"It is SGD 2,394,755.\"}\n"
				}
				if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
					t.Fatal(err)
				}
				args = []string{"run", "--json", "--quiet", "--suite", p, "--attempts", "1", "--concurrency", "1", "--out", out}
			}
			_, code, stderr := runJSON(t, args...)
			if code == 0 {
				t.Fatal("a run whose target redirected to another origin exited 0")

			}
			for _, want := range []string{"refused a redirect from " + ts.URL, other.URL} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr does not say %q:\n%s", want, stderr)
				}
			}
			if stage == "attempt" {
				if code != exitIncomplete || !strings.Contains(stderr, "run stopped: the target redirected to another origin") || strings.Contains(stderr, "--resume") {
					t.Errorf("exit %d, want %d (stopped: the target moved)", code, exitIncomplete)
				}
				rec, err := record.Read(out)
				if err != nil {
					t.Fatal(err)
				}
				if len(rec.Attempts) != 2 || rec.Complete() {
					t.Errorf("%d attempts recorded, complete %v: want the one that passed and the one that met the redirect, incomplete", len(rec.Attempts), rec.Complete())
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) > 0 {
				t.Errorf("the other origin was sent %q", seen)
			}
			noFileHolds(t, out, "PLANTED")
		})
	}
}

// TestRunKeepsModelKeyAtHome: a run whose model API answers with a
// redirect to another origin does not follow it: the other origin is sent
// nothing, the refusal is said and recorded, and the key is in no file.
func TestRunKeepsModelKeyAtHome(t *testing.T) {
	const key = "sk-ant-api03-PLANTED-model-redirect"
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		http.NotFound(w, r)
	}))
	defer other.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	defer api.Close()
	t.Setenv("ANTHROPIC_API_KEY", key)
	t.Setenv("ANTHROPIC_BASE_URL", api.URL)
	out := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"run", "--quiet", "--json", "--spend", "--suite", "household",
		"--case", "single-tool/net-worth-now", "--attempts", "1", "--model", "anthropic:claude-haiku-4-5", "--out", out}, nil, &stdout, &stderr)
	if code == 0 {
		t.Fatalf("a run whose model API redirected elsewhere exited 0\n%s", stderr.String())
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other origin was sent %d requests", n)
	}
	rec, err := os.ReadFile(filepath.Join(out, "record.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, where := range []string{stdout.String() + stderr.String(), string(rec)} {
		if !strings.Contains(where, "refused a redirect from "+api.URL) {
			t.Errorf("the refusal is not said: %s", where)
		}
	}
	noFileHolds(t, out, "PLANTED")
}
