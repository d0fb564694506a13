package publish

import (
	"encoding/json"
	"errors"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// fakeRepo is a repository that has the commits it is told, with the
// uncommitted changes it is told.
type fakeRepo struct {
	missing bool
	err     error
	changes []string
}

func (r *fakeRepo) HasCommit(string) (bool, error) { return !r.missing, r.err }
func (r *fakeRepo) Changes() ([]string, error)     { return r.changes, r.err }

// env is a publishing setup in a temporary directory: a copy of the test
// run, a ledger and a site, and a clean repository.
type env struct {
	t    *testing.T
	dir  string
	rec  *record.Run
	opts Options
	repo *fakeRepo
}

// setup copies the test run (a real model's run, complete and valid,
// against testdata/suite.yaml) into a temporary directory.
func setup(t *testing.T, suitePath string) *env {
	t.Helper()
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	os.MkdirAll(runDir, 0o755)
	data, err := os.ReadFile("testdata/run/record.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(runDir, record.FileName), data, 0o644)
	rec, err := record.Read(runDir)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(suitePath)
	s, err := suite.Load(abs)
	if err != nil {
		t.Fatal(err)
	}
	rec.Header.Suite.Path, rec.Header.Suite.Hash = abs, s.Hash
	e := &env{t: t, dir: dir, rec: rec, repo: &fakeRepo{}}
	e.opts = Options{
		Ledger: filepath.Join(dir, "results.json"), Site: filepath.Join(dir, "site"),
		LoadSuite: suite.Load, Repo: e.repo, Getenv: func(string) string { return "" },
	}
	return e
}

// gitSuite makes the record say its suite came from a git checkout at
// commit, dirty or not.
func (e *env) gitSuite(commit string, dirty bool) {
	s := &e.rec.Header.Suite
	s.Source, s.Commit, s.Dirty = record.SourceGit, commit, dirty
}

// review records a verdict on a failed attempt of the run as it is now.
func (e *env) review(caseID string, n int, v review.Verdict, note string) {
	e.t.Helper()
	s, err := suite.Load(e.rec.Header.Suite.Path)
	if err != nil {
		e.t.Fatal(err)
	}
	res := grade.Run(s, e.rec)
	log, err := review.Load(e.rec)
	if err != nil {
		e.t.Fatal(err)
	}
	for i := range res.Attempts {
		g := &res.Attempts[i]
		if g.Case == caseID && g.N == n {
			err := log.Add(review.Review{Case: caseID, N: n, Fingerprint: log.Fingerprint(g), Verdict: v, Note: note, Reviewer: "ana", Time: time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC)})
			if err != nil {
				e.t.Fatal(err)
			}
			return
		}
	}
	e.t.Fatalf("no attempt %s #%d", caseID, n)
}

func (e *env) publish() *Outcome {
	e.t.Helper()
	out, err := Publish(e.rec, e.opts)
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// files returns every file under the directory, by path.
func files(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		}
		return nil
	})
	return out
}

