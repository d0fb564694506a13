package publish

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Rule is one reason a run may not be published.
type Rule struct {
	// Name is the rule's name, printed with every refusal.
	Name string
	// Why says what the rule protects.
	Why string
	// DryRun is true for the rules a dry run sets aside.
	DryRun bool
	check  func(*input) string
}

// Refusal is a rule refusing a run.
type Refusal struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

func (r Refusal) String() string { return r.Rule + ": " + r.Message }

// input is what the rules look at.
type input struct {
	rec *record.Run
	// recorded is how many attempts the record holds (rec may be held
	// without them).
	recorded int
	// secrets name the secret-named variables of mcpeval's environment
	// whose value the record holds, in its header or any attempt;
	// secretErr is why the record could not be scanned.
	secrets   []string
	secretErr error
	suite     *suite.Suite // the suite the header names, as it is now; nil if it failed to load
	suiteErr  error
	res       *grade.Result
	row       *Row
	// agreement is the judge's measured agreement (RUN/agreement.json);
	// nil when none was saved.
	agreement *agreement.Saved
	ledger    *Ledger
	replace   bool
	// allowUnverified publishes a suite holding cases marked verified:
	// false (publish --allow-unverified); the row records it.
	allowUnverified bool
	repo            Repo
	// outputs are the files publishing writes (the ledger, the site):
	// their own uncommitted changes do not make the tree dirty.
	outputs []string
}

// Rules are the publication rules, in the order they are checked. The
// last one, unredacted-identifier, is checked on the copy about to be
// written, after the others pass.
var Rules = []Rule{
	{Name: "fake-provider", DryRun: true, Why: "a fake's figures prove the pipe, not a model", check: fakeProvider},
	{Name: "filtered-run", Why: "a run over part of the corpus would read as a run over all of it", check: filteredRun},
	{Name: "incomplete-provenance", Why: "every row names the tool version, target and its tool-definition hash, model, request options and suite hash", check: incompleteProvenance},
	{Name: "stale-corpus", Why: "a run made against another suite than the one at HEAD is not scored against a key it was not asked", check: staleCorpus},
	{Name: "incomplete-run", Why: "a run that stopped early would publish the cases it happened to reach", check: incompleteRun},
	{Name: "dirty-tree", DryRun: true, Why: "a published figure must point at a commit of the suite that exists", check: dirtyTree},
	{Name: "any-target", Why: "a run told to act on a target its suite's actions.allow_targets does not name (run --allow-any-target) measured a server the suite was not written for", check: anyTarget},
	{Name: "unverified-cases", Why: "a case a tool drafted (verified: false) holds what one model did, not what is right, until a person has checked it", check: unverifiedCases},
	{Name: "invalid-run", Why: "the target's data drifted: nothing was graded", check: invalidRun},
	{Name: "unmeasured-judge", Why: "a rate a judge model gave is published only beside the judge's measured agreement with people", check: unmeasuredJudge},
	{Name: "duplicate-row", Why: "a row already published is replaced only when asked to (--replace)", check: duplicateRow},
	{Name: "known-secret", Why: "a secret mcpeval holds (a provider key, a CI token) is never published, whatever its shape", check: knownSecret},
	{Name: RuleRedaction, Why: "a published copy never holds a token, a password, an endpoint or a listed identifier"},
}

// RuleRedaction is the rule checked on the rendered copy.
const RuleRedaction = "unredacted-identifier"

// anyTarget refuses a run made with --allow-any-target: its action
// cases changed a target the suite does not name as one they may change.
func anyTarget(in *input) string {
	if !in.rec.Header.Target.AllowAnyTarget {
		return ""
	}
	return "the run was made with --allow-any-target, on a target its suite's actions.allow_targets does not name: run it again on a target the suite names"
}

// unverifiedCases refuses a run whose suite holds cases a tool drafted
// and no person has checked (verified: false), unless allowed.
func unverifiedCases(in *input) string {
	if in.suite == nil || in.allowUnverified {
		return ""
	}
	ids := in.suite.UnverifiedIDs()
	if len(ids) == 0 {
		return ""
	}
	return fmt.Sprintf("the suite holds %d case(s) marked verified: false (%s): check each and mark it checked (mcpeval review --verify CASE), or publish with --allow-unverified (the row records it)", len(ids), list(ids, 3))
}

// environ is the environment the known-secret rule reads (a variable, so
// that tests can plant one).
var environ = os.Environ

// knownSecret refuses a run whose record holds the value of a variable of
// mcpeval's environment whose name says it is a secret (ANTHROPIC_API_KEY,
// GITHUB_TOKEN, any *_KEY, *_TOKEN, *_SECRET, *_PASSWORD). The runner
// scrubs these before writing, so a record holding one was made by an
// older mcpeval or edited since: redaction by shape could miss it, so
// nothing of it is published. The record was scanned as it was loaded,
// header and every attempt, streamed or held.
func knownSecret(in *input) string {
	if in.secretErr != nil {
		return fmt.Sprintf("the record cannot be checked for secrets: %v", in.secretErr)
	}
	if len(in.secrets) == 0 {
		return ""
	}
	return fmt.Sprintf("the record holds the value of %s from mcpeval's environment: a secret is never published (scrub the record, or rotate the key and run again)", list(in.secrets, 3))
}

