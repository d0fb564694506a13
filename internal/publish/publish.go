package publish

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Options say where and how to publish. The zero value publishes into
// results.json, with the pages in results/ beside it.
type Options struct {
	// Ledger is the ledger file (default results.json).
	Ledger string
	// Site is where the pages go (default: results/ beside the ledger;
	// for a dry run, dist/).
	Site string
	// Replace lets the run replace a published row with the same key.
	Replace bool
	// AllowUnverified publishes a run whose suite holds cases marked
	// verified: false; the row records how many (Row.Unverified).
	AllowUnverified bool
	// DryRun sets aside the fake-provider and dirty-tree rules and writes
	// the ledger and the pages into Site only, with a banner on every page.
	DryRun bool
	// Redact lists the identifiers to remove (nil: none besides the
	// secrets the first pass finds).
	Redact *redact.Config
	// Getenv reads the environment (default os.Getenv), for the values of
	// the target's ${VAR} headers and of Redact.Env.
	Getenv func(string) string
	// LoadSuite loads the suite a record names, as it is now.
	LoadSuite func(path string) (*suite.Suite, error)
	// Repo is the repository the ledger is committed in (default: git, at
	// the ledger's directory).
	Repo Repo
	// Version is the version of the mcpeval publishing, for the pages'
	// footers (empty: "dev").
	Version string
}

// Outcome is what Publish did.
type Outcome struct {
	// Row is the row the run makes, redacted; nil when it could not be
	// made.
	Row *Row
	// Refusals are the rules that refused the run; when there are any,
	// nothing was written.
	Refusals []Refusal
	// SetAside are the refusals a dry run set aside.
	SetAside []Refusal
	// Replaced is true when the row replaced a published one.
	Replaced bool
	// Files are the files written.
	Files []string
	// DryRun is true for a dry run.
	DryRun bool
}

// Banner is shown on every page a dry run writes.
const Banner = "DRY RUN: not published. These pages rehearse how the run would be published; the fake-provider and dirty-tree rules were set aside."

// Publish folds the graded run rec into the ledger unless a rule refuses
// it, and writes the ledger page and the run's page. The run is graded
// anew against the suite its header names, as it is now, and its reviews
// (RUN/reviews.jsonl) applied. Everything written is redacted, then
// scanned: a copy that still holds a secret or a listed identifier is
// refused and nothing is written.
//
// It goes in named steps: load (suite, grades, reviews, the row, the
// ledger), check the rules, fold the row into the ledger, render the
// files, scan them for leaks, and write them.
func Publish(rec *record.Run, opts Options) (*Outcome, error) {
	if opts.LoadSuite == nil {
		return nil, errors.New("publish: no suite loader")
	}
	opts = opts.withDefaults()
	out := &Outcome{DryRun: opts.DryRun}
	p, err := load(rec, opts)
	if err != nil {
		return nil, err
	}
	out.Row = p.in.row
	out.Refusals, out.SetAside = checkRules(p.in, opts.DryRun)
	if len(out.Refusals) > 0 || p.in.row == nil {
		return out, nil
	}
	f := fold(p.in.ledger, *p.in.row, opts.DryRun)
	out.Replaced = f.replaced
	*out.Row = f.row
	files, err := p.render(f)
	if err != nil {
		return nil, err
	}
	if leaks := findLeaks(p.red, files); len(leaks) > 0 {
		out.Refusals = append(out.Refusals, Refusal{Rule: RuleRedaction,
			Message: "the copy to publish still holds what redaction must remove, in " + strings.Join(leaks, "; ") + ": nothing is written"})
		return out, nil
	}
	if out.Files, err = writeFiles(files); err != nil {
		return out, err
	}
	if f.orphan != "" && !opts.DryRun {
		os.Remove(filepath.Join(opts.Site, filepath.FromSlash(f.orphan)))
	}
	return out, nil
}

// withDefaults fills in what o leaves unset: the environment, the ledger
// file, the site beside it (dist/ for a dry run) and the git repository
// the ledger is in.
func (o Options) withDefaults() Options {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Ledger == "" {
		o.Ledger = "results.json"
	}
	if o.Site == "" {
		o.Site = filepath.Join(filepath.Dir(o.Ledger), "results")
		if o.DryRun {
			o.Site = "dist"
		}
	}
	if o.Repo == nil {
		o.Repo = Git{Dir: filepath.Dir(absPath(o.Ledger))}
	}
	return o
}

// publication is what the steps of Publish share.
type publication struct {
	opts Options
	rec  *record.Run
	// in is what the rules look at; in.row is the redacted row, nil when
	// the suite did not load.
	in  *input
	red *redact.Redactor
	// rv is the run's grades with its reviews applied.
	rv *review.Reviewed
}

