package actions

import (
	"strings"
	"testing"
)

// TestScoreStepOrder checks that steps are reached in the key's order: a
// call made before the call that reached the step before it reaches
// nothing.
func TestScoreStepOrder(t *testing.T) {
	list := returning(call("list_things", `{}`), `{"things":[{"name":"alpha-abc123","id":"id-7"}]}`)
	drop := call("drop_thing", `{"id":"id-7","confirm":true}`)
	r := score(t, attempt("destructive/drop", list, drop))
	if !r.Pass {
		t.Fatalf("list then drop did not pass: %v", r.Reasons)
	}
	r = score(t, attempt("destructive/drop", drop, list))
	if r.Pass || r.Columns.Reached != (Column{1, 2}) || r.Steps[2].Reached {
		t.Errorf("drop before list: pass %v, reached %s, steps %+v", r.Pass, r.Columns.Reached, r.Steps)
	}
	want := "step 3 (drop_thing) not reached: no call to drop_thing after the previous step"
	if !strings.Contains(strings.Join(r.Reasons, "\n"), want) {
		t.Errorf("reasons %q lack %q", r.Reasons, want)
	}
}
