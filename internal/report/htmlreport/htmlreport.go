package htmlreport

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

//go:embed *.tmpl page.css page.js
var files embed.FS

// The templates and the page's asset are made on first use, not when the
// program starts: most commands never render a page.
var (
	tmpl = sync.OnceValue(func() *template.Template {
		return template.Must(template.New("").ParseFS(files, "*.tmpl"))
	})
	// asset is the page's own style and script, and the policy that allows
	// exactly them and nothing from the network.
	asset = sync.OnceValue(newAsset)
)

type pageAsset struct {
	Style  template.CSS
	Script template.JS
	CSP    string
}

func newAsset() pageAsset {
	css, _ := files.ReadFile("page.css")
	js, _ := files.ReadFile("page.js")
	hash := func(b []byte) string {
		s := sha256.Sum256(b)
		return "'sha256-" + base64.StdEncoding.EncodeToString(s[:]) + "'"
	}
	return pageAsset{
		Style:  template.CSS(css),
		Script: template.JS(js),
		CSP:    "default-src 'none'; style-src " + hash(css) + "; script-src " + hash(js) + "; img-src data:; base-uri 'none'; form-action 'none'",
	}
}

// RunPage is what a run page shows.
type RunPage struct {
	// Run is the record: the header's provenance and every transcript.
	Run *record.Run
	// Result is the run graded.
	Result *grade.Result
	// Reviewed is the result with its reviews applied; nil is read as no
	// reviews.
	Reviewed *review.Reviewed
	// Banner, when set, is shown at the top of the page (a dry run says
	// so on every page).
	Banner string
	// Prices price the run; nil means the built-in tables.
	Prices *price.Set
	// Agreement is the judge's measured agreement with people (the run's
	// agreement.json), shown beside the judged cases; nil when none is.
	Agreement *agreement.Saved
	// Version is the version of the mcpeval writing the page, for its
	// footer; empty writes "dev".
	Version string
}

// Run writes the run page. When p.Run holds no attempts (a run read as a
// stream, record.Open), the transcripts are read from the record in
// p.Run.Dir, only those the page shows kept. A run of SmallRun attempts
// or more is paged: its failures and errors are shown by case, its passes
// counted.
func Run(w io.Writer, p *RunPage) error {
	src, err := sourceOf(p)
	if err != nil {
		return err
	}
	return writeRun(w, runViewFrom(p, src))
}

// writeRun draws the run page laid out as v, whole or not at all.
func writeRun(w io.Writer, v *RunView) error {
	var buf bytes.Buffer
	if err := tmpl().ExecuteTemplate(&buf, "run.html.tmpl", v); err != nil {
		return fmt.Errorf("rendering run page: %w", err)
	}
	_, err := w.Write(Visible(buf.Bytes()))
	return err
}

// LedgerPage is what the ledger page shows.
type LedgerPage struct {
	Title string
	// Banner, when set, is shown at the top of the page.
	Banner string
	Rows   []LedgerRow
	// Version is the version of the mcpeval writing the page, for its
	// footer; empty writes "dev".
	Version string
}

// LedgerRow is one published row.
type LedgerRow struct {
	// Key identifies the row (model x target x suite); the page's
	// data-check attributes carry it.
	Key                       string
	Model, Options            string
	Target, Server, ToolsHash string
	Suite, SuiteHash          string
	Date, RunID               string
	Commit, ToolVersion       string
	AsGraded, AfterReview     grade.Counts
	GraderFalseFails          int
	ModelFailures             int
	ExpectationsInQuestion    int
	Unreviewed                int
	// Actions are the action columns of the run's action cases, in the
	// order of actions.ColumnNames; nil when it had none.
	Actions []LedgerAction
	// Judged says the cases graded by a judge model, apart, with the
	// judge's measured kappa; empty when the run has none.
	Judged string
	// Page is the run page's address relative to the ledger page; empty
	// for none.
	Page string
}

// LedgerAction is one action column of a ledger row.
type LedgerAction struct {
	// Key is the column's key (actions.ColumnKeys), Name its heading.
	Key, Name string
	Rate      format.Rate
}

// footerVersion is the version a page's footer names: v, or "dev".
func footerVersion(v string) string {
	if v == "" {
		return "dev"
	}
	return v
}

