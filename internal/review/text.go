package review

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/record"
)

// Text writes the two rates side by side for a terminal: the verdict
// counts, then as graded and after review for the run and per group, each
// with its 95% interval.
func Text(w io.Writer, rv *Reviewed) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "reviews  %s\n", Summary(rv))
	width := len("after review")
	names := make([]string, len(rv.Groups))
	for i, g := range rv.Groups {
		names[i] = termsafe.Line(g.Name)
		width = max(width, len(names[i])+2)
	}
	line := func(cols ...any) {
		fmt.Fprintln(bw, strings.TrimRight(fmt.Sprintf("%-*s  %7s  %5s  %-12s  %7s  %5s  %s", cols...), " "))
	}
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, strings.TrimRight(fmt.Sprintf("%-*s  %-30s  %s", width, "", "as graded", "after review"), " "))
	line(width, "", "passed", "rate", "95% CI", "passed", "rate", "95% CI")
	line(width, "total", frac(rv.AsGraded), Pct(rv.AsGraded), Interval(rv.AsGraded), frac(rv.AfterReview), Pct(rv.AfterReview), Interval(rv.AfterReview))
	for i, g := range rv.Groups {
		line(width, "  "+names[i], frac(g.AsGraded), Pct(g.AsGraded), Interval(g.AsGraded), frac(g.AfterReview), Pct(g.AfterReview), Interval(g.AfterReview))
	}
	fmt.Fprintln(bw, "\nafter review, only grader false fails count as passes; model failures and questioned expectations stay failures")
	return bw.Flush()
}

// Markdown writes the two rates side by side as a Markdown table, for a
// pull request or a step summary.
func Markdown(w io.Writer, rv *Reviewed) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### After review\n\n%s\n\n", Summary(rv))
	fmt.Fprintln(bw, "| | as graded | 95% CI | after review | 95% CI |")
	fmt.Fprintln(bw, "|---|---:|---|---:|---|")
	row := func(name string, a, b grade.Counts) {
		fmt.Fprintf(bw, "| %s | %s (%s) | %s | %s (%s) | %s |\n", name, frac(a), Pct(a), Interval(a), frac(b), Pct(b), Interval(b))
	}
	row("**total**", rv.AsGraded, rv.AfterReview)
	for _, g := range rv.Groups {
		row(mdCell(g.Name), g.AsGraded, g.AfterReview)
	}
	fmt.Fprintln(bw, "\nAfter review, only grader false fails count as passes; model failures and questioned expectations stay failures.")
	return bw.Flush()
}

// mdCell makes text safe in a Markdown table cell (format.Markdown).
func mdCell(s string) string { return format.Markdown(s) }

// Summary says in one line what review found: "11 failures: 5 grader
// false fail, 6 model failure, 0 expectation in question, 0 not reviewed".
func Summary(rv *Reviewed) string {
	s := fmt.Sprintf("%d failure%s: %d grader false fail, %d model failure, %d expectation in question, %d not reviewed",
		rv.Failures, format.S(rv.Failures), rv.GraderFalseFails, rv.ModelFailures, rv.ExpectationsInQuestion, rv.Unreviewed)
	if rv.StaleReviews > 0 {
		s += fmt.Sprintf(" (%d attempt%s with only stale reviews)", rv.StaleReviews, format.S(rv.StaleReviews))
	}
	return s
}

func frac(c grade.Counts) string { return fmt.Sprintf("%d/%d", c.Passed, c.Graded) }

// Pct writes a rate as a whole percentage, "—" when nothing was graded.
func Pct(c grade.Counts) string {
	if c.Graded == 0 {
		return "—"
	}
	return format.Pct(c.Rate)
}

// Interval writes a rate's 95% interval: "[69%, 89%]".
func Interval(c grade.Counts) string {
	return "[" + format.Pct(c.WilsonLow) + ", " + format.Pct(c.WilsonHigh) + "]"
}

// Item is a failed attempt as a reviewer reads it.
type Item struct {
	// Index and Total place the item in the walk ("3 of 12").
	Index, Total int
	Group        string
	Attempt      *record.Attempt
	Grade        *grade.AttemptGrade
	// Reviewed holds the attempt's stale reviews, if any; it may be nil.
	Reviewed *Attempt
}

// ResultLimit is how much of a tool result Show prints unless asked for
// everything.
const ResultLimit = 2000

