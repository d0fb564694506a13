package runner

import (
	"bytes"
	"context"

	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/anthropic"
	"github.com/mcpeval/mcpeval/model/openai"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
)

// provider is a fake provider API for the schedule test: how to build the
// model against a base URL, and its answers.
type provider struct {
	name     string
	spec     string
	new      func(info model.Info, base string, p retry.Policy) (model.Model, error)
	path     string
	callTool string // answer that calls get_total
	answer   string // answer that says the total
	isResult []byte // marks a request that carries a tool result
	errBody  map[int]string
}

var providers = []provider{
	{
		name: "anthropic", spec: "anthropic:claude-test", path: "/v1/messages",
		new: func(info model.Info, base string, p retry.Policy) (model.Model, error) {
			return anthropic.New(info, anthropic.Config{APIKey: "test-key", BaseURL: base, Retry: p})
		},
		callTool: `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"tool_use","id":"toolu_1","name":"get_total","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}}`,
		answer:   `{"id":"msg_2","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"The total is 42."}],"stop_reason":"end_turn","usage":{"input_tokens":20,"output_tokens":5}}`,
		isResult: []byte(`"tool_result"`),
		errBody: map[int]string{
			529: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			500: `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`,
		},
	},
	{
		name: "openai", spec: "openai:gpt-test", path: "/v1/chat/completions",
		new: func(info model.Info, base string, p retry.Policy) (model.Model, error) {
			return openai.New(info, openai.Config{APIKey: "test-key", BaseURL: base + "/v1", Retry: p})
		},
		callTool: `{"id":"c1","object":"chat.completion","created":1764400000,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_total","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`,
		answer:   `{"id":"c2","object":"chat.completion","created":1764400001,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":"The total is 42."},"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}}`,
		isResult: []byte(`"role":"tool"`),
		errBody: map[int]string{
			529: `{"error":{"message":"The server is overloaded","type":"server_error","code":null}}`,
			500: `{"error":{"message":"Internal error","type":"server_error","code":null}}`,
		},
	},
}

// TestProviderFaultsOnASchedule runs a suite through the real provider
// clients against an httptest API that answers 529 or 500 on a schedule:
// every injected fault must end as a retry (recorded as a try) or as an
// attempt error of kind provider, never as a fail.
func TestProviderFaultsOnASchedule(t *testing.T) {
	// Request numbers (from 1) answered with a fault; three in a row use
	// up the tries, so attempts end in error there.
	faults := map[int]int{2: 529, 4: 500, 7: 529, 8: 500, 9: 529, 13: 500, 14: 500, 15: 500, 18: 529}
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			var mu sync.Mutex
			n, injected := 0, 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				if r.URL.Path != p.path {
					t.Errorf("request to %s, want %s", r.URL.Path, p.path)
				}
				mu.Lock()
				n++
				status := faults[n]
				if status != 0 {
					injected++
				}
				mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				switch {
				case status != 0:
					w.WriteHeader(status)
					io.WriteString(w, p.errBody[status])
				case bytes.Contains(body, p.isResult):
					io.WriteString(w, p.answer)
				default:
					io.WriteString(w, p.callTool)
				}
			}))
			defer srv.Close()
			info, err := model.ParseSpec(p.spec)
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.new(info, srv.URL, retry.Policy{MaxTries: 3, Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
			if err != nil {
				t.Fatal(err)
			}
			s := loadSuite(t, faultSuite)
			rec, err := Run(context.Background(), Config{Suite: s, Model: m, ModelInfo: info, Target: target.Config{Spec: "builtin:runner-test", Builtins: testBuiltins},
				OutDir: t.TempDir(), Attempts: 8, Concurrency: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !rec.Complete() || len(rec.Attempts) != 8 {
				t.Fatalf("complete %v, %d attempts", rec.Complete(), len(rec.Attempts))
			}
			tries, retried, errored := 0, 0, 0
			for _, a := range rec.Attempts {
				for _, tr := range a.Turns {
					tries += len(tr.Tries)
					for _, x := range tr.Tries {
						if x.Status != 529 && x.Status != 500 {
							t.Errorf("attempt %d recorded a try of status %d", a.N, x.Status)
						}
					}
				}
				switch {
				case a.End == record.EndAnswered && a.Answer == "The total is 42.":
					for _, tr := range a.Turns {
						if len(tr.Tries) > 0 {
							retried++
						}
					}
				case a.End == record.EndError && a.Error != nil && a.Error.Kind == record.KindProvider:
					errored++
				default:
					t.Errorf("attempt %d ended %s (%+v) answering %q: a provider fault must end as a retry or an error", a.N, a.End, a.Error, a.Answer)
				}
			}
			if tries != injected {
				t.Errorf("the record holds %d refused tries, %d faults were injected", tries, injected)
			}
			if retried == 0 || errored != 2 {
				t.Errorf("%d turns retried, %d attempts errored; want some and 2 (the schedule has two runs of three)", retried, errored)
			}
			t.Logf("%s: %d requests, %d faults: %d retried turns, %d attempt errors", p.name, n, injected, retried, errored)
		})
	}
}
