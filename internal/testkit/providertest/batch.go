package providertest

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

	"github.com/mcpeval/mcpeval/internal/provider/send"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

// BatchClient is a provider's batch client under test, against the
// wiremodel.Batches stand-in of its batch API.
type BatchClient struct {
	// API is the wire format of the stand-in's answers.
	API wiremodel.API
	// Key is the API key, which must never come out; it must contain
	// "PLANTED".
	Key string
	// Open opens the model with Key against the stand-in at url (the
	// server's root URL) under policy.
	Open func(t *testing.T, url string, policy retry.Policy) (model.Batcher, error)
	// MaxRequests and MaxBytes are the API's limits on one batch.
	MaxRequests, MaxBytes int
	// Limits are the limits the client splits by: the checks make them
	// small for a test and put MaxRequests and MaxBytes back after it.
	Limits *send.Limits
	// Ended is the API's word for a batch whose requests all ended.
	Ended string
	// StopReason is the API's stop reason for an answer calling a tool.
	StopReason string
	// Upload and Create are the paths POSTed to submit a batch: Upload
	// first (the input file), then Create (the batch); the same path for
	// an API that takes the requests in the batch's creation.
	Upload, Create string
	// Results is the path (or its start) of a GET reading results.
	Results func(batch string) string
	// SubmitError is how a refused submission of 2 requests begins.
	SubmitError string
	// Errored is how the error of a request refused inside the batch
	// begins.
	Errored string
}

// posts is how many POSTs submitting one batch takes.
func (c BatchClient) posts() int {
	if c.Upload == c.Create {
		return 1
	}
	return 2
}

var limitsMu sync.Mutex

// limits runs the rest of the test with the client's limits set.
func (c BatchClient) limits(t *testing.T, requests, bytes int) {
	t.Helper()
	limitsMu.Lock()
	*c.Limits = send.Limits{Requests: requests, Bytes: bytes}
	t.Cleanup(func() { *c.Limits = send.Limits{Requests: c.MaxRequests, Bytes: c.MaxBytes}; limitsMu.Unlock() })
}