// Show writes a failed attempt for a terminal: the case, the prompt, the
// transcript (each turn's text, every tool call with its arguments and
// result), the answer, and which checks failed and why. Everything that
// came from a model or a tool is made safe for the terminal. Tool results
// longer than ResultLimit bytes are cut unless full is set.
func Show(w io.Writer, it Item, full bool) error {
	bw := bufio.NewWriter(w)
	a := it.Attempt
	head := record.AttemptKey{Case: it.Grade.Case, N: it.Grade.N}.String()
	if it.Group != "" {
		head += "  (group " + it.Group + ")"
	}
	if it.Total > 0 {
		head = fmt.Sprintf("[%d/%d] %s", it.Index, it.Total, head)
	}
	fmt.Fprintf(bw, "\n%s\n%s\n", termsafe.Line(head), strings.Repeat("─", min(utf8.RuneCountInString(head), 72)))
	if a == nil {
		fmt.Fprintln(bw, "(the record has no such attempt)")
	} else {
		fmt.Fprintln(bw, "prompt")
		block(bw, "  ", a.Prompt)
		for i, t := range a.Turns {
			fmt.Fprintf(bw, "turn %d\n", i+1)
			if t.Text != "" {
				fmt.Fprintln(bw, "  says")
				block(bw, "    ", t.Text)
			}
			for _, tr := range t.Tries {
				fmt.Fprintf(bw, "  (provider refused: %s)\n", termsafe.Line(tr.Error))
			}
			for _, c := range t.Calls {
				fmt.Fprintf(bw, "  call %s %s\n", termsafe.Line(c.Name), termsafe.Line(string(c.Args)))
				switch {
				case !c.Shown:
					fmt.Fprintln(bw, "    (a tool the model was not shown: not sent)")
				case c.NotSent:
					fmt.Fprintln(bw, "    (asserted, not sent)")
				case c.Rejected != "":
					fmt.Fprintf(bw, "    rejected by the server: %s\n", termsafe.Line(c.Rejected))
				default:
					label := "    result"
					if c.IsError {
						label += " (tool error)"
					}
					fmt.Fprintln(bw, label)
					res := c.Result
					more := 0
					if !full && len(res) > ResultLimit {
						cut := ResultLimit
						for cut > 0 && !utf8.RuneStart(res[cut]) {
							cut--
						}
						more = len(res) - cut
						res = res[:cut]
					}
					block(bw, "      ", res)
					if more > 0 {
						fmt.Fprintf(bw, "      … %d more bytes (--full shows everything)\n", more)
					}
					if c.Truncated {
						fmt.Fprintln(bw, "      (cut to the record's size cap when recorded)")
					}
				}
				asked(bw, c)
			}
			if u := t.User; u != nil {
				approves := ""
				if u.Approves {
					approves = ", approving"
				}
				fmt.Fprintf(bw, "user (the case's turn %d%s)\n", u.Entry, approves)
				block(bw, "  ", u.Text)
			}
		}
		fmt.Fprintf(bw, "answer (%s)\n", termsafe.Line(a.End))
		if a.Answer == "" {
			fmt.Fprintln(bw, "  (none)")
		} else {
			block(bw, "  ", a.Answer)
		}
	}
	fmt.Fprintln(bw, "failed checks")
	for _, r := range it.Grade.Reasons {
		fmt.Fprintf(bw, "  %s: %s\n", r.Check, termsafe.Line(r.Message))
	}
	if it.Reviewed != nil {
		for _, e := range it.Reviewed.Stale {
			fmt.Fprintf(bw, "earlier review, now stale (%s): %s by %s: %s\n", e.Why, e.Verdict, termsafe.Line(e.Reviewer), termsafe.Line(e.Note))
		}
	}
	return bw.Flush()
}

// asked writes what the server asked while call c ran, in the order
// the record keeps: its sampling requests with the model's answers, its
// elicitations with the answers given, then its progress and log
// notifications.
func asked(w io.Writer, c record.Call) {
	for _, s := range c.Sampling {
		by := "the model under test"
		if s.Model != nil {
			by = s.Model.Spec
		}
		fmt.Fprintf(w, "    sampling request, answered by %s", termsafe.Line(by))
		if s.MaxTokens > 0 {
			fmt.Fprintf(w, " (at most %d tokens)", s.MaxTokens)
		}
		fmt.Fprintln(w)
		if s.System != "" {
			fmt.Fprintln(w, "      system")
			block(w, "        ", s.System)
		}
		for _, m := range s.Messages {
			fmt.Fprintf(w, "      %s\n", termsafe.Line(m.Role))
			block(w, "        ", m.Text)
		}
		if s.Error != "" {
			fmt.Fprintf(w, "      sampling error: %s\n", termsafe.Line(s.Error))
			continue
		}
		fmt.Fprintf(w, "      answer (%d in, %d out)\n", s.Turn.Usage.Input, s.Turn.Usage.Output)
		block(w, "        ", s.Turn.Text)
	}
	for _, e := range c.Elicitations {
		fmt.Fprintln(w, "    elicitation request")
		block(w, "      ", e.Message)
		fmt.Fprintf(w, "      answer: %s", termsafe.Line(e.Action))
		if len(e.Content) > 0 {
			fmt.Fprintf(w, " %s", termsafe.Line(string(e.Content)))
		}
		fmt.Fprintln(w)
		if e.Note != "" {
			fmt.Fprintf(w, "      (%s)\n", termsafe.Line(e.Note))
		}
	}
	for _, n := range c.Notes {
		fmt.Fprintf(w, "    note %s\n", termsafe.Line(n.Line()))
	}
	if c.NotesDropped > 0 {
		fmt.Fprintf(w, "    (%d more notifications dropped)\n", c.NotesDropped)
	}
}

// block writes text indented, made safe for a terminal.
func block(w io.Writer, indent, s string) {
	s = strings.TrimRight(termsafe.String(s), "\n")
	for _, l := range strings.Split(s, "\n") {
		fmt.Fprintln(w, strings.TrimRight(indent+l, " "))
	}
}
