package view

import (
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/figures"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/suite"
)

// markAnswer cuts answer into text and its stated figures, each marked
// "ok" when it is one of case c's expected figures within its tolerance,
// or "off" when a failed figures or invented check names it.
func markAnswer(s *suite.Suite, c *suite.Case, answer string, reasons []grade.Reason) []htmlreport.Part {
	if answer == "" || c == nil {
		return nil
	}
	var failed []string
	for _, r := range reasons {
		if r.Check == grade.CheckFigures || r.Check == grade.CheckInvented {
			failed = append(failed, r.Message)
		}
	}
	var parts []htmlreport.Part
	at, marked := 0, false
	for _, f := range figures.Claims(answer) {
		if f.Start < at || f.End > len(answer) {
			continue
		}
		mark, title := "", ""
		for _, e := range c.Figures {
			if tolerance(s, e).Within(f.Value, e.Value) {
				mark, title = "ok", "expected figure "+figure(s, e)
				break
			}
		}
		if mark == "" {
			num := digits(f.Text)
			for _, m := range failed {
				if num != "" && strings.Contains(m, num) {
					mark, title = "off", m
					break
				}
			}
		}
		if mark == "" {
			continue
		}
		marked = true
		parts = append(parts, htmlreport.Part{Text: answer[at:f.Start]}, htmlreport.Part{Text: answer[f.Start:f.End], Mark: mark, Title: title})
		at = f.End
	}
	if !marked {
		return nil
	}
	return append(parts, htmlreport.Part{Text: answer[at:]})
}

// digits is a figure's number as written, without currency or scale:
// "2,261,924" for "S$2,261,924".
func digits(text string) string {
	start, end := -1, -1
	for i, r := range text {
		if r >= '0' && r <= '9' {
			if start < 0 {
				start = i
			}
			end = i + 1
		}
	}
	if start < 0 {
		return ""
	}
	return text[start:end]
}

// tolerance is the tolerance figure e is held to: its own, or the suite's
// for its kind; counts and figures without a kind are exact.
func tolerance(s *suite.Suite, e suite.Figure) suite.Tolerance {
	switch {
	case e.Kind == "count":
		return suite.Tolerance{Set: true}
	case e.Tolerance.Set:
		return e.Tolerance
	case e.Kind == "money":
		if s != nil && s.Tolerances.Money.Set {
			return s.Tolerances.Money
		}
		return suite.Tolerance{Relative: 0.01, Set: true}
	case e.Kind == "percent":
		if s != nil && s.Tolerances.Percent.Set {
			return s.Tolerances.Percent
		}
		return suite.Tolerance{Absolute: 0.1, Set: true}
	}
	return suite.Tolerance{Set: true}
}
