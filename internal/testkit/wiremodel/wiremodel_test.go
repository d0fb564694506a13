package wiremodel_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/probe"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/anthropic"
	"github.com/mcpeval/mcpeval/model/openai"
	"github.com/mcpeval/mcpeval/suite"
)

// A case whose tools have names a provider refuses, so the harness maps
// them: the handler must call them by their wire names.
var testSuite = &suite.Suite{Name: "wire", Cases: []*suite.Case{{
	ID:     "a/b",
	Prompt: "Stop the web container.",
	Key: suite.Key{
		Calls: []suite.KeyCall{
			{Tool: "list containers", Args: map[string]any{"all": true}},
			{Tool: "container.stop", Args: map[string]any{"id": "web"}},
		},
		Answer: "Stopped web.",
	},
}}}

var tools = []model.Tool{
	{Name: "list containers", Description: "Lists containers.", InputSchema: json.RawMessage(`{"type":"object","properties":{"all":{"type":"boolean"}}}`)},
	{Name: "container.stop", Description: "Stops one.", InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)},
	{Name: strings.Repeat("x", 70), Description: "A tool with a long name."},
}

const key = "sk-PLANTED-wiremodel-0123456789"

// quick never waits between tries.
var quick = retry.Policy{MaxTries: 3, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}

func open(t *testing.T, h *wiremodel.Handler, spec string) model.Model {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	info, err := model.ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	h.APIKey = key
	var m model.Model
	switch h.API {
	case wiremodel.Anthropic:
		m, err = anthropic.New(info, anthropic.Config{APIKey: key, BaseURL: srv.URL, Retry: quick, Timeout: 5 * time.Second})
	case wiremodel.OpenAI:
		m, err = openai.New(info, openai.Config{APIKey: key, BaseURL: srv.URL + "/v1", Retry: quick, Timeout: 5 * time.Second})
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// converse runs a conversation as the runner does, answering every tool call
// with "ok", and returns the responses.
func converse(t *testing.T, m model.Model, prompt string) []*model.Response {
	t.Helper()
	req := &model.Request{
		System:   "You operate containers.",
		Tools:    tools,
		Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: prompt}}}},
	}
	var out []*model.Response
	for range 5 {
		resp, err := m.Generate(context.Background(), req)
		if err != nil {
			t.Fatalf("turn %d: %v", len(out)+1, err)
		}
		out = append(out, resp)
		req.Messages = append(req.Messages, resp.Message)
		calls := resp.Message.Calls()
		if len(calls) == 0 {
			return out
		}
		res := model.Message{Role: model.User}
		for _, c := range calls {
			res.Blocks = append(res.Blocks, model.Block{Kind: model.ToolResult, Result: &model.Result{CallID: c.ID, Name: c.Name, Content: "ok"}})
		}
		req.Messages = append(req.Messages, res)
	}
	t.Fatal("no answer in 5 turns")
	return nil
}

// calls lists the MCP names called in each turn.
func calls(rs []*model.Response) [][]string {
	var out [][]string
	for _, r := range rs {
		var ns []string
		for _, c := range r.Message.Calls() {
			ns = append(ns, c.Name+" "+string(c.Args))
		}
		out = append(out, ns)
	}
	return out
}

