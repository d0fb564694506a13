//lint:file-ignore SA1019 sampling is deprecated as of MCP 2026-07-28 (SEP-2577) but servers on earlier protocol versions still use it, and these tests answer it as mcpeval does
package runner

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicitDefaultsSchema is a form whose every field has a default, as
// SEP-1034 allows: the fields a user leaves empty are submitted with them.
// It is decoded as the SDK decodes a request's requestedSchema: into any.
func elicitDefaultsSchema(t *testing.T) any {
	t.Helper()
	var s any
	err := json.Unmarshal([]byte(`{"type": "object", "properties": {
		"name": {"type": "string", "default": "John Doe"},
		"age": {"type": "integer", "default": 30},
		"score": {"type": "number", "default": 95.5},
		"status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
		"verified": {"type": "boolean", "default": true},
		"note": {"type": "string"}
	}, "required": []}`), &s)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// elicit answers p as a suite with elicitation e would, and returns the
// answer and what the record keeps of it.
func elicit(t *testing.T, e *suite.Elicitation, p *mcp.ElicitParams) (*mcp.ElicitResult, record.Elicitation) {
	t.Helper()
	an := &answerer{
		cv: &conversation{r: &run{cfg: Config{Suite: &suite.Suite{Elicitation: suite.Elicitations{*e}}}}, c: &suite.Case{ID: "x/y"}},
		rc: &record.Call{},
	}
	res, err := an.Elicit(context.Background(), p)
	if err != nil {
		t.Fatalf("Elicit: %v", err)
	}
	if len(an.rc.Elicitations) != 1 {
		t.Fatalf("%d elicitations recorded, want 1", len(an.rc.Elicitations))
	}
	return res, an.rc.Elicitations[0]
}

// TestElicitAcceptAppliesDefaults: an accepted form submits the
// requested schema's default for every field the suite's content leaves
// out (SEP-1034), and the suite's own values win over the defaults.
func TestElicitAcceptAppliesDefaults(t *testing.T) {
	p := &mcp.ElicitParams{Message: "please accept with defaults", RequestedSchema: elicitDefaultsSchema(t)}

	res, rec := elicit(t, &suite.Elicitation{Action: suite.ElicitAccept}, p)
	want := map[string]any{"name": "John Doe", "age": float64(30), "score": 95.5, "status": "active", "verified": true}
	if res.Action != suite.ElicitAccept {
		t.Fatalf("action %q (note %q), want accept", res.Action, rec.Note)
	}
	// The SDK validates the content it is given, as Go values, before it
	// sends it: each must be what JSON decodes to.
	if diff := cmp.Diff(want, res.Content); diff != "" {
		t.Errorf("content sent (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, asJSON(t, rec.Content)); diff != "" {
		t.Errorf("content recorded (-want +got):\n%s", diff)
	}

	res, _ = elicit(t, &suite.Elicitation{Action: suite.ElicitAccept, Content: map[string]any{"name": "Ada", "verified": false}}, p)
	want = map[string]any{"name": "Ada", "age": float64(30), "score": 95.5, "status": "active", "verified": false}
	if diff := cmp.Diff(want, res.Content); diff != "" {
		t.Errorf("content sent with the suite's own values (-want +got):\n%s", diff)
	}
}

// TestElicitDefaultsDoNotMakeContentFit: a default is filled in only where
// the suite's content has no value; a value of the wrong type still makes
// the request declined, with the reason recorded.
func TestElicitDefaultsDoNotMakeContentFit(t *testing.T) {
	p := &mcp.ElicitParams{Message: "m", RequestedSchema: elicitDefaultsSchema(t)}
	res, rec := elicit(t, &suite.Elicitation{Action: suite.ElicitAccept, Content: map[string]any{"age": "thirty"}}, p)
	if res.Action != suite.ElicitDecline || res.Content != nil || rec.Note == "" {
		t.Errorf("answer %+v, record %+v: want a decline with a note", res, rec)
	}
}

// asJSON returns v as the server reads it: through JSON.
func asJSON(t *testing.T, v any) map[string]any {
	t.Helper()
	var b []byte
	switch v := v.(type) {
	case json.RawMessage:
		b = v
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// samplingModel answers every request with fixed text and usage, and
// keeps the requests it was sent.
type samplingModel struct{ got []*model.Request }

func (m *samplingModel) Generate(_ context.Context, req *model.Request) (*model.Response, error) {
	m.got = append(m.got, req)
	return &model.Response{Message: model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.Text, Text: "herons"}}},
		Usage: model.Usage{Input: 12, Output: 3}}, nil
}

// sample puts a sampling request to a run configured as cfg, and returns
// the answer, what the call's record keeps and the error.
func sample(t *testing.T, cfg Config) (*mcp.CreateMessageResult, record.Sampling, error) {
	t.Helper()
	cfg.MaxOutputBytes = 1 << 20
	an := &answerer{cv: &conversation{r: &run{cfg: cfg}, c: &suite.Case{ID: "x/y"}}, rc: &record.Call{}}
	res, err := an.Sample(context.Background(), &mcp.CreateMessageParams{MaxTokens: 50, SystemPrompt: "be brief",
		Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "a haiku"}}}})
	if len(an.rc.Sampling) != 1 {
		t.Fatalf("%d sampling turns recorded, want 1", len(an.rc.Sampling))
	}
	return res, an.rc.Sampling[0], err
}

