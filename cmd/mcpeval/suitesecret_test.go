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
	"testing"
)

// TestSuiteSecretNotWritten: the value of a secret of mcpeval's
// environment written in a suite (a prompt, a case's working, its key) is
// scrubbed from the record, and reaches none of what is made from the run
// and the suite: grades.json, run --json, report --json and --html, the
// viewer's attempt page, publish --dry-run's pages, and the dataset items
// sent to Langfuse.
func TestSuiteSecretNotWritten(t *testing.T) {
	const key = "groq-SUITEKEY-PLANTED-4242"
	t.Setenv("GROQ_API_KEY", key)
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "suite.yaml")
	if err := os.WriteFile(suitePath, []byte(`name: leaky
target: builtin:household
cases:
  - id: money/net-worth
    prompt: "Our key is `+key+`. What's our total net worth right now?"
    working: "net worth from get_net_worth, asked with `+key+`"
    figures: [{value: 2394755}]
    key:
      calls: [{tool: get_net_worth}]
      answer: "Your total net worth is SGD 2,394,755 (`+key+`)."
`), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "runs", "r")
	stdout, stderr, code := cli("run", "--suite", suitePath, "--model", "fake:perfect", "--attempts", "1", "--out", run, "--json")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	check := func(where, s string) {
		t.Helper()
		if strings.Contains(s, key) {
			t.Errorf("%s holds the secret's value", where)
		}
	}
	check("run --json", stdout)
	for _, f := range []string{"record.jsonl", "grades.json"} {
		b, err := os.ReadFile(filepath.Join(run, f))
		if err != nil {
			t.Fatal(err)
		}
		check(f, string(b))
	}
	stdout, stderr, code = cli("report", run, "--json")
	if code != 0 {
		t.Fatalf("report --json: exit %d: %s", code, stderr)
	}
	check("report --json", stdout)
	check("view", viewPage(t, run, attemptPath(t, run, "money/net-worth")))
	page := filepath.Join(dir, "page.html")
	if _, stderr, code := cli("report", run, "--html", page); code != 0 {
		t.Fatalf("report --html: exit %d: %s", code, stderr)
	}
	site := filepath.Join(dir, "site")
	stdout, stderr, code = cli("publish", run, "--dry-run", "--ledger", filepath.Join(dir, "results.json"), "--site", site)
	check("publish --dry-run", stdout+stderr)
	if code != 0 {
		t.Fatalf("publish --dry-run: exit %d: %s%s", code, stdout, stderr)
	}
	filepath.WalkDir(site, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			check(p, string(b))
		}
		return nil
	})
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	check("report --html", string(b))

	var mu sync.Mutex
	var sent bytes.Buffer
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		sent.Write(b)
		mu.Unlock()
		if r.URL.Path == "/api/public/projects" {
			io.WriteString(w, `{"data":[{"id":"p","name":"evals"}]}`)
			return
		}
		io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	t.Setenv("LANGFUSE_HOST", srv.URL)
	t.Setenv("LANGFUSE_PUBLIC_KEY", "pk-lf-cli")
	t.Setenv("LANGFUSE_SECRET_KEY", "sk-lf-cli-secret-0123456789")
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"export", run, "--langfuse", "--suite", suitePath}, nil, &out, &errb); code != 0 {
		t.Fatalf("export --langfuse: exit %d\n%s", code, errb.String())
	}
	if !strings.Contains(sent.String(), "net worth right now") {
		t.Fatalf("no dataset item with the case's prompt reached Langfuse")
	}
	check("the Langfuse dataset items", sent.String())
}
