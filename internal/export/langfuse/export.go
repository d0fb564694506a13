package langfuse

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Input is a graded run to send.
type Input struct {
	Suite *suite.Suite
	Run   *record.Run
	// Attempts are the run's attempts with their grades, as otlp sends
	// them.
	Attempts []otlp.Attempt
	// Each, when set, hands the attempts one at a time instead, as often
	// as it is ranged over (a record read as a stream), so that a run of
	// any size is sent without holding its attempts.
	Each iter.Seq2[otlp.Attempt, error]
	// OTLP says what the traces hold (content, redaction, timeout); its
	// endpoint and headers are Langfuse's.
	OTLP otlp.Options
}

// Stats count what was sent.
type Stats struct {
	// Project is the Langfuse project the keys opened.
	Project     string
	Traces      otlp.Stats
	Datasets    int
	Items       int
	RunItems    int
	Scores      int
	DatasetRuns []string
}

// The payloads, as Langfuse's public API reference describes them.
type (
	datasetBody struct {
		Name        string         `json:"name"`
		Description string         `json:"description,omitempty"`
		Metadata    map[string]any `json:"metadata,omitempty"`
	}
	itemBody struct {
		ID             string         `json:"id"`
		DatasetName    string         `json:"datasetName"`
		Input          any            `json:"input"`
		ExpectedOutput any            `json:"expectedOutput,omitempty"`
		Metadata       map[string]any `json:"metadata,omitempty"`
	}
	runItemBody struct {
		RunName        string         `json:"runName"`
		RunDescription string         `json:"runDescription,omitempty"`
		Metadata       map[string]any `json:"metadata,omitempty"`
		DatasetItemID  string         `json:"datasetItemId"`
		TraceID        string         `json:"traceId"`
	}
	scoreBody struct {
		ID       string         `json:"id"`
		TraceID  string         `json:"traceId"`
		Name     string         `json:"name"`
		Value    any            `json:"value"`
		DataType string         `json:"dataType"`
		Comment  string         `json:"comment,omitempty"`
		Metadata map[string]any `json:"metadata,omitempty"`
	}
)

// DatasetName is the Langfuse dataset of the cases of suite s in dataset
// ds: the suite's name, then "/" and the dataset when there is one
// (Langfuse shows a "/" as a folder).
func DatasetName(s *suite.Suite, ds string) string {
	if ds == "" {
		return s.Name
	}
	return s.Name + "/" + ds
}

// ItemID is the id of case c's item in dataset ds: stable, so that a case
// is updated in place, and unique in the project, as Langfuse requires.
func ItemID(dataset, c string) string {
	sum := sha256.Sum256([]byte("mcpeval-item\x00" + dataset + "\x00" + c))
	return "mcpeval-" + hex.EncodeToString(sum[:12])
}

// scoreID makes the score's id, so that exporting again updates scores
// rather than adding to them.
func scoreID(traceID, name string) string {
	sum := sha256.Sum256([]byte("mcpeval-score\x00" + traceID + "\x00" + name))
	return "mcpeval-" + hex.EncodeToString(sum[:12])
}

