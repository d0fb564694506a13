package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpeval/mcpeval/internal/buildinfo"
	"github.com/mcpeval/mcpeval/internal/publish"
	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const publishHelp = `
Usage: mcpeval publish RUN [--ledger results.json] [--site DIR] [--replace] [--dry-run]
                           [--redact FILE] [--redact-value VALUE]... [--json]
       mcpeval publish --check [--ledger results.json] [--site DIR] [--json]

Folds a graded run into the results ledger (a committed JSON file, one row
per model x target x suite, with the run's provenance, both rates with
their intervals and the review counts) and writes the ledger's page and
the run's page, each one self-contained HTML file. The run is graded anew
against the suite its header names, as it is at HEAD, and its reviews
applied.

A rule may refuse the run; each refusal is printed with its rule's name and
nothing is written. None of the rules is about how well the model did:

  fake-provider          a fake's figures prove the pipe, not a model
  filtered-run           part of the corpus would read as all of it
  incomplete-provenance  every row names tool version, target and its
                         tool-definition hash, model, request options, suite hash
  stale-corpus           the run was made against another suite than HEAD's
  incomplete-run         the run stopped early
  dirty-tree             a published figure must point at a commit of the suite
                         that exists: the suite's own checkout, clean, when the
                         run was made (for an embedded suite, mcpeval's revision)
  any-target             the run was made with --allow-any-target on a target
                         its suite's actions.allow_targets does not name
  unverified-cases       the suite holds cases drafted by promote that no person
                         has checked (verified: false); --allow-unverified
                         publishes anyway, and the row records how many
  invalid-run            the target's data drifted: nothing was graded
  unmeasured-judge       a rate a judge gave is published only beside the
                         judge's measured agreement with people
  duplicate-row          a published row is replaced only with --replace
  known-secret           the record holds a provider key or token of mcpeval's
                         environment, whatever its shape
  unredacted-identifier  the copy still holds a secret or a listed identifier

Everything published is redacted first: credentials (tokens, keys,
passwords, a URL's user info, the target's endpoint and its ${VAR} header
values) and the identifiers the operator lists in --redact FILE (default:
redact.yaml beside the ledger, when there is one) or --redact-value.

--dry-run sets aside only fake-provider and dirty-tree and writes the
ledger and pages into --site (default ROOT/dist, the output root below),
with a banner on every page;
the ledger itself is not touched. --check verifies offline that the ledger
and its pages agree.

With --json, what was done (or refused, and why) is printed as JSON.

Exit status 5 when a rule refuses the run or the check finds disagreement.

Examples:
  mcpeval publish RUN --dry-run
  mcpeval publish RUN --dry-run --json
  mcpeval publish RUN --ledger my-site/results.json
  mcpeval publish --check --ledger my-site/results.json --site my-site
`

// publishJSON is what publish --json prints.
type publishJSON struct {
	RunID     string            `json:"run_id"`
	Model     string            `json:"model"`
	Target    string            `json:"target"`
	Suite     string            `json:"suite"`
	Published bool              `json:"published"`
	DryRun    bool              `json:"dry_run"`
	Replaced  bool              `json:"replaced"`
	Refusals  []publish.Refusal `json:"refusals"`
	SetAside  []publish.Refusal `json:"set_aside"`
	Row       *publish.Row      `json:"row,omitempty"`
	Files     []string          `json:"files"`
}

func init() {
	register(&command{name: "publish", summary: "fold a graded run into the results ledger, unless a rule refuses it", run: publishCmd})
}

func publishCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "publish", publishHelp+outRootHelp)
	ledger := fs.String("ledger", "results.json", "the ledger `FILE`")
	site := fs.String("site", "", "where the pages go (default: results/ beside the ledger; dist/ for a dry run)")
	allowUnverified := fs.Bool("allow-unverified", false, "publish although the suite holds cases marked verified: false (the row records how many)")
	replace := fs.Bool("replace", false, "replace a published row with the same model, target and suite")
	dry := fs.Bool("dry-run", false, "rehearse: set aside fake-provider and dirty-tree, write into --site only, with a banner")
	check := fs.Bool("check", false, "verify offline that the ledger and its pages agree")
	redactFile := fs.String("redact", "", "the operator's redaction list `FILE` (default: redact.yaml beside the ledger)")
	var values stringList
	fs.Var(&values, "redact-value", "an identifier to redact wherever it appears (`VALUE`); repeatable")
	asJSON := fs.Bool("json", false, "print what was published, or refused and why, as JSON on stdout")
	outRootFlag := fs.String("out-root", "", outRootUsage)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *outRootFlag != "" && (!*dry || *site != "") {
		return usagef("--out-root places a dry run's pages (ROOT/dist): it goes with --dry-run, and not with --site, which names their folder itself")
	}
	if *check {
		if len(pos) > 0 || *replace || *dry || *redactFile != "" || len(values) > 0 {
			return usagef("--check takes only --ledger, --site and --json (see mcpeval help publish)")
		}
		return publishCheck(e, *ledger, *site, *asJSON)
	}
	if len(pos) != 1 {
		return usagef("want one RUN directory (see mcpeval help publish)")
	}
	cfg, err := publish.Redaction(*redactFile, *ledger, values...)
	if err != nil {
		return badInput(err)
	}
	// The run is read as a stream: Publish grades and prices it from its
	// record and reads back only the attempts its page shows.
	rd, err := openRun(pos[0])
	if err != nil {
		return err
	}
	rec := rd.Run()
	rd.Close()
	if *dry && *site == "" {
		if *site, err = dryRunSite(e, *outRootFlag, rec); err != nil {
			return err
		}
	}
	out, err := publish.Publish(rec, publish.Options{
		Ledger: *ledger, Site: *site, Replace: *replace, DryRun: *dry, Redact: cfg, Getenv: e.getenv, AllowUnverified: *allowUnverified,
		Version: buildinfo.Get().Version,
		LoadSuite: func(p string) (*suite.Suite, error) {
			s, err := loadSuite(p)
			var ex *exitError
			if errors.As(err, &ex) {
				return nil, errors.New(ex.msg)
			}
			return s, err
		},
	})
	if err != nil {
		return err
	}
	h := &rec.Header
	if *asJSON {
		j := publishJSON{RunID: h.RunID, Model: h.Model.Spec, Target: h.Target.Spec, Suite: h.Suite.Name,
			Published: len(out.Refusals) == 0 && !out.DryRun, DryRun: out.DryRun, Replaced: out.Replaced,
			Refusals: append([]publish.Refusal{}, out.Refusals...), SetAside: append([]publish.Refusal{}, out.SetAside...),
			Row: out.Row, Files: append([]string{}, out.Files...)}
		if len(out.Refusals) > 0 {
			j.Row, j.Files = nil, []string{}
		}
		if err := printJSON(e.stdout, j); err != nil {
			return err
		}
		if len(out.Refusals) > 0 {
			return exitf(exitGate, "nothing published: %d refusal%s (see mcpeval help publish)", len(out.Refusals), format.S(len(out.Refusals)))
		}
		return nil
	}
	fmt.Fprintf(e.stdout, "run %s: %s on %s with suite %s\n", termsafe.Line(h.RunID), termsafe.Line(h.Model.Spec), termsafe.Line(h.Target.Spec), termsafe.Line(h.Suite.Name))
	for _, r := range out.SetAside {
		fmt.Fprintf(e.stdout, "set aside by --dry-run: %s: %s\n", r.Rule, termsafe.Line(r.Message))
	}
	for _, r := range out.Refusals {
		fmt.Fprintf(e.stdout, "refused by %s: %s\n", r.Rule, termsafe.Line(r.Message))
	}
	if len(out.Refusals) > 0 {
		return exitf(exitGate, "nothing published: %d refusal%s (see mcpeval help publish)", len(out.Refusals), format.S(len(out.Refusals)))
	}
	r := out.Row
	fmt.Fprintf(e.stdout, "row %s\n  as graded     %s\n  after review  %s\n  reviews       %d grader false fail, %d model failure, %d expectation in question, %d not reviewed\n",
		termsafe.Line(r.Key()),
		report.RateLine(r.AsGraded), report.RateLine(r.AfterReview),
		r.Reviews.GraderFalseFail, r.Reviews.ModelFailure, r.Reviews.ExpectationInQuestion, r.Reviews.Unreviewed)
	verb := "published"
	switch {
	case out.DryRun:
		verb = "dry run, not published"
	case out.Replaced:
		verb = "published, replacing the earlier row"
	}
	fmt.Fprintf(e.stdout, "%s: wrote %s\n", verb, strings.Join(out.Files, ", "))
	return nil
}

// dryRunSite is where a dry run's pages go when --site is not given:
// ROOT/dist, beside the run's suite's folder when the current folder is in
// it, which it says.
func dryRunSite(e *env, flagged string, rec *record.Run) (string, error) {
	suitePath, err := rec.Header.Suite.Locate(rec.Dir)
	if err != nil {
		suitePath = "" // the suite moved: the current folder alone decides
	}
	root, beside, err := outRoot(e, flagged, suitePath)
	if err != nil {
		return "", err
	}
	site := filepath.Join(root, rundir.Site)
	if beside != "" {
		fmt.Fprint(e.stderr, besideNote("publish", beside, site))
	}
	return site, nil
}

func publishCheck(e *env, ledger, site string, asJSON bool) error {
	if site == "" {
		site = filepath.Join(filepath.Dir(ledger), "results")
	}
	probs, err := publish.Check(ledger, site)
	if err != nil {
		return badInput(err)
	}
	if asJSON {
		if err := printJSON(e.stdout, struct {
			Ledger   string   `json:"ledger"`
			Site     string   `json:"site"`
			Agree    bool     `json:"agree"`
			Problems []string `json:"problems"`
		}{ledger, site, len(probs) == 0, append([]string{}, probs...)}); err != nil {
			return err
		}
		if len(probs) > 0 {
			return exitf(exitGate, "%s and %s disagree: %d problem%s", ledger, site, len(probs), format.S(len(probs)))
		}
		return nil
	}
	for _, p := range probs {
		fmt.Fprintf(e.stdout, "%s\n", termsafe.Line(p))
	}
	if len(probs) > 0 {
		return exitf(exitGate, "%s and %s disagree: %d problem%s", ledger, site, len(probs), format.S(len(probs)))
	}
	fmt.Fprintf(e.stdout, "%s and the pages in %s agree\n", ledger, site)
	return nil
}
