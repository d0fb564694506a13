package target_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/internal/testkit/faultserver"
	"github.com/mcpeval/mcpeval/internal/testkit/mcphttp"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func writeMCPJSON(t *testing.T, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMCPJSONStdioAndHTTP reads an mcp.json holding a stdio server (the
// test binary as a fault server, its path relative to the file, with a
// ${VAR} in env) and a streamable HTTP one (behind a bearer token given as
// a ${VAR} header), and connects to each.
func TestMCPJSONStdioAndHTTP(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "server bin")); err != nil {
		t.Fatal(err)
	}
	const token = "tok-PLANTED-mcpjson"
	t.Setenv("MCPJSON_TEST_TOKEN", token)
	srv := mcp.NewServer(&mcp.Implementation{Name: "httpserver", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "ping"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil, nil
	})
	ts := mcphttp.BehindToken(t, srv, token)
	p := writeMCPJSON(t, dir, `{
  "mcpServers": {
    "faults": {"command": "./server bin", "args": ["--delay", "1ms"], "env": {"`+faultserver.EnvVar+`": "1", "SECRET": "${MCPJSON_TEST_TOKEN}"}, "disabled": false},
    "remote": {"type": "http", "url": "`+ts.URL+`", "headers": {"Authorization": "Bearer ${MCPJSON_TEST_TOKEN}"}}
  }
}`)
	f, err := target.ReadMCPJSON(p)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"faults", "remote"}, f.Names()); d != "" {
		t.Errorf("names (-want +got):\n%s", d)
	}
	stdio, err := target.FromMCPJSON(p, "faults")
	if err != nil {
		t.Fatal(err)
	}
	wantSpec := "stdio:'" + filepath.Join(dir, "server bin") + "' --delay 1ms"
	if stdio.Spec != wantSpec || stdio.Dir != dir || stdio.Env["SECRET"] != "${MCPJSON_TEST_TOKEN}" {
		t.Errorf("stdio server: %+v, want spec %q in %s with the ${VAR} kept for connecting", stdio, wantSpec, dir)
	}
	remote, err := target.FromMCPJSON(p, "remote")
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []target.Config{stdio, remote} {
		if d := cfg.Describe(); strings.Contains(d, "PLANTED") || strings.Contains(d, "MCPJSON_TEST_TOKEN") {
			t.Errorf("the record's description %q holds an env or header value", d)
		}
		c, err := target.Dial(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", cfg.Describe(), err)
		}
		tools, err := c.Tools(context.Background())
		c.Close()
		if err != nil || len(tools) == 0 {
			t.Errorf("%s: tools %d, %v", cfg.Describe(), len(tools), err)
		}
	}
}

// TestMCPJSONChoosing: one server needs no name; several need one, and
// the error lists them; an unknown name lists them too.
func TestMCPJSONChoosing(t *testing.T) {
	dir := t.TempDir()
	one := writeMCPJSON(t, dir, `{"mcpServers": {"only": {"command": "server"}}}`)
	if c, err := target.FromMCPJSON(one, ""); err != nil || c.Spec != "stdio:server" || c.Dir != dir {
		t.Errorf("the only server: %+v, %v", c, err)
	}
	two := filepath.Join(dir, "two.json")
	os.WriteFile(two, []byte(`{"servers": {"b": {"url": "https://example.com/mcp"}, "a": {"command": "x"}}}`), 0o644)
	_, err := target.FromMCPJSON(two, "")
	if err == nil || !strings.Contains(err.Error(), "holds 2 servers (a, b): name one as "+two+"#NAME") {
		t.Errorf("no name among two: %v", err)
	}
	_, err = target.FromMCPJSON(two, "c")
	if err == nil || !strings.Contains(err.Error(), `no server "c" (have a, b)`) {
		t.Errorf("unknown name: %v", err)
	}
	if c, err := target.FromMCPJSON(two, "b"); err != nil || c.Kind() != "http" || c.Describe() != "https://[endpoint]" {
		t.Errorf("VS Code's servers key: %+v, %v", c, err)
	}
}