// Export sends the run's attempts as traces to Langfuse's OTLP endpoint,
// then makes or updates a dataset per suite dataset (the cases as items),
// a dataset run named after the run that links each item to its attempts'
// traces, and scores on each attempt's trace. It stops at the first error
// Langfuse does not clear by itself (a refused key, a refused payload).
func Export(ctx context.Context, c *Client, in Input) (Stats, error) {
	var st Stats
	s, h := in.Suite, &in.Run.Header
	red := in.OTLP.Redactor
	if red == nil {
		var err error
		if red, err = redact.New(nil, nil); err != nil {
			return st, err
		}
	}

	project, err := c.Ping(ctx)
	if err != nil {
		return st, err
	}
	st.Project = project
	var tst otlp.Stats
	opts := in.OTLP
	opts.Endpoint, opts.Headers = c.OTLPEndpoint(), c.OTLPHeaders()
	// The datasets the run touched are noted as its traces are sent, so
	// that a record read as a stream is not read once more for them.
	touched := map[string]bool{}
	sending := func(yield func(otlp.Attempt, error) bool) {
		for it, err := range in.attempts() {
			if err == nil {
				if c := s.Case(it.Attempt.Case); c != nil {
					touched[s.DatasetOf(c)] = true
				}
			}
			if !yield(it, err) {
				return
			}
		}
	}
	tst, err = otlp.SendSeq(ctx, sending, opts)
	st.Traces = tst
	if err != nil {
		return st, fmt.Errorf("sending traces to Langfuse: %w", err)
	}

	// The datasets and items: every case of every dataset the run touched.
	names := slices.Sorted(maps.Keys(touched))
	for _, ds := range names {
		name := DatasetName(s, ds)
		desc := fmt.Sprintf("mcpeval suite %s", s.Name)
		if ds != "" {
			desc += ", dataset " + ds
		}
		if err := c.do(ctx, "POST", "/api/public/v2/datasets", datasetBody{Name: name, Description: desc, Metadata: map[string]any{"source": "mcpeval", "suite": s.Name, "suite_hash": s.Hash}}, nil); err != nil {
			return st, err
		}
		st.Datasets++
		for _, cs := range s.Cases {
			if s.DatasetOf(cs) != ds {
				continue
			}
			if err := c.do(ctx, "POST", "/api/public/dataset-items", item(s, cs, name, red), nil); err != nil {
				return st, err
			}
			st.Items++
		}
	}

	// The dataset run: one per mcpeval run, an item per attempt.
	runMeta := map[string]any{"model": h.Model.Spec, "fake": h.Model.Fake, "suite_hash": h.Suite.Hash, "tools_hash": h.ToolsHash, "mcpeval": h.Tool.Version, "start": h.Start}
	runDesc := fmt.Sprintf("%s on %s (%s)", h.Model.Spec, s.Name, h.Start.UTC().Format("2006-01-02 15:04 MST"))
	seen := map[string]bool{}
	for it, err := range in.attempts() {
		if err != nil {
			return st, err
		}
		a := it.Attempt
		cs := s.Case(a.Case)
		if cs == nil {
			continue // not in the suite any more: it has no item
		}
		trace := otlp.TraceID(h.RunID, a.Case, a.N).String()
		name := DatasetName(s, s.DatasetOf(cs))
		body := runItemBody{RunName: h.RunID, DatasetItemID: ItemID(name, cs.ID), TraceID: trace}
		if !seen[name] { // the run's description and metadata, once per dataset
			seen[name] = true
			body.RunDescription, body.Metadata = runDesc, runMeta
			st.DatasetRuns = append(st.DatasetRuns, name+" / "+h.RunID)
		}
		if err := c.do(ctx, "POST", "/api/public/dataset-run-items", body, nil); err != nil {
			return st, err
		}
		st.RunItems++
		for _, sc := range scores(cs, it, trace, red) {
			if err := c.do(ctx, "POST", "/api/public/scores", sc, nil); err != nil {
				return st, err
			}
			st.Scores++
		}
	}
	return st, nil
}

// attempts hands the attempts: Each's, or Attempts'.
func (in *Input) attempts() iter.Seq2[otlp.Attempt, error] {
	if in.Each != nil {
		return in.Each
	}
	return otlp.Items(in.Attempts)
}