// Ledger writes the ledger page.
func Ledger(w io.Writer, p *LedgerPage) error {
	type actionView struct{ Name, Check, Text, Title string }
	type rowView struct {
		LedgerRow
		As, After RateView
		Errors    int
		Acts      []actionView
	}
	v := struct {
		Title, Banner, Version string
		Asset                  pageAsset
		Rows                   []rowView
	}{Title: p.Title, Banner: p.Banner, Version: footerVersion(p.Version), Asset: asset()}
	if v.Title == "" {
		v.Title = "Results"
	}
	for _, r := range p.Rows {
		rv := rowView{LedgerRow: r, As: rate("as graded", "as-graded", r.AsGraded, colorAs, 140),
			After: rate("after review", "after-review", r.AfterReview, colorAfter, 140), Errors: r.AsGraded.Errors}
		for _, a := range r.Actions {
			rv.Acts = append(rv.Acts, actionView{Name: a.Name, Check: r.Key + "|" + ActionCheck(a.Key), Text: a.Rate.Cell(), Title: a.Name + ": " + a.Rate.String()})
		}
		v.Rows = append(v.Rows, rv)
	}
	var buf bytes.Buffer
	if err := tmpl().ExecuteTemplate(&buf, "ledger.html.tmpl", v); err != nil {
		return fmt.Errorf("rendering ledger page: %w", err)
	}
	_, err := w.Write(Visible(buf.Bytes()))
	return err
}

// CountText writes passed of graded: "46/57".
func CountText(c grade.Counts) string { return format.Counts(c).Count() }

// RateText writes a rate as a whole percentage, "—" when nothing was
// graded.
func RateText(c grade.Counts) string { return format.Counts(c).Percent() }

// CIText writes a rate's 95% interval: "[69%, 89%]".
func CIText(c grade.Counts) string { return format.Counts(c).CI() }

// ActionText writes an action column as its pages show it, rate and
// scored of counted: "83% 10/12", "—" when nothing was counted.
func ActionText(c actions.Column) string { return format.Column(c).Cell() }

// ActionCheck is the data-check name of an action column's figure on a
// run page ("action-first_time"); the ledger page prefixes it with the
// row's key.
func ActionCheck(key string) string { return "action-" + key }

const (
	colorAs    = "#3b6fd8"
	colorAfter = "#7a4cc2"
)

// RateView is a rate as the pages draw it: its figures and its bar.
type RateView struct {
	Label, Key, Count, Rate, CI string
	Bar                         BarView
}

// BarView is a rate's 95% interval drawn as a band on a 0-100% track.
type BarView struct {
	Width, Low, Span, Tick float64
	Color, Title           string
}

// Rate lays out counts c as a rate with its bar, width pixels wide; key
// names its data-check figures.
func Rate(label, key string, c grade.Counts, color string, width float64) RateView {
	return rate(label, key, c, color, width)
}

func rate(label, key string, c grade.Counts, color string, width float64) RateView {
	return RateView{Label: label, Key: key, Count: CountText(c), Rate: RateText(c), CI: CIText(c), Bar: bar(c, color, width)}
}

// bar draws a rate's interval as a band on a 0-100% track, with a tick at
// the rate.
func bar(c grade.Counts, color string, width float64) BarView {
	r2 := func(f float64) float64 { return math.Round(f*10) / 10 }
	lo, hi := c.WilsonLow*width, c.WilsonHigh*width
	tick := math.Min(math.Max(c.Rate*width-1, 0), width-2)
	title := fmt.Sprintf("%s passed, %s, 95%% CI %s", CountText(c), RateText(c), CIText(c))
	if c.Graded == 0 {
		tick = 0
		title = "nothing graded"
	}
	return BarView{Width: width, Low: r2(lo), Span: r2(math.Max(hi-lo, 1)), Tick: r2(tick), Color: color, Title: title}
}

// KV is one line of a provenance table.
type KV struct{ K, V string }

type tableRow struct {
	Name, Group string
	IsGroup     bool
	As, After   RateView
	Errors      int
	// ToolErrors counts the tool errors the cases did not expect.
	ToolErrors int
	Notes      string
	// PassK is a case's pass@k and pass^k, "100% · 30%", and PassKTitle
	// says so in words with its k; empty for a group or a case of one
	// attempt.
	PassK, PassKTitle string
}

type filterView struct{ Value, Label string }

