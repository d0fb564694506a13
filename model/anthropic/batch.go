package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/mcpeval/mcpeval/internal/provider/send"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/toolname"
	"github.com/mcpeval/mcpeval/model"
)

// The Message Batches API's limits on one batch: 100,000 requests or
// 256 MB, whichever comes first
// (https://platform.claude.com/docs/en/build-with-claude/batch-processing).
const (
	MaxBatchRequests = 100_000
	MaxBatchBytes    = 256_000_000
)

// batchLimits are the limits Submit splits by; tests make them small.
var batchLimits = send.Limits{Requests: MaxBatchRequests, Bytes: MaxBatchBytes}

var _ model.Batcher = (*Model)(nil)

// Submit sends reqs through the Message Batches API (POST
// /v1/messages/batches), each as exactly the body Generate would send,
// split by the API's limits. It implements model.Batcher.
func (m *Model) Submit(ctx context.Context, reqs []model.BatchRequest) ([]model.Batch, error) {
	encode := func(r model.BatchRequest) (sdk.MessageBatchNewParamsRequest, int, error) {
		var e sdk.MessageBatchNewParamsRequest
		params, err := m.params(r.Request, toolMap(r.Request))
		if err != nil {
			return e, 0, fmt.Errorf("building the request %s for anthropic:%s: %w", r.ID, m.info.Name, err)
		}
		raw, err := json.Marshal(params)
		if err != nil {
			return e, 0, fmt.Errorf("encoding the request %s for anthropic:%s: %w", r.ID, m.info.Name, err)
		}
		e = sdk.MessageBatchNewParamsRequest{
			CustomID: r.ID,
			Params:   param.Override[sdk.MessageBatchNewParamsRequestParams](json.RawMessage(raw)),
		}
		return e, len(raw) + len(r.ID) + len(`{"custom_id":"","params":},`), nil
	}
	submit := func(chunk []sdk.MessageBatchNewParamsRequest) (string, error) { return m.submit(ctx, chunk) }
	return send.Split(reqs, batchLimits, encode, submit)
}

// submit creates one batch and returns its id.
func (m *Model) submit(ctx context.Context, reqs []sdk.MessageBatchNewParamsRequest) (string, error) {
	b, err := retry.Call(ctx, m.policy, send.BatchTimeout, m.key, func(ctx context.Context, ex *retry.Exchange) (*sdk.MessageBatch, error) {
		b, err := m.client.Messages.Batches.New(ctx, sdk.MessageBatchNewParams{Requests: reqs},
			option.WithMiddleware(ex.Middleware), option.WithRequestTimeout(send.BatchTimeout))
		if err == nil && b.ID == "" {
			err = &retry.Refusal{Status: http.StatusOK, Message: "reading the batch: no id in " + retry.Short(retry.Redact(b.RawJSON(), m.key), 200)}
		}
		return b, err
	})
	if err != nil {
		return "", fmt.Errorf("submitting a batch of %d requests to anthropic:%s: %w", len(reqs), m.info.Name, err)
	}
	return b.ID, nil
}

// Poll asks the Message Batches API how batch id is getting on (GET
// /v1/messages/batches/ID) and, once it has ended, reads its results
// (GET /v1/messages/batches/ID/results). reqs are the requests
// submitted, by which the answers' tool names are read back. It
// implements model.Batcher.
func (m *Model) Poll(ctx context.Context, id string, reqs []model.BatchRequest) (*model.BatchStatus, error) {
	b, err := retry.Call(ctx, m.policy, m.timeout, m.key, func(ctx context.Context, ex *retry.Exchange) (*sdk.MessageBatch, error) {
		return m.client.Messages.Batches.Get(ctx, id, sdk.MessageBatchGetParams{},
			option.WithMiddleware(ex.Middleware), option.WithRequestTimeout(m.timeout))
	})
	if err != nil {
		return nil, fmt.Errorf("polling batch %s of anthropic:%s: %w", id, m.info.Name, err)
	}
	c := b.RequestCounts
	st := &model.BatchStatus{
		Status: string(b.ProcessingStatus),
		Done:   int(c.Succeeded + c.Errored + c.Canceled + c.Expired),
		Ended:  b.ProcessingStatus == sdk.MessageBatchProcessingStatusEnded,
	}
	st.Total = st.Done + int(c.Processing)
	if !st.Ended {
		return st, nil
	}
	byID := send.Index(reqs)
	st.Results, _, err = retry.Do(ctx, m.policy, func(ctx context.Context) ([]model.BatchResult, error) {
		return m.results(ctx, id, byID)
	})
	if err != nil {
		return nil, fmt.Errorf("reading the results of batch %s of anthropic:%s: %w", id, m.info.Name, err)
	}
	return st, nil
}