// load loads what publishing rec needs: the suite its header names, the
// redactor with the target's secrets, the run graded and reviewed, the
// row it makes (redacted), and the ledger as it is.
func load(rec *record.Run, opts Options) (*publication, error) {
	p := &publication{opts: opts, rec: rec, in: &input{rec: rec, replace: opts.Replace, repo: opts.Repo, allowUnverified: opts.AllowUnverified}}
	in := p.in
	if sp, err := rec.Header.Suite.Locate(rec.Dir); err != nil {
		in.suiteErr = err
	} else {
		in.suite, in.suiteErr = opts.LoadSuite(sp)
	}
	if in.suiteErr != nil {
		in.suite = nil
	}
	var err error
	if p.red, err = redact.New(opts.Redact, opts.Getenv); err != nil {
		return nil, err
	}
	if in.suite != nil {
		t := in.suite.Target
		p.red.AddTarget(t.Spec, t.Headers, t.Env, opts.Getenv)
	}
	p.red.AddTarget(rec.Header.Target.Spec, nil, nil, opts.Getenv)
	src, err := openAttempts(rec)
	if err != nil {
		return nil, err
	}
	defer src.close()
	in.recorded = src.len()
	// Every attempt is scanned for known secrets, as it is graded: a run
	// read as a stream (record.Open) holds only its header in rec.
	scan := newSecretScan(environ())
	head := *rec
	head.Attempts = nil
	scan.add(&head)
	if in.suite == nil {
		if err := src.each(func(a *record.Attempt) { scan.add(a) }); err != nil {
			return nil, err
		}
	}
	if in.suite != nil {
		// Graded and priced attempt by attempt: a run read as a stream
		// (record.Open) is never held whole.
		g := grade.NewGrader(in.suite, rec)
		t := usage.NewTally(&rec.Header, nil)
		if err := src.each(func(a *record.Attempt) { g.Add(a); t.Add(a); scan.add(a) }); err != nil {
			return nil, err
		}
		in.res = g.Result()
		if err := p.applyJudge(); err != nil {
			return nil, err
		}
		if in.agreement, err = agreement.Read(rec.Dir); err != nil {
			return nil, err
		}
		failed, err := src.failures(in.res)
		if err != nil {
			return nil, err
		}
		log, err := review.Load(failed)
		if err != nil {
			return nil, err
		}
		p.rv = review.Apply(in.res, log)
		row := makeRowOf(rec, in.recorded, in.res, p.rv, t.Cost(in.res.Totals.Passed))
		row.Judged = rowJudged(in.res, in.agreement)
		if v, n := in.suite.VerifiedCases(); v < n {
			row.Unverified = n - v // published only with AllowUnverified
		}
		if err := p.red.Value(&row); err != nil {
			return nil, err
		}
		in.row = &row
	}
	in.secrets, in.secretErr = scan.names(), scan.err
	if in.ledger, err = ReadLedger(opts.Ledger); err != nil {
		return nil, err
	}
	in.outputs = []string{absPath(opts.Ledger), absPath(opts.Site)}
	return p, nil
}

// checkRules checks every rule in order; a dry run sets aside the rules
// marked for it.
func checkRules(in *input, dryRun bool) (refusals, setAside []Refusal) {
	for _, r := range Rules {
		if r.check == nil {
			continue
		}
		msg := r.check(in)
		if msg == "" {
			continue
		}
		ref := Refusal{Rule: r.Name, Message: msg}
		if dryRun && r.DryRun {
			setAside = append(setAside, ref)
		} else {
			refusals = append(refusals, ref)
		}
	}
	return refusals, setAside
}

// folded is the ledger with the run's row folded in.
type folded struct {
	ledger *Ledger
	// row is the run's row, with its page.
	row      Row
	replaced bool
	// orphan is the page of the row replaced, when it had another name.
	orphan string
	// banner is shown on every page (a dry run's).
	banner string
}

// fold folds row into a copy of the ledger: it replaces the row with the
// same key or is added. A dry run's ledger links no other row's page,
// since only this run's page is in its scratch folder.
func fold(l *Ledger, row Row, dryRun bool) folded {
	f := folded{ledger: &Ledger{Format: Format, DryRun: dryRun, Rows: append([]Row{}, l.Rows...)}}
	row.Page = pageName(row.RunID)
	if i := f.ledger.Find(row.Key()); i >= 0 {
		f.replaced = true
		if old := f.ledger.Rows[i].Page; old != "" && old != row.Page {
			f.orphan = old
		}
		f.ledger.Rows[i] = row
	} else {
		f.ledger.Rows = append(f.ledger.Rows, row)
	}
	f.row = row
	if dryRun {
		f.banner = Banner
		for i := range f.ledger.Rows {
			if f.ledger.Rows[i].Key() != row.Key() {
				f.ledger.Rows[i].Page = ""
			}
		}
	}
	return f
}

