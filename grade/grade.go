package grade

import (
	"fmt"
	"slices"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Outcome is an attempt's verdict: "pass", "fail" or "error".
type Outcome string

// The outcomes of an attempt.
const (
	// Pass means every check of the case passed.
	Pass Outcome = "pass"
	// Fail means some check failed: the model's answer is wrong.
	Fail Outcome = "fail"
	// Error means the attempt could not be completed (a timeout, a
	// provider or server failure); it says nothing about the model and is
	// left out of the pass rate.
	Error Outcome = "error"
)

// The checks, as named in reasons.
const (
	CheckTools     = "tools"
	CheckArgs      = "args"
	CheckFigures   = "figures"
	CheckInvented  = "invented"
	CheckEstimates = "estimates"
	CheckDecline   = "decline"
	// CheckEnd fails an attempt stopped at the turn cap without answering.
	CheckEnd = "end"
	// CheckError explains an attempt whose outcome is Error.
	CheckError = "error"
)

// Reason says why a check failed: which check, what was expected, what
// was found.
type Reason struct {
	Check   string `json:"check"`
	Message string `json:"message"`
}

// String writes the reason as "check: message".
func (r Reason) String() string { return r.Check + ": " + r.Message }

// AttemptGrade is the grade of one attempt.
type AttemptGrade struct {
	Case    string  `json:"case"`
	N       int     `json:"n"`
	Outcome Outcome `json:"verdict"`
	// Reasons are the failed checks of a fail, or the error of an error;
	// empty for a pass.
	Reasons []Reason `json:"reasons"`
	// ErrorKind is the record's error kind ("timeout", "provider", ...)
	// when Outcome is Error.
	ErrorKind string `json:"error_kind,omitempty"`
	// ToolErrors counts the attempt's calls that failed at the server
	// (isError, or rejected) of tools the case does not list in
	// expected_errors, whether or not they failed the attempt.
	ToolErrors int `json:"tool_errors,omitempty"`
	// Judge is a second model's advisory opinion, when one was asked.
	Judge *Opinion `json:"judge,omitempty"`
	// Judged is a judge model's reading against the case's rubric, when
	// one was asked: advisory, unless the case is graded by its judge.
	Judged *Judgement `json:"judged,omitempty"`
}

// Opinion is a judge model's reading of a decline answer. It is advisory
// only and never changes an Outcome.
type Opinion struct {
	// Declines is the judge's view of whether the answer declines.
	Declines bool   `json:"declines"`
	Reason   string `json:"reason,omitempty"`
	Model    string `json:"model"`
}

// Attempt grades attempt a of case c, recorded in a run with header h,
// against suite s (for its tolerances). A nil s, c or h is read as empty.
//
// An attempt that ended in an error is an Error, with the error's kind. An
// attempt stopped at the turn cap fails, with its tool and argument checks
// reported too. Otherwise every check the case declares is run (tools,
// tool errors, arguments, figures, grounding, decline, answer text), and
// the attempt passes when none fails. A tool error of a tool the case does
// not list in expected_errors fails it (unless the suite sets tool_errors:
// note); a tool the case lists counts as used even by a call it refused:
// the case provokes that error on purpose.
func Attempt(s *suite.Suite, c *suite.Case, h *record.Header, a *record.Attempt) AttemptGrade {
	g, _ := verdict(s, c, h, a)
	return g
}

// verdict is Attempt, with, for an action case, its row of the action
// columns (nil for any other case): the one place an attempt's verdict is
// reached.
func verdict(s *suite.Suite, c *suite.Case, h *record.Header, a *record.Attempt) (AttemptGrade, *actions.Result) {
	if s == nil {
		s = &suite.Suite{}
	}
	if c == nil {
		c = &suite.Case{}
	}
	if h == nil {
		h = &record.Header{}
	}
	// A mapped surface's calls, read as canonical actions, so that every
	// check grades a run on any surface by the same key.
	if len(a.ToolChanges) > 0 { // judged against the tools as they were when each call was made
		seen := *h
		seen.Tools = record.ToolsSeen(h, a)
		h = &seen
	}
	direct := directCalls(h, a) // a search surface's tools called by name (search.go)
	h, a = actions.OnCanonical(h, a)
	c = actions.ServedCase(c, h) // SERVER/TOOL names, for a run of several servers
	if c.Action != nil {
		g, r := actionVerdict(s, c, h, a)
		return withDirectCalls(g, &r, direct), &r
	}
	return withDirectCalls(questionVerdict(s, c, h, a), nil, direct), nil
}

// questionVerdict grades an attempt of a case that is not an action case.
func questionVerdict(s *suite.Suite, c *suite.Case, h *record.Header, a *record.Attempt) AttemptGrade {
	g := AttemptGrade{Case: a.Case, N: a.N, Reasons: []Reason{}}
	if a.End == record.EndError {
		g.Outcome = Error
		kind, msg := "unknown", "the attempt ended in an error"
		if a.Error != nil {
			if a.Error.Kind != "" {
				kind = string(a.Error.Kind)
			}
			if a.Error.Message != "" {
				msg = a.Error.Message
			}
		}
		g.ErrorKind = kind
		g.Reasons = append(g.Reasons, Reason{CheckError, kind + ": " + msg})
		return g
	}
	calls := a.Calls()
	var rs []Reason
	if c.IsToolCall() {
		rs = checkToolCall(c, h, calls)
		g.Outcome = Pass
		if len(rs) > 0 {
			g.Outcome, g.Reasons = Fail, rs
		}
		return g
	}
	capped := a.End == record.EndTurnCap
	if capped {
		rs = append(rs, Reason{CheckEnd, fmt.Sprintf("stopped at the turn cap after %d turns without a final answer", len(a.Turns))})
	}
	rs = append(rs, checkTools(c, h, allowErrors(c, calls))...)
	rs = append(rs, checkToolErrors(s, c, calls)...)
	g.ToolErrors = unexpectedErrors(c.ExpectedErrors, calls)
	rs = append(rs, checkArgs(c, h, calls)...)
	rs = append(rs, checkTurns(s, c, a)...)
	if !capped {
		ans := a.Answer
		rs = append(rs, checkFigures(s, c, ans)...)
		rs = append(rs, checkGrounding(s, c, a, ans)...)
		rs = append(rs, checkDecline(s, c, ans)...)
		rs = append(rs, checkAnswer(c, a)...)
	}
	g.Outcome = Pass
	if len(rs) > 0 {
		g.Outcome = Fail
		g.Reasons = rs
	}
	return g
}

// allowErrors returns calls with the failures case c provokes on purpose
// (calls of its expected_errors tools that the tool refused or the server
// rejected) counted as successful uses. A call of a tool the model was not
// shown is never excused.
func allowErrors(c *suite.Case, calls []record.Call) []record.Call {
	if len(c.ExpectedErrors) == 0 {
		return calls
	}
	out := make([]record.Call, len(calls))
	for i, call := range calls {
		if call.Shown && slices.Contains(c.ExpectedErrors, call.Name) {
			call.IsError, call.Rejected = false, ""
		}
		out[i] = call
	}
	return out
}