// stand serves the batch API answering prompts "p0", "p1", ... with a
// call of the tool "fs.read" (a name the APIs refuse, so it travels as
// fs_read), and opens a model on it whose retries wait nothing.
func (c BatchClient) stand(t *testing.T, faults ...wiremodel.Fault) (*wiremodel.Batches, model.Batcher) {
	t.Helper()
	keys := map[string]suite.Key{}
	for i := range 6 {
		keys[fmt.Sprintf("p%d", i)] = suite.Key{Calls: []suite.KeyCall{{Tool: "fs.read", Args: map[string]any{"n": i}}}}
	}
	b := wiremodel.NewBatches(&wiremodel.Handler{API: c.API, Keys: keys, APIKey: c.Key})
	b.Faults = faults
	srv := httptest.NewServer(b)
	t.Cleanup(srv.Close)
	m, err := c.Open(t, srv.URL, retry.Policy{Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	return b, m
}

// BatchRequests are n requests of prompts "p0", "p1", ... offering the
// tool "fs.read", under ids "a-0", "a-1", ...
func BatchRequests(n int) []model.BatchRequest {
	var out []model.BatchRequest
	for i := range n {
		out = append(out, model.BatchRequest{ID: fmt.Sprintf("a-%d", i), Request: &model.Request{
			System:   "Use the tools.",
			Tools:    []model.Tool{{Name: "fs.read", InputSchema: json.RawMessage(`{"type":"object"}`)}},
			Messages: []model.Message{user(fmt.Sprintf("p%d", i))},
		}})
	}
	return out
}

// Batches runs the checks every batch client passes: split by the API's
// limits in order with every answer under its MCP tool name, progress
// before the end with no results read, submissions retried and refused,
// and requests errored or expired inside a batch told apart.
func Batches(t *testing.T, c BatchClient) {
	if !strings.Contains(c.Key, "PLANTED") {
		t.Fatalf("providertest: the key %q must contain PLANTED", c.Key)
	}
	t.Run("SplitsAndMapsBack", func(t *testing.T) { c.splitsAndMapsBack(t) })
	t.Run("PollInProgress", func(t *testing.T) { c.pollInProgress(t) })
	t.Run("SubmitRefusals", func(t *testing.T) { c.submitRefusals(t) })
	t.Run("ErroredAndExpired", func(t *testing.T) { c.erroredAndExpired(t) })
}

// Requests are split into batches by the API's request and size limits,
// in order, and every answer comes back under its MCP tool name.
func (c BatchClient) splitsAndMapsBack(t *testing.T) {
	for _, tc := range []struct {
		name            string
		requests, bytes int
		want            []int
	}{
		{"one batch", c.MaxRequests, c.MaxBytes, []int{5}},
		{"by requests", 2, c.MaxBytes, []int{2, 2, 1}},
		{"by bytes", c.MaxRequests, 1, []int{1, 1, 1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.limits(t, tc.requests, tc.bytes)
			b, m := c.stand(t)
			reqs := BatchRequests(5)
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
				if !st.Ended || st.Done != bt.Requests || st.Total != bt.Requests || st.Status != c.Ended {
					t.Errorf("batch %s: %+v, want %s with %d done", bt.ID, st, c.Ended, bt.Requests)
				}
				for _, r := range st.Results {
					got[r.ID] = r
				}
			}
			if fmt.Sprint(sizes) != fmt.Sprint(tc.want) || b.Count(http.MethodPost, c.Create) != len(tc.want) {
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
				if res.Response.Usage.Input+res.Response.Usage.CacheRead+res.Response.Usage.CacheWrite == 0 || res.Response.StopReason != c.StopReason {
					t.Errorf("%s: usage %+v stop %q", r.ID, res.Response.Usage, res.Response.StopReason)
				}
			}
		})
	}
}

// A batch still running says how far it has come and has no results yet.
func (c BatchClient) pollInProgress(t *testing.T) {
	b, m := c.stand(t)
	b.PerPoll = 2
	reqs := BatchRequests(5)
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
	if n := b.Count(http.MethodGet, c.Results(batches[0].ID)); n != 0 {
		t.Errorf("results read %d times before the batch ended", n)
	}
}

// A submission the API refuses with a server error is sent again; one it
// refuses for good is an error naming what was being done, with no key in
// it; a refusal after some batches were accepted returns those with it.
func (c BatchClient) submitRefusals(t *testing.T) {
	b, m := c.stand(t, wiremodel.Fault{Status: 500})
	batches, err := m.Submit(context.Background(), BatchRequests(2))
	if err != nil || len(batches) != 1 || b.Count(http.MethodPost, c.Upload) != 2 || (c.posts() == 2 && b.Count(http.MethodPost, c.Create) != 1) {
		t.Errorf("after a 500: batches %+v, err %v, %d posts to %s; want one batch, sent again after the 500", batches, err, b.Count(http.MethodPost, c.Upload), c.Upload)
	}

	h := &wiremodel.Handler{API: c.API}
	_, m = c.stand(t, wiremodel.Fault{Status: 400, Body: h.ErrorJSON(400, "invalid_request_error", "bad key "+c.Key)})
	batches, err = m.Submit(context.Background(), BatchRequests(2))
	if err == nil || len(batches) != 0 || !strings.HasPrefix(err.Error(), c.SubmitError) || strings.Contains(err.Error(), c.Key) {
		t.Errorf("after a 400: batches %+v, err %v; want an error beginning %q, with no key", batches, err, c.SubmitError)
	}

	c.limits(t, 2, c.MaxBytes)
	faults := make([]wiremodel.Fault, c.posts(), c.posts()+1)
	_, m = c.stand(t, append(faults, wiremodel.Fault{Status: 400})...)
	batches, err = m.Submit(context.Background(), BatchRequests(5))
	if err == nil || len(batches) != 1 || batches[0].Requests != 2 {
		t.Errorf("refused second batch: batches %+v, err %v; want the first batch and the error", batches, err)
	}
}

// A request the API refused inside the batch ends with its error; one
// left when the batch expired says it expired.
func (c BatchClient) erroredAndExpired(t *testing.T) {
	b, m := c.stand(t)
	delete(b.Model.Keys, "p1")
	b.PerPoll, b.ExpireAt = 3, 2
	reqs := BatchRequests(5)
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
			if r.Response != nil || !strings.HasPrefix(r.Error, c.Errored) {
				t.Errorf("%s: %q, want it to begin %q", r.ID, r.Error, c.Errored)
			}
		default:
			if r.Response != nil || !strings.HasPrefix(r.Error, "expired: ") {
				t.Errorf("%s: %q, want expired", r.ID, r.Error)
			}
		}
	}
}
