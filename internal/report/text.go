package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
)

// Text writes res for a terminal: the run's provenance, a table with a
// line per group and per case (passed of graded, rate, 95% interval, the
// tool errors the cases did not expect, errors, inconsistency), the total, then every failing attempt's reasons
// and every error. h may be nil; so may cost, which then goes unsaid.
// opts add to it: WithAgreement, the judge's measured agreement.
func Text(w io.Writer, res *grade.Result, h *record.Header, cost *usage.Cost, opts ...Option) error {
	o := collect(opts)
	bw := bufio.NewWriter(w)
	provenance(bw, res, h, "")
	if !res.Valid {
		fmt.Fprintf(bw, "\nINVALID: %s\n", termsafe.Line(res.Invalid))
		warnings(bw, res, "")
		return bw.Flush()
	}
	rows := tableRows(res)
	width := len("total")
	for i := range rows {
		rows[i].name = termsafe.Line(rows[i].name) // case ids come from suite files
		width = max(width, len(rows[i].name))
	}
	line := func(cols ...any) {
		fmt.Fprintln(bw, strings.TrimRight(fmt.Sprintf("%-*s  %7s  %5s  %-12s  %11s  %s", cols...), " "))
	}
	fmt.Fprintln(bw)
	line(width, "", "passed", "rate", "95% CI", "tool errors", "notes")
	for _, r := range rows {
		f := format.Counts(r.c)
		line(width, r.name, f.Count(), f.Percent(), f.CI(), fmt.Sprint(r.c.ToolErrors), strings.Join(r.notes, ", "))
	}
	judgedText(bw, res, o.agreement)
	if l := ResourceReadsLine(res.ResourceReads); l != "" {
		fmt.Fprintf(bw, "\n%s\n", termsafe.Line(l))
	}
	costText(bw, cost)
	if err := actionsText(bw, res.Actions); err != nil {
		return err
	}
	confusionText(bw, res.Confusion)
	failures(bw, res)
	errs(bw, res)
	warnings(bw, res, "")
	return bw.Flush()
}

// row is one line of the table.
type row struct {
	name  string
	c     grade.Counts
	notes []string
}

// tableRows are the groups, each followed by its cases, then the total.
func tableRows(res *grade.Result) []row {
	var rows []row
	for _, g := range res.Groups {
		rows = append(rows, row{name: g.Name, c: g.Counts, notes: errorNote(g.Errors, nil)})
		for _, c := range res.Cases {
			if c.Group != g.Name || c.Judged {
				continue
			}
			notes := errorNote(c.Errors, nil)
			if c.Inconsistent {
				notes = append(notes, "~ inconsistent")
			}
			rows = append(rows, row{name: "  " + c.ID, c: c.Counts, notes: notes})
		}
	}
	rows = append(rows, row{name: "total", c: res.Totals.Counts, notes: errorNote(res.Totals.Errors, res.Totals.ErrorKinds)})
	return rows
}

func errorNote(n int, kinds map[string]int) []string {
	if n == 0 {
		return nil
	}
	s := format.N(n, "error")
	if len(kinds) > 0 {
		s += " (" + kindList(kinds) + ")"
	}
	return []string{s}
}

// kindList writes error kinds, most frequent first: "timeout 2, provider 1".
func kindList(kinds map[string]int) string { return format.Kinds(kinds) }

