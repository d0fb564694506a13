package langfuse

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// The shapes Langfuse's public API answers its GET requests with, as its
// reference describes them: the fields mcpeval reads, the rest ignored.
type (
	// Meta is a page's paging: which page it is, of how many.
	Meta struct {
		Page       int `json:"page"`
		Limit      int `json:"limit"`
		TotalItems int `json:"totalItems"`
		TotalPages int `json:"totalPages"`
	}

	// Trace is a trace: GET /api/public/traces lists them without their
	// observations, GET /api/public/traces/{id} gives one with them.
	Trace struct {
		ID        string          `json:"id"`
		Timestamp time.Time       `json:"timestamp"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		Output    json.RawMessage `json:"output"`
		SessionID string          `json:"sessionId"`
		UserID    string          `json:"userId"`
		Metadata  json.RawMessage `json:"metadata"`
		Tags      []string        `json:"tags"`
		// Observations are the trace's observations in the answer of GET
		// /api/public/traces/{id}; the list answers their ids, which are
		// not kept.
		Observations []Observation `json:"-"`
	}

	// Observation is one step of a trace: a GENERATION (a model's turn),
	// a TOOL, an AGENT, a SPAN or an EVENT. Traces sent over OpenTelemetry
	// keep each span's attributes in Metadata ("attributes",
	// "resourceAttributes").
	Observation struct {
		ID                  string          `json:"id"`
		TraceID             string          `json:"traceId"`
		Type                string          `json:"type"`
		Name                string          `json:"name"`
		StartTime           time.Time       `json:"startTime"`
		EndTime             *time.Time      `json:"endTime"`
		Model               string          `json:"model"`
		Input               json.RawMessage `json:"input"`
		Output              json.RawMessage `json:"output"`
		Metadata            json.RawMessage `json:"metadata"`
		UsageDetails        map[string]int  `json:"usageDetails"`
		Level               string          `json:"level"`
		StatusMessage       string          `json:"statusMessage"`
		ParentObservationID string          `json:"parentObservationId"`
	}

	// Dataset is a dataset (GET /api/public/datasets/{name}).
	Dataset struct {
		ID          string          `json:"id"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Metadata    json.RawMessage `json:"metadata"`
	}

	// DatasetItem is one item of a dataset (GET
	// /api/public/dataset-items?datasetName=).
	DatasetItem struct {
		ID             string          `json:"id"`
		Status         string          `json:"status"`
		DatasetName    string          `json:"datasetName"`
		Input          json.RawMessage `json:"input"`
		ExpectedOutput json.RawMessage `json:"expectedOutput"`
		Metadata       json.RawMessage `json:"metadata"`
	}
)

// traceFull is the answer of GET /api/public/traces/{id}: a trace with
// its observations in full.
type traceFull struct {
	Trace
	Observations []Observation `json:"observations"`
}

// TraceFilter says which traces to read; its zero value reads them all.
type TraceFilter struct {
	Name      string
	Tags      []string // every one of them
	SessionID string
	// From and To bound the traces' timestamps (zero: unbounded).
	From, To time.Time
}

func (f TraceFilter) query() url.Values {
	q := url.Values{}
	if f.Name != "" {
		q.Set("name", f.Name)
	}
	for _, t := range f.Tags {
		q.Add("tags", t)
	}
	if f.SessionID != "" {
		q.Set("sessionId", f.SessionID)
	}
	if !f.From.IsZero() {
		q.Set("fromTimestamp", f.From.UTC().Format(time.RFC3339Nano))
	}
	if !f.To.IsZero() {
		q.Set("toTimestamp", f.To.UTC().Format(time.RFC3339Nano))
	}
	return q
}

// PageSize is how many traces or items a page of a listing asks for.
const PageSize = 50

// maxPages bounds a listing, should a server never say it is done.
const maxPages = 100000

// pages reads every page of the listing at path, handing each page's data
// to add. what names the listing in errors ("traces").
func (c *Client) pages(ctx context.Context, what, path string, q url.Values, add func(json.RawMessage) error) error {
	for page := 1; page <= maxPages; page++ {
		q.Set("page", strconv.Itoa(page))
		size := c.PageSize
		if size <= 0 {
			size = PageSize
		}
		q.Set("limit", strconv.Itoa(size))
		var out struct {
			Data []json.RawMessage `json:"data"`
			Meta Meta              `json:"meta"`
		}
		if err := c.do(ctx, "GET", path+"?"+q.Encode(), nil, &out); err != nil {
			return fmt.Errorf("reading Langfuse %s, page %d: %w", what, page, err)
		}
		for _, d := range out.Data {
			if err := add(d); err != nil {
				return fmt.Errorf("reading Langfuse %s, page %d: %w", what, page, err)
			}
		}
		if len(out.Data) == 0 || page >= out.Meta.TotalPages {
			return nil
		}
	}
	return fmt.Errorf("reading Langfuse %s: more than %d pages", what, maxPages)
}

// Traces lists the project's traces f selects, every page of them, in
// the order Langfuse gives them (newest first), without their
// observations.
func (c *Client) Traces(ctx context.Context, f TraceFilter) ([]Trace, error) {
	var out []Trace
	err := c.pages(ctx, "traces", "/api/public/traces", f.query(), func(d json.RawMessage) error {
		var t Trace
		if err := json.Unmarshal(d, &t); err != nil {
			return fmt.Errorf("a trace: %w", err)
		}
		out = append(out, t)
		return nil
	})
	return out, err
}

// Trace reads trace id with its observations.
func (c *Client) Trace(ctx context.Context, id string) (Trace, error) {
	var t traceFull
	if err := c.do(ctx, "GET", "/api/public/traces/"+url.PathEscape(id), nil, &t); err != nil {
		return Trace{}, fmt.Errorf("reading Langfuse trace %s: %w", id, err)
	}
	t.Trace.Observations = t.Observations
	return t.Trace, nil
}

// Dataset reads dataset name and every one of its items.
func (c *Client) Dataset(ctx context.Context, name string) (Dataset, []DatasetItem, error) {
	var ds Dataset
	if err := c.do(ctx, "GET", "/api/public/datasets/"+url.PathEscape(name), nil, &ds); err != nil {
		return ds, nil, fmt.Errorf("reading Langfuse dataset %s: %w", name, err)
	}
	var items []DatasetItem
	err := c.pages(ctx, "dataset items of "+name, "/api/public/dataset-items", url.Values{"datasetName": {name}}, func(d json.RawMessage) error {
		var it DatasetItem
		if err := json.Unmarshal(d, &it); err != nil {
			return fmt.Errorf("an item: %w", err)
		}
		items = append(items, it)
		return nil
	})
	return ds, items, err
}
