package suite

import (
	"errors"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Rubric is a case's judging rubric: what a judge model reads the answer
// against, and when it should pass it. A rubric alone is advisory: the
// judge's verdict is recorded beside the grade and never changes it. With
// the case's GradedBy set to GradedByJudge, the verdict is the grade.
type Rubric struct {
	// Rubric says what a good answer does, for the judge to read.
	Rubric string `yaml:"rubric"`
	// PassWhen says when the judge should pass the answer.
	PassWhen string `yaml:"pass_when"`
	// Line locates the rubric in its file.
	Line int `yaml:"-"`
}

// UnmarshalYAML reads a rubric and remembers its line.
func (r *Rubric) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return errors.New("judge is a mapping: want rubric and pass_when")
	}
	type plain Rubric
	if err := n.Load((*plain)(r), yaml.WithKnownFields()); err != nil {
		return friendlyErr(err, "judge (want rubric, pass_when)", r)
	}
	r.Line = n.Line
	return nil
}

// GradedByJudge is the value of a case's graded_by that makes its judge's
// verdict its grade.
const GradedByJudge = "judge"

// JudgedOnly reports whether c is graded by its judge alone.
func (c *Case) JudgedOnly() bool { return c.GradedBy == GradedByJudge }

// JudgeAsksFor returns how many times the judge is asked about each
// answer: the suite's judge_asks, else 3.
func (s *Suite) JudgeAsksFor() int {
	if s.JudgeAsks > 0 {
		return s.JudgeAsks
	}
	return 3
}

// deterministicChecks names the deterministic checks case c declares.
func (c *Case) deterministicChecks() []string {
	var out []string
	add := func(ok bool, name string) {
		if ok {
			out = append(out, name)
		}
	}
	add(len(c.Tools.Required)+len(c.Tools.Accepted)+len(c.Tools.Forbidden) > 0, "tools")
	add(len(c.Args) > 0, "args")
	add(len(c.Figures) > 0, "figures")
	add(c.NoInventedFigures, "no_invented_figures")
	add(c.Decline, "decline")
	add(c.Answer != nil, "answer")
	add(c.IsToolCall() || len(c.ExpectTools)+len(c.ExpectArgs) > 0, "mode: tool-call")
	add(c.Action != nil, "action")
	return out
}

// checkJudge checks case c's rubric and graded_by.
func checkJudge(c *Case, at func(string, ...any), atLine func(int, string, ...any)) {
	if r := c.Judge; r != nil {
		line := r.Line
		if line == 0 {
			line = c.Line
		}
		if strings.TrimSpace(r.Rubric) == "" {
			atLine(line, "judge has no rubric: want rubric: what a good answer does")
		}
		if strings.TrimSpace(r.PassWhen) == "" {
			atLine(line, "judge has no pass_when: want pass_when: when the judge passes the answer")
		}
	}
	switch c.GradedBy {
	case "", "checks":
	case GradedByJudge:
		if c.Judge == nil {
			at("graded_by: judge needs a rubric: want judge: {rubric: ..., pass_when: ...}")
		}
		if d := c.deterministicChecks(); len(d) > 0 {
			at("graded_by: judge is only for a case with no deterministic check, and this one has %s: drop graded_by (the judge stays advisory) or the checks", strings.Join(d, ", "))
		}
	default:
		at("graded_by %q: want judge, or leave it out for the case's checks", c.GradedBy)
	}
}