// actionRowView is a line of the action table: a model or one of its
// kinds.
type actionRowView struct {
	Name             string
	IsKind           bool
	Scored           int
	PassCI, Excluded string
	Cells            []actionCellView
}

// actionCellView is one column's figure; Check names it for the ledger's
// check (the model's row of a one-model run only).
type actionCellView struct{ Text, Title, Check string }

// actionTable lays out the action columns of rep as the text report
// does: each model, then its kinds.
func actionTable(rep *actions.Report) []actionRowView {
	if !rep.HasAttempts() {
		return nil
	}
	row := func(r actions.Row, name string, isKind, check bool) actionRowView {
		pass := format.Column(r.Columns.Pass)
		v := actionRowView{Name: name, IsKind: isKind, Scored: r.Scored, PassCI: pass.CI(), Excluded: "0"}
		if len(r.Excluded) > 0 {
			v.Excluded = format.Kinds(r.Excluded)
		}
		for i, c := range r.Columns.List() {
			cv := actionCellView{Text: ActionText(c), Title: actions.ColumnNames[i] + ": " + format.Column(c).String()}
			if check {
				cv.Check = ActionCheck(actions.ColumnKeys[i])
			}
			v.Cells = append(v.Cells, cv)
		}
		return v
	}
	var rows []actionRowView
	for _, m := range rep.Models {
		rows = append(rows, row(m, m.Model, false, len(rep.Models) == 1))
		for _, k := range rep.Kinds {
			if k.Model == m.Model {
				rows = append(rows, row(k, k.Kind, true, false))
			}
		}
	}
	return rows
}

type reviewView struct {
	Verdict, Reviewer, When, Note, Why string
}

// CallView is one tool call as drawn: a model's call, or a fixture's
// setup, verify or teardown call.
type CallView struct {
	// Kind is "call", "setup", "verify" or "teardown".
	Kind                     string
	Name, Note, Args, Result string
	Shows, IsError           bool
	// MS is the call's duration; 0 when not recorded.
	MS int64
	// Long is set when the result is folded away (Size characters).
	Long bool
	Size int
	// Flag, when set, says which rule the call broke; the call is marked.
	Flag string
	// Overlaid is set when an output overlay rewrote the result: Result is
	// what the model was shown, Original what the server returned.
	Overlaid bool
	Original string
	// Notes are the progress and log notifications the server sent about
	// the call, a line each; Dropped counts those the record did not keep.
	Notes   []string
	Dropped int
	// Sampling and Elicitations are what the server asked while the call
	// ran: its sampling requests with the model's answers, and its
	// elicitation requests with the answers given.
	Sampling     []SamplingView
	Elicitations []ElicitationView
}

// SamplingView is a server's sampling request as drawn: its messages, the
// model that answered when it is not the model under test, and the answer
// or the error the request got.
type SamplingView struct {
	System string
	// Messages are the server's messages, "role: text" each.
	Messages  []string
	Model     string
	MaxTokens int64
	Answer    string
	// Tokens is the answer's usage in words; empty when none was reported.
	Tokens    string
	LatencyMS int64
	Error     string
}

// ElicitationView is a server's elicitation request as drawn, with the
// answer given: its action, the content an accepted answer submitted, and
// the note saying why the answer is what it is.
type ElicitationView struct {
	Message, Action, Content, Note string
}

// UserView is what the user said after a model turn's answer.
type UserView struct {
	Entry    int
	Text     string
	Approves bool
}

// TurnView is one model turn as drawn.
type TurnView struct {
	N              int
	Text, Thinking string
	// ToolsChanged says how the server's tools changed before the turn's
	// request (notifications/tools/list_changed); empty when they did not.
	ToolsChanged []string
	Tries        []string
	Calls        []CallView
	// Tokens is the turn's usage in words ("1,204 in, 88 out"); empty
	// when the provider reported none.
	Tokens    string
	LatencyMS int64
	// User is what the user said after the turn's answer; nil when
	// nothing.
	User *UserView
}

// FixtureView is an attempt's fixtures: setup before, verify and teardown
// after.
type FixtureView struct {
	Token                   string
	Setup, Verify, Teardown []CallView
	Problems                []string
}