// secretScan finds which secret-named variables of mcpeval's environment a
// record holds the value of, a part (the header, an attempt) at a time, so
// that a record read as a stream is checked whole without being held.
type secretScan struct {
	environ []string
	found   map[string]bool
	err     error
}

// newSecretScan scans for the values of the secret-named variables of
// environ.
func newSecretScan(environ []string) *secretScan {
	s := &secretScan{found: map[string]bool{}}
	for _, kv := range environ {
		if name, _, ok := strings.Cut(kv, "="); ok && redact.SecretName(name) {
			s.environ = append(s.environ, kv)
		}
	}
	return s
}

// add scans v, one part of a record.
func (s *secretScan) add(v any) {
	if s.err != nil || len(s.environ) == 0 {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		s.err = err
		return
	}
	for _, name := range redact.FindEnviron(data, s.environ) {
		s.found[name] = true
	}
}

// names are the variables found, sorted.
func (s *secretScan) names() []string {
	return slices.Sorted(maps.Keys(s.found))
}

func fakeProvider(in *input) string {
	m := in.rec.Header.Model
	if m.Fake || m.Provider == "fake" || m.Provider == "script" || strings.HasPrefix(m.Spec, "fake:") || strings.HasPrefix(m.Spec, "script:") {
		return fmt.Sprintf("%s is not a model: a fake or scripted model answers from the corpus's key or a script, so its figures prove the pipe works and say nothing about a model", m.Spec)
	}
	return ""
}

func filteredRun(in *input) string {
	h := &in.rec.Header
	var why []string
	if h.Filter != "" {
		why = append(why, "it was filtered ("+h.Filter+")")
	}
	if h.Shard != nil {
		why = append(why, fmt.Sprintf("it is shard %d of %d", h.Shard.K, h.Shard.N))
	}
	if h.Dataset != "" {
		why = append(why, "it was limited to dataset "+h.Dataset)
	}
	if len(why) == 0 && in.suite != nil {
		planned := map[string]bool{}
		for _, p := range h.Planned {
			planned[p.Case] = true
		}
		var missing []string
		for _, c := range in.suite.Cases {
			if !planned[c.ID] {
				missing = append(missing, c.ID)
			}
		}
		if len(missing) > 0 {
			why = append(why, fmt.Sprintf("it planned %d of the suite's %d cases (not %s)", len(in.suite.Cases)-len(missing), len(in.suite.Cases), list(missing, 3)))
		}
	}
	if len(why) == 0 {
		return ""
	}
	return strings.Join(why, "; ") + ": a run over part of the corpus would read as a run over all of it"
}

func incompleteProvenance(in *input) string {
	h := &in.rec.Header
	var missing []string
	need := func(ok bool, what string) {
		if !ok {
			missing = append(missing, what)
		}
	}
	need(h.RunID != "", "run id")
	need(!h.Start.IsZero(), "start date")
	need(h.Tool.Version != "", "tool version")
	need(h.Target.Spec != "", "target")
	need(h.ToolsHash != "" && len(h.Tools) > 0, "the target's tool-definition hash")
	need(h.Model.Spec != "" && h.Model.Provider != "" && h.Model.Name != "", "model")
	if h.Model.Spec != "" {
		info, err := model.ParseSpec(h.Model.Spec)
		need(err == nil && (h.Model.Provider == "script" || maps.Equal(info.Options, h.Model.Options)), "request options (the model spec and the recorded options disagree)")
	}
	need(h.Suite.Name != "" && h.Suite.Hash != "", "suite hash")
	if len(missing) == 0 {
		return ""
	}
	return "the record does not name its " + strings.Join(missing, ", ")
}

func staleCorpus(in *input) string {
	h := &in.rec.Header
	switch {
	case in.suiteErr != nil:
		return fmt.Sprintf("the suite the run names (%s) cannot be loaded as it is now: %v", h.Suite.Path, in.suiteErr)
	case in.suite == nil || h.Suite.Hash == "":
		return "" // incomplete-provenance says so
	case in.suite.Hash != h.Suite.Hash:
		return fmt.Sprintf("the run was made against suite %s at hash %s; at HEAD it is %s: it would be scored against a key it was not asked", h.Suite.Name, format.Hash(h.Suite.Hash), format.Hash(in.suite.Hash))
	}
	return ""
}

func incompleteRun(in *input) string {
	r := in.rec
	switch {
	case r.End == nil:
		return fmt.Sprintf("the run did not finish (killed, or still running): %d of %d planned attempts recorded", in.recorded, len(r.Header.Planned))
	case !r.End.Complete:
		why := r.End.Reason
		if why == "" {
			why = "incomplete"
		}
		return fmt.Sprintf("the run stopped early (%s): %d of %d planned attempts recorded", why, in.recorded, len(r.Header.Planned))
	case in.recorded < len(r.Header.Planned):
		return fmt.Sprintf("%d of %d planned attempts recorded", in.recorded, len(r.Header.Planned))
	}
	return ""
}

