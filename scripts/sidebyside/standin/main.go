// Command standin is the model both tools talk to in the side-by-side
// harness (scripts/sidebyside/run.sh): an endpoint on the loopback
// interface speaking Anthropic's Messages API (POST /v1/messages) and
// OpenAI's chat completions (POST /v1/chat/completions) that answers the
// household suite's cases from their keys (package
// internal/testkit/wiremodel), so that neither tool waits on a real model
// and both do the same work. Every case's key calls are made in the first
// turn, all at once, and its answer is given in the second: two model
// requests an attempt that calls a tool, one for a case whose key calls
// none. Each request is answered after -latency, as a model that takes
// that long would.
//
// It prints its base URL on stdout ("http://127.0.0.1:PORT"; OpenAI's base
// is that with "/v1") and serves until it is killed. Both APIs take the key
// "standin" (x-api-key or Authorization: Bearer). GET /stats answers
// {"requests": N, "anthropic": A, "openai": O}, the model requests
// answered so far. With -promptfoo FILE it first writes a promptfoo
// configuration that puts every case's prompt to it through promptfoo's
// anthropic:messages provider, with the MCP server started as -server
// says; -promptfoo-openai FILE writes one for promptfoo's openai:chat
// provider, which calls the tools of the first answer and stops there.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/suite"
)

// APIKey is the key the stand-in takes.
const APIKey = "standin"

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on (loopback only)")
	pfConfig := flag.String("promptfoo", "", "write a promptfoo configuration for the suite (anthropic:messages provider) to this file")
	pfOpenAI := flag.String("promptfoo-openai", "", "write a promptfoo configuration for the suite (openai:chat provider, one model turn) to this file")
	server := flag.String("server", "mcpeval serve-target household", "the stdio MCP server command promptfoo starts (words split at spaces)")
	anthropicModel := flag.String("anthropic-model", "claude-haiku-4-5", "the Anthropic model name the promptfoo configuration asks for")
	openaiModel := flag.String("openai-model", "gpt-4o-mini", "the OpenAI model name the promptfoo configuration asks for")
	latency := flag.Duration("latency", 0, "time taken to answer each model request")
	flag.Parse()
	o := options{addr: *addr, pfConfig: *pfConfig, pfOpenAI: *pfOpenAI, server: strings.Fields(*server),
		anthropicModel: *anthropicModel, openaiModel: *openaiModel, latency: *latency}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "standin:", err)
		os.Exit(1)
	}
}

type options struct {
	addr, pfConfig, pfOpenAI    string
	server                      []string
	anthropicModel, openaiModel string
	latency                     time.Duration
}

func run(o options) error {
	s, err := builtin.LoadSuite("household")
	if err != nil {
		return fmt.Errorf("loading the household suite: %w", err)
	}
	if len(o.server) == 0 {
		return fmt.Errorf("-server: no command")
	}
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return fmt.Errorf("-addr %s: %w", o.addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-addr %s: the stand-in listens on a loopback address only", o.addr)
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", o.addr, err)
	}
	base := "http://" + ln.Addr().String()
	var prompts []string
	for _, c := range s.Cases {
		prompts = append(prompts, c.Prompt)
	}
	for _, f := range []struct {
		file string
		cfg  []byte
	}{
		{o.pfConfig, promptfooConfig("anthropic:messages:"+o.anthropicModel, base, o.server, prompts)},
		{o.pfOpenAI, promptfooConfig("openai:chat:"+o.openaiModel, base+"/v1", o.server, prompts)},
	} {
		if f.file == "" {
			continue
		}
		if err := os.WriteFile(f.file, f.cfg, 0o644); err != nil {
			return fmt.Errorf("writing the promptfoo configuration: %w", err)
		}
	}
	fmt.Println(base)
	return http.Serve(ln, newStandin(s, o.latency))
}

// standin answers both APIs and counts their requests.
type standin struct {
	anthropic, openai *wiremodel.Handler
	latency           time.Duration
	mux               *http.ServeMux
}

// newStandin returns the stand-in's handler for s's cases, answering each
// model request after latency.
func newStandin(s *suite.Suite, latency time.Duration) *standin {
	st := &standin{anthropic: wiremodel.NewAnthropic(s), openai: wiremodel.NewOpenAI(s), latency: latency, mux: http.NewServeMux()}
	for _, h := range []*wiremodel.Handler{st.anthropic, st.openai} {
		h.APIKey = APIKey
		h.Parallel = true
	}
	st.mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		a, o := st.anthropic.Count(), st.openai.Count()
		json.NewEncoder(w).Encode(map[string]int{"requests": a + o, "anthropic": a, "openai": o})
	})
	st.mux.Handle("/v1/messages", st.slow(st.anthropic))
	st.mux.Handle("/v1/chat/completions", st.slow(st.openai))
	return st
}

func (st *standin) ServeHTTP(w http.ResponseWriter, r *http.Request) { st.mux.ServeHTTP(w, r) }

// slow answers through h after the stand-in's latency, or not at all when
// the client gives up first.
func (st *standin) slow(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if st.latency > 0 {
			t := time.NewTimer(st.latency)
			defer t.Stop()
			select {
			case <-t.C:
			case <-r.Context().Done():
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// promptfooConfig is a promptfoo configuration (YAML is a superset of
// JSON) asking the stand-in each prompt through the promptfoo provider id
// at apiBaseURL, with the MCP server started by the command server: the
// provider lists the server's tools, sends them with the prompt and calls
// the tools the answer asks for (anthropic:messages then sends their
// results back for the next turn).
func promptfooConfig(id, apiBaseURL string, server, prompts []string) []byte {
	var tests []map[string]any
	for _, p := range prompts {
		tests = append(tests, map[string]any{"vars": map[string]string{"prompt": p}})
	}
	cfg := map[string]any{
		"description": "mcpeval side by side: the household suite against the stand-in",
		"prompts":     []string{"{{prompt}}"},
		"providers": []map[string]any{{
			"id": id,
			"config": map[string]any{
				"apiBaseUrl": apiBaseURL,
				"apiKey":     APIKey,
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