func TestReplaysTheKeyUnderMappedNames(t *testing.T) {
	for _, api := range []wiremodel.API{wiremodel.Anthropic, wiremodel.OpenAI} {
		t.Run(string(api), func(t *testing.T) {
			h := &wiremodel.Handler{API: api, Keys: wiremodel.Keys(testSuite)}
			m := open(t, h, string(api)+":test-model")
			rs := converse(t, m, "Stop the web container.")
			got := calls(rs)
			want := [][]string{{`list containers {"all":true}`}, {`container.stop {"id":"web"}`}, nil}
			if len(got) != 3 || strings.Join(got[0], ",") != want[0][0] || strings.Join(got[1], ",") != want[1][0] || len(got[2]) != 0 {
				t.Fatalf("calls per turn = %q, want %q", got, want)
			}
			if c := rs[0].Message.Calls()[0]; c.WireName != "list_containers" {
				t.Errorf("wire name %q, want list_containers", c.WireName)
			}
			if rs[2].Message.TextOf() != "Stopped web." {
				t.Errorf("answer %q", rs[2].Message.TextOf())
			}
			wantStop := map[wiremodel.API][2]string{wiremodel.Anthropic: {"tool_use", "end_turn"}, wiremodel.OpenAI: {"tool_calls", "stop"}}[api]
			if rs[0].StopReason != wantStop[0] || rs[2].StopReason != wantStop[1] {
				t.Errorf("stop reasons %q, %q; want %q", rs[0].StopReason, rs[2].StopReason, wantStop)
			}
			// The fixed prefix is written once, then read.
			if rs[0].Usage.CacheRead != 0 || rs[1].Usage.CacheRead == 0 || rs[2].Usage.CacheRead != rs[1].Usage.CacheRead {
				t.Errorf("cache reads %d, %d, %d; want 0 then the prefix twice", rs[0].Usage.CacheRead, rs[1].Usage.CacheRead, rs[2].Usage.CacheRead)
			}
			if api == wiremodel.Anthropic && rs[0].Usage.CacheWrite == 0 {
				t.Errorf("first turn wrote no cache: %+v", rs[0].Usage)
			}
			for _, r := range rs {
				if r.Usage.Input <= 0 || r.Usage.Output <= 0 {
					t.Errorf("usage %+v", r.Usage)
				}
			}
			reqs := h.Requests()
			if len(reqs) != 3 || h.Count() != 3 {
				t.Fatalf("%d requests, want 3", len(reqs))
			}
			for _, r := range reqs {
				if r.Fault != nil || r.Status != 200 {
					t.Errorf("request %d: fault %v status %d", r.N, r.Fault, r.Status)
				}
				auth := r.Header.Get("X-Api-Key") + r.Header.Get("Authorization")
				if !strings.Contains(auth, key) {
					t.Errorf("request %d carried no key", r.N)
				}
			}
		})
	}
}

func TestParallelCalls(t *testing.T) {
	for _, api := range []wiremodel.API{wiremodel.Anthropic, wiremodel.OpenAI} {
		t.Run(string(api), func(t *testing.T) {
			h := &wiremodel.Handler{API: api, Keys: wiremodel.Keys(testSuite), Parallel: true}
			rs := converse(t, open(t, h, string(api)+":test-model"), "Stop the web container.")
			got := calls(rs)
			if len(got) != 2 || len(got[0]) != 2 || len(got[1]) != 0 {
				t.Fatalf("calls per turn = %q, want both calls in the first turn", got)
			}
		})
	}
}

// With thinking on, the thinking block must come back with its signature:
// the handler refuses the second turn otherwise, as the API does.
func TestThinkingComesBackSigned(t *testing.T) {
	h := &wiremodel.Handler{API: wiremodel.Anthropic, Keys: wiremodel.Keys(testSuite)}
	m := open(t, h, "anthropic:test-model;thinking=adaptive")
	rs := converse(t, m, "Stop the web container.")
	if len(rs) != 3 || rs[0].Message.Blocks[0].Kind != model.Thinking {
		t.Fatalf("first turn blocks %+v, want a thinking block first", rs[0].Message.Blocks)
	}
	var sent struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(h.Requests()[1].Body, &sent); err != nil {
		t.Fatal(err)
	}
	var b struct{ Type, Thinking, Signature string }
	json.Unmarshal(sent.Messages[1].Content[0], &b)
	if b.Type != "thinking" || b.Signature != wiremodel.Sign(b.Thinking) {
		t.Errorf("second request's assistant turn starts with %s", sent.Messages[1].Content[0])
	}

	// A tampered signature is refused.
	bad := &model.Request{Tools: tools, Messages: []model.Message{
		{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "Stop the web container."}}},
		{Role: model.Assistant, Blocks: []model.Block{
			{Kind: model.Thinking, Opaque: json.RawMessage(`{"type":"thinking","thinking":"x","signature":"forged"}`)},
			{Kind: model.ToolUse, Call: &model.Call{ID: "toolu_1", Name: "list containers", Args: json.RawMessage(`{}`)}},
		}},
		{Role: model.User, Blocks: []model.Block{{Kind: model.ToolResult, Result: &model.Result{CallID: "toolu_1", Content: "ok"}}}},
	}}
	_, err := m.Generate(context.Background(), bad)
	if err == nil || !strings.Contains(err.Error(), "signature") {
		t.Errorf("forged signature: err %v, want a 400 naming the signature", err)
	}
}

