package pipeline

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/compare"
)

// result is a graded run with these totals.
func result(model string, passed, failed, errors int) *grade.Result {
	r := &grade.Result{Model: model, Valid: true}
	r.Totals.Passed, r.Totals.Failed, r.Totals.Errors = passed, failed, errors
	r.Totals.Graded = passed + failed
	if r.Totals.Graded > 0 {
		r.Totals.Rate = float64(passed) / float64(r.Totals.Graded)
	}
	if errors > 0 {
		r.Totals.ErrorKinds = map[string]int{"provider": errors}
	}
	return r
}

func TestGates(t *testing.T) {
	invalid := result("m", 0, 0, 0)
	invalid.Valid = false
	comparable := &compare.Comparison{Comparable: true}
	tests := []struct {
		name   string
		gates  Gates
		runs   []*grade.Result
		cmp    *compare.Comparison
		tooFew string // a reason TooFew must hold, "" for none
		failed string // a reason Failed must hold, "" for none
	}{
		{"no gate passes anything", Gates{}, []*grade.Result{result("m", 0, 0, 10)}, nil, "", ""},
		{"pass rate at the threshold", Gates{MinPass: 0.9}, []*grade.Result{result("m", 9, 1, 0)}, nil, "", ""},
		{"pass rate below the threshold", Gates{MinPass: 0.9}, []*grade.Result{result("m", 8, 2, 0)}, nil, "", "m: pass rate 80.0% (8/10"},
		{"every attempt an error", Gates{MinPass: 0.5}, []*grade.Result{result("m", 0, 0, 10)}, nil, "m: no attempt was graded: all 10 ended in an error (provider 10), so no gate can pass", ""},
		{"nothing recorded", Gates{MinPass: 0.5}, []*grade.Result{result("m", 0, 0, 0)}, nil, "m: no attempt was graded, so no gate can pass", ""},
		{"an invalid run", Gates{MinPass: 0.5}, []*grade.Result{invalid}, nil, "m: the run is invalid", ""},
		{"baseline gate, every attempt an error", Gates{Baseline: "base"}, []*grade.Result{result("m", 0, 0, 10)}, comparable, "no attempt was graded", ""},
		{"errors at the default share", Gates{MinPass: 0.5}, []*grade.Result{result("m", 8, 0, 2)}, nil, "", ""},
		{"errors above the default share", Gates{MinPass: 0.5}, []*grade.Result{result("m", 8, 0, 3)}, nil, "m: 3 of 11 attempts ended in an error (27%; provider 3), more than the 20% a gate accepts", ""},
		{"errors under a stated share", Gates{MinPass: 0.5, MaxErrorRate: 0.3}, []*grade.Result{result("m", 8, 0, 3)}, nil, "", ""},
		{"any share still needs a graded attempt", Gates{MinPass: 0.5, MaxErrorRate: 1}, []*grade.Result{result("m", 0, 0, 3)}, nil, "no attempt was graded", ""},
		{"one thin rung of a ladder", Gates{MinPass: 0.5}, []*grade.Result{result("strong", 10, 0, 0), result("weak", 1, 0, 9)}, nil, "weak: 9 of 10 attempts", ""},
		{"not comparable", Gates{Baseline: "base"}, []*grade.Result{result("m", 10, 0, 0)}, &compare.Comparison{Warnings: []string{"the base run is invalid"}}, "", "cannot compare with the baseline base: the base run is invalid"},
		{"comparable, nothing moved", Gates{Baseline: "base"}, []*grade.Result{result("m", 10, 0, 0)}, comparable, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := tt.gates.Check(tt.runs, tt.cmp)
			has := func(list []string, want string) bool {
				if want == "" {
					return len(list) == 0
				}
				for _, s := range list {
					if strings.Contains(s, want) {
						return true
					}
				}
				return false
			}
			if !has(v.TooFew, tt.tooFew) || !has(v.Failed, tt.failed) {
				t.Errorf("too few %q, failed %q; want %q and %q", v.TooFew, v.Failed, tt.tooFew, tt.failed)
			}
			if v.Passed() != (tt.tooFew == "" && tt.failed == "") {
				t.Errorf("passed %v with reasons %q", v.Passed(), v.Reasons())
			}
		})
	}
}
