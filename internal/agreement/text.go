package agreement

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
)

// Text writes the agreement for a terminal: the confusion matrix, raw
// agreement, kappa with its interval, and every disagreement.
func Text(w io.Writer, a *Agreement) error {
	bw := bufio.NewWriter(w)
	judges := "the judge"
	if len(a.Judges) > 0 {
		judges = "judge " + termsafe.Line(strings.Join(a.Judges, ", "))
	}
	fmt.Fprintf(bw, "%s against people, over %d attempt%s both read\n", judges, a.N, format.S(a.N))
	fmt.Fprintln(bw, "(people review failed attempts, so these are attempts the grader failed; the judge's pass is an answer that declines)")
	fmt.Fprintln(bw)
	m := a.Matrix
	fmt.Fprintf(bw, "%-12s  %10s  %10s\n", "", "judge pass", "judge fail")
	fmt.Fprintf(bw, "%-12s  %10d  %10d\n", "person pass", m.PersonPassJudgePass, m.PersonPassJudgeFail)
	fmt.Fprintf(bw, "%-12s  %10d  %10d\n", "person fail", m.PersonFailJudgePass, m.PersonFailJudgeFail)
	fmt.Fprintln(bw)
	agreed := m.PersonPassJudgePass + m.PersonFailJudgeFail
	if a.N > 0 {
		fmt.Fprintf(bw, "raw agreement  %s (%d of %d; %s expected by chance)\n", format.Pct(a.Observed), agreed, a.N, format.Pct(a.Chance))
	}
	fmt.Fprintf(bw, "Cohen's kappa  %s\n", KappaText(a))
	if a.SetAside > 0 {
		fmt.Fprintf(bw, "set aside      %d review%s of expectation in question (neither pass nor fail)\n", a.SetAside, format.S(a.SetAside))
	}
	if len(a.Disagreements) > 0 {
		fmt.Fprintf(bw, "\ndisagreements (%d)\n", len(a.Disagreements))
		for _, p := range a.Disagreements {
			fmt.Fprintf(bw, "  %s  %s #%d\n", termsafe.Line(p.Run), termsafe.Line(p.Case), p.N)
			fmt.Fprintf(bw, "    person %s says %s (%s): %s\n", termsafe.Line(p.Reviewer), passFail(p.Person), p.Verdict.Label(), termsafe.Line(p.Note))
			judge := fmt.Sprintf("    judge %s says %s", termsafe.Line(p.JudgeModel), passFail(p.Judge))
			if p.Reason != "" {
				judge += ": " + termsafe.Line(p.Reason) // the judge model's words
			}
			fmt.Fprintln(bw, judge)
		}
	}
	return bw.Flush()
}

// KappaText says kappa with its interval: "0.40, 95% CI [0.15, 0.65]
// (n=50)", or why it is undefined.
func KappaText(a *Agreement) string {
	switch {
	case a.N == 0:
		return "undefined: no attempt was read by both"
	case a.Kappa == nil:
		return fmt.Sprintf("undefined: both readers put all %d attempts in one class", a.N)
	case a.KappaLow == nil:
		return fmt.Sprintf("%s (n=%d; no interval: %s read every attempt the same way, so kappa is 0 whatever the other reads)", f2(*a.Kappa), a.N, a.Alike())
	}
	return fmt.Sprintf("%s, 95%% CI [%s, %s] (n=%d, Fleiss-Cohen-Everitt standard error %.3f)", f2(*a.Kappa), f2(*a.KappaLow), f2(*a.KappaHigh), a.N, *a.KappaSE)
}

// f2 writes a figure to two decimals, never as -0.00.
func f2(v float64) string {
	r := math.Round(v*100) / 100
	if r == 0 {
		r = 0 // drop the sign of a negative zero
	}
	return fmt.Sprintf("%.2f", r)
}

// JSON writes the agreement as indented JSON.
func JSON(w io.Writer, a *Agreement) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(a)
}

func passFail(pass bool) string {
	if pass {
		return "pass"
	}
	return "fail"
}
