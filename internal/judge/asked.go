package judge

import (
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Reads reports whether Ask puts attempt a of a run of suite s to j: an
// answered attempt of a decline case or, when j is a RubricJudge, of a
// case with a rubric. Those are the only attempts a run handed to Ask or
// Resume needs to hold (each as Question keeps it); a run read as a
// stream keeps them alone.
func Reads(j Judge, s *suite.Suite, a *record.Attempt) bool {
	c := s.Case(a.Case)
	return c != nil && a.End == record.EndAnswered && (c.Decline || rules(j, c))
}

// rules reports whether j reads the answers of case c against its rubric.
func rules(j Judge, c *suite.Case) bool {
	_, ok := j.(RubricJudge)
	return ok && c.Judge != nil
}

// Question is attempt a as Ask reads it: its case, number and end, the
// request put to the model and its answer. The rest (turns, tool calls,
// usage) the judge never reads, and is not kept.
func Question(a *record.Attempt) record.Attempt {
	return record.Attempt{Case: a.Case, N: a.N, End: a.End, Prompt: a.Prompt, Answer: a.Answer}
}
