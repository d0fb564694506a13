package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReviewTerminalSafe walks a failure whose answer tries to clear the
// screen and retitle the window: the reviewer sees the escapes as text.
func TestReviewTerminalSafe(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	suitePath := write("hostile.yaml", `name: hostile
target: builtin:household
attempts: 1
cases:
  - id: single-tool/net-worth
    prompt: What's our total net worth right now?
    figures: [{value: 2394755, currency: SGD}]
`)
	script := write("answers.yaml", `single-tool/net-worth:
  - call: get_net_worth
  - say: "\e[2J\e]0;owned\aYour net worth is \u202eSGD 1\u202c."
`)
	run := filepath.Join(dir, "run")
	if _, errs, code := cli("run", "--suite", suitePath, "--model", "script:"+script, "--out", run, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	var out strings.Builder
	var errb strings.Builder
	code := Main(t.Context(), []string{"review", run}, strings.NewReader("q\n"), &out, &errb)
	if code != 0 {
		t.Fatalf("review: exit %d: %s", code, errb.String())
	}
	got := out.String()
	if strings.ContainsAny(got, "\x1b\a\u202e") {
		t.Errorf("the review printed raw escapes:\n%q", got)
	}
	if !strings.Contains(got, `\x1b[2J\x1b]0;owned\aYour net worth is SGD 1.`) {
		t.Errorf("the answer is not shown as text:\n%s", got)
	}
	if !strings.Contains(got, "recorded 0 reviews, skipped 0") {
		t.Errorf("quitting at once recorded something:\n%s", got)
	}
}
