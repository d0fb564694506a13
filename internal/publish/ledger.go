package publish

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpeval/mcpeval/internal/usage"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/report/format"
)

// Format names the ledger format.
const Format = "mcpeval-results/1"

// Ledger is the results ledger: every published row.
type Ledger struct {
	Format string `json:"format"`
	// DryRun marks a scratch ledger a dry run wrote: nothing in it is
	// published.
	DryRun bool  `json:"dry_run,omitempty"`
	Rows   []Row `json:"rows"`
}

// Row is one published measurement: a model on a target with a suite.
type Row struct {
	Model  Model  `json:"model"`
	Target Target `json:"target"`
	Suite  Suite  `json:"suite"`
	// Surface names the surface of the suite the run measured, when the
	// suite declares surfaces: rows of one model on two surfaces are two
	// rows.
	Surface string `json:"surface,omitempty"`
	// Tool is the mcpeval that made the run.
	Tool Tool `json:"tool"`
	// RunID is the run the row was folded from.
	RunID string `json:"run_id"`
	// Date is the day the run started, UTC (2006-01-02).
	Date string `json:"date"`
	// Attempts counts the attempts recorded.
	Attempts int `json:"attempts"`
	// AsGraded and AfterReview are the two rates, each with its counts and
	// 95% Wilson interval. After review only grader false fails count as
	// passes.
	AsGraded    grade.Counts `json:"as_graded"`
	AfterReview grade.Counts `json:"after_review"`
	Reviews     Reviews      `json:"reviews"`
	// Actions are the action columns of the run's action cases, as
	// graded; absent when its suite has none, and in rows published
	// before rows carried them.
	Actions *Actions `json:"actions,omitempty"`
	// Cost is what the run cost, per run, per attempt and per success (as
	// graded), or that its model is unpriced or a fake; absent in rows
	// published before rows carried it.
	Cost *usage.Cost `json:"cost,omitempty"`
	// Judged are the cases graded by a judge model, apart from AsGraded,
	// with each judge's measured kappa; absent when the run has none.
	Judged *Judged `json:"judged,omitempty"`
	// Unverified counts the suite's cases marked verified: false, a
	// tool's drafts no person had checked, when the row was published
	// with --allow-unverified; absent otherwise.
	Unverified int `json:"unverified_cases,omitempty"`
	// Page is the run's page, relative to the ledger page.
	Page string `json:"page,omitempty"`
}

// Model is the model under test.
type Model struct {
	Spec     string `json:"spec"`
	Provider string `json:"provider"`
	Name     string `json:"name"`
	// Options are the request options set in the spec; none means the
	// provider's defaults of the recorded tool version.
	Options map[string]string `json:"options"`
}

// Target is the MCP server measured.
type Target struct {
	Spec          string `json:"spec"`
	Server        string `json:"server,omitempty"`
	ServerVersion string `json:"server_version,omitempty"`
	// ToolsHash is the hash of the tool definitions the model was shown.
	ToolsHash string `json:"tools_hash"`
	Tools     int    `json:"tools"`
	ReadOnly  bool   `json:"read_only"`
}

// Suite is the corpus.
type Suite struct {
	Name  string `json:"name"`
	Hash  string `json:"hash"`
	Cases int    `json:"cases"`
}

// Tool is the harness build.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Commit  string `json:"commit"`
}

// Actions are a row's action columns over every action case of the run.
type Actions struct {
	// Scored counts the attempts in the columns; Excluded those ended by
	// an error that was none of the model's doing, which count in none.
	Scored   int `json:"scored"`
	Excluded int `json:"excluded"`
	// Columns are the columns in report order: Pass, Reached, First time,
	// Arguments, Confirmation, Clean, Declined, Completion.
	Columns []ActionColumn `json:"columns"`
}

// ActionColumn is one action column: scored of counted, with the rate and
// its 95% Wilson interval ([0, 1] when nothing was counted).
type ActionColumn struct {
	// Column is the column's key: pass, reached, first_time, arguments,
	// confirmation, clean, declined or completion.
	Column     string  `json:"column"`
	Num        int     `json:"num"`
	Den        int     `json:"den"`
	Rate       float64 `json:"rate"`
	WilsonLow  float64 `json:"wilson_low"`
	WilsonHigh float64 `json:"wilson_high"`
}

// AsRate is the column as a rate, with the rate and interval the ledger
// holds.
func (c ActionColumn) AsRate() format.Rate {
	return format.Rate{Num: c.Num, Den: c.Den, Value: c.Rate, Low: c.WilsonLow, High: c.WilsonHigh}
}

// rowActions are the action columns of rep over all its models, nil when
// it has none.
func rowActions(rep *actions.Report) *Actions {
	if rep == nil || len(rep.Models) == 0 {
		return nil
	}
	a := &Actions{}
	var cols actions.Columns
	for _, m := range rep.Models {
		a.Scored += m.Scored
		for _, n := range m.Excluded {
			a.Excluded += n
		}
		cols.Add(m.Columns)
	}
	for i, c := range cols.List() {
		r := format.Column(c)
		a.Columns = append(a.Columns, ActionColumn{Column: actions.ColumnKeys[i], Num: c.Num, Den: c.Den, Rate: r.Value, WilsonLow: r.Low, WilsonHigh: r.High})
	}
	return a
}

// Reviews counts the failures by verdict, and those not reviewed.
type Reviews struct {
	ModelFailure          int `json:"model_failure"`
	GraderFalseFail       int `json:"grader_false_fail"`
	ExpectationInQuestion int `json:"expectation_in_question"`
	Unreviewed            int `json:"unreviewed"`
}

// Key identifies a row: model (with its options) x target x suite. The
// target is its recorded spec and the name its server gives itself, since
// records hide an HTTP target's endpoint.
func (r *Row) Key() string {
	target := r.Target.Spec
	if r.Target.Server != "" {
		target += " (" + r.Target.Server + ")"
	}
	if r.Surface != "" {
		target += " on surface " + r.Surface
	}
	return r.Model.Spec + " | " + target + " | " + r.Suite.Name
}

// Find returns the index of the row with key k, or -1.
func (l *Ledger) Find(k string) int {
	for i := range l.Rows {
		if l.Rows[i].Key() == k {
			return i
		}
	}
	return -1
}

// ReadLedger reads a ledger; a missing file is an empty ledger.
func ReadLedger(path string) (*Ledger, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Ledger{Format: Format, Rows: []Row{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading ledger: %w", err)
	}
	var l Ledger
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("%s: not a results ledger: %v", path, err)
	}
	if l.Format != Format {
		return nil, fmt.Errorf("%s: ledger format %q: this mcpeval reads %q", path, l.Format, Format)
	}
	if l.Rows == nil {
		l.Rows = []Row{}
	}
	return &l, nil
}

// Encode writes the ledger as indented JSON, rows sorted by key.
func (l *Ledger) Encode() ([]byte, error) {
	c := *l
	c.Format = Format
	c.Rows = append([]Row{}, l.Rows...)
	sort.SliceStable(c.Rows, func(i, j int) bool { return c.Rows[i].Key() < c.Rows[j].Key() })
	b, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding ledger: %w", err)
	}
	return append(b, '\n'), nil
}

// writeFile writes data through a temporary file in the same directory.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// pageName is the run page's file name: the run id made safe for a path.
func pageName(runID string) string {
	var b strings.Builder
	for _, r := range runID {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), ".")
	if s == "" {
		s = "run"
	}
	return "runs/" + s + ".html"
}