// results reads an ended batch's results, once.
func (m *Model) results(ctx context.Context, id string, reqs send.Submitted) ([]model.BatchResult, error) {
	ctx, cancel := context.WithTimeout(ctx, send.BatchTimeout)
	defer cancel()
	var seen answerStatus
	stream := m.client.Messages.Batches.ResultsStreaming(ctx, id, sdk.MessageBatchResultsParams{},
		option.WithMiddleware(seen.middleware), option.WithRequestTimeout(send.BatchTimeout))
	defer stream.Close()
	var out []model.BatchResult
	for stream.Next() {
		out = append(out, m.result(stream.Current(), reqs))
	}
	if err := stream.Err(); err != nil {
		return nil, seen.refusal(ctx, err, m.key)
	}
	return out, nil
}

// result turns one line of a batch's results into a model.BatchResult.
func (m *Model) result(r sdk.MessageBatchIndividualResponse, reqs send.Submitted) model.BatchResult {
	out := model.BatchResult{ID: r.CustomID}
	switch r.Result.Type {
	case "succeeded":
		msg := r.Result.Message
		if msg.Type != "message" {
			out.Error = "succeeded without a message: " + retry.Short(retry.Redact(r.Result.RawJSON(), m.key), 200)
			return out
		}
		out.Response = response(&msg, toolMap(reqs.Request(r.CustomID)))
	case "errored":
		e := r.Result.Error.Error
		out.Error = retry.Short(retry.Redact("errored: "+e.Type+": "+e.Message, m.key), 300)
	case "expired":
		out.Error = "expired: the batch ended (24 hours after it was created) before this request was processed"
	case "canceled":
		out.Error = "canceled: the batch was canceled before this request was processed"
	default:
		out.Error = retry.Short(retry.Redact("ended as "+r.Result.Type, m.key), 300)
	}
	return out
}

// toolMap is the tool-name mapping Generate uses for req.
func toolMap(req *model.Request) *toolname.Mapping {
	return toolname.Map(send.Names(req))
}

// answerStatus remembers the status, headers and error body of an answer
// whose body is otherwise streamed (a batch's results may be larger than
// anything worth holding twice).
type answerStatus struct {
	mu     sync.Mutex
	status int
	header http.Header
	body   []byte
}

func (a *answerStatus) middleware(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	resp, err := next(req)
	if err != nil || resp == nil {
		return resp, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.status, a.header = resp.StatusCode, resp.Header.Clone()
	if resp.StatusCode >= 400 && resp.Body != nil {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		a.body = b
		resp.Body = io.NopCloser(strings.NewReader(string(b)))
	}
	return resp, nil
}

// refusal says why reading the answer failed with err.
func (a *answerStatus) refusal(ctx context.Context, err error, key string) *retry.Refusal {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.status >= 400:
		return retry.HTTP(a.status, a.header, a.body, key)
	case a.status == 0:
		return retry.Transport(ctx, err, send.BatchTimeout, key)
	}
	return &retry.Refusal{Status: a.status, Message: "reading the results: " + retry.Short(retry.Redact(err.Error(), key), 300), Again: true}
}