// AttemptView is an attempt as drawn by the "transcript" template, with
// its grade and review.
type AttemptView struct {
	Case, Group     string
	N               int
	Outcome, Review string
	Open            bool
	Reasons         []grade.Reason
	ReviewNote      *reviewView
	Stale           []reviewView
	Prompt          string
	Turns           []TurnView
	Answer, End     string
	Error           string
	Fixture         *FixtureView
	// AnswerParts, when set, is the answer cut into text and marked
	// figures, drawn in place of Answer.
	AnswerParts []Part
}

// Part is a piece of a text; a marked one (Mark "ok" or "off") is
// highlighted, with Title saying why.
type Part struct {
	Text, Mark, Title string
}

// RunView is a run page's figures, as the "summary" template draws them.
type RunView struct {
	Title, Banner, Version, Model string
	Asset                         pageAsset
	Fake, Valid                   bool
	// Imported is set for a run of imported traffic (mcpeval import).
	Imported bool
	// Filters shows the static page's verdict and group filter buttons.
	Filters               bool
	Invalid               string
	Provenance            []KV
	AsGraded, AfterReview RateView
	Errors, Failures      int
	// ToolErrors counts the tool errors the cases did not expect, over
	// the run (grade.Counts.ToolErrors).
	ToolErrors             int
	GraderFalseFails       int
	ModelFailures          int
	ExpectationsInQuestion int
	Unreviewed, Stale      int
	VerdictFilters         []filterView
	GroupNames             []string
	Rows                   []tableRow
	ActionHead             []string
	Actions                []actionRowView
	Warnings               []string
	Attempts               []AttemptView
	// Paged is set for the page of a large run (SmallRun attempts or
	// more): Attempts are its failing and errored attempts, PerCase of
	// each case at most, and PagedCases count its passes per case. Recorded
	// is how many attempts the run recorded.
	Paged      bool
	Recorded   int
	PerCase    int
	PagedCases []PagedCase
	// Cost is what the run cost, as the "cost" template draws it.
	Cost CostView
	// Judged are the cases graded by a judge model, apart; nil when the
	// run has none.
	Judged *JudgedView
	// ResourceReads counts the model's reads of the server's resources;
	// nil when it read none.
	ResourceReads *grade.ResourceReads
	// Confusion is the run's tool confusion; nil when it has none.
	Confusion *ConfusionView
}

// CostView is a run's cost: per run, per attempt and per success, or
// that the model is unpriced or a fake, and the prices used.
type CostView struct {
	State, Run, PerAttempt, PerSuccess string
	Source, Note                       string
}

func costView(c *usage.Cost) CostView {
	v := CostView{State: c.State, Run: c.Run(), PerAttempt: c.PerAttempt(), PerSuccess: c.PerSuccess(), Note: c.Note}
	if t := c.Prices; t != nil {
		// Not the source's address: the page links nothing outside itself.
		v.Source = fmt.Sprintf("%s prices read %s (sha256 %.12s)", t.Provider, t.Read, t.SHA256)
	}
	return v
}

// Templates returns a copy of the pages' templates, the shared ones
// ("head", "foot", "bar", "rate", "cell", "summary", "call" and
// "transcript") included, for another page set to add its own to.
func Templates() *template.Template {
	// Parsed afresh: html/template cannot clone a set once it has run.
	return template.Must(template.New("").ParseFS(files, "*.tmpl"))
}

// Style is the pages' stylesheet.
func Style() string { return string(asset().Style) }

// Transcript lays out the recorded attempt a: prompt, fixtures, turns
// with their calls, answer, verify and teardown calls, and error.
func Transcript(a *record.Attempt) AttemptView {
	av := AttemptView{Case: a.Case, N: a.N}
	fillTranscript(&av, a)
	return av
}

