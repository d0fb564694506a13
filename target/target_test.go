package target

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"go run ./cmd/mcpeval serve-target household", []string{"go", "run", "./cmd/mcpeval", "serve-target", "household"}},
		{`server --name 'two words' "and \"three\"" a\ b`, []string{"server", "--name", "two words", `and "three"`, "a b"}},
		{"  x  ", []string{"x"}},
		{"", nil},
		{`''`, []string{""}},
	} {
		got, err := SplitCommand(tc.in)
		if err != nil {
			t.Errorf("SplitCommand(%q): %v", tc.in, err)
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("SplitCommand(%q) (-want +got):\n%s", tc.in, d)
		}
	}
	for _, bad := range []string{`'open`, `"open`} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q) succeeded", bad)
		}
	}
}

func TestTailBounded(t *testing.T) {
	tl := NewTail(3, 10)
	for i := 0; i < 1000; i++ {
		tl.Write([]byte("a line that is much longer than ten bytes\n"))
	}
	tl.Write([]byte("last\npartial"))
	got := tl.Lines()
	want := []string{"a line tha", "a line tha", "last", "partial"} // three whole lines, then the unfinished one
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Lines (-want +got):\n%s", d)
	}
}

func TestDescribeHidesSecrets(t *testing.T) {
	c := Config{Spec: "https://user:pw@example.test/mcp?token=abc#x", Headers: map[string]string{"Authorization": "Bearer ${T}"}}
	if got := c.Describe(); got != "https://[endpoint]" {
		t.Errorf("Describe = %q", got)
	}
	if err := (Config{Spec: "nonsense"}).Check(); err == nil || !strings.Contains(err.Error(), "want builtin:NAME") {
		t.Errorf("Check(nonsense) = %v", err)
	}
	if err := (Config{Spec: "builtin:nope"}).Check(); err == nil || !strings.Contains(err.Error(), "no builtin target") {
		t.Errorf("Check(builtin:nope) = %v", err)
	}
	if err := (Config{Spec: "stdio:"}).Check(); err == nil {
		t.Error("Check(stdio:) succeeded")
	}
}

// TestSecretsOfConfig checks what a target's configuration makes secret:
// its env and header values once expanded, and the credentials in its
// spec, but not its ordinary arguments.
func TestSecretsOfConfig(t *testing.T) {
	getenv := func(k string) string { return map[string]string{"TOK": "expanded-token-1234"}[k] }
	c := Config{Spec: "stdio:srv --password Hunter2Secret99 --keyboard-layout us-international https://u:pw-123456789@h.example/mcp",
		Env: map[string]string{"A": "literal-value-1", "B": "Bearer ${TOK}"}}
	got := c.Secrets(getenv).Scrub("Hunter2Secret99 us-international pw-123456789 literal-value-1 expanded-token-1234 h.example")
	if want := "[redacted:secret] us-international [redacted:secret] [redacted:secret] [redacted:secret] h.example"; got != want {
		t.Errorf("Scrub = %q, want %q", got, want)
	}
	if got := c.Shown(); strings.Contains(got, "Hunter2Secret99") || strings.Contains(got, "pw-123456789") || !strings.Contains(got, "us-international") {
		t.Errorf("Shown = %q", got)
	}
	if got := c.Describe(); strings.Contains(got, "Hunter2Secret99") {
		t.Errorf("Describe = %q", got)
	}
}
