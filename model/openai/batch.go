package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/mcpeval/mcpeval/internal/provider/send"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/toolname"
	"github.com/mcpeval/mcpeval/model"
)

// The Batch API's limits on one batch: 50,000 requests in an input file
// of at most 200 MB (https://platform.openai.com/docs/guides/batch).
const (
	MaxBatchRequests = 50_000
	MaxBatchBytes    = 200_000_000
)

// batchLimits are the limits Submit splits by; tests make them small.
var batchLimits = send.Limits{Requests: MaxBatchRequests, Bytes: MaxBatchBytes}

// batchEndpoint is the endpoint every batched request goes to, the one
// Generate uses.
const batchEndpoint = "/v1/chat/completions"

var _ model.Batcher = (*Model)(nil)

// batchLine is one line of a batch's input file.
type batchLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// Submit sends reqs through the Batch API, each as exactly the body
// Generate would send: it uploads them as a JSONL file (POST /v1/files,
// purpose batch) and creates a batch of it (POST /v1/batches), splitting
// by the API's limits. It implements model.Batcher.
func (m *Model) Submit(ctx context.Context, reqs []model.BatchRequest) ([]model.Batch, error) {
	encode := func(r model.BatchRequest) ([]byte, int, error) {
		params, err := m.params(r.Request, toolMap(r.Request))
		if err != nil {
			return nil, 0, fmt.Errorf("building the request %s for openai:%s: %w", r.ID, m.info.Name, err)
		}
		body, err := json.Marshal(params)
		if err != nil {
			return nil, 0, fmt.Errorf("encoding the request %s for openai:%s: %w", r.ID, m.info.Name, err)
		}
		line, err := json.Marshal(batchLine{CustomID: r.ID, Method: http.MethodPost, URL: batchEndpoint, Body: body})
		if err != nil {
			return nil, 0, fmt.Errorf("encoding the request %s for openai:%s: %w", r.ID, m.info.Name, err)
		}
		return line, len(line) + 1, nil
	}
	submit := func(lines [][]byte) (string, error) {
		var file bytes.Buffer
		for _, l := range lines {
			file.Write(l)
			file.WriteByte('\n')
		}
		return m.submit(ctx, file.Bytes(), len(lines))
	}
	return send.Split(reqs, batchLimits, encode, submit)
}

// submit uploads one input file of n requests and creates its batch.
func (m *Model) submit(ctx context.Context, data []byte, n int) (string, error) {
	f, err := retry.Call(ctx, m.policy, send.BatchTimeout, m.key, func(ctx context.Context, ex *retry.Exchange) (*sdk.FileObject, error) {
		f, err := m.client.Files.New(ctx, sdk.FileNewParams{
			File:    sdk.File(bytes.NewReader(data), "mcpeval-batch.jsonl", "application/jsonl"),
			Purpose: sdk.FilePurposeBatch,
		}, option.WithMiddleware(ex.Middleware), option.WithRequestTimeout(send.BatchTimeout))
		if err == nil && f.ID == "" {
			err = &retry.Refusal{Status: http.StatusOK, Message: "reading the file: no id in " + retry.Short(retry.Redact(f.RawJSON(), m.key), 200)}
		}
		return f, err
	})
	if err != nil {
		return "", fmt.Errorf("uploading a batch of %d requests for openai:%s: %w", n, m.info.Name, err)
	}
	b, err := retry.Call(ctx, m.policy, m.timeout, m.key, func(ctx context.Context, ex *retry.Exchange) (*sdk.Batch, error) {
		b, err := m.client.Batches.New(ctx, sdk.BatchNewParams{
			InputFileID:      f.ID,
			Endpoint:         batchEndpoint,
			CompletionWindow: sdk.BatchNewParamsCompletionWindow24h,
		}, option.WithMiddleware(ex.Middleware), option.WithRequestTimeout(m.timeout))
		if err == nil && b.ID == "" {
			err = &retry.Refusal{Status: http.StatusOK, Message: "reading the batch: no id in " + retry.Short(retry.Redact(b.RawJSON(), m.key), 200)}
		}
		return b, err
	})
	if err != nil {
		return "", fmt.Errorf("creating a batch of file %s (%d requests) for openai:%s: %w", f.ID, n, m.info.Name, err)
	}
	return b.ID, nil
}

