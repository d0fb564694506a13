// Package publish folds a graded run into the results ledger, a committed
// JSON file with one row per model, target and suite, and renders the
// ledger's page and the run's page beside it.
//
// A run is folded only when no rule refuses it. The rules say what may be
// published, and none of them is about how well the model did:
//
//   - fake-provider: a fake's figures prove the pipe, not a model.
//   - filtered-run: part of the corpus would read as all of it.
//   - incomplete-provenance: every row names the commit, the tool version,
//     the target and its tool-definition hash, the model and its request
//     options, and the suite's hash.
//   - stale-corpus: a run made against another suite than the one at HEAD
//     is not scored against a key it was not asked.
//   - incomplete-run: a run that stopped early would publish the cases it
//     happened to reach.
//   - dirty-tree: a published figure must point at a commit that exists.
//   - any-target: the run acted on a target its suite does not allow
//     (run --allow-any-target).
//   - unverified-cases: the suite holds cases a tool drafted that no
//     person has checked (verified: false), unless allowed.
//   - invalid-run: the target's data drifted; nothing was graded.
//   - duplicate-row: a published row is replaced only when asked to.
//   - known-secret: the record holds the value of a secret-named variable
//     of mcpeval's environment (a provider key, a CI token).
//   - unredacted-identifier: the copy about to be written still holds a
//     secret or a listed identifier.
//
// A row carries both rates with their counts and intervals, the reviews,
// and, when the suite has action cases, every action column as scored of
// counted with its rate and interval (optional, so rows published before
// stay readable).
//
// A dry run sets aside only fake-provider and dirty-tree, and writes into
// a scratch folder with a banner on every page. Check verifies offline
// that a ledger and its pages agree.
package publish