// runViewFrom lays out the run page p with its attempts from src, paging
// a large run (SmallRun attempts or more).
func runViewFrom(p *RunPage, src *source) *RunView {
	h := &p.Run.Header
	res := p.Result
	rv := p.Reviewed
	if rv == nil {
		rv = review.Apply(res, nil)
	}
	v := &RunView{
		Title: "Run " + h.RunID, Banner: p.Banner, Version: footerVersion(p.Version), Asset: asset(), Filters: true,
		Model: res.Model, Fake: h.Model.Fake, Imported: h.Imported(), Valid: res.Valid, Invalid: res.Invalid, Warnings: res.Warnings,
		AsGraded:    rate("as graded", "as-graded", rv.AsGraded, colorAs, 260),
		AfterReview: rate("after review", "after-review", rv.AfterReview, colorAfter, 260),
		Errors:      rv.AsGraded.Errors, Failures: rv.Failures, ToolErrors: res.Totals.ToolErrors,
		GraderFalseFails: rv.GraderFalseFails, ModelFailures: rv.ModelFailures,
		ExpectationsInQuestion: rv.ExpectationsInQuestion, Unreviewed: rv.Unreviewed, Stale: rv.StaleReviews,
	}
	v.Provenance = provenance(p.Run, res, src.recorded)
	v.Cost = costView(src.cost)
	v.Judged = judgedView(res, p.Agreement)
	if res.Valid {
		v.ResourceReads = res.ResourceReads
		v.Confusion = NewConfusionView(res.Confusion, nil)
		v.Actions = actionTable(res.Actions)
		v.ActionHead = actions.ColumnNames
	}
	v.VerdictFilters = []filterView{{"all", "all"}, {"pass", "pass"}, {"fail", "fail"}, {"error", "error"}}
	for _, vd := range review.Verdicts {
		v.VerdictFilters = append(v.VerdictFilters, filterView{string(vd), vd.Label()})
	}
	v.VerdictFilters = append(v.VerdictFilters, filterView{"unreviewed", "not reviewed"})

	caseStats := map[string]grade.CaseStats{}
	for _, c := range res.Cases {
		caseStats[c.ID] = c
	}
	for i, g := range rv.Groups {
		v.GroupNames = append(v.GroupNames, g.Name)
		errs, toolErrs := 0, 0
		if i < len(res.Groups) {
			errs, toolErrs = res.Groups[i].Errors, res.Groups[i].ToolErrors
		}
		v.Rows = append(v.Rows, tableRow{Name: g.Name, Group: g.Name, IsGroup: true, Errors: errs, ToolErrors: toolErrs,
			As: rate("", "", g.AsGraded, colorAs, 120), After: rate("", "", g.AfterReview, colorAfter, 120)})
		for _, c := range rv.Cases {
			if c.Group != g.Name {
				continue
			}
			cs := caseStats[c.Name]
			if cs.Judged {
				continue // shown apart, under "judged"
			}
			notes := ""
			if cs.Inconsistent {
				notes = "inconsistent"
			}
			passK, passKTitle := "", ""
			if cs.K > 1 && cs.Graded > 0 {
				passK = format.Pct(cs.PassAtK) + " · " + format.Pct(cs.PassHatK)
				passKTitle = fmt.Sprintf("pass@%d %s: the chance that at least one of %d attempts passes; pass^%d %s: that all %d do", cs.K, format.Pct(cs.PassAtK), cs.K, cs.K, format.Pct(cs.PassHatK), cs.K)
			}
			v.Rows = append(v.Rows, tableRow{Name: c.Name, Group: g.Name, Errors: cs.Errors, ToolErrors: cs.ToolErrors, Notes: notes, PassK: passK, PassKTitle: passKTitle,
				As: rate("", "", c.AsGraded, colorAs, 120), After: rate("", "", c.AfterReview, colorAfter, 120)})
		}
	}

	groupOf := map[string]string{}
	for _, c := range res.Cases {
		groupOf[c.ID] = c.Group
	}
	attempts := src.attempts
	var pg *paging
	if src.recorded >= SmallRun {
		pg = page(res)
		v.Paged, v.Recorded, v.PerCase, v.PagedCases = true, src.recorded, ShownPerCase, pg.cases
	}
	for _, g := range res.Attempts {
		if pg != nil && !pg.shown[record.AttemptKey{Case: g.Case, N: g.N}] {
			continue
		}
		av := AttemptView{Case: g.Case, N: g.N, Group: groupOf[g.Case], Outcome: string(g.Outcome), Open: g.Outcome == grade.Fail}
		if g.Outcome != grade.Pass {
			av.Reasons = g.Reasons
		}
		if ra := rv.Attempt(g.Case, g.N); ra != nil {
			if r := ra.Review; r != nil {
				av.Review = string(r.Verdict)
				av.ReviewNote = &reviewView{Verdict: r.Verdict.Label(), Reviewer: r.Reviewer, Note: r.Note, When: day(r.Time)}
			}
			for _, e := range ra.Stale {
				av.Stale = append(av.Stale, reviewView{Verdict: e.Verdict.Label(), Reviewer: e.Reviewer, Note: e.Note, Why: e.Why})
			}
		}
		if a := attempts[record.AttemptKey{Case: g.Case, N: g.N}]; a != nil {
			fillTranscript(&av, a)
		}
		v.Attempts = append(v.Attempts, av)
	}
	return v
}