// item is case cs as a dataset item: its prompt as input, its key answer,
// figures and tools, and whether it declines or forbids invented figures,
// as expected output, its kind and group as metadata. It is
// the suite's own text, redacted.
func item(s *suite.Suite, cs *suite.Case, dataset string, red *redact.Redactor) itemBody {
	expected := map[string]any{}
	if cs.Key.Answer != "" {
		expected["answer"] = red.String(cs.Key.Answer)
	}
	if len(cs.Figures) > 0 {
		var fs []map[string]any
		for _, f := range cs.Figures {
			m := map[string]any{"value": f.Value}
			for k, v := range map[string]string{"kind": f.Kind, "currency": f.Currency, "unit": f.Unit, "label": red.String(f.Label)} {
				if v != "" {
					m[k] = v
				}
			}
			fs = append(fs, m)
		}
		expected["figures"] = fs
	}
	var tools []string
	for _, k := range cs.Key.Calls {
		tools = append(tools, k.Tool)
	}
	if len(tools) > 0 {
		expected["tools"] = tools
	}
	if len(cs.ExpectTools) > 0 {
		expected["expect_tools"] = cs.ExpectTools
	}
	if cs.Decline {
		expected["declines"] = true
	}
	if cs.NoInventedFigures {
		expected["no_invented_figures"] = true
	}
	meta := map[string]any{"kind": Kind(cs), "group": cs.Group, "case": cs.ID, "suite": s.Name}
	if len(cs.ExpectedErrors) > 0 {
		meta["expected_errors"] = cs.ExpectedErrors
	}
	var out any = expected
	if len(expected) == 0 {
		out = nil
	}
	return itemBody{ID: ItemID(dataset, cs.ID), DatasetName: dataset, Input: map[string]any{"prompt": red.String(cs.Prompt)}, ExpectedOutput: out, Metadata: meta}
}

// Kind is the case's kind: "tool-call", "agent", or an action case's kind
// ("action:write").
func Kind(cs *suite.Case) string {
	switch {
	case cs.Action != nil:
		return "action:" + cs.Action.Kind
	case cs.IsToolCall():
		return suite.ModeToolCall
	}
	return suite.ModeAgent
}

// Checks are the checks case cs declares, as grading names them.
func Checks(cs *suite.Case) []string {
	if cs.Action != nil {
		return []string{grade.CheckAction}
	}
	if cs.IsToolCall() {
		return []string{grade.CheckTools}
	}
	var out []string
	add := func(on bool, name string) {
		if on {
			out = append(out, name)
		}
	}
	t := cs.Tools
	add(len(t.Required)+len(t.Accepted)+len(t.Forbidden) > 0, grade.CheckTools)
	add(len(cs.Args) > 0, grade.CheckArgs)
	add(len(cs.Figures) > 0, grade.CheckFigures)
	add(cs.NoInventedFigures, grade.CheckInvented)
	add(cs.Decline, grade.CheckDecline)
	add(cs.Answer != nil, grade.CheckAnswer)
	return out
}

// scores are attempt it's scores: its verdict (categorical), whether it
// passed, each check (passed unless a reason names it) and each action
// column with a denominator (the fraction). An attempt that ended in an
// error gets its verdict alone: it says nothing of the model.
func scores(cs *suite.Case, it otlp.Attempt, trace string, red *redact.Redactor) []scoreBody {
	g := it.Grade
	if g == nil {
		return nil
	}
	var out []scoreBody
	add := func(name string, value any, typ, comment string) {
		out = append(out, scoreBody{ID: scoreID(trace, name), TraceID: trace, Name: name, Value: value, DataType: typ, Comment: comment})
	}
	var reasons []string
	failed := map[string][]string{}
	for _, r := range g.Reasons {
		msg := red.String(r.Message)
		reasons = append(reasons, r.Check+": "+msg)
		failed[r.Check] = append(failed[r.Check], msg)
	}
	add("verdict", string(g.Outcome), "CATEGORICAL", strings.Join(reasons, "\n"))
	if g.Outcome == grade.Error {
		return out
	}
	add("pass", boolean(g.Outcome == grade.Pass), "BOOLEAN", "")
	checks := Checks(cs)
	for name := range failed {
		if !slices.Contains(checks, name) {
			checks = append(checks, name)
		}
	}
	for _, name := range checks {
		add("check:"+name, boolean(len(failed[name]) == 0), "BOOLEAN", strings.Join(failed[name], "\n"))
	}
	if r := it.Actions; r != nil && r.Excluded == "" {
		for i, col := range r.Columns.List() {
			if col.Den == 0 {
				continue
			}
			add("action:"+otlp.ColumnKey(actions.ColumnNames[i]), float64(col.Num)/float64(col.Den), "NUMERIC", col.String())
		}
	}
	return out
}

func boolean(b bool) int {
	if b {
		return 1
	}
	return 0
}
