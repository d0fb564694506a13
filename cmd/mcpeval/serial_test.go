package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateWarnsOfSharedFixtures: validate warns, naming the case, of
// an action case whose fixture every attempt shares while the suite lets
// attempts run at once, and not once the suite is serial.
func TestValidateWarnsOfSharedFixtures(t *testing.T) {
	const body = `name: shared
allow_writes: true
cases:
  - id: repo/shared
    prompt: Add a line to notes.txt saying done.
    action:
      kind: write
      fixtures:
        - command: [sh, fixture.sh, reset-repo]
          teardown: {command: [sh, fixture.sh, reset-repo]}
      steps:
        - tool: write_file
          args: {path: {literal: notes.txt}}
`
	for _, tc := range []struct {
		head string
		warn bool
	}{{"", true}, {"serial: true\n", false}} {
		dir := t.TempDir()
		p := filepath.Join(dir, "suite.yaml")
		os.WriteFile(p, []byte(tc.head+body), 0o644)
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), []string{"validate", "--offline", p}, nil, &stdout, &stderr)
		out := stdout.String() + stderr.String()
		warned := strings.Contains(out, "repo/shared") && strings.Contains(out, "serial: true")
		if code != 0 || warned != tc.warn {
			t.Errorf("%q: exit %d, warned %v (want %v):\n%s", tc.head, code, warned, tc.warn, out)
		}

		stdout.Reset()
		Main(context.Background(), []string{"validate", "--offline", "--json", p}, nil, &stdout, &stderr)
		if got := strings.Contains(stdout.String(), `"kind": "shared-state"`) || strings.Contains(stdout.String(), `"kind":"shared-state"`); got != tc.warn {
			t.Errorf("%q: --json has a shared-state warning: %v, want %v:\n%s", tc.head, got, tc.warn, stdout.String())
		}
	}
}

// TestRunLowersConcurrencyToTheSuite: a --concurrency above the suite's
// bound is lowered to it, the run says so, and the record keeps the
// concurrency used.
func TestRunLowersConcurrencyToTheSuite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "suite.yaml")
	os.WriteFile(p, []byte("name: serial\ntarget: builtin:household\nserial: true\nattempts: 2\ncases:\n  - id: decline/weather\n    prompt: What's the weather in Lisbon?\n    decline: true\n"), 0o644)
	out := filepath.Join(dir, "run")
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"run", "--suite", p, "--concurrency", "8", "--out", out, "--quiet"}, nil, &stdout, &stderr)
	if code != 0 || !strings.Contains(stderr.String(), "(serial: true): concurrency 8 lowered to 1") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	rec, err := os.ReadFile(filepath.Join(out, "record.jsonl"))
	if err != nil || !strings.Contains(string(rec), `"concurrency":1,`) {
		t.Errorf("the record does not keep concurrency 1 (%v)", err)
	}
}

// TestResumeSaysWhatItOverrode: a resume with no flags takes the recorded
// concurrency silently; one given --concurrency says it overrode it.
func TestResumeSaysWhatItOverrode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	if _, code, stderr := runJSON(t, "run", "--json", "--quiet", "--concurrency", "1", "--out", dir); code != 0 {
		t.Fatalf("the first run: exit %d: %s", code, stderr)
	}
	p := filepath.Join(dir, "record.jsonl")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	for _, tc := range []struct {
		args []string
		said string
	}{
		{nil, ""},
		{[]string{"--concurrency", "3"}, "--concurrency 3 overrides the recorded concurrency 1"},
	} {
		if err := os.WriteFile(p, []byte(strings.Join(lines[:3], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), append([]string{"run", "--resume", dir, "--quiet", "--json"}, tc.args...), nil, &stdout, &stderr)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr.String())
		}
		got := stderr.String()
		if tc.said == "" && strings.Contains(got, "overrides") || tc.said != "" && !strings.Contains(got, tc.said) {
			t.Errorf("%v: stderr %q, want %q", tc.args, got, tc.said)
		}
	}
}