func TestFaults(t *testing.T) {
	for _, c := range []struct {
		api    wiremodel.API
		faults []wiremodel.Fault
		want   []int // statuses of the recorded tries
	}{
		{wiremodel.Anthropic, []wiremodel.Fault{{Status: 429, RetryAfter: "0"}, {Status: 529}}, []int{429, 529}},
		{wiremodel.Anthropic, []wiremodel.Fault{{Status: 500}, {Reset: true}}, []int{500, 0}},
		{wiremodel.OpenAI, []wiremodel.Fault{{Status: 429, RetryAfterMS: "1"}, {Status: 503}}, []int{429, 503}},
	} {
		h := &wiremodel.Handler{API: c.api, Keys: wiremodel.Keys(nil), Faults: c.faults}
		res := probe.Probe(context.Background(), open(t, h, string(c.api)+":test-model"))
		if !res.Accepted || !res.Called || len(res.Tries) != len(c.want) {
			t.Errorf("%s %+v: probe %+v, want accepted after %d tries", c.api, c.faults, res, len(c.want))
			continue
		}
		for i, tr := range res.Tries {
			if tr.Status != c.want[i] {
				t.Errorf("%s: try %d status %d, want %d (%s)", c.api, i+1, tr.Status, c.want[i], tr.Error)
			}
		}
		if n := h.Count(); n != len(c.want)+1 {
			t.Errorf("%s: %d requests, want %d", c.api, n, len(c.want)+1)
		}
		if r := h.Requests(); r[0].Fault == nil || r[len(r)-1].Fault != nil {
			t.Errorf("%s: faults recorded %v ... %v", c.api, r[0].Fault, r[len(r)-1].Fault)
		}
	}
	// The error bodies are the providers' own.
	h := &wiremodel.Handler{API: wiremodel.Anthropic, Keys: wiremodel.Keys(nil), Faults: []wiremodel.Fault{{Status: 529}, {Status: 529}, {Status: 529}}}
	res := probe.Probe(context.Background(), open(t, h, "anthropic:test-model"))
	if res.Accepted || len(res.Tries) != 3 || res.Tries[0].Error != "overloaded_error: Overloaded" {
		t.Errorf("three 529s: %+v", res)
	}
	// A malformed body is not an answer, and not worth another try.
	for _, api := range []wiremodel.API{wiremodel.Anthropic, wiremodel.OpenAI} {
		h := &wiremodel.Handler{API: api, Keys: wiremodel.Keys(nil), Faults: []wiremodel.Fault{{Malformed: true}}}
		res := probe.Probe(context.Background(), open(t, h, string(api)+":test-model"))
		if res.Accepted || h.Count() != 1 {
			t.Errorf("%s malformed body: %+v after %d requests", api, res, h.Count())
		}
	}
}

func TestRefusesWhatTheAPIRefuses(t *testing.T) {
	for _, api := range []wiremodel.API{wiremodel.Anthropic, wiremodel.OpenAI} {
		h := &wiremodel.Handler{API: api, Keys: wiremodel.Keys(nil)}
		m := open(t, h, string(api)+":test-model")
		h.APIKey = "another key"
		if res := probe.Probe(context.Background(), m); res.Accepted || len(res.Tries) != 1 || res.Tries[0].Status != 401 {
			t.Errorf("%s wrong key: %+v", api, res)
		}
		h.APIKey = key
		// A prompt no case has.
		req := probe.Request()
		req.Messages[0].Blocks[0].Text = "Something else."
		if _, err := m.Generate(context.Background(), req); err == nil || !strings.Contains(err.Error(), "no case has the prompt") {
			t.Errorf("%s unknown prompt: %v", api, err)
		}
		// A tool call left unanswered.
		req = probe.Request()
		req.Messages = append(req.Messages,
			model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "c1", Name: "probe_echo", Args: json.RawMessage(`{}`)}}}},
			model.Message{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "go on"}}})
		if _, err := m.Generate(context.Background(), req); err == nil || !strings.Contains(err.Error(), "400") {
			t.Errorf("%s unanswered tool call: %v", api, err)
		}
	}
}

func TestWireName(t *testing.T) {
	offered := []string{"get_x", "list_containers", "container_stop"}
	for name, want := range map[string]string{"get_x": "get_x", "list containers": "list_containers", "container.stop": "container_stop", "gone": "gone"} {
		if got := wiremodel.WireName(name, offered); got != want {
			t.Errorf("WireName(%q) = %q, want %q", name, got, want)
		}
	}
}
