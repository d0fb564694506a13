// Package review keeps a person's verdicts on failed attempts and turns
// them into the reviewed rate.
//
// A person reads every failed attempt and records one verdict: the model
// failed (the grade is right), the grader failed it falsely (the answer was
// right), or the expectation is in question (the model did something
// defensible that the case forbids). Reviews live beside the run in their
// own append-only file, RUN/reviews.jsonl; the record itself is never
// edited.
//
// A review is keyed by case and attempt and carries a fingerprint of what
// was reviewed: the answer and the failing reasons. When the run is graded
// again and the attempt still fails the same way, the review still applies;
// when the attempt now passes, or fails for other reasons, the review is
// stale and the failure counts as not reviewed.
//
// Apply puts the reviews on a graded run and gives two rates side by side:
// as graded, and after review, where only grader false fails become
// passes. Model failures and questioned expectations stay failures: a
// reviewed rate that forgave them would be the reviewer grading the model
// generously.
package review
