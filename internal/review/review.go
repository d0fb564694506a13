package review

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
)

// FileName is the reviews file inside a run directory.
const FileName = "reviews.jsonl"

// Verdict is a person's reading of a failed attempt.
type Verdict string

// The three verdicts.
const (
	// ModelFailure means the grade is right: the model did the wrong
	// thing. The levers are the tool descriptions, the tools' output or the
	// model.
	ModelFailure Verdict = "model-failure"
	// GraderFalseFail means the answer was right and the grader marked it
	// wrong. It counts as a pass in the reviewed rate.
	GraderFalseFail Verdict = "grader-false-fail"
	// ExpectationInQuestion means the model did something defensible that
	// the case forbids. Whether the case or the model should change is a
	// decision, not a fix; it stays a failure.
	ExpectationInQuestion Verdict = "expectation-in-question"
)

// Verdicts lists the verdicts in the order they are shown.
var Verdicts = []Verdict{ModelFailure, GraderFalseFail, ExpectationInQuestion}

// Label is the verdict in words: "model failure".
func (v Verdict) Label() string { return strings.ReplaceAll(string(v), "-", " ") }

// ParseVerdict reads a verdict as written on the command line: its name
// ("grader-false-fail"), its words ("grader false fail") or its letter
// (m, g or e).
func ParseVerdict(s string) (Verdict, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.NewReplacer(" ", "-", "_", "-").Replace(k)
	switch k {
	case "m", "model", string(ModelFailure):
		return ModelFailure, nil
	case "g", "grader", string(GraderFalseFail):
		return GraderFalseFail, nil
	case "e", "expectation", string(ExpectationInQuestion):
		return ExpectationInQuestion, nil
	}
	return "", fmt.Errorf("verdict %q: want %s, %s or %s (or m, g, e)", s, ModelFailure, GraderFalseFail, ExpectationInQuestion)
}

// Review is one verdict on one failed attempt, as written to the reviews
// file. The file is append-only: a later review of the same attempt
// replaces an earlier one, which stays in the file.
type Review struct {
	// RunID is the run the review was made on.
	RunID string `json:"run_id"`
	Case  string `json:"case"`
	// N is the attempt's number within its case, from 1.
	N int `json:"attempt"`
	// Fingerprint identifies what was reviewed: the attempt's answer and
	// its failing reasons (see Fingerprint).
	Fingerprint string  `json:"fingerprint"`
	Verdict     Verdict `json:"verdict"`
	// Note says why, for the next reader.
	Note string `json:"note"`
	// Reviewer names the person.
	Reviewer string    `json:"reviewer"`
	Time     time.Time `json:"time"`
	// Reasons are the failing reasons as they were when reviewed, so that
	// a stale review still says what it was about.
	Reasons []string `json:"reasons,omitempty"`
}

// Key returns the attempt the review is about.
func (r *Review) Key() record.AttemptKey { return record.AttemptKey{Case: r.Case, N: r.N} }

// Check reports a review that is missing something it must have.
func (r *Review) Check() error {
	switch {
	case r.Case == "" || r.N < 1:
		return fmt.Errorf("a review names no attempt (case %q, attempt %d)", r.Case, r.N)
	case r.Fingerprint == "":
		return fmt.Errorf("review of %s has no fingerprint", r.Key())
	case r.Verdict != ModelFailure && r.Verdict != GraderFalseFail && r.Verdict != ExpectationInQuestion:
		return fmt.Errorf("review of %s: unknown verdict %q", r.Key(), r.Verdict)
	case strings.TrimSpace(r.Note) == "":
		return fmt.Errorf("review of %s has no note: say why, for the next reader", r.Key())
	case strings.TrimSpace(r.Reviewer) == "":
		return fmt.Errorf("review of %s names no reviewer", r.Key())
	}
	return nil
}

// Fingerprint identifies what a reviewer read: the attempt's final answer
// and its failing reasons, check and message. Grading the run again gives
// the same fingerprint exactly when the attempt fails the same way.
func Fingerprint(answer string, reasons []grade.Reason) string {
	rs := make([]string, len(reasons))
	for i, r := range reasons {
		rs[i] = r.String()
	}
	b, _ := json.Marshal(struct {
		Answer  string   `json:"answer"`
		Reasons []string `json:"reasons"`
	}{answer, rs})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
