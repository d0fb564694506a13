package redact

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// TestSecrets plants a credential of every shape the first pass knows
// and checks each is gone, with the text around it kept.
func TestSecrets(t *testing.T) {
	for _, tc := range []struct{ in, secret, keep string }{
		{"Authorization: Bearer abcDEF123456789xyz", "abcDEF123456789xyz", "Authorization"},
		{"curl https://eval:hunter2hunter@agav.example/mcp", "hunter2hunter", "agav.example/mcp"},
		{`Post "https://h.example/mcp?tenant=t-99&token=zz99zz99zz": EOF`, "zz99zz99zz", `Post "https://h.example/mcp?tenant=`},
		{`{"password": "correct-horse-battery"}`, "correct-horse-battery", `"password"`},
		{"api_key=AbC123xyz789", "AbC123xyz789", "api_key="},
		{"tenant_id: 8f14e45f-ceea", "8f14e45f-ceea", "tenant_id"},
		{"key sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345 leaked", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345", "leaked"},
		{"openai sk-proj-abcdefghijklmnopqrstuvwx", "sk-proj-abcdefghijklmnopqrstuvwx", "openai"},
		{"gh token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "gh token"},
		{"aws AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE", "aws"},
		{"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", "jwt"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----", "MIIEpAIBAAKCAQEA", ""},
	} {
		got := Secrets(tc.in)
		if strings.Contains(got, tc.secret) || !strings.Contains(got, "[redacted:secret]") || !strings.Contains(got, tc.keep) {
			t.Errorf("Secrets(%q) = %q", tc.in, got)
		}
		if again := Secrets(got); again != got {
			t.Errorf("Secrets is not idempotent: %q -> %q", got, again)
		}
		if f := mustNew(t, nil).Find([]byte(got)); len(f) > 0 {
			t.Errorf("Find flags the redacted %q: %v", got, f)
		}
		if f := mustNew(t, nil).Find([]byte(tc.in)); len(f) == 0 {
			t.Errorf("Find misses the credential in %q", tc.in)
		}
	}
	for _, plain := range []string{"Your net worth is SGD 2,394,755.", "max_tokens=8192", "The token count was high", "https://example.com/docs?page=2"} {
		if got := Secrets(plain); got != plain {
			t.Errorf("Secrets(%q) = %q: changed ordinary text", plain, got)
		}
	}
}

func mustNew(t *testing.T, c *Config) *Redactor {
	t.Helper()
	r, err := New(c, func(k string) string {
		return map[string]string{"AGAV_TOKEN": "agav-token-0123456789", "SHORT": "abc"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var operator = &Config{
	Hostnames: []string{"agav.example.com"},
	TenantIDs: []string{"tn-4242"},
	Emails:    []string{"ops@family.example"},
	Patterns:  []string{`acct-[0-9]{6}`},
	Env:       []string{"AGAV_TOKEN", "SHORT"},
}

// TestIdentifiers checks the second pass: every listed identifier is
// replaced wherever it appears, whatever its case, and a secret named by
// the environment too.
func TestIdentifiers(t *testing.T) {
	r := mustNew(t, operator)
	in := "Tenant TN-4242 on https://mcp.AGAV.example.com/x (mail ops@family.example; acct-123456) key agav-token-0123456789, abc stays"
	got := r.String(in)
	for _, v := range []string{"4242", "agav.example", "AGAV.example", "ops@family", "123456", "agav-token"} {
		if strings.Contains(got, v) {
			t.Errorf("String kept %q: %q", v, got)
		}
	}
	for _, label := range []string{"[redacted:tenant]", "[redacted:hostname]", "[redacted:email]", "[redacted:id]", "[redacted:secret]", "abc stays"} {
		if !strings.Contains(got, label) {
			t.Errorf("String(%q) = %q: no %s", in, got, label)
		}
	}
	if f := r.Find([]byte(got)); len(f) > 0 {
		t.Errorf("Find flags redacted text: %v", f)
	}
	// Find sees through HTML and JSON escaping, and never quotes the value.
	for _, spelled := range []string{"t&#110;-4242", `ops\u0040family.example`, "agav.example.com"} {
		f := r.Find([]byte("<p>" + spelled + "</p>"))
		if len(f) == 0 {
			t.Errorf("Find misses %q", spelled)
		}
		for _, x := range f {
			if strings.Contains(x.String(), "4242") || strings.Contains(x.String(), "family") {
				t.Errorf("a finding quotes the value: %s", x)
			}
		}
	}
}

// TestTarget checks what a target's configuration makes secret: the
// endpoint's host, its user info and query values, and the value of a
// header given as ${VAR}.
func TestTarget(t *testing.T) {
	r := mustNew(t, nil)
	env := func(k string) string { return map[string]string{"TOKEN": "bearer-secret-998877"}[k] }
	r.AddTarget("https://eval:pass-77665544@mcp.agav.example:8443/t/9/mcp?sig=sig-11223344", map[string]string{"Authorization": "Bearer ${TOKEN}"}, nil, env)
	got := r.String("calling https://mcp.agav.example:8443/t/9/mcp failed; server said bearer-secret-998877 is wrong; pass-77665544; sig-11223344")
	for _, v := range []string{"mcp.agav.example", "8443", "bearer-secret-998877", "pass-77665544", "sig-11223344"} {
		if strings.Contains(got, v) {
			t.Errorf("kept %q: %q", v, got)
		}
	}
}

// TestValue plants identifiers throughout a record (prompt, tool
// arguments and results, answer, error, stderr, header) and checks none is
// left in its JSON.
func TestValue(t *testing.T) {
	r := mustNew(t, operator)
	rec := &record.Run{
		Header: record.Header{RunID: "r", Target: record.TargetInfo{Spec: "https://agav.example.com/mcp"},
			Preflight: record.Preflight{Valid: true, Checks: []record.PreflightCheck{{Tool: "t", Result: json.RawMessage(`{"tenant":"tn-4242"}`)}}}},
		Attempts: []record.Attempt{{
			Case: "c", N: 1, Prompt: "For tenant tn-4242, what is the total?",
			Turns: []record.Turn{{Calls: []record.Call{{Name: "get", Args: json.RawMessage(`{"tenant":"tn-4242","mail":"ops@family.example"}`),
				Result: `{"owner":"ops@family.example","token":"agav-token-0123456789"}`, Shown: true}}}},
			Answer: "Tenant tn-4242 has 42.", End: record.EndError,
			Error: &record.Error{Kind: "target", Message: "Post https://agav.example.com/mcp: EOF", Stderr: []string{"auth for tn-4242 with Bearer agav-token-0123456789"}},
		}},
	}
	orig, _ := json.Marshal(rec)
	cp := *rec
	if err := r.Value(&cp); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(&cp)
	for _, v := range []string{"tn-4242", "agav.example.com", "ops@family.example", "agav-token-0123456789"} {
		if strings.Contains(string(b), v) {
			t.Errorf("the redacted record still holds %q", v)
		}
	}
	if f := r.Find(b); len(f) > 0 {
		t.Errorf("Find: %v", f)
	}
	if after, _ := json.Marshal(rec); string(after) != string(orig) {
		t.Error("Value changed the original the copy shares slices with")
	}
	if cp.Attempts[0].Case != "c" || cp.Attempts[0].End != record.EndError {
		t.Errorf("Value lost data: %+v", cp.Attempts[0])
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(good, []byte("hostnames: [agav.example.com]\ntenant_ids: [tn-1]\nemails: [a@b.example]\npatterns: ['acct-\\d+']\nenv: [AGAV_TOKEN]\n"), 0o644)
	c, err := LoadConfig(good)
	if err != nil || len(c.Hostnames) != 1 || len(c.Patterns) != 1 || c.Env[0] != "AGAV_TOKEN" {
		t.Fatalf("LoadConfig: %+v, %v", c, err)
	}
	for body, want := range map[string]string{
		"hostname: [x]\n":   "field hostname not found",
		"patterns: ['(']\n": "patterns[0]",
	} {
		p := filepath.Join(dir, "bad.yaml")
		os.WriteFile(p, []byte(body), 0o644)
		if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LoadConfig(%q) = %v, want %q", body, err, want)
		}
	}
	empty := filepath.Join(dir, "empty.yaml")
	os.WriteFile(empty, nil, 0o644)
	if _, err := LoadConfig(empty); err != nil {
		t.Errorf("an empty list: %v", err)
	}
}