// render renders the copy to publish, every string redacted: the run's
// page, the ledger page and the ledger file (into the site for a dry
// run), by file name.
func (p *publication) render(f folded) (map[string][]byte, error) {
	pub := *p.rec
	pub.Attempts = append([]record.Attempt{}, p.rec.Attempts...)
	res := *p.in.res
	for _, v := range []any{&pub, &res, p.rv} {
		if err := p.red.Value(v); err != nil {
			return nil, err
		}
	}
	files := map[string][]byte{}
	var page bytes.Buffer
	rp := &htmlreport.RunPage{Run: &pub, Result: &res, Reviewed: p.rv, Banner: f.banner, Version: p.opts.Version}
	if len(p.rec.Attempts) == 0 && p.in.recorded > 0 {
		// A run read as a stream: the attempts the page shows are read
		// from the record, each redacted as it is.
		pub.Dir = p.rec.Dir
		redact := func(a *record.Attempt) error { return p.red.Value(a) }
		if err := htmlreport.RunRedacted(&page, rp, redact); err != nil {
			return nil, err
		}
	} else if err := htmlreport.Run(&page, rp); err != nil {
		return nil, err
	}
	files[filepath.Join(p.opts.Site, filepath.FromSlash(f.row.Page))] = page.Bytes()
	index, err := RenderLedger(f.ledger, p.opts.Version)
	if err != nil {
		return nil, err
	}
	files[filepath.Join(p.opts.Site, "index.html")] = index
	ledgerPath := p.opts.Ledger
	if p.opts.DryRun {
		ledgerPath = filepath.Join(p.opts.Site, filepath.Base(p.opts.Ledger))
	}
	if files[ledgerPath], err = f.ledger.Encode(); err != nil {
		return nil, err
	}
	return files, nil
}

// findLeaks scans every file for what redaction must remove, and says
// where: "FILE (finding, finding, ...)".
func findLeaks(red *redact.Redactor, files map[string][]byte) []string {
	var leaks []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		found := red.Find(files[name])
		if len(found) == 0 {
			continue
		}
		var where []string
		for _, f := range found {
			where = append(where, f.String())
		}
		leaks = append(leaks, fmt.Sprintf("%s (%s)", name, list(where, 3)))
	}
	return leaks
}

// writeFiles writes every file, in name order, and returns those written.
func writeFiles(files map[string][]byte) ([]string, error) {
	var written []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := writeFile(name, files[name]); err != nil {
			return written, err
		}
		written = append(written, name)
	}
	return written, nil
}

