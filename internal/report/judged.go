package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
)

// Option adds to what a report shows.
type Option func(*options)

type options struct {
	agreement   *agreement.Saved
	transcripts *Transcripts
}

// WithAgreement shows the judge's measured agreement with people (a run's
// agreement.json) beside the cases graded by the judge; without it, or
// when it measured another judge, they say "agreement not measured".
func WithAgreement(s *agreement.Saved) Option {
	return func(o *options) { o.agreement = s }
}

func collect(opts []Option) options {
	var o options
	for _, f := range opts {
		f(&o)
	}
	return o
}

// JudgeModels lists the judge models whose readings graded the run's
// cases graded by their judge, sorted.
func JudgeModels(res *grade.Result) []string {
	judged := map[string]bool{}
	for _, c := range res.Cases {
		if c.Judged {
			judged[c.ID] = true
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, a := range res.Attempts {
		if judged[a.Case] && a.Judged != nil && !seen[a.Judged.Model] {
			seen[a.Judged.Model] = true
			out = append(out, a.Judged.Model)
		}
	}
	sort.Strings(out)
	return out
}

// JudgeAgreements says, per judge model of the judged cases, its measured
// agreement with people or that none is: "judge M: kappa ..." or "judge
// M: agreement not measured". A run whose judge was never asked says so.
func JudgeAgreements(res *grade.Result, s *agreement.Saved) []string {
	models := JudgeModels(res)
	if len(models) == 0 {
		return []string{"no judge was asked: " + agreement.NotMeasured}
	}
	out := make([]string, len(models))
	for i, m := range models {
		out[i] = "judge " + m + ": " + s.For(m)
	}
	return out
}

// judgedText writes the cases graded by a judge model (graded_by: judge)
// apart from the table above, whose total leaves them out: the judge and
// its measured agreement with people, a line per case, their own total,
// then each of their attempts whose judge's asks split or gave no
// majority.
func judgedText(w io.Writer, res *grade.Result, ag *agreement.Saved) {
	if res.Judged == nil {
		return
	}
	width := len("judged total")
	for _, c := range res.Cases {
		if c.Judged {
			width = max(width, len(termsafe.Line(c.ID))+2)
		}
	}
	fmt.Fprintf(w, "\njudged by a model (graded_by: judge): rates apart, not in the total above\n")
	for _, l := range JudgeAgreements(res, ag) {
		fmt.Fprintf(w, "%s\n", termsafe.Line(l))
	}
	line := func(cols ...any) {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("%-*s  %7s  %5s  %-12s  %s", cols...), " "))
	}
	judged := map[string]bool{}
	for _, c := range res.Cases {
		if !c.Judged {
			continue
		}
		judged[c.ID] = true
		f := format.Counts(c.Counts)
		line(width, "  "+termsafe.Line(c.ID), f.Count(), f.Percent(), f.CI(), strings.Join(errorNote(c.Errors, nil), ", "))
	}
	f := format.Counts(*res.Judged)
	line(width, "judged total", f.Count(), f.Percent(), f.CI(), strings.Join(errorNote(res.Judged.Errors, nil), ", "))
	for _, a := range res.Attempts {
		if !judged[a.Case] {
			continue
		}
		switch j := a.Judged; {
		case a.ErrorKind == grade.ErrorNoVerdict && len(a.Reasons) > 0:
			fmt.Fprintf(w, "  %s #%d: %s\n", termsafe.Line(a.Case), a.N, termsafe.Line(a.Reasons[0].Message))
		case j != nil && j.Split():
			fmt.Fprintf(w, "  %s #%d: judge %s split (%s), majority %s\n", termsafe.Line(a.Case), a.N, termsafe.Line(j.Model), j.Tally(), j.Verdict)
		}
	}
}

// judgedMarkdown writes the cases graded by a judge model apart, as
// judgedText does, for a pull request: the judge and its agreement, a
// table of the judged cases and their own total with its interval.
func judgedMarkdown(w io.Writer, res *grade.Result, ag *agreement.Saved) {
	if res.Judged == nil {
		return
	}
	f := format.Counts(*res.Judged)
	fmt.Fprintf(w, "\n#### Judged by a model (graded_by: judge)\n\n")
	fmt.Fprintf(w, "**%s passed, as judged** (%d of %d graded, 95%% CI %s): rates apart, not in the total above.\n\n", f.Percent(), res.Judged.Passed, res.Judged.Graded, f.Range())
	for _, l := range JudgeAgreements(res, ag) {
		fmt.Fprintf(w, "- %s\n", mdText(l))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| Judged case | Passed | Rate | 95% CI | Notes |")
	fmt.Fprintln(w, "|---|---:|---:|---|---|")
	for _, c := range res.Cases {
		if !c.Judged {
			continue
		}
		cf := format.Counts(c.Counts)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", mdText(c.ID), cf.Count(), cf.Percent(), cf.Range(), mdText(strings.Join(errorNote(c.Errors, nil), ", ")))
	}
	fmt.Fprintf(w, "| **judged total** | %s | %s | %s | %s |\n", f.Count(), f.Percent(), f.Range(), mdText(strings.Join(errorNote(res.Judged.Errors, nil), ", ")))
}