func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02")
}

func fillTranscript(av *AttemptView, a *record.Attempt) {
	av.Prompt, av.Answer, av.End = a.Prompt, a.Answer, a.End
	if a.Error != nil {
		av.Error = string(a.Error.Kind) + ": " + a.Error.Message
		if len(a.Error.Stderr) > 0 {
			av.Error += "\n\nserver stderr:\n" + strings.Join(a.Error.Stderr, "\n")
		}
	}
	if f := a.Fixture; f != nil {
		fv := &FixtureView{Token: f.Token, Problems: f.Problems}
		for _, c := range f.Setup {
			fv.Setup = append(fv.Setup, fixtureCall("setup", c))
		}
		for _, c := range f.Verify {
			fv.Verify = append(fv.Verify, fixtureCall("verify", c))
		}
		for _, c := range f.Teardown {
			fv.Teardown = append(fv.Teardown, fixtureCall("teardown", c))
		}
		av.Fixture = fv
	}
	for i, t := range a.Turns {
		tv := TurnView{N: i + 1, Text: t.Text, Thinking: t.Thinking, LatencyMS: t.LatencyMS, Tokens: tokens(t.Usage)}
		tv.ToolsChanged = toolsChanged(a.ToolChanges, i)
		if u := t.User; u != nil {
			tv.User = &UserView{Entry: u.Entry, Text: u.Text, Approves: u.Approves}
		}
		for _, tr := range t.Tries {
			s := tr.Error
			if tr.Status != 0 {
				s = fmt.Sprintf("%d %s", tr.Status, s)
			}
			tv.Tries = append(tv.Tries, s)
		}
		for _, c := range t.Calls {
			cv := fixtureCall("call", c)
			switch {
			case !c.Shown:
				cv.Note, cv.Shows = "a tool the model was not shown: not sent", false
			case c.NotSent:
				cv.Note, cv.Shows = "asserted, not sent", false
			case c.Rejected != "":
				cv.Note, cv.Result = "rejected by the server", c.Rejected
			}
			tv.Calls = append(tv.Calls, cv)
		}
		av.Turns = append(av.Turns, tv)
	}
}

// toolsChanged says, a line a change, how the server's tools changed
// before turn i's request.
func toolsChanged(changes []record.ToolChange, i int) []string {
	var out []string
	names := func(ts []record.Tool) string {
		var n []string
		for _, t := range ts {
			n = append(n, t.Name)
		}
		return strings.Join(n, ", ")
	}
	for _, c := range changes {
		if c.Turn != i {
			continue
		}
		var parts []string
		if len(c.Added) > 0 {
			parts = append(parts, "added "+names(c.Added))
		}
		if len(c.Removed) > 0 {
			parts = append(parts, "removed "+strings.Join(c.Removed, ", "))
		}
		if len(c.Changed) > 0 {
			parts = append(parts, "changed "+names(c.Changed))
		}
		out = append(out, strings.Join(parts, "; "))
	}
	return out
}

// foldAt is how long a result may be before it is folded away.
const foldAt = 1200

func fixtureCall(kind string, c record.Call) CallView {
	cv := CallView{Kind: kind, Name: c.Name, Args: format.IndentJSON(string(c.Args)), Result: format.IndentJSON(c.Result), IsError: c.IsError, Shows: true, MS: c.DurationMS}
	if c.Rejected != "" {
		cv.Note, cv.Result = "rejected by the server", c.Rejected
	}
	if c.Truncated {
		cv.Note = strings.TrimPrefix(cv.Note+"; result cut to the record's size cap", "; ")
	}
	if c.Overlaid {
		cv.Overlaid, cv.Original = true, format.IndentJSON(c.ServerResult)
	}
	cv.Size = len([]rune(cv.Result))
	cv.Long = cv.Size > foldAt
	for _, n := range c.Notes {
		cv.Notes = append(cv.Notes, n.Line())
	}
	cv.Dropped = c.NotesDropped
	for _, sm := range c.Sampling {
		cv.Sampling = append(cv.Sampling, samplingView(sm))
	}
	for _, e := range c.Elicitations {
		cv.Elicitations = append(cv.Elicitations, ElicitationView{Message: e.Message, Action: e.Action, Content: format.IndentJSON(string(e.Content)), Note: e.Note})
	}
	return cv
}

