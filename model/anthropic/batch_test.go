package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/testserver/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

const batchTestKey = "sk-ant-PLANTED-batch-0123"

// batchStandIn serves the Message Batches API answering prompts "p0",
// "p1", ... with a call of the tool "fs.read" (a name the API refuses, so
// it travels as fs_read), and opens a model on it whose retries wait
// nothing.
func batchStandIn(t *testing.T, faults ...wiremodel.Fault) (*wiremodel.Batches, *Model) {
	t.Helper()
	keys := map[string]suite.Key{}
	for i := range 6 {
		keys[fmt.Sprintf("p%d", i)] = suite.Key{Calls: []suite.KeyCall{{Tool: "fs.read", Args: map[string]any{"n": i}}}}
	}
	b := wiremodel.NewBatches(&wiremodel.Handler{API: wiremodel.Anthropic, Keys: keys, APIKey: batchTestKey})
	b.Faults = faults
	srv := httptest.NewServer(b)
	t.Cleanup(srv.Close)
	info, err := model.ParseSpec("anthropic:claude-test")
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(info, Config{APIKey: batchTestKey, BaseURL: srv.URL, Retry: retry.Policy{
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}})
	if err != nil {
		t.Fatal(err)
	}
	return b, m
}

func batchRequests(n int) []model.BatchRequest {
	var out []model.BatchRequest
	for i := range n {
		out = append(out, model.BatchRequest{ID: fmt.Sprintf("a-%d", i), Request: &model.Request{
			System:   "Use the tools.",
			Tools:    []model.Tool{{Name: "fs.read", InputSchema: json.RawMessage(`{"type":"object"}`)}},
			Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: fmt.Sprintf("p%d", i)}}}},
		}})
	}
	return out
}

var limitsMu sync.Mutex

// withLimits runs f with the batch limits set to requests and bytes.
func withLimits(t *testing.T, requests, bytes int) {
	t.Helper()
	limitsMu.Lock()
	old := batchLimits
	batchLimits.requests, batchLimits.bytes = requests, bytes
	t.Cleanup(func() { batchLimits = old; limitsMu.Unlock() })
}

// Requests are split into batches by the API's request and size limits,
// in order, and every answer comes back under its MCP tool name.
func TestBatchSplitsAndMapsBack(t *testing.T) {
	for _, tc := range []struct {
		name            string
		requests, bytes int
		want            []int
	}{
		{"one batch", MaxBatchRequests, MaxBatchBytes, []int{5}},
		{"by requests", 2, MaxBatchBytes, []int{2, 2, 1}},
		{"by bytes", MaxBatchRequests, 1, []int{1, 1, 1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withLimits(t, tc.requests, tc.bytes)
			b, m := batchStandIn(t)
			reqs := batchRequests(5)
			batches, err := m.Submit(context.Background(), reqs)
			if err != nil {
				t.Fatal(err)
			}
			var sizes []int
			got := map[string]model.BatchResult{}
			for _, bt := range batches {
				sizes = append(sizes, bt.Requests)
				st, err := m.Poll(context.Background(), bt.ID, reqs)
				if err != nil {
					t.Fatal(err)
				}
				if !st.Ended || st.Done != bt.Requests || st.Total != bt.Requests || st.Status != "ended" {
					t.Errorf("batch %s: %+v, want ended with %d done", bt.ID, st, bt.Requests)
				}
				for _, r := range st.Results {
					got[r.ID] = r
				}
			}
			if fmt.Sprint(sizes) != fmt.Sprint(tc.want) || b.Count(http.MethodPost, "/v1/messages/batches") != len(tc.want) {
				t.Errorf("batches of %v, want %v", sizes, tc.want)
			}
			for i, r := range reqs {
				res := got[r.ID]
				if res.Response == nil {
					t.Fatalf("%s: no answer (%s)", r.ID, res.Error)
				}
				calls := res.Response.Message.Calls()
				if len(calls) != 1 || calls[0].Name != "fs.read" || calls[0].WireName != "fs_read" || string(calls[0].Args) != fmt.Sprintf(`{"n":%d}`, i) {
					t.Errorf("%s: calls %+v, want fs.read (fs_read on the wire) with n=%d", r.ID, calls, i)
				}
				if res.Response.Usage.Input+res.Response.Usage.CacheRead+res.Response.Usage.CacheWrite == 0 || res.Response.StopReason != "tool_use" {
					t.Errorf("%s: usage %+v stop %q", r.ID, res.Response.Usage, res.Response.StopReason)
				}
			}
		})
	}
}

