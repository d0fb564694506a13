package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseBaseline(t *testing.T) {
	got, err := parseBaseline(strings.NewReader("# comment\n\nclient/sse-retry  the go-sdk ignores retry\nhousehold/tools-call-image no such tool\n"), "b.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["client/sse-retry"] != "the go-sdk ignores retry" || got["household/tools-call-image"] != "no such tool" {
		t.Errorf("parsed %v", got)
	}
	for in, want := range map[string]string{
		"client/x\n":                 "b.txt:1: client/x: no reason given",
		"sse-retry why\n":            `b.txt:1: "sse-retry": want SIDE/SCENARIO`,
		"client/a why\nclient/a y\n": "b.txt:2: client/a is listed twice",
	} {
		if _, err := parseBaseline(strings.NewReader(in), "b.txt"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parsing %q: %v, want %q", in, err, want)
		}
	}
}

// write lays out results: side/scenarios.txt and each scenario's checks.
func write(t *testing.T, dir, side string, scenarios map[string]string) {
	t.Helper()
	var names []string
	for name, checks := range scenarios {
		names = append(names, name)
		if checks == "" {
			continue // did not run
		}
		d := filepath.Join(dir, side, name, "run-2026")
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "checks.json"), []byte(checks), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, side), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, side, "scenarios.txt"), []byte(strings.Join(names, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	pass = `[{"id":"a","status":"SUCCESS"},{"id":"b","status":"INFO"}]`
	fail = `[{"id":"a","status":"SUCCESS"},{"id":"b","status":"FAILURE","errorMessage":"boom"}]`
	warn = `[{"id":"a","status":"WARNING","errorMessage":"late"}]`
)

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name     string
		client   map[string]string
		baseline string
		wantErr  string // "" passes
		wantOut  string
	}{
		{"all pass", map[string]string{"initialize": pass, "auth/x": pass}, "", "", "PASS  client/auth/x"},
		{"listed failure", map[string]string{"initialize": pass, "sse-retry": fail}, "client/sse-retry why", "", "XFAIL client/sse-retry (why)"},
		{"new failure", map[string]string{"sse-retry": fail}, "", "1 scenarios failed that the baseline does not list: client/sse-retry", "b: boom"},
		{"a warning fails", map[string]string{"sse-retry": warn}, "", "client/sse-retry", "WARNING a: late"},
		{"no checks fails", map[string]string{"sse-retry": ""}, "", "client/sse-retry", "did not run"},
		{"stale entry", map[string]string{"sse-retry": pass}, "client/sse-retry why", "1 baseline entries are stale: client/sse-retry", "remove it"},
		{"entry never run", map[string]string{"initialize": pass}, "client/gone why", "stale: client/gone", "NORUN client/gone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "results"), "client", tc.client)
			b := filepath.Join(dir, "baseline.txt")
			os.WriteFile(b, []byte(tc.baseline+"\n"), 0o644)
			var out strings.Builder
			err := run(&out, b, filepath.Join(dir, "results"))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("error %v, want none\n%s", err, out.String())
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want %q\n%s", err, tc.wantErr, out.String())
			}
			if !strings.Contains(out.String(), tc.wantOut) {
				t.Errorf("output lacks %q:\n%s", tc.wantOut, out.String())
			}
		})
	}
}
