// Command standin is the model both tools talk to in the side-by-side
// harness (scripts/sidebyside/run.sh): an OpenAI-compatible chat
// completions endpoint on the loopback interface that answers the
// household suite's cases from their keys (package
// internal/testkit/wiremodel), so that neither tool waits on a real
// model and both do the same work.
//
// It prints its base URL on stdout ("http://127.0.0.1:PORT/v1") and serves
// until it is killed. GET /stats answers {"requests": N}, the chat
// completions requests answered so far. With -promptfoo FILE it first
// writes a promptfoo configuration that puts every case's prompt to it,
// with the MCP server started as -server says.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on (loopback only)")
	pfConfig := flag.String("promptfoo", "", "write a promptfoo configuration for the suite to this file")
	server := flag.String("server", "mcpeval serve-target household", "the stdio MCP server command promptfoo starts (words split at spaces)")
	model := flag.String("model", "gpt-4o-mini", "the model name both tools ask for")
	flag.Parse()
	if err := run(*addr, *pfConfig, *server, *model); err != nil {
		fmt.Fprintln(os.Stderr, "standin:", err)
		os.Exit(1)
	}
}

func run(addr, pfConfig, server, model string) error {
	s, err := builtin.LoadSuite("household")
	if err != nil {
		return fmt.Errorf("loading the household suite: %w", err)
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %s: %w", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-addr %s: the stand-in listens on a loopback address only", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	base := "http://" + ln.Addr().String() + "/v1"
	if pfConfig != "" {
		var prompts []string
		for _, c := range s.Cases {
			prompts = append(prompts, c.Prompt)
		}
		if err := os.WriteFile(pfConfig, promptfooConfig(base, model, strings.Fields(server), prompts), 0o644); err != nil {
			return fmt.Errorf("writing the promptfoo configuration: %w", err)
		}
	}
	h := wiremodel.NewOpenAI(s)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(map[string]int{"requests": h.Count()})
	})
	mux.Handle("/", h)
	fmt.Println(base)
	return http.Serve(ln, mux)
}

// promptfooConfig is a promptfoo configuration (YAML is a superset of
// JSON) asking the stand-in each prompt through promptfoo's OpenAI
// provider, which lists the MCP server's tools, sends them with the
// prompt and calls the tools the answer asks for.
func promptfooConfig(base, model string, server, prompts []string) []byte {
	var tests []map[string]any
	for _, p := range prompts {
		tests = append(tests, map[string]any{"vars": map[string]string{"prompt": p}})
	}
	cfg := map[string]any{
		"description": "mcpeval side by side: the household suite against the stand-in",
		"prompts":     []string{"{{prompt}}"},
		"providers": []map[string]any{{
			"id": "openai:chat:" + model,
			"config": map[string]any{
				"apiBaseUrl": base,
				"apiKey":     "standin",
				"mcp": map[string]any{
					"enabled": true,
					"server":  map[string]any{"command": server[0], "args": server[1:]},
				},
			},
		}},
		"tests": tests,
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	return append(b, '\n')
}
