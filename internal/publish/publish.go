package publish

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/internal/review"
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
func Publish(rec *record.Run, opts Options) (*Outcome, error) {
	if opts.LoadSuite == nil {
		return nil, errors.New("publish: no suite loader")
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Ledger == "" {
		opts.Ledger = "results.json"
	}
	if opts.Site == "" {
		opts.Site = filepath.Join(filepath.Dir(opts.Ledger), "results")
		if opts.DryRun {
			opts.Site = "dist"
		}
	}
	if opts.Repo == nil {
		opts.Repo = Git{Dir: filepath.Dir(absPath(opts.Ledger))}
	}
	out := &Outcome{DryRun: opts.DryRun}

	in := &input{rec: rec, replace: opts.Replace, repo: opts.Repo}
	in.suite, in.suiteErr = opts.LoadSuite(rec.Header.Suite.Path)
	if in.suiteErr != nil {
		in.suite = nil
	}
	red, err := redact.New(opts.Redact, opts.Getenv)
	if err != nil {
		return nil, err
	}
	if in.suite != nil {
		t := in.suite.Target
		red.AddTarget(t.Spec, t.Headers, t.Env, opts.Getenv)
	}
	red.AddTarget(rec.Header.Target.Spec, nil, nil, opts.Getenv)

	var rv *review.Reviewed
	if in.suite != nil {
		in.res = grade.Run(in.suite, rec)
		log, err := review.Load(rec)
		if err != nil {
			return nil, err
		}
		rv = review.Apply(in.res, log)
		row := makeRow(rec, rv)
		if err := red.Value(&row); err != nil {
			return nil, err
		}
		in.row = &row
		out.Row = &row
	}
	if in.ledger, err = ReadLedger(opts.Ledger); err != nil {
		return nil, err
	}
	in.outputs = []string{absPath(opts.Ledger), absPath(opts.Site)}

	for _, r := range Rules {
		if r.check == nil {
			continue
		}
		msg := r.check(in)
		if msg == "" {
			continue
		}
		ref := Refusal{Rule: r.Name, Message: msg}
		if opts.DryRun && r.DryRun {
			out.SetAside = append(out.SetAside, ref)
		} else {
			out.Refusals = append(out.Refusals, ref)
		}
	}
	if len(out.Refusals) > 0 || in.row == nil {
		return out, nil
	}

	// The copy to publish: the ledger with the row folded in, its page
	// and the run's page, every string redacted.
	ledger := &Ledger{Format: Format, DryRun: opts.DryRun, Rows: append([]Row{}, in.ledger.Rows...)}
	row := *in.row
	row.Page = pageName(row.RunID)
	var orphan string
	if i := ledger.Find(row.Key()); i >= 0 {
		out.Replaced = true
		if old := ledger.Rows[i].Page; old != "" && old != row.Page {
			orphan = old
		}
		ledger.Rows[i] = row
	} else {
		ledger.Rows = append(ledger.Rows, row)
	}
	*out.Row = row
	banner := ""
	if opts.DryRun {
		banner = Banner
		for i := range ledger.Rows { // only this run's page is in the scratch folder
			if ledger.Rows[i].Key() != row.Key() {
				ledger.Rows[i].Page = ""
			}
		}
	}

	pub := *rec
	pub.Attempts = append([]record.Attempt{}, rec.Attempts...)
	res := *in.res
	if err := red.Value(&pub); err != nil {
		return nil, err
	}
	if err := red.Value(&res); err != nil {
		return nil, err
	}
	if err := red.Value(rv); err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	var page bytes.Buffer
	if err := htmlreport.Run(&page, &htmlreport.RunPage{Run: &pub, Result: &res, Reviewed: rv, Banner: banner}); err != nil {
		return nil, err
	}
	files[filepath.Join(opts.Site, filepath.FromSlash(row.Page))] = page.Bytes()
	index, err := RenderLedger(ledger)
	if err != nil {
		return nil, err
	}
	files[filepath.Join(opts.Site, "index.html")] = index
	ledgerPath := opts.Ledger
	if opts.DryRun {
		ledgerPath = filepath.Join(opts.Site, filepath.Base(opts.Ledger))
	}
	if files[ledgerPath], err = ledger.Encode(); err != nil {
		return nil, err
	}

	var leaks []string
	for _, name := range sortedKeys(files) {
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
	if len(leaks) > 0 {
		out.Refusals = append(out.Refusals, Refusal{Rule: RuleRedaction,
			Message: "the copy to publish still holds what redaction must remove, in " + strings.Join(leaks, "; ") + ": nothing is written"})
		return out, nil
	}
	for _, name := range sortedKeys(files) {
		if err := writeFile(name, files[name]); err != nil {
			return out, err
		}
		out.Files = append(out.Files, name)
	}
	if orphan != "" && !opts.DryRun {
		os.Remove(filepath.Join(opts.Site, filepath.FromSlash(orphan)))
	}
	return out, nil
}

// RenderLedger renders the ledger's page.
func RenderLedger(l *Ledger) ([]byte, error) {
	p := &htmlreport.LedgerPage{Title: "Results"}
	if l.DryRun {
		p.Banner = Banner
	}
	rows := append([]Row{}, l.Rows...)
	sortRows(rows)
	for _, r := range rows {
		p.Rows = append(p.Rows, htmlreport.LedgerRow{
			Key: r.Key(), Model: r.Model.Spec, Options: options(r.Model.Options),
			Target: r.Target.Spec, Server: strings.TrimSpace(r.Target.Server + " " + r.Target.ServerVersion), ToolsHash: short(r.Target.ToolsHash),
			Suite: r.Suite.Name, SuiteHash: short(r.Suite.Hash), Date: r.Date, RunID: r.RunID,
			Commit: short(r.Tool.Commit), ToolVersion: r.Tool.Version,
			AsGraded: r.AsGraded, AfterReview: r.AfterReview,
			GraderFalseFails: r.Reviews.GraderFalseFail, ModelFailures: r.Reviews.ModelFailure,
			ExpectationsInQuestion: r.Reviews.ExpectationInQuestion, Unreviewed: r.Reviews.Unreviewed,
			Page: r.Page,
		})
	}
	var b bytes.Buffer
	if err := htmlreport.Ledger(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func makeRow(rec *record.Run, rv *review.Reviewed) Row {
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
		RunID:  h.RunID, Date: h.Start.UTC().Format("2006-01-02"), Attempts: len(rec.Attempts),
		AsGraded: rv.AsGraded, AfterReview: rv.AfterReview,
		Reviews: Reviews{ModelFailure: rv.ModelFailures, GraderFalseFail: rv.GraderFalseFails, ExpectationInQuestion: rv.ExpectationsInQuestion, Unreviewed: rv.Unreviewed},
	}
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
