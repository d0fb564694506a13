package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
)

// Summary is the JSON summary of a graded run.
type Summary struct {
	RunID   string `json:"run_id"`
	Model   string `json:"model"`
	Valid   bool   `json:"valid"`
	Invalid string `json:"invalid,omitempty"`
	// Record is the path of the run's record file.
	Record string `json:"record"`
	// Suite and ToolsHash say what was measured.
	Suite     record.SuiteInfo   `json:"suite"`
	ToolsHash string             `json:"tools_hash,omitempty"`
	Cases     []SummaryCase      `json:"cases"`
	Groups    []grade.GroupStats `json:"groups"`
	Totals    grade.Totals       `json:"totals"`
	// Judged are the counts of the cases graded by a judge model
	// (graded_by: judge), kept out of Groups and Totals, with each judge
	// and its measured agreement with people; absent when the run has
	// none.
	Judged   *SummaryJudged `json:"judged,omitempty"`
	Warnings []string       `json:"warnings,omitempty"`
	// Actions are the action columns of the run's action cases, per
	// model, kind and case, with every attempt scored; absent when the
	// suite has none.
	Actions *actions.Report `json:"actions,omitempty"`
	// Cost is what the run cost: per run, per attempt and per success, or
	// that the model is unpriced or fake; absent when not computed.
	Cost *usage.Cost `json:"cost,omitempty"`
	// ResourceReads counts the model's reads of the server's resources
	// and the attempts that made any; absent when it read none.
	ResourceReads *grade.ResourceReads `json:"resource_reads,omitempty"`
	// Confusion is the run's tool confusion matrices (grade.Confusion);
	// absent when no attempt of a case whose key calls tools was graded.
	Confusion *grade.Confusion `json:"confusion,omitempty"`
	// Source is "imported" for a run mcpeval import read from production
	// traffic; absent for a run mcpeval made.
	Source string `json:"source,omitempty"`
}

// SummaryCase is one case of a Summary, with its attempts.
type SummaryCase struct {
	ID     string `json:"id"`
	Group  string `json:"group"`
	Prompt string `json:"prompt"`
	grade.Counts
	PassAtK      float64 `json:"pass_at_k"`
	PassHatK     float64 `json:"pass_hat_k"`
	K            int     `json:"k"`
	Inconsistent bool    `json:"inconsistent"`
	// Judged is true for a case graded by a judge model.
	Judged   bool             `json:"judged,omitempty"`
	Attempts []SummaryAttempt `json:"attempts"`
}

// SummaryAttempt is one attempt of a SummaryCase.
type SummaryAttempt struct {
	N         int            `json:"n"`
	Verdict   grade.Outcome  `json:"verdict"`
	Reasons   []grade.Reason `json:"reasons"`
	ErrorKind string         `json:"error_kind,omitempty"`
	// ToolErrors counts the attempt's tool errors the case did not
	// expect; absent when none.
	ToolErrors int            `json:"tool_errors,omitempty"`
	Judge      *grade.Opinion `json:"judge,omitempty"`
	// Judged is the judge's reading against the case's rubric.
	Judged *grade.Judgement `json:"judged,omitempty"`
}

// NewSummary builds the JSON summary of res; recordPath is where the
// record is. h and cost may be nil; opts add to it (WithAgreement, the
// judge's measured agreement, in the judged block).
func NewSummary(res *grade.Result, h *record.Header, recordPath string, cost *usage.Cost, opts ...Option) *Summary {
	s := summaryHead(res, h, recordPath, cost, opts)
	for _, c := range res.Cases {
		sc := summaryCase(&c)
		for _, a := range res.Attempts {
			if a.Case != c.ID {
				continue
			}
			sc.Attempts = append(sc.Attempts, summaryAttempt(&a))
		}
		s.Cases = append(s.Cases, sc)
	}
	return s
}

// summaryHead is the summary of res without its cases (an empty list).
func summaryHead(res *grade.Result, h *record.Header, recordPath string, cost *usage.Cost, opts []Option) *Summary {
	o := collect(opts)
	s := &Summary{
		RunID: res.RunID, Model: res.Model, Valid: res.Valid, Invalid: res.Invalid, Record: recordPath,
		Cases: []SummaryCase{}, Groups: res.Groups, Totals: res.Totals, Judged: summaryJudged(res, o.agreement), Warnings: res.Warnings,
		Actions: res.Actions, Cost: cost, ResourceReads: res.ResourceReads, Confusion: res.Confusion,
	}
	if s.Groups == nil {
		s.Groups = []grade.GroupStats{}
	}
	if h != nil {
		s.Suite, s.ToolsHash, s.Source = h.Suite, h.ToolsHash, h.Source
		if s.Model == "" {
			s.Model = h.Model.Spec
		}
	}
	return s
}

