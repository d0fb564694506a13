package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// inspector finds the MCP Inspector's command-line client: MCPEVAL_INSPECTOR,
// else the copy .ci/run installs. Without one the test is skipped, except
// in CI, which installs it.
func inspector(t *testing.T) string {
	t.Helper()
	p := os.Getenv("MCPEVAL_INSPECTOR")
	if p == "" {
		p, _ = filepath.Abs("../../.ci/npm/node_modules/.bin/mcp-inspector")
	}
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the MCP Inspector is not installed at %s (.ci/run installs it)", p)
		}
		t.Skipf("no MCP Inspector at %s: set MCPEVAL_INSPECTOR, or npm install @modelcontextprotocol/inspector", p)
	}
	return p
}

// TestServedTargetWorksWithTheInspector checks serve-target against a client
// mcpeval did not write: the MCP Inspector's CLI lists the household tools
// and calls one, over stdio and over streamable HTTP.
func TestServedTargetWorksWithTheInspector(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mcpeval and runs Node")
	}
	insp := inspector(t)
	bin := filepath.Join(t.TempDir(), "mcpeval")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building mcpeval: %v\n%s", err, out)
	}
	ask := func(target []string, method ...string) map[string]any {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		args := append(append([]string{"--cli"}, target...), method...)
		cmd := exec.CommandContext(ctx, insp, args...)
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("mcp-inspector %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("mcp-inspector %s: not JSON: %v\n%s", strings.Join(args, " "), err, out)
		}
		return v
	}
	check := func(name string, target []string) {
		list := ask(target, "--method", "tools/list")
		var names []string
		for _, tl := range list["tools"].([]any) {
			names = append(names, tl.(map[string]any)["name"].(string))
		}
		if len(names) != 9 || !strings.Contains(strings.Join(names, " "), "get_net_worth_history") || strings.Contains(strings.Join(names, " "), "update_balance") {
			t.Errorf("%s: the inspector lists %v, want the 9 read tools and no write tool", name, names)
		}
		call := ask(target, "--method", "tools/call", "--tool-name", "get_net_worth_history", "--tool-arg", "months=7")
		sc, _ := call["structuredContent"].(map[string]any)
		hist, _ := sc["history"].([]any)
		if len(hist) != 7 || hist[0].(map[string]any)["net_worth_sgd"] != 2261924.0 {
			t.Errorf("%s: get_net_worth_history months=7 gave %v", name, sc)
		}
	}
	check("stdio", []string{bin, "serve-target", "household"})

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(bin, "serve-target", "household", "--http", addr)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	for i := 0; i < 100; i++ { // wait for it to listen
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	check("http", []string{"http://" + addr + "/mcp", "--transport", "http"})
}