// TestMCPJSONBadFiles: a malformed file is located as file:line:col, and
// a server mcpeval cannot reach as given says why, at its line.
func TestMCPJSONBadFiles(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, body, want string }{
		{"syntax", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",}\n  }\n}", "mcp.json:3:26: invalid character '}'"},
		{"type", "{\"mcpServers\": {\n \"a\": {\"command\": \"x\", \"args\": \"--flag\"}}}", "mcp.json:2:39: args is a JSON string, want an array of strings"},
		{"empty", `{"mcpServers": {}}`, "mcp.json:1:1: no servers"},
		{"neither", "{\"mcpServers\": {\n  \"a\": {\"env\": {}}}}", `mcp.json:2: server "a" has neither a command (stdio) nor a url`},
		{"both", `{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}`, "has both a command and a url"},
		{"sse", `{"mcpServers": {"a": {"type": "sse", "url": "http://h/sse"}}}`, "not the older HTTP+SSE transport"},
		{"var in args", `{"mcpServers": {"a": {"command": "x", "args": ["--key", "${KEY}"]}}}`, "args[1] holds ${KEY}: mcpeval expands ${VAR} only in env and headers"},
		{"var in url", `{"mcpServers": {"a": {"url": "https://h/${TENANT}/mcp"}}}`, "url holds ${TENANT}"},
		{"headers on stdio", `{"mcpServers": {"a": {"command": "x", "headers": {"A": "b"}}}}`, "headers go with a url"},
		{"not a url", `{"mcpServers": {"a": {"url": "ftp://h"}}}`, "want an http:// or https:// URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeMCPJSON(t, filepath.Join(dir), tc.body)
			_, err := target.FromMCPJSON(p, "")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// TestMCPJSONRef tells an mcp.json reference from the other specs.
func TestMCPJSONRef(t *testing.T) {
	for spec, want := range map[string]bool{
		"mcp.json": true, "conf/mcp.json#github": true, "Claude.JSON#x": true,
		"builtin:household": false, "stdio:server.json": false, "https://h/mcp.json": false, "mcp.yaml": false,
	} {
		if got := target.IsMCPJSONRef(spec); got != want {
			t.Errorf("IsMCPJSONRef(%q) = %v", spec, got)
		}
	}
	if f, n := target.SplitMCPJSONRef("a#b/mcp.json#srv"); f != "a#b/mcp.json" || n != "srv" {
		t.Errorf("split: %q %q", f, n)
	}
}

// TestQuoteWord: every word comes back whole from SplitCommand.
func TestQuoteWord(t *testing.T) {
	words := []string{"plain", "two words", "it's", `back\slash`, `"dq"`, "", "$HOME", "a\tb", "--flag=x,y"}
	var quoted []string
	for _, w := range words {
		quoted = append(quoted, target.QuoteWord(w))
	}
	got, err := target.SplitCommand(strings.Join(quoted, " "))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(words, got); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

// TestMCPJSONHostileNames: a server name that is not plain text is quoted
// where a message lists it.
func TestMCPJSONHostileNames(t *testing.T) {
	p := writeMCPJSON(t, t.TempDir(), `{"mcpServers": {"a\u001b[2J": {"command": "x"}, "b, c": {"command": "y"}}}`)
	_, err := target.FromMCPJSON(p, "")
	if err == nil || strings.ContainsRune(err.Error(), 0x1b) || !strings.Contains(err.Error(), `"a\x1b[2J", "b, c"`) {
		t.Errorf("err %q", err)
	}
}

// FuzzParseMCPJSON: no file makes reading it, or choosing any of its
// servers, panic.
func FuzzParseMCPJSON(f *testing.F) {
	f.Add([]byte(`{"mcpServers": {"a": {"command": "x", "args": ["y"], "env": {"K": "${V}"}, "cwd": "d"}}}`))
	f.Add([]byte(`{"servers": {"b": {"type": "http", "url": "https://h/mcp", "headers": {"A": "b"}}}}`))
	f.Add([]byte(`{"mcpServers": {"a": {"command": 1}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := target.ParseMCPJSON(filepath.Join(t.TempDir(), "mcp.json"), data)
		if err != nil {
			return
		}
		for _, n := range m.Names() {
			m.Target(n)
		}
		m.Target("")
	})
}
