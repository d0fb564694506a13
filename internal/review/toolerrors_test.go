package review

import "testing"

// TestReviewKeepsToolErrors checks that both rates, of the run, its
// groups and its cases, keep the count of the tool errors the cases did
// not expect: a review changes a verdict, not what the model called.
func TestReviewKeepsToolErrors(t *testing.T) {
	l, res := reviewed(t, verdict{"single/net-worth", 2, GraderFalseFail})
	res.Attempts[1].ToolErrors, res.Attempts[3].ToolErrors = 2, 1
	rv := Apply(res, l)
	if rv.AsGraded.ToolErrors != 3 || rv.AfterReview.ToolErrors != 3 {
		t.Errorf("run: tool errors %d as graded, %d after review; want 3 and 3", rv.AsGraded.ToolErrors, rv.AfterReview.ToolErrors)
	}
	if g := rv.Groups[0]; g.AsGraded.ToolErrors != 2 || g.AfterReview.ToolErrors != 2 {
		t.Errorf("group %s: tool errors %d, %d; want 2", g.Name, g.AsGraded.ToolErrors, g.AfterReview.ToolErrors)
	}
	if c := rv.Cases[1]; c.AsGraded.ToolErrors != 1 {
		t.Errorf("case %s: tool errors %d, want 1", c.Name, c.AsGraded.ToolErrors)
	}
}