// Provenance is the commit a run's suite points at, as its record says.
type Provenance struct {
	// Commit is the suite's commit: the commit checked out in the suite's
	// directory, or for an embedded suite the revision mcpeval was built
	// from; empty when there is none.
	Commit string
	// Dirty is true when the suite's files (or, for an embedded suite,
	// mcpeval's source) had uncommitted changes.
	Dirty bool
	// Why says why there is no commit, when Commit is empty.
	Why string
}

// SuiteProvenance returns the commit the suite of a run points at. A
// record made before mcpeval recorded the suite's own provenance named
// the checkout mcpeval ran in as mcpeval's commit; that is what it has.
func SuiteProvenance(h *record.Header) Provenance {
	switch h.Suite.Source {
	case record.SourceGit:
		return Provenance{Commit: h.Suite.Commit, Dirty: h.Suite.Dirty}
	case record.SourceFiles:
		return Provenance{Why: fmt.Sprintf("the suite %s was not in a git repository when the run was made: commit it, and run it again", h.Suite.Path)}
	case record.SourceEmbedded:
		switch v := h.Tool.Version; {
		case h.Tool.Commit != "" && h.Tool.Commit != "unknown":
			return Provenance{Commit: h.Tool.Commit, Dirty: h.Tool.Dirty}
		case strings.HasPrefix(v, "v") && !strings.Contains(v, "+dirty"):
			// A module version (go install ...@v1.2.3) names its source
			// exactly, though the toolchain stamps no revision then.
			return Provenance{Commit: "mcpeval " + v}
		}
		return Provenance{Dirty: h.Tool.Dirty, Why: fmt.Sprintf("the suite is embedded in mcpeval %s, whose build names no revision (go run and go test stamp none): build mcpeval with go build in a checkout, or install a release", h.Tool.Version)}
	}
	if h.Tool.Commit == "" || h.Tool.Commit == "unknown" {
		return Provenance{Dirty: h.Tool.Dirty, Why: "the record names no commit"}
	}
	return Provenance{Commit: h.Tool.Commit, Dirty: h.Tool.Dirty}
}

func dirtyTree(in *input) string {
	p := SuiteProvenance(&in.rec.Header)
	if p.Dirty {
		return fmt.Sprintf("the run was made with uncommitted changes to the suite's files (on top of %s): commit before a run you mean to publish", format.Hash(p.Commit))
	}
	if p.Commit == "" {
		return p.Why + ": a published figure must point at a commit that exists"
	}
	if in.repo == nil {
		return "no repository to check the commit in"
	}
	if in.rec.Header.Suite.Source != record.SourceEmbedded { // mcpeval's own revision is in mcpeval's repository, not necessarily the ledger's
		ok, err := in.repo.HasCommit(p.Commit)
		if err != nil {
			return fmt.Sprintf("%v: a published figure must point at a commit that exists", err)
		}
		if !ok {
			return fmt.Sprintf("commit %s, which the run names, is not in the repository: a published figure must point at a commit that exists", format.Hash(p.Commit))
		}
	}
	changed, err := in.repo.Changes()
	if err != nil {
		return fmt.Sprintf("%v: a published figure must point at a commit that exists", err)
	}
	var dirty []string
	for _, f := range changed {
		if !under(f, in.outputs) {
			dirty = append(dirty, f)
		}
	}
	if len(dirty) > 0 {
		return fmt.Sprintf("the working tree has uncommitted changes to tracked files (%s): the suite and publisher checked are not the ones at HEAD; commit first", list(dirty, 3))
	}
	return ""
}

// under reports whether path is one of outputs or inside one of them,
// symbolic links resolved.
func under(path string, outputs []string) bool {
	path = realPath(path)
	for _, o := range outputs {
		if o == "" {
			continue
		}
		if rel, err := filepath.Rel(realPath(o), path); err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
			return true
		}
	}
	return false
}

// realPath resolves the symbolic links of p, or of its directory when p
// does not exist yet.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if r, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(r, filepath.Base(p))
	}
	return p
}

func invalidRun(in *input) string {
	if in.rec.Header.Preflight.Valid {
		return ""
	}
	var probs []string
	for _, c := range in.rec.Header.Preflight.Checks {
		for _, p := range c.Problems {
			probs = append(probs, c.Tool+": "+p)
		}
	}
	s := "the preflight found the target's data drifted, so nothing was graded"
	if len(probs) > 0 {
		s += " (" + list(probs, 2) + ")"
	}
	return s
}

func duplicateRow(in *input) string {
	if in.replace || in.row == nil {
		return ""
	}
	i := in.ledger.Find(in.row.Key())
	if i < 0 {
		return ""
	}
	old := in.ledger.Rows[i]
	return fmt.Sprintf("a row for %s is already published (run %s, %s): replace it with --replace", in.row.Key(), old.RunID, old.Date)
}

func list(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(xs[:n], ", "), len(xs)-n)
}
