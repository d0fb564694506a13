package pipeline

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/compare"
)

// DefaultMaxErrorRate is the largest share of a run's attempts that may
// end in an error for a gate to judge the run.
const DefaultMaxErrorRate = 0.2

// Gates are the checks a CI run must pass. The zero value sets none.
type Gates struct {
	// MinPass, when above 0, fails a run whose pass rate is below it.
	MinPass float64
	// Baseline, when set, names the baseline run the new run is compared
	// with; Check then fails on a significant regression.
	Baseline string
	// MaxErrorRate is the largest share of a run's attempts (errors among
	// errors and graded attempts) that may end in an error for the gates
	// to judge it; 0 means DefaultMaxErrorRate. Whatever it is, a run
	// with no graded attempt cannot pass a gate.
	MaxErrorRate float64
}

// Set reports whether any gate is set.
func (g Gates) Set() bool { return g.MinPass > 0 || g.Baseline != "" }

// Verdict is what the gates found. A verdict with no reasons passes.
type Verdict struct {
	// TooFew says, for each run with too few graded attempts to judge (none,
	// an invalid run, or more errors than the gates accept), why. A gate
	// cannot pass on such a run, whatever its figures.
	TooFew []string
	// Failed says why the runs fail the gates: a pass rate below MinPass, a
	// significant regression against the baseline, runs that cannot be
	// compared.
	Failed []string
}

// Passed reports whether every gate passed.
func (v Verdict) Passed() bool { return len(v.TooFew) == 0 && len(v.Failed) == 0 }

// Reasons are every reason the gates fail, the runs too thin to judge
// first.
func (v Verdict) Reasons() []string { return append(append([]string{}, v.TooFew...), v.Failed...) }

// Check applies the gates to graded runs (several for a model ladder) and,
// when the gates have a Baseline, to the comparison of the last run with
// it (cmp; nil when no comparison could be made). With no gate set it
// passes everything.
func (g Gates) Check(runs []*grade.Result, cmp *compare.Comparison) Verdict {
	var v Verdict
	if !g.Set() {
		return v
	}
	maxErr := g.MaxErrorRate
	if maxErr <= 0 {
		maxErr = DefaultMaxErrorRate
	}
	for _, r := range runs {
		if why := tooFew(r, maxErr); why != "" {
			v.TooFew = append(v.TooFew, why)
			continue
		}
		t := r.Totals
		if g.MinPass > 0 && t.Rate < g.MinPass {
			v.Failed = append(v.Failed, fmt.Sprintf("%s: pass rate %.1f%% (%d/%d, 95%% CI %.0f%%–%.0f%%) is below --min-pass %g%%",
				r.Model, t.Rate*100, t.Passed, t.Graded, t.WilsonLow*100, t.WilsonHigh*100, g.MinPass*100))
		}
	}
	if g.Baseline != "" && cmp != nil {
		v.Failed = append(v.Failed, CompareReasons(cmp, g.Baseline)...)
	}
	return v
}

// NothingGraded says, for a run whose every attempt ended in an error (the
// provider or the server was down), that nothing was graded and how its
// attempts ended; "" for a run with a graded attempt, or with no attempt
// at all. Such a run measured an outage, not the model: gate or no gate,
// it is not a result.
func NothingGraded(r *grade.Result) string {
	t := r.Totals
	if t.Graded > 0 || t.Errors == 0 {
		return ""
	}
	return fmt.Sprintf("%s: no attempt was graded: all %d ended in an error (%s)", r.Model, t.Errors, kinds(t.ErrorKinds))
}

// tooFew says why run r has too few graded attempts for a gate to judge,
// or "" when it has enough.
func tooFew(r *grade.Result, maxErr float64) string {
	t := r.Totals
	attempts := t.Graded + t.Errors
	switch {
	case !r.Valid:
		return fmt.Sprintf("%s: the run is invalid, so nothing was graded and no gate can pass", r.Model)
	case NothingGraded(r) != "":
		return NothingGraded(r) + ", so no gate can pass"
	case t.Graded == 0:
		return fmt.Sprintf("%s: no attempt was graded, so no gate can pass", r.Model)
	case float64(t.Errors) > maxErr*float64(attempts):
		return fmt.Sprintf("%s: %d of %d attempts ended in an error (%.0f%%; %s), more than the %g%% a gate accepts (--max-error-rate): the pass rate of the rest says too little",
			r.Model, t.Errors, attempts, 100*float64(t.Errors)/float64(attempts), kinds(t.ErrorKinds), maxErr*100)
	}
	return ""
}

// kinds lists error counts by kind: "provider 5, timeout 1".
func kinds(m map[string]int) string {
	if len(m) == 0 {
		return "no kind recorded"
	}
	ks := slices.Sorted(maps.Keys(m))
	var parts []string
	for _, k := range ks {
		name := k
		if name == "" {
			name = "unknown"
		}
		parts = append(parts, fmt.Sprintf("%s %d", name, m[k]))
	}
	return strings.Join(parts, ", ")
}

// CompareReasons says why a comparison with the baseline base fails a
// gate: the runs cannot be compared, or something regressed
// significantly. It says nothing when the comparison passes.
func CompareReasons(cmp *compare.Comparison, base string) []string {
	if !cmp.Comparable {
		return []string{fmt.Sprintf("cannot compare with the baseline %s: %s", base, strings.Join(cmp.Warnings, "; "))}
	}
	regs := cmp.Regressions()
	if len(regs) == 0 {
		return nil
	}
	why := []string{fmt.Sprintf("significant regression against the baseline %s (%s, alpha %g):", base, cmp.Test, cmp.Alpha)}
	for _, r := range regs {
		why = append(why, "  "+r.Describe())
	}
	if len(cmp.Changes) == 0 {
		return append(why, "between the runs nothing changed but the runs themselves: the model is not deterministic, or the target's behaviour moved")
	}
	var changed []string
	for _, ch := range cmp.Changes {
		changed = append(changed, ch.What)
	}
	return append(why, "what changed between the runs: "+strings.Join(changed, ", ")+" (mcpeval compare shows how)")
}
