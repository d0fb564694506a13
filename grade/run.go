package grade

import (
	"strings"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/stats"
	"github.com/mcpeval/mcpeval/suite"
)

// Result is a graded run.
type Result struct {
	RunID string `json:"run_id"`
	// Model names the model under test (its spec).
	Model string `json:"model"`
	// Valid is false when the run's preflight found the data drifted;
	// then nothing is graded and Invalid says why.
	Valid   bool   `json:"valid"`
	Invalid string `json:"invalid,omitempty"`
	// Attempts are the graded attempts, in suite order then by number.
	Attempts []AttemptGrade `json:"attempts"`
	// Cases are the cases the run attempted, in suite order.
	Cases []CaseStats `json:"cases"`
	// Groups are the case groups, in suite order.
	Groups []GroupStats `json:"groups"`
	// Totals and Groups leave out the cases graded by their judge
	// (graded_by: judge), whose counts are Judged, shown apart.
	Totals Totals `json:"totals"`
	// Judged are the counts of the attempts of cases graded by their
	// judge; nil when the run has none.
	Judged *Counts `json:"judged,omitempty"`
	// Unverified are the ids of the suite's cases marked verified: false:
	// drafted by a tool from a recorded attempt and not yet checked by a
	// person; absent when there are none.
	Unverified []string `json:"unverified_cases,omitempty"`
	// Warnings are things a reader should know: cases of the record the
	// suite no longer has, a suite changed since the run, an unfinished
	// run, problems reading the record.
	Warnings []string `json:"warnings,omitempty"`
	// Actions are the action-scoring columns (Reached, First time,
	// Arguments, Confirmation, Clean, Declined, Completion) of the run's
	// action cases; nil when the suite has none.
	Actions *actions.Report `json:"actions,omitempty"`
	// ResourceReads counts the model's reads of the server's resources
	// (a suite with resources: true); nil when it read none.
	ResourceReads *ResourceReads `json:"resource_reads,omitempty"`
	// Searches counts what the model did on a search surface: searches,
	// descriptions and calls through call_tool; nil on any other surface.
	Searches *Searches `json:"searches,omitempty"`
	// Confusion says which tool the model called where a case's key
	// wanted another (see Confusion); nil when no attempt of a case whose
	// key calls tools was graded.
	Confusion *Confusion `json:"confusion,omitempty"`
}

// ResourceReads counts the calls of the resource tools (list_resources,
// read_resource: record.CallResource) and the attempts that made any.
type ResourceReads struct {
	Reads    int `json:"reads"`
	Attempts int `json:"attempts"`
}

// Counts are the outcomes of a set of attempts with their pass rate.
// Errors are counted apart and left out of Graded and of the rate.
type Counts struct {
	Passed int `json:"passed"`
	Failed int `json:"failed"`
	Errors int `json:"errors"`
	// Graded is Passed + Failed.
	Graded int `json:"graded"`
	// Rate is Passed / Graded, 0 when nothing was graded.
	Rate float64 `json:"rate"`
	// WilsonLow and WilsonHigh bound Rate with 95% confidence; [0, 1] when
	// nothing was graded.
	WilsonLow  float64 `json:"wilson_low"`
	WilsonHigh float64 `json:"wilson_high"`
	// ToolErrors counts the tool errors the cases did not expect, over
	// every attempt (AttemptGrade.ToolErrors), whether or not they failed
	// one (tool_errors: note).
	ToolErrors int `json:"tool_errors"`
}

// add counts one attempt's outcome and tool errors.
func (c *Counts) add(g AttemptGrade) {
	c.ToolErrors += g.ToolErrors
	switch g.Outcome {
	case Pass:
		c.Passed++
	case Fail:
		c.Failed++
	case Error:
		c.Errors++
	}
}

// finish computes the rate and its interval.
func (c *Counts) finish() {
	c.Graded = c.Passed + c.Failed
	c.Rate = 0
	if c.Graded > 0 {
		c.Rate = float64(c.Passed) / float64(c.Graded)
	}
	c.WilsonLow, c.WilsonHigh = stats.Wilson(c.Passed, c.Graded)
}

// Totals are the counts of the whole run, with errors by kind.
type Totals struct {
	Counts
	// ErrorKinds counts errors by kind ("timeout", "provider", ...).
	ErrorKinds map[string]int `json:"error_kinds,omitempty"`
}

// CaseStats are one case's counts across its attempts.
type CaseStats struct {
	ID     string `json:"id"`
	Group  string `json:"group"`
	Prompt string `json:"prompt"`
	Counts
	// PassAtK estimates the chance that at least one of K attempts passes,
	// PassHatK that all K do (unbiased, from the graded attempts).
	PassAtK  float64 `json:"pass_at_k"`
	PassHatK float64 `json:"pass_hat_k"`
	// K is the number of graded attempts, at most the suite's attempts
	// for the case.
	K int `json:"k"`
	// Inconsistent is true when some attempts passed and some failed.
	Inconsistent bool `json:"inconsistent"`
	// Judged is true for a case graded by its judge (graded_by: judge):
	// its counts are in Result.Judged, not in its group's or the totals.
	Judged bool `json:"judged,omitempty"`
}

// GroupStats are one group's counts across its cases' attempts.
type GroupStats struct {
	Name string `json:"name"`
	Counts
}

// Run grades every attempt of r against suite s as it is now. A run whose
// preflight failed is not graded. Attempts of cases s does not have are
// reported in Warnings, not graded. A run too large to hold is graded the
// same way by a Grader fed from record.Open.
func Run(s *suite.Suite, r *record.Run) *Result {
	g := NewGrader(s, r)
	for i := range r.Attempts {
		g.Add(&r.Attempts[i])
	}
	return g.Result()
}

func modelName(h *record.Header) string {
	if h.Model.Spec != "" {
		return h.Model.Spec
	}
	if h.Model.Provider != "" {
		return h.Model.Provider + ":" + h.Model.Name
	}
	return h.Model.Name
}

// invalidReason says what the preflight found.
func invalidReason(p record.Preflight) string {
	var probs []string
	for _, c := range p.Checks {
		for _, pr := range c.Problems {
			probs = append(probs, c.Tool+": "+pr)
		}
	}
	if len(probs) == 0 {
		return "the preflight found the data drifted: nothing was graded"
	}
	return "the preflight found the data drifted (" + strings.Join(probs, "; ") + "): nothing was graded"
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// hasActions reports whether suite s has action cases.
func hasActions(s *suite.Suite) bool {
	for _, c := range s.Cases {
		if c.Action != nil {
			return true
		}
	}
	return false
}