// Poll asks the Batch API how batch id is getting on (GET
// /v1/batches/ID) and, once it has ended, reads its output and error
// files (GET /v1/files/ID/content). reqs are the requests submitted, by
// which the answers' tool names are read back. It implements
// model.Batcher.
func (m *Model) Poll(ctx context.Context, id string, reqs []model.BatchRequest) (*model.BatchStatus, error) {
	b, err := retry.Call(ctx, m.policy, m.timeout, m.key, func(ctx context.Context, ex *retry.Exchange) (*sdk.Batch, error) {
		return m.client.Batches.Get(ctx, id, option.WithMiddleware(ex.Middleware), option.WithRequestTimeout(m.timeout))
	})
	if err != nil {
		return nil, fmt.Errorf("polling batch %s of openai:%s: %w", id, m.info.Name, err)
	}
	c := b.RequestCounts
	st := &model.BatchStatus{Status: string(b.Status), Done: int(c.Completed + c.Failed), Total: int(c.Total)}
	switch b.Status {
	case sdk.BatchStatusCompleted, sdk.BatchStatusExpired, sdk.BatchStatusFailed, sdk.BatchStatusCancelled:
		st.Ended = true
	default:
		return st, nil
	}
	byID := send.Index(reqs)
	for _, file := range []string{b.OutputFileID, b.ErrorFileID} {
		if file == "" {
			continue
		}
		rs, _, err := retry.Do(ctx, m.policy, func(ctx context.Context) ([]model.BatchResult, error) {
			return m.results(ctx, file, byID)
		})
		if err != nil {
			return nil, fmt.Errorf("reading the results of batch %s of openai:%s (file %s): %w", id, m.info.Name, file, err)
		}
		st.Results = append(st.Results, rs...)
	}
	if b.Status == sdk.BatchStatusFailed && len(st.Results) == 0 {
		// The batch failed as a whole (its file did not validate): every
		// request ends with the batch's reasons.
		why := "failed: the batch was refused"
		for _, e := range b.Errors.Data {
			why += "; " + e.Code + ": " + e.Message
		}
		why = retry.Short(retry.Redact(why, m.key), 300)
		for _, r := range reqs {
			st.Results = append(st.Results, model.BatchResult{ID: r.ID, Error: why})
		}
	}
	return st, nil
}

// outputLine is one line of a batch's output or error file.
type outputLine struct {
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// results reads one output or error file.
func (m *Model) results(ctx context.Context, file string, reqs send.Submitted) ([]model.BatchResult, error) {
	ctx, cancel := context.WithTimeout(ctx, send.BatchTimeout)
	defer cancel()
	resp, err := m.client.Files.Content(ctx, file, option.WithRequestTimeout(send.BatchTimeout))
	if err != nil {
		var ae *sdk.Error
		if errors.As(err, &ae) && ae.Response != nil {
			return nil, retry.HTTP(ae.StatusCode, ae.Response.Header, []byte(ae.RawJSON()), m.key)
		}
		return nil, retry.Transport(ctx, err, send.BatchTimeout, m.key)
	}
	defer resp.Body.Close()
	var out []model.BatchResult
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var l outputLine
		if err := json.Unmarshal(raw, &l); err != nil || l.CustomID == "" {
			return nil, &retry.Refusal{Status: http.StatusOK, Message: "reading the results: a line is not a batch result: " + retry.Short(retry.Redact(string(raw), m.key), 200)}
		}
		out = append(out, m.result(l, reqs))
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || ctx.Err() != nil {
			return nil, retry.Transport(ctx, err, send.BatchTimeout, m.key)
		}
		return nil, &retry.Refusal{Message: "reading the results: " + retry.Short(retry.Redact(err.Error(), m.key), 200), Again: true}
	}
	return out, nil
}

// result turns one line of an output or error file into a result.
func (m *Model) result(l outputLine, reqs send.Submitted) model.BatchResult {
	out := model.BatchResult{ID: l.CustomID}
	say := func(s string) { out.Error = retry.Short(retry.Redact(s, m.key), 300) }
	switch {
	case l.Error != nil && l.Error.Code == "batch_expired":
		say("expired: " + l.Error.Message)
	case l.Error != nil:
		say("errored: " + l.Error.Code + ": " + l.Error.Message)
	case l.Response == nil:
		say("ended with neither a response nor an error")
	case l.Response.StatusCode != http.StatusOK:
		r := retry.HTTP(l.Response.StatusCode, nil, l.Response.Body)
		say(fmt.Sprintf("errored: status %d: %s", l.Response.StatusCode, r.Message))
	default:
		var cc sdk.ChatCompletion
		if err := json.Unmarshal(l.Response.Body, &cc); err != nil || len(cc.Choices) == 0 {
			say("succeeded without a completion: " + retry.Short(string(l.Response.Body), 200))
			return out
		}
		out.Response = response(&cc, toolMap(reqs.Request(l.CustomID)))
	}
	return out
}

// toolMap is the tool-name mapping Generate uses for req.
func toolMap(req *model.Request) *toolname.Mapping {
	return toolname.Map(send.Names(req))
}