// RenderLedger renders the ledger's page, naming mcpeval version in its
// footer.
func RenderLedger(l *Ledger, version string) ([]byte, error) {
	p := &htmlreport.LedgerPage{Title: "Results", Version: version}
	if l.DryRun {
		p.Banner = Banner
	}
	rows := append([]Row{}, l.Rows...)
	sortRows(rows)
	for _, r := range rows {
		p.Rows = append(p.Rows, htmlreport.LedgerRow{
			Key: r.Key(), Model: r.Model.Spec, Options: options(r.Model.Options),
			Target: targetOnSurface(r), Server: strings.TrimSpace(r.Target.Server + " " + r.Target.ServerVersion), ToolsHash: format.Hash(r.Target.ToolsHash),
			Suite: r.Suite.Name, SuiteHash: format.Hash(r.Suite.Hash), Date: r.Date, RunID: r.RunID,
			Commit: format.Hash(r.Tool.Commit), ToolVersion: r.Tool.Version,
			AsGraded: r.AsGraded, AfterReview: r.AfterReview,
			GraderFalseFails: r.Reviews.GraderFalseFail, ModelFailures: r.Reviews.ModelFailure,
			ExpectationsInQuestion: r.Reviews.ExpectationInQuestion, Unreviewed: r.Reviews.Unreviewed,
			Actions: ledgerActions(r.Actions),
			Judged:  judgedText(r.Judged),
			Page:    r.Page,
		})
	}
	var b bytes.Buffer
	if err := htmlreport.Ledger(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ledgerActions are a row's action columns as the ledger page shows them.
func ledgerActions(a *Actions) []htmlreport.LedgerAction {
	if a == nil {
		return nil
	}
	var out []htmlreport.LedgerAction
	for _, c := range a.Columns {
		out = append(out, htmlreport.LedgerAction{Key: c.Column, Name: columnName(c.Column), Rate: c.AsRate()})
	}
	return out
}

// columnName is the heading of the action column with key k.
func columnName(k string) string {
	for i, key := range actions.ColumnKeys {
		if key == k {
			return actions.ColumnNames[i]
		}
	}
	return k
}

// makeRow makes the row the run publishes: what was measured, the two
// rates, the reviews, and the action columns of res.
func makeRow(rec *record.Run, res *grade.Result, rv *review.Reviewed) Row {
	return makeRowOf(rec, len(rec.Attempts), res, rv, usage.NewCost(rec, res.Totals.Passed, nil))
}

// makeRowOf is makeRow for a run that may be held without its attempts: it
// recorded recorded attempts, which cost cost.
func makeRowOf(rec *record.Run, recorded int, res *grade.Result, rv *review.Reviewed, cost *usage.Cost) Row {
	h := &rec.Header
	opts := map[string]string{}
	for k, v := range h.Model.Options {
		opts[k] = v
	}
	return Row{
		Model:  Model{Spec: h.Model.Spec, Provider: h.Model.Provider, Name: h.Model.Name, Options: opts},
		Target: Target{Spec: h.Target.Spec, Server: h.Target.Server.Name, ServerVersion: h.Target.Server.Version, ToolsHash: h.ToolsHash, Tools: len(h.Tools), ReadOnly: h.Target.ReadOnly},
		Suite:  Suite{Name: h.Suite.Name, Hash: h.Suite.Hash, Cases: h.Suite.Cases},
		Tool:   Tool{Name: h.Tool.Name, Version: h.Tool.Version, Commit: h.Tool.Commit},
		RunID:  h.RunID, Date: h.Start.UTC().Format("2006-01-02"), Attempts: recorded,
		AsGraded: rv.AsGraded, AfterReview: rv.AfterReview,
		Reviews: Reviews{ModelFailure: rv.ModelFailures, GraderFalseFail: rv.GraderFalseFails, ExpectationInQuestion: rv.ExpectationsInQuestion, Unreviewed: rv.Unreviewed},
		Actions: rowActions(res.Actions),
		Cost:    cost,
		Surface: surfaceOf(h),
	}
}

// surfaceOf names the surface run h measured; empty for a suite without
// surfaces.
func surfaceOf(h *record.Header) string {
	if h.Surface == nil {
		return ""
	}
	return h.Surface.Name
}

// targetOnSurface is the row's target as the ledger page shows it, with
// the surface the run measured.
func targetOnSurface(r Row) string {
	if r.Surface == "" {
		return r.Target.Spec
	}
	return r.Target.Spec + " (surface " + r.Surface + ")"
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// attempts is where publishing reads a run's attempts: the run itself when
// it holds them, else the record in its directory, read as a stream.
type attempts struct {
	rec *record.Run
	rd  *record.Reader // nil when rec holds its attempts
}

// openAttempts opens the attempts of rec: rec's own, or, when it holds none
// and its directory holds a record, that record's.
func openAttempts(rec *record.Run) (*attempts, error) {
	if len(rec.Attempts) > 0 || rec.Dir == "" {
		return &attempts{rec: rec}, nil
	}
	rd, err := record.Open(rec.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return &attempts{rec: rec}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the run to publish: %w", err)
	}
	return &attempts{rec: rec, rd: rd}, nil
}

func (s *attempts) len() int {
	if s.rd != nil {
		return s.rd.Len()
	}
	return len(s.rec.Attempts)
}

// each hands fn every attempt in the record's order.
func (s *attempts) each(fn func(*record.Attempt)) error {
	if s.rd == nil {
		for i := range s.rec.Attempts {
			fn(&s.rec.Attempts[i])
		}
		return nil
	}
	if err := s.rd.Each(func(a *record.Attempt) error { fn(a); return nil }); err != nil {
		return fmt.Errorf("reading the run to publish: %w", err)
	}
	return nil
}

// failures is the run with only the answers of the attempts res failed:
// what reviews are fingerprinted by.
func (s *attempts) failures(res *grade.Result) (*record.Run, error) {
	if s.rd == nil {
		return s.rec, nil
	}
	out, err := review.Failures(s.rd, res)
	if err != nil {
		return nil, fmt.Errorf("reading the run to publish: %w", err)
	}
	return out, nil
}

func (s *attempts) close() {
	if s.rd != nil {
		s.rd.Close()
	}
}
