package probe

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/anthropic"
)

type stub func(*model.Request) (*model.Response, error)

func (s stub) Generate(_ context.Context, r *model.Request) (*model.Response, error) { return s(r) }

func TestProbeAccepted(t *testing.T) {
	var seen *model.Request
	m := stub(func(r *model.Request) (*model.Response, error) {
		seen = r
		return &model.Response{
			Message: model.Message{Role: model.Assistant, Blocks: []model.Block{
				{Kind: model.ToolUse, Call: &model.Call{ID: "1", Name: "probe_echo", Args: json.RawMessage(`{"word":"ping"}`)}},
			}},
			StopReason: "tool_use", Latency: 300 * time.Millisecond, Usage: model.Usage{Input: 200, Output: 20},
			Tries: []model.Try{{Status: 529, Error: "overloaded_error: Overloaded", WaitMS: 1000}},
		}, nil
	})
	extra := model.Tool{Name: "container_list", InputSchema: json.RawMessage(`{"type":"object"}`)}
	r := Probe(context.Background(), m, extra)
	if !r.Accepted || !r.Called || r.StopReason != "tool_use" || r.Latency != 300*time.Millisecond || r.Usage.Input != 200 || len(r.Tries) != 1 || r.Error != "" {
		t.Errorf("Probe = %+v", r)
	}
	if len(seen.Tools) != 2 || seen.Tools[0].Name != "probe_echo" || seen.Tools[1].Name != "container_list" {
		t.Errorf("probe offered %+v, want probe_echo then the given tools", seen.Tools)
	}
}

func TestProbeRefused(t *testing.T) {
	m := stub(func(*model.Request) (*model.Response, error) {
		return nil, &model.ProviderError{Tries: []model.Try{{Status: 404, Error: "not_found_error: model: claude-nope"}}, Err: errors.New("not_found_error: model: claude-nope")}
	})
	r := Probe(context.Background(), m)
	if r.Accepted || r.Called || !strings.Contains(r.Error, "not_found_error") || len(r.Tries) != 1 {
		t.Errorf("Probe = %+v", r)
	}
}

// TestProbeAnthropic runs a probe through the real provider against a server
// that checks tool names the way the API does.
func TestProbeAnthropic(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Model string `json:"model"`
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &body)
		w.Header().Set("Content-Type", "application/json")
		if body.Model != "claude-sonnet-5-5" {
			w.WriteHeader(404)
			io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"model: `+body.Model+`"}}`)
			return
		}
		for _, tl := range body.Tools {
			if !valid.MatchString(tl.Name) {
				w.WriteHeader(400)
				io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"tools: name does not match pattern"}}`)
				return
			}
		}
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-5-5",
		  "content":[{"type":"tool_use","id":"toolu_1","name":"probe_echo","input":{"word":"ping"}}],
		  "stop_reason":"tool_use","usage":{"input_tokens":300,"output_tokens":30,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}`)
	}))
	defer srv.Close()
	for name, want := range map[string]bool{"claude-sonnet-5-5": true, "claude-nope": false} {
		info, _ := model.ParseSpec("anthropic:" + name)
		m, err := anthropic.New(info, anthropic.Config{APIKey: "k", BaseURL: srv.URL, Retry: retry.Policy{MaxTries: 1}})
		if err != nil {
			t.Fatal(err)
		}
		r := Probe(context.Background(), m, model.Tool{Name: "list containers (all)", InputSchema: json.RawMessage(`{"type":"object"}`)})
		if r.Accepted != want || r.Called != want {
			t.Errorf("%s: Probe = %+v, want accepted and called %v", name, r, want)
		}
		if !want && !strings.Contains(r.Error, "not_found_error: model: claude-nope") {
			t.Errorf("%s: error %q does not carry the provider's message", name, r.Error)
		}
	}
}