// summaryCase is the summary of case c, without its attempts (an empty
// list).
func summaryCase(c *grade.CaseStats) SummaryCase {
	return SummaryCase{ID: c.ID, Group: c.Group, Prompt: c.Prompt, Counts: c.Counts, PassAtK: c.PassAtK, PassHatK: c.PassHatK, K: c.K, Inconsistent: c.Inconsistent, Judged: c.Judged, Attempts: []SummaryAttempt{}}
}

// summaryAttempt is the summary of attempt a.
func summaryAttempt(a *grade.AttemptGrade) SummaryAttempt {
	reasons := a.Reasons
	if reasons == nil {
		reasons = []grade.Reason{}
	}
	return SummaryAttempt{N: a.N, Verdict: a.Outcome, Reasons: reasons, ErrorKind: a.ErrorKind, ToolErrors: a.ToolErrors, Judge: a.Judge, Judged: a.Judged}
}

// JSON writes the summary of res as indented JSON: run_id, model, valid,
// record (recordPath), cases with their attempts' verdicts and reasons,
// totals, the judged cases with their judges' agreement, resource reads
// and cost. h and cost may be nil; opts add to it (WithAgreement).
//
// It writes what json.Encoder would write of NewSummary, byte for byte,
// attempt by attempt: neither a copy of every verdict nor the whole
// document is held at once.
func JSON(w io.Writer, res *grade.Result, h *record.Header, recordPath string, cost *usage.Cost, opts ...Option) error {
	if err := writeSummary(w, res, h, recordPath, cost, opts); err != nil {
		return fmt.Errorf("writing JSON summary: %w", err)
	}
	return nil
}

// writeSummary writes the summary of res as JSON writes it; the cases
// and their attempts are encoded one at a time and spliced in where the
// indented encoding of the rest has them empty.
func writeSummary(w io.Writer, res *grade.Result, h *record.Header, recordPath string, cost *usage.Cost, opts []Option) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	cases := res.Cases
	b, err := indent(summaryHead(res, h, recordPath, cost, opts), "")
	if err != nil {
		return err
	}
	const empty = "\n  \"cases\": [],\n"
	i := bytes.Index(b, []byte(empty))
	if len(cases) == 0 || i < 0 {
		bw.Write(b)
		return bw.Flush()
	}
	bw.Write(b[:i])
	bw.WriteString("\n  \"cases\": [")
	for k := range cases {
		if k > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		if err := writeCase(bw, &cases[k], res.Attempts); err != nil {
			return err
		}
	}
	bw.WriteString("\n  ],\n")
	bw.Write(b[i+len(empty):])
	return bw.Flush()
}

// writeCase writes the summary of case c, at the depth of an element of
// the summary's cases, with its attempts taken from attempts in their
// order, one at a time.
func writeCase(bw *bufio.Writer, c *grade.CaseStats, attempts []grade.AttemptGrade) error {
	sc := summaryCase(c)
	b, err := indent(&sc, "    ")
	if err != nil {
		return err
	}
	b = bytes.TrimSuffix(b, []byte{'\n'})
	const empty = "\"attempts\": []"
	i := bytes.LastIndex(b, []byte(empty))
	if i < 0 {
		return fmt.Errorf("encoding case %s: no attempts field", c.ID)
	}
	bw.Write(b[:i])
	bw.WriteString("\"attempts\": [")
	n := 0
	for k := range attempts {
		a := &attempts[k]
		if a.Case != c.ID {
			continue
		}
		if n > 0 {
			bw.WriteByte(',')
		}
		n++
		bw.WriteString("\n        ")
		sa := summaryAttempt(a)
		ab, err := indent(&sa, "        ")
		if err != nil {
			return err
		}
		bw.Write(bytes.TrimSuffix(ab, []byte{'\n'}))
	}
	if n > 0 {
		bw.WriteString("\n      ]")
	} else {
		bw.WriteString("]")
	}
	bw.Write(b[i+len(empty):])
	return nil
}

// indent encodes v as the summary's encoder does (indented by two
// spaces, HTML left unescaped), each line after the first starting with
// prefix.
func indent(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