// TestSamplingStopsAtTheBudget: once the run's budget is spent, a
// server's sampling request is not sent to any model; it gets an error,
// which the record keeps.
func TestSamplingStopsAtTheBudget(t *testing.T) {
	m := &samplingModel{}
	spent := func() string { return string(record.KindBudget) }
	res, s, err := sample(t, Config{Model: m, BeforeAttempt: spent})
	if len(m.got) != 0 {
		t.Errorf("a spent budget still sent %d sampling requests", len(m.got))
	}
	if err == nil || res != nil {
		t.Errorf("the request got %+v, %v: want an error", res, err)
	}
	if s.Error != errSpent.Error() || s.Turn.Usage != (model.Usage{}) {
		t.Errorf("recorded %+v, want the budget's error and no usage", s)
	}
	// With budget left, the request is sent, and its usage recorded.
	_, s, err = sample(t, Config{Model: m, BeforeAttempt: func() string { return "" }})
	if err != nil || len(m.got) != 1 || s.Turn.Usage.Input != 12 || s.Turn.Text != "herons" {
		t.Errorf("with budget left: error %v, %d requests, recorded %+v", err, len(m.got), s)
	}
}

// TestSamplingAfterTheRunStoppedEarly: once a stop rule has decided, a
// sampling request of an attempt still in flight is refused saying the
// run stopped early and why, not that a budget is spent.
func TestSamplingAfterTheRunStoppedEarly(t *testing.T) {
	m := &samplingModel{}
	cfg := Config{Model: m}
	StopWhen(&cfg, func(Progress) string { return "the gate passed at look 1 of 3" })
	cfg.Progress(Progress{Done: 1})
	_, s, err := sample(t, cfg)
	if len(m.got) != 0 || err == nil {
		t.Fatalf("%d requests sent, error %v: want none sent and an error", len(m.got), err)
	}
	const want = "the run stopped early (the gate passed at look 1 of 3): sampling refused"
	if err.Error() != want || s.Error != want {
		t.Errorf("refused with %q, recorded %q: want %q", err, s.Error, want)
	}
}

// TestSamplingByTheSuitesModel: the suite's sampling model answers
// instead of the model under test, and the record names it.
func TestSamplingByTheSuitesModel(t *testing.T) {
	under, sampler := &samplingModel{}, &samplingModel{}
	info := model.Info{Spec: "fake:sampler", Provider: "fake", Name: "sampler"}
	res, s, err := sample(t, Config{Model: under, Sampler: sampler, SamplerInfo: info})
	if err != nil || len(under.got) != 0 || len(sampler.got) != 1 {
		t.Fatalf("error %v; the model under test got %d requests, the sampler %d: want 0 and 1", err, len(under.got), len(sampler.got))
	}
	if s.Model == nil || s.Model.Spec != info.Spec || res.Model != "sampler" {
		t.Errorf("recorded model %v, answered as %q: want %v", s.Model, res.Model, info)
	}
	if !sampler.got[0].Sampling || sampler.got[0].System != "be brief" || s.MaxTokens != 50 {
		t.Errorf("sent %+v, recorded %+v", sampler.got[0], s)
	}
}

// TestElicitAnsweredPerRequest: a case's list of answers answers each
// request with the first entry whose match matches the server's message;
// a message none matches is declined with a note saying so.
func TestElicitAnsweredPerRequest(t *testing.T) {
	c := &suite.Case{ID: "x/y", Elicitation: suite.Elicitations{
		{Match: "(?i)delete", Action: suite.ElicitDecline},
		{Match: "name", Action: suite.ElicitAccept, Content: map[string]any{"name": "Ada"}},
	}}
	an := &answerer{cv: &conversation{r: &run{cfg: Config{Suite: &suite.Suite{}}}, c: c}, rc: &record.Call{}}
	for _, tc := range []struct{ message, action, note string }{
		{"Really delete report.txt?", suite.ElicitDecline, ""},
		{"Your name, please", suite.ElicitAccept, ""},
		{"Your age?", suite.ElicitDecline, noMatch},
	} {
		res, err := an.Elicit(context.Background(), &mcp.ElicitParams{Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		rec := an.rc.Elicitations[len(an.rc.Elicitations)-1]
		if res.Action != tc.action || rec.Action != tc.action || rec.Note != tc.note {
			t.Errorf("%q: answered %q, recorded %+v; want %q with note %q", tc.message, res.Action, rec, tc.action, tc.note)
		}
	}
}