// provenance writes what was measured: the run, model, suite, tools and
// target. Each line starts with prefix.
func provenance(w io.Writer, res *grade.Result, h *record.Header, prefix string) {
	model := res.Model
	if model == "" && h != nil {
		model = h.Model.Spec
	}
	fmt.Fprintf(w, "%srun     %s\n", prefix, termsafe.Line(res.RunID)) // a record's header says it
	fmt.Fprintf(w, "%smodel   %s\n", prefix, termsafe.Line(model))
	if h == nil {
		return
	}
	if h.Model.Fake {
		fmt.Fprintf(w, "%s        (a fake model: its figures prove the pipeline, not a model)\n", prefix)
	}
	if h.Imported() {
		fmt.Fprintf(w, "%ssource  imported traffic (mcpeval import): no fixtures, action columns not graded\n", prefix)
	}
	checked := ""
	if n := len(res.Unverified); n > 0 && h.Suite.Cases >= n {
		checked = fmt.Sprintf(", %d/%d checked by a person", h.Suite.Cases-n, h.Suite.Cases)
	}
	fmt.Fprintf(w, "%ssuite   %s (%d cases%s, hash %s)\n", prefix, termsafe.Line(h.Suite.Name), h.Suite.Cases, checked, termsafe.Line(format.Hash(h.Suite.Hash)))
	tools := fmt.Sprintf("%d shown, hash %s", len(h.Tools), format.Hash(h.ToolsHash))
	if h.Overlay != nil {
		tools += fmt.Sprintf(", overlay %s (%s)", h.Overlay.Path, format.Hash(h.Overlay.Hash))
		if ts := h.Overlay.OutputTools(); len(ts) > 0 {
			tools += ", results rewritten for " + strings.Join(ts, ", ")
		}
	}
	fmt.Fprintf(w, "%stools   %s\n", prefix, termsafe.Line(tools))
	target := h.Target.Spec
	if h.Target.Server.Name != "" {
		target += fmt.Sprintf(" (%s %s)", h.Target.Server.Name, h.Target.Server.Version)
	}
	fmt.Fprintf(w, "%starget  %s\n", prefix, termsafe.Line(target)) // the server names itself
	if h.Surface != nil {
		fmt.Fprintf(w, "%ssurface %s\n", prefix, termsafe.Line(h.Surface.Name))
	}
	if !h.Start.IsZero() {
		fmt.Fprintf(w, "%sstart   %s\n", prefix, h.Start.UTC().Format(time.RFC3339))
	}
	if h.Filter != "" {
		fmt.Fprintf(w, "%sfilter  %s\n", prefix, termsafe.Line(h.Filter))
	}
}

// failures lists every failing attempt with its reasons.
func failures(w io.Writer, res *grade.Result) {
	var n int
	for _, a := range res.Attempts {
		if a.Outcome == grade.Fail {
			n++
		}
	}
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "\nfailures (%d)\n", n)
	for _, a := range res.Attempts {
		if a.Outcome != grade.Fail {
			continue
		}
		fmt.Fprintf(w, "  %s #%d\n", termsafe.Line(a.Case), a.N)
		for _, r := range a.Reasons {
			fmt.Fprintf(w, "    %s: %s\n", r.Check, termsafe.Line(r.Message)) // reasons quote the model
		}
		if a.Judge != nil {
			fmt.Fprintf(w, "    (judge %s, advisory: %s)\n", a.Judge.Model, termsafe.Line(judgeSays(a.Judge)))
		}
	}
}

func judgeSays(o *grade.Opinion) string {
	s := "does not decline"
	if o.Declines {
		s = "declines"
	}
	if o.Reason != "" {
		s += ": " + o.Reason
	}
	return s
}

// errs lists the attempts that ended in an error.
func errs(w io.Writer, res *grade.Result) {
	if res.Totals.Errors == 0 {
		return
	}
	fmt.Fprintf(w, "\nerrors (%d, left out of the rates)\n", res.Totals.Errors)
	for _, a := range res.Attempts {
		if a.Outcome != grade.Error {
			continue
		}
		msg := a.ErrorKind
		if len(a.Reasons) > 0 {
			msg = a.Reasons[0].Message
		}
		fmt.Fprintf(w, "  %s #%d: %s\n", termsafe.Line(a.Case), a.N, termsafe.Line(msg)) // it may quote a server's stderr
	}
}

func warnings(w io.Writer, res *grade.Result, prefix string) {
	if len(res.Warnings) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%swarnings\n", prefix)
	for _, s := range res.Warnings {
		fmt.Fprintf(w, "%s  %s\n", prefix, termsafe.Line(s))
	}
}

// costText writes the run's cost under the table: per run, per attempt,
// per success, and the prices it used.
func costText(w io.Writer, c *usage.Cost) {
	if c == nil {
		return
	}
	fmt.Fprintf(w, "\ncost  %s\n", c.Line())
	if src := c.Source(); src != "" {
		fmt.Fprintf(w, "      %s\n", termsafe.Line(src)) // a --prices file names its source
	}
	if c.Note != "" {
		fmt.Fprintf(w, "      %s\n", termsafe.Line(c.Note))
	}
}