// A batch still running says how far it has come and has no results yet.
func TestBatchPollInProgress(t *testing.T) {
	b, m := batchStandIn(t)
	b.PerPoll = 2
	reqs := batchRequests(5)
	batches, err := m.Submit(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	st, err := m.Poll(context.Background(), batches[0].ID, reqs)
	if err != nil {
		t.Fatal(err)
	}
	if st.Ended || st.Done != 2 || st.Total != 5 || st.Status != "in_progress" || st.Results != nil {
		t.Errorf("%+v, want in progress, 2 of 5 done, no results", st)
	}
	if n := b.Count(http.MethodGet, "/v1/messages/batches/"+batches[0].ID+"/results"); n != 0 {
		t.Errorf("results read %d times before the batch ended", n)
	}
}

// A submission the API refuses with a server error is sent again; one it
// refuses for good is an error naming what was being done, with no key in
// it; a refusal after some batches were accepted returns those with it.
func TestBatchSubmitRefusals(t *testing.T) {
	b, m := batchStandIn(t, wiremodel.Fault{Status: 500})
	batches, err := m.Submit(context.Background(), batchRequests(2))
	if err != nil || len(batches) != 1 || b.Count(http.MethodPost, "/v1/messages/batches") != 2 {
		t.Errorf("after a 500: batches %+v, err %v, %d posts; want one batch on the second try", batches, err, b.Count(http.MethodPost, "/v1/messages/batches"))
	}

	_, m = batchStandIn(t, wiremodel.Fault{Status: 400, Body: `{"type":"error","error":{"type":"invalid_request_error","message":"bad key ` + batchTestKey + `"}}`})
	batches, err = m.Submit(context.Background(), batchRequests(2))
	if err == nil || len(batches) != 0 || !strings.HasPrefix(err.Error(), "submitting a batch of 2 requests to anthropic:claude-test") || strings.Contains(err.Error(), batchTestKey) {
		t.Errorf("after a 400: batches %+v, err %v; want an error saying what was being done, with no key", batches, err)
	}

	withLimits(t, 2, MaxBatchBytes)
	_, m = batchStandIn(t, wiremodel.Fault{}, wiremodel.Fault{Status: 400})
	batches, err = m.Submit(context.Background(), batchRequests(5))
	if err == nil || len(batches) != 1 || batches[0].Requests != 2 {
		t.Errorf("refused second batch: batches %+v, err %v; want the first batch and the error", batches, err)
	}
}

// A request the API refused inside the batch ends with its error type and
// message; one left when the batch expired says it expired.
func TestBatchErroredAndExpiredResults(t *testing.T) {
	b, m := batchStandIn(t)
	delete(b.Model.Keys, "p1")
	b.PerPoll, b.ExpireAt = 3, 2
	reqs := batchRequests(5)
	batches, err := m.Submit(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	var st *model.BatchStatus
	for range 2 {
		if st, err = m.Poll(context.Background(), batches[0].ID, reqs); err != nil {
			t.Fatal(err)
		}
	}
	if !st.Ended || len(st.Results) != 5 {
		t.Fatalf("%+v, want ended with 5 results", st)
	}
	for _, r := range st.Results {
		switch r.ID {
		case "a-0", "a-2":
			if r.Response == nil {
				t.Errorf("%s: %s, want an answer", r.ID, r.Error)
			}
		case "a-1":
			if r.Response != nil || !strings.HasPrefix(r.Error, "errored: invalid_request_error: ") {
				t.Errorf("%s: %q, want errored", r.ID, r.Error)
			}
		default:
			if r.Response != nil || !strings.HasPrefix(r.Error, "expired: ") {
				t.Errorf("%s: %q, want expired", r.ID, r.Error)
			}
		}
	}
}