func samplingView(s record.Sampling) SamplingView {
	v := SamplingView{System: s.System, MaxTokens: s.MaxTokens, Answer: s.Turn.Text, Tokens: tokens(s.Turn.Usage), LatencyMS: s.Turn.LatencyMS, Error: s.Error}
	if s.Model != nil {
		v.Model = s.Model.Spec
		if v.Model == "" {
			v.Model = s.Model.Provider + ":" + s.Model.Name
		}
	}
	for _, m := range s.Messages {
		v.Messages = append(v.Messages, m.Role+": "+m.Text)
	}
	return v
}

// tokens writes a turn's usage: "1,204 in, 88 out"; empty for none.
func tokens(u model.Usage) string {
	if u.Input == 0 && u.Output == 0 {
		return ""
	}
	n := func(x int64) string { return format.Grouped(strconv.FormatInt(x, 10)) }
	s := n(u.Input) + " in, " + n(u.Output) + " out"
	if u.CacheRead > 0 {
		s += ", " + n(u.CacheRead) + " cached"
	}
	return s
}

func provenance(run *record.Run, res *grade.Result, recorded int) []KV {
	h := &run.Header
	short := func(s string) string {
		if len(s) > 12 {
			return s[:12]
		}
		if s == "" {
			return "—"
		}
		return s
	}
	var p []KV
	add := func(k, v string) { p = append(p, KV{k, v}) }
	add("run", h.RunID)
	if !h.Start.IsZero() {
		add("start", h.Start.UTC().Format(time.RFC3339))
	}
	model := res.Model
	if model == "" {
		model = h.Model.Spec
	}
	add("model", model)
	if len(h.Model.Options) > 0 {
		add("request options", options(h.Model.Options))
	}
	suiteLine := fmt.Sprintf("%s (%d cases, hash %s)", h.Suite.Name, h.Suite.Cases, short(h.Suite.Hash))
	switch {
	case h.Suite.Source == record.SourceGit && h.Suite.Commit != "":
		suiteLine += ", commit " + short(h.Suite.Commit)
		if h.Suite.Dirty {
			suiteLine += " (uncommitted changes)"
		}
	case h.Suite.Source == record.SourceEmbedded:
		suiteLine += ", built into the harness"
	}
	add("suite", suiteLine)
	target := h.Target.Spec
	if h.Target.Server.Name != "" {
		target += fmt.Sprintf(" (%s %s)", h.Target.Server.Name, h.Target.Server.Version)
	}
	add("target", target)
	tools := fmt.Sprintf("%d shown, hash %s", len(h.Tools), short(h.ToolsHash))
	if h.Target.ReadOnly {
		tools += ", read-only"
	}
	if h.Overlay != nil {
		tools += fmt.Sprintf(", overlay %s (%s)", h.Overlay.Path, short(h.Overlay.Hash))
		if ts := h.Overlay.OutputTools(); len(ts) > 0 {
			tools += ", results rewritten for " + strings.Join(ts, ", ")
		}
	}
	add("tools", tools)
	tool := h.Tool.Name + " " + h.Tool.Version
	if h.Tool.Commit != "" {
		tool += " at " + short(h.Tool.Commit)
	}
	if h.Tool.Dirty {
		tool += " (uncommitted changes)"
	}
	add("harness", tool)
	add("attempts", fmt.Sprintf("%d planned, %d recorded", len(h.Planned), recorded))
	if run.End == nil {
		add("end", "did not finish")
	} else if !run.End.Complete {
		add("end", "stopped early: "+run.End.Reason)
	}
	if h.Filter != "" {
		add("filter", h.Filter)
	}
	if h.Shard != nil {
		add("shard", fmt.Sprintf("%d of %d", h.Shard.K, h.Shard.N))
	}
	return p
}

// options writes request options as "k=v; k=v", sorted.
func options(m map[string]string) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, "; ")
}