// TestPublish folds a run with reviews into an empty ledger, checks the
// row, the pages and that the check agrees, then replaces the row.
func TestPublish(t *testing.T) {
	e := setup(t, "testdata/suite.yaml")
	e.review("single-tool/net-worth", 2, review.GraderFalseFail, "the figure is written out in words, and right")
	e.review("dates/net-worth-march-2026", 1, review.ModelFailure, "read April")
	out := e.publish()
	if len(out.Refusals) > 0 {
		t.Fatalf("refused: %v", out.Refusals)
	}
	l, err := ReadLedger(e.opts.Ledger)
	if err != nil || len(l.Rows) != 1 {
		t.Fatalf("ledger: %v, %+v", err, l)
	}
	r := l.Rows[0]
	if r.AsGraded.Passed != 5 || r.AsGraded.Graded != 10 || r.AfterReview.Passed != 6 || r.AsGraded.Errors != 2 {
		t.Errorf("rates: as graded %+v, after review %+v", r.AsGraded, r.AfterReview)
	}
	if r.Reviews != (Reviews{ModelFailure: 1, GraderFalseFail: 1, Unreviewed: 3}) {
		t.Errorf("reviews %+v", r.Reviews)
	}
	if r.Tool.Commit == "" || r.Target.ToolsHash == "" || r.Suite.Hash == "" || r.Model.Options["effort"] != "medium" || r.Date != "2026-10-01" {
		t.Errorf("provenance: %+v", r)
	}
	if r.Key() != "anthropic:claude-sonnet-5-5;effort=medium | builtin:household (household) | report-test" {
		t.Errorf("key %q", r.Key())
	}
	for _, f := range []string{"site/index.html", "site/" + r.Page} {
		if _, err := os.Stat(filepath.Join(e.dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if probs, err := Check(e.opts.Ledger, e.opts.Site); err != nil || len(probs) > 0 {
		t.Errorf("Check: %v %q", err, probs)
	}
	if strings.Contains(files(t, e.opts.Site)[filepath.Join(e.opts.Site, "index.html")], "data-banner") {
		t.Error("a real publication carries the dry-run banner")
	}

	// Publishing again is a duplicate, unless asked to replace.
	if out := e.publish(); len(out.Refusals) != 1 || out.Refusals[0].Rule != "duplicate-row" {
		t.Fatalf("publishing twice: %v", out.Refusals)
	}
	e.opts.Replace = true
	out = e.publish()
	if len(out.Refusals) > 0 || !out.Replaced {
		t.Fatalf("--replace: %v, replaced %v", out.Refusals, out.Replaced)
	}
	if l, _ := ReadLedger(e.opts.Ledger); len(l.Rows) != 1 {
		t.Errorf("after replacing, %d rows", len(l.Rows))
	}
}

// TestRules checks every rule, each with a run it refuses and a run like
// it that it lets through. A refused run writes nothing.
func TestRules(t *testing.T) {
	for _, tc := range []struct {
		rule   string
		refuse func(*env)
		pass   func(*env)
	}{
		{"fake-provider",
			func(e *env) { e.rec.Header.Model = fakeModel("fake:perfect") },
			func(e *env) {}},
		{"fake-provider",
			func(e *env) {
				e.rec.Header.Model.Spec, e.rec.Header.Model.Provider, e.rec.Header.Model.Name, e.rec.Header.Model.Options = "script:answers.yaml", "script", "answers.yaml", nil
			},
			func(e *env) { e.rec.Header.Model.Spec, e.rec.Header.Model.Options = "anthropic:claude-sonnet-5-5", nil }},
		{"filtered-run",
			func(e *env) { e.rec.Header.Filter = "cases: dates/" },
			func(e *env) { e.rec.Header.Filter = "" }},
		{"filtered-run",
			func(e *env) { e.rec.Header.Shard = &record.Shard{K: 1, N: 2} },
			func(e *env) { e.rec.Header.Shard = nil }},
		{"filtered-run",
			func(e *env) { e.rec.Header.Planned = e.rec.Header.Planned[:9] }, // no unanswerable/voo-price
			func(e *env) {}},
		{"dirty-tree", // a record made before the suite's provenance was recorded, naming no commit
			func(e *env) { e.rec.Header.Tool.Commit = "" },
			func(e *env) {}},
		{"dirty-tree", // the suite's own checkout decides, not mcpeval's build
			func(e *env) { e.gitSuite("0123abcd", true); e.rec.Header.Tool.Commit = "unknown" },
			func(e *env) {
				e.gitSuite("0123abcd", false)
				e.rec.Header.Tool.Commit, e.rec.Header.Tool.Dirty = "unknown", true
			}},
		{"dirty-tree",
			func(e *env) { e.gitSuite("0123abcd", false); e.repo.missing = true },
			func(e *env) { e.gitSuite("0123abcd", false) }},
		{"dirty-tree",
			func(e *env) { e.rec.Header.Suite.Source, e.rec.Header.Tool.Commit = record.SourceFiles, "" },
			func(e *env) { e.gitSuite("0123abcd", false); e.rec.Header.Tool.Commit = "" }},
		{"dirty-tree", // an embedded suite is pinned by mcpeval's revision, which the ledger's repository need not hold
			func(e *env) { e.rec.Header.Suite.Source, e.rec.Header.Tool.Commit = record.SourceEmbedded, "unknown" },
			func(e *env) { e.rec.Header.Suite.Source = record.SourceEmbedded; e.repo.missing = true }},
		{"dirty-tree", // or by a released module version, which stamps no revision
			func(e *env) {
				e.rec.Header.Suite.Source, e.rec.Header.Tool.Commit = record.SourceEmbedded, "unknown"
				e.rec.Header.Tool.Version = "v0.0.0-20261130102142-6a08e7ea6ff1+dirty"
			},
			func(e *env) {
				e.rec.Header.Suite.Source, e.rec.Header.Tool.Commit = record.SourceEmbedded, "unknown"
				e.rec.Header.Tool.Version = "v1.2.3"
			}},
		{"incomplete-provenance",
			func(e *env) { e.rec.Header.ToolsHash = "" },
			func(e *env) {}},
		{"incomplete-provenance",
			func(e *env) { e.rec.Header.Model.Options = map[string]string{"effort": "high"} },
			func(e *env) { e.rec.Header.Model.Spec, e.rec.Header.Model.Options = "anthropic:claude-sonnet-5-5", nil }},
		{"stale-corpus",
			func(e *env) { e.rec.Header.Suite.Hash = "0000" + e.rec.Header.Suite.Hash[4:] },
			func(e *env) {}},
		{"stale-corpus",
			func(e *env) { e.rec.Header.Suite.Path = filepath.Join(e.dir, "gone.yaml") },
			func(e *env) {}},
		{"incomplete-run",
			func(e *env) { e.rec.End = nil },
			func(e *env) {}},
		{"incomplete-run",
			func(e *env) { e.rec.End.Complete, e.rec.End.Reason = false, "budget" },
			func(e *env) {}},
		{"dirty-tree",
			func(e *env) { e.rec.Header.Tool.Dirty = true },
			func(e *env) {}},
		{"dirty-tree",
			func(e *env) { e.repo.missing = true },
			func(e *env) {}},
		{"dirty-tree",
			func(e *env) { e.repo.err = errors.New("/x is not in a git repository") },
			func(e *env) {}},
		{"dirty-tree",
			func(e *env) { e.repo.changes = []string{filepath.Join(e.dir, "grade", "run.go")} },
			func(e *env) { // the publisher's own outputs do not count
				e.repo.changes = []string{e.opts.Ledger, filepath.Join(e.opts.Site, "index.html")}
			}},
		{"invalid-run",
			func(e *env) {
				e.rec.Header.Preflight = record.Preflight{Valid: false, Checks: []record.PreflightCheck{{Tool: "get_net_worth", Problems: []string{"net_worth_sgd: want 2394755, got 2400000"}}}}
			},
			func(e *env) {}},
		{"unverified-cases",
			func(e *env) { e.opts.LoadSuite = unverifiedSuite },
			func(e *env) { e.opts.LoadSuite, e.opts.AllowUnverified = unverifiedSuite, true }},
		{"any-target",
			func(e *env) { e.rec.Header.Target.AllowAnyTarget = true },
			func(e *env) {}},
		{"duplicate-row",
			func(e *env) { e.publish() },
			func(e *env) { e.publish(); e.opts.Replace = true }},
		{RuleRedaction,
			func(e *env) { e.opts.Redact = &redact.Config{Identifiers: []string{"mcpeval"}} }, // the page's own footer names it
			func(e *env) { e.opts.Redact = &redact.Config{Identifiers: []string{"household"}} }},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			e := setup(t, "testdata/suite.yaml")
			tc.refuse(e)
			before := files(t, e.dir)
			out := e.publish()
			if len(out.Refusals) != 1 || out.Refusals[0].Rule != tc.rule {
				t.Errorf("refusals %v, want %s alone", out.Refusals, tc.rule)
			}
			if after := files(t, e.dir); len(after) != len(before) {
				t.Errorf("a refused run wrote %d files", len(after)-len(before))
			}

			e = setup(t, "testdata/suite.yaml")
			tc.pass(e)
			if out := e.publish(); len(out.Refusals) > 0 {
				t.Errorf("the passing run is refused: %v", out.Refusals)
			}
		})
	}
}

// unverifiedSuite loads the suite at p with its first case marked
// verified: false, as promote drafts one.
func unverifiedSuite(p string) (*suite.Suite, error) {
	s, err := suite.Load(p)
	if err == nil {
		no := false
		s.Cases[0].Verified = &no
	}
	return s, err
}

// TestUnverifiedRecorded: a run published with AllowUnverified says in
// its row how many cases no person had checked.
func TestUnverifiedRecorded(t *testing.T) {
	e := setup(t, "testdata/suite.yaml")
	e.opts.LoadSuite, e.opts.AllowUnverified = unverifiedSuite, true
	out := e.publish()
	if len(out.Refusals) > 0 || out.Row == nil || out.Row.Unverified != 1 {
		t.Fatalf("refusals %v, row %+v: want it published with unverified_cases 1", out.Refusals, out.Row)
	}
}

func fakeModel(spec string) (m struct {
	Spec     string            `json:"spec"`
	Provider string            `json:"provider"`
	Name     string            `json:"name"`
	Options  map[string]string `json:"options,omitempty"`
	Fake     bool              `json:"fake,omitempty"`
}) {
	m.Spec, m.Provider, m.Name, m.Fake = spec, "fake", strings.TrimPrefix(spec, "fake:"), true
	return m
}

// TestRulesAreNotAboutTheModel checks that a run every attempt of which
// fails is published like any other.
func TestRulesAreNotAboutTheModel(t *testing.T) {
	e := setup(t, "testdata/suite.yaml")
	for i := range e.rec.Attempts {
		a := &e.rec.Attempts[i]
		if a.End == record.EndAnswered {
			a.Answer = "I don't know."
		}
	}
	if out := e.publish(); len(out.Refusals) > 0 || out.Row.AsGraded.Passed > 2 {
		t.Errorf("refusals %v, row %+v", out.Refusals, out.Row.AsGraded)
	}
}

// TestDryRun checks that a dry run sets aside only fake-provider and
// dirty-tree, writes into the scratch folder with a banner on every page,
// and leaves the ledger alone.
func TestDryRun(t *testing.T) {
	e := setup(t, "testdata/suite.yaml")
	e.rec.Header.Model = fakeModel("fake:perfect")
	e.rec.Header.Tool.Dirty = true
	e.opts.DryRun = true
	out := e.publish()
	if len(out.Refusals) > 0 || len(out.SetAside) != 2 || out.SetAside[0].Rule != "fake-provider" || out.SetAside[1].Rule != "dirty-tree" {
		t.Fatalf("refusals %v, set aside %v", out.Refusals, out.SetAside)
	}
	if _, err := os.Stat(e.opts.Ledger); err == nil {
		t.Error("a dry run wrote the ledger")
	}
	written := files(t, e.opts.Site)
	if len(written) != 3 {
		t.Errorf("the scratch folder holds %d files, want the ledger and two pages", len(written))
	}
	for p, body := range written {
		if strings.HasSuffix(p, ".html") && !strings.Contains(body, "DRY RUN: not published") {
			t.Errorf("%s has no banner", p)
		}
	}
	scratch := filepath.Join(e.opts.Site, "results.json")
	if l, err := ReadLedger(scratch); err != nil || !l.DryRun || len(l.Rows) != 1 {
		t.Errorf("scratch ledger: %v %+v", err, l)
	}
	if probs, err := Check(scratch, e.opts.Site); err != nil || len(probs) > 0 {
		t.Errorf("Check of the dry run: %v %q", err, probs)
	}

	// The other rules still refuse.
	e = setup(t, "testdata/suite.yaml")
	e.rec.Header.Model = fakeModel("fake:perfect")
	e.rec.Header.Filter = "cases: dates/"
	e.opts.DryRun = true
	if out := e.publish(); len(out.Refusals) != 1 || out.Refusals[0].Rule != "filtered-run" || len(out.SetAside) != 1 {
		t.Errorf("a filtered dry run: refusals %v, set aside %v", out.Refusals, out.SetAside)
	}
}

// TestCheckFindsDisagreement edits a published page's figure, the
// ledger's counts and drops a run page, and checks each is caught.
func TestCheckFindsDisagreement(t *testing.T) {
	e := setup(t, "testdata/suite.yaml")
	e.publish()
	index := filepath.Join(e.opts.Site, "index.html")
	page, _ := os.ReadFile(index)
	os.WriteFile(index, []byte(strings.Replace(string(page), ">5/10<", ">6/10<", 1)), 0o644)
	probs, _ := Check(e.opts.Ledger, e.opts.Site)
	if len(probs) != 1 || !strings.Contains(probs[0], "as-graded-count: the page says 6/10, the ledger 5/10") {
		t.Errorf("an edited page: %q", probs)
	}
	os.WriteFile(index, page, 0o644)

	l, _ := ReadLedger(e.opts.Ledger)
	l.Rows[0].AfterReview.Passed = 9
	b, _ := l.Encode()
	os.WriteFile(e.opts.Ledger, b, 0o644)
	probs, _ = Check(e.opts.Ledger, e.opts.Site)
	if len(probs) < 2 {
		t.Errorf("an edited ledger: %q", probs)
	}

	l.Rows[0].AfterReview.Passed = 5
	l.Rows = append(l.Rows, l.Rows[0])
	l.Rows[1].Suite.Name = "other"
	b, _ = l.Encode()
	os.WriteFile(e.opts.Ledger, b, 0o644)
	probs, _ = Check(e.opts.Ledger, e.opts.Site)
	if len(probs) == 0 || !strings.Contains(strings.Join(probs, "\n"), "other|") && !strings.Contains(strings.Join(probs, "\n"), "| other") {
		t.Errorf("a row missing from the page: %q", probs)
	}
}

// TestPlantedSecretsNeverPublished plants secrets and identifiers in every
// place a run holds text (the header's target, prompts, tool arguments and
// results, answers, error messages and server stderr, preflight results,
// reviews) with a target whose bearer token comes from ${ENV}, publishes,
// and checks none of them reaches any file written.
func TestPlantedSecretsNeverPublished(t *testing.T) {
	const (
		token  = "tok-PLANTED-4f8a2b9c77"
		tenant = "tn-4242"
		host   = "mcp.agav.example"
		email  = "ops@family.example"
		pw     = "pw-PLANTED-1234"
		qtok   = "qtok-PLANTED-998877"
	)
	e := setup(t, "testdata/secret-suite.yaml")
	e.opts.Getenv = func(k string) string {
		if k == "MCPEVAL_TEST_TOKEN" {
			return token
		}
		return ""
	}
	e.opts.Redact = &redact.Config{Hostnames: []string{"agav.example"}, TenantIDs: []string{tenant}, Emails: []string{email}}
	h := &e.rec.Header
	h.Target.Spec = "https://" + host + "/t/" + tenant + "/mcp"
	h.Preflight.Checks = append(h.Preflight.Checks, record.PreflightCheck{Tool: "get_accounts", Result: json.RawMessage(`{"tenant":"` + tenant + `"}`)})
	for i := range e.rec.Attempts {
		a := &e.rec.Attempts[i]
		a.Prompt += " (tenant " + tenant + ")"
		for j := range a.Turns {
			for k := range a.Turns[j].Calls {
				c := &a.Turns[j].Calls[k]
				c.Args = json.RawMessage(`{"tenant":"` + tenant + `","owner":"` + email + `"}`)
				c.Result = `{"owner":"` + email + `","session":"Bearer ` + token + `","tenant":"` + tenant + `"}`
			}
		}
		if a.Error != nil {
			a.Error.Message = `Post "https://eval:` + pw + `@` + host + `/mcp?token=` + qtok + `": EOF`
			a.Error.Stderr = []string{"auth failed for " + tenant + " with " + token}
		}
		if a.Answer != "" {
			a.Answer += " Signed in as " + email + " with " + token + "."
		}
	}
	e.review("single-tool/net-worth", 2, review.GraderFalseFail, "fine for "+tenant+", asked by "+email)
	out := e.publish()
	if len(out.Refusals) > 0 {
		t.Fatalf("refused: %v", out.Refusals)
	}
	written := files(t, e.dir)
	delete(written, filepath.Join(e.dir, "run", record.FileName))
	delete(written, filepath.Join(e.dir, "run", review.FileName))
	if len(written) != 3 {
		t.Fatalf("wrote %d files: %v", len(written), out.Files)
	}
	for p, body := range written {
		for _, text := range []string{body, html.UnescapeString(body)} {
			low := strings.ToLower(text)
			for _, v := range []string{token, tenant, host, "agav.example", email, pw, qtok} {
				if strings.Contains(low, strings.ToLower(v)) {
					t.Errorf("%s holds %q", filepath.Base(p), v)
				}
			}
		}
	}
	if probs, err := Check(e.opts.Ledger, e.opts.Site); err != nil || len(probs) > 0 {
		t.Errorf("Check: %v %q", err, probs)
	}
	if out.Row.Target.Spec != "https://[redacted:endpoint]/t/[redacted:tenant]/mcp" {
		t.Errorf("the row's target is %q", out.Row.Target.Spec)
	}
	page := written[filepath.Join(e.opts.Site, out.Row.Page)]
	for _, label := range []string{"[redacted:tenant]", "[redacted:email]", "[redacted:secret]", "fine for [redacted:tenant]"} {
		if !strings.Contains(page, label) {
			t.Errorf("the run page does not show %s where a value was removed", label)
		}
	}
}
