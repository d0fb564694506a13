package redact

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestKnownScrubsByValue checks that a registered value is removed
// whatever its shape, that short values are ignored, and that the
// environment's secret-named variables are taken.
func TestKnownScrubsByValue(t *testing.T) {
	var k Known
	k.AddEnviron([]string{
		"ANTHROPIC_API_KEY=sk-ant-api03-PLANTED-aaaaaaaaaaaa",
		"GROQ_API_KEY=groq-CUSTOMKEY-0123456789",
		"GITHUB_TOKEN=ghs_PLANTEDtokenvalue",
		"HOME=/home/someone-long-path",
		"PWD=/home/someone-long-path/work",
		"SHORT_TOKEN=abc",
		"CACHE_KEY=production",
	})
	k.AddExpanded("Bearer ${MCP_TOKEN}", func(string) string { return "mcp-PLANTED-4242" })
	if got := k.Scrub("the production database"); got != "the production database" {
		t.Errorf("a setting's plain word was scrubbed: %q", got)
	}
	in := "echo: groq-CUSTOMKEY-0123456789 and sk-ant-api03-PLANTED-aaaaaaaaaaaa and ghs_PLANTEDtokenvalue; header Bearer mcp-PLANTED-4242; abc; /home/someone-long-path"
	got := k.Scrub(in)
	for _, v := range []string{"CUSTOMKEY", "PLANTED"} {
		if strings.Contains(got, v) {
			t.Errorf("Scrub kept %q: %q", v, got)
		}
	}
	if !strings.Contains(got, "; abc; /home/someone-long-path") {
		t.Errorf("Scrub removed what is not secret: %q", got)
	}
	if n := k.Find([]byte(`{"x":"groq-CUSTOMKEY-0123456789"}`)); n != 1 {
		t.Errorf("Find = %d, want 1", n)
	}
	if n := k.Find([]byte(`<p>groq-CUSTOMKEY&#45;0123456789</p>`)); n != 1 {
		t.Errorf("Find through HTML escaping = %d, want 1", n)
	}
	if n := k.Find([]byte(got)); n != 0 {
		t.Errorf("Find flags scrubbed text %d times", n)
	}
	if k.Len() != 5 { // three keys, the token and the whole header
		t.Errorf("Len = %d, want 5: %q", k.Len(), k.Values())
	}
	err := k.Error(errors.Join(io.EOF, errors.New("server said groq-CUSTOMKEY-0123456789")))
	if strings.Contains(err.Error(), "CUSTOMKEY") || !errors.Is(err, io.EOF) {
		t.Errorf("Error = %v (unwraps to EOF: %v)", err, errors.Is(err, io.EOF))
	}
	var nilK *Known
	if nilK.Scrub("x") != "x" || nilK.Find([]byte("x")) != 0 {
		t.Error("a nil registry changed text")
	}
}

func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"ANTHROPIC_API_KEY": true, "OPENAI_API_KEY": true, "GITHUB_TOKEN": true, "AWS_SECRET_ACCESS_KEY": true,
		"DB_PASSWORD": true, "MY_SERVER_TOKEN": true, "ssh_auth_sock": true,
		"PATH": false, "HOME": false, "PWD": false, "KEYBOARD_LAYOUT": false, "TOKENIZERS_PARALLELISM": false, "LANG": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%s) = %v, want %v", name, got, want)
		}
	}
}

// TestCredentialFlags checks that a credential given as --flag value is
// redacted like --flag=value, and that flags that only look alike are
// left alone.
func TestCredentialFlags(t *testing.T) {
	for _, tc := range []struct{ in, secret string }{
		{"stdio:server --password Hunter2Secret99 --read-only", "Hunter2Secret99"},
		{"stdio:server --password=Hunter2Secret99", "Hunter2Secret99"},
		{"stdio:server --api-key 'two words'", "two words"},
		{"stdio:server --db-pass Hunter2Secret99", "Hunter2Secret99"},
		{"stdio:server --key=Hunter2Secret99", "Hunter2Secret99"},
		{"stdio:server --auth Hunter2Secret99", "Hunter2Secret99"},
		{"stdio:server -token Hunter2Secret99", "Hunter2Secret99"},
		{"stdio:server --github_token \"Hunter2Secret99\"", "Hunter2Secret99"},
		{"stdio:npx mcp-remote https://u:Hunter2Secret99@h.example/mcp", "Hunter2Secret99"},
		{"stdio:npx mcp-remote https://h.example/mcp?sig=Hunter2Secret99&x=1", "Hunter2Secret99"},
		{"stdio:npx mcp-remote https://h.example/mcp?access_token=Hunter2Secret99", "Hunter2Secret99"},
	} {
		got := Secrets(tc.in)
		if strings.Contains(got, tc.secret) || !strings.Contains(got, "[redacted:secret]") {
			t.Errorf("Secrets(%q) = %q", tc.in, got)
		}
		if again := Secrets(got); again != got {
			t.Errorf("Secrets is not idempotent: %q -> %q", got, again)
		}
	}
	for _, plain := range []string{
		"stdio:server --keyboard-layout us",
		"stdio:server --key-file ./k.pem --token-limit 100",
		"stdio:server --auth --verbose",
		"stdio:server --monkey banana --bypass yes",
		"stdio:server --read-only --root /data",
	} {
		if got := Secrets(plain); got != plain {
			t.Errorf("Secrets(%q) = %q: mangled a flag that is not a credential", plain, got)
		}
	}
}

// TestKnownArgs checks the credentials a command line carries are
// registered, in both flag forms and in URLs, and nothing else.
func TestKnownArgs(t *testing.T) {
	var k Known
	k.AddArgs([]string{"server", "--password", "Hunter2Secret99", "--api-key=key-PLANTED-1", "--keyboard-layout", "us-international",
		"--auth", "--verbose", "https://u:pw-PLANTED-2@h.example/mcp?sig=sig-PLANTED-3&page=200000000"})
	got := k.Values()
	want := map[string]bool{"Hunter2Secret99": true, "key-PLANTED-1": true, "pw-PLANTED-2": true, "sig-PLANTED-3": true}
	if len(got) != len(want) {
		t.Errorf("registered %q, want %v", got, want)
	}
	for _, v := range got {
		if !want[v] {
			t.Errorf("registered %q, which is no credential", v)
		}
	}
}
