package publish

import (
	"fmt"
	"html"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/lazyregexp"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/stats"
)

// checked matches an element a page marks for checking, with its text.
var checked = lazyregexp.New(`data-check="([^"]*)"[^>]*>([^<]*)<`)

// figures reads the marked figures of a page: data-check value -> text.
func figures(page []byte) (map[string]string, []string) {
	out := map[string]string{}
	var dups []string
	for _, m := range checked.FindAllSubmatch(page, -1) {
		k, v := html.UnescapeString(string(m[1])), html.UnescapeString(string(m[2]))
		if _, dup := out[k]; dup {
			dups = append(dups, k)
		}
		out[k] = v
	}
	return out, dups
}

// rowFigures are the figures a row shows, by field.
func rowFigures(r *Row) map[string]string {
	m := map[string]string{
		"as-graded-count":         htmlreport.CountText(r.AsGraded),
		"as-graded-rate":          htmlreport.RateText(r.AsGraded),
		"as-graded-ci":            htmlreport.CIText(r.AsGraded),
		"after-review-count":      htmlreport.CountText(r.AfterReview),
		"after-review-rate":       htmlreport.RateText(r.AfterReview),
		"after-review-ci":         htmlreport.CIText(r.AfterReview),
		"errors":                  strconv.Itoa(r.AsGraded.Errors),
		"grader-false-fail":       strconv.Itoa(r.Reviews.GraderFalseFail),
		"model-failure":           strconv.Itoa(r.Reviews.ModelFailure),
		"expectation-in-question": strconv.Itoa(r.Reviews.ExpectationInQuestion),
		"unreviewed":              strconv.Itoa(r.Reviews.Unreviewed),
	}
	if r.Actions != nil {
		for _, c := range r.Actions.Columns {
			m[htmlreport.ActionCheck(c.Column)] = c.AsRate().Cell()
		}
	}
	return m
}

// Check verifies offline that the ledger at ledgerPath and the pages in
// site agree: every figure of every row, on the ledger page and on the
// row's run page, is the ledger's; the page shows no row the ledger lacks;
// each rate and interval is what its counts give; and a dry run's pages
// carry the banner, a real ledger's do not. It returns every
// disagreement; none means they agree.
func Check(ledgerPath, site string) ([]string, error) {
	l, err := ReadLedger(ledgerPath)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(ledgerPath); err != nil {
		return nil, fmt.Errorf("reading ledger: %w", err)
	}
	indexPath := filepath.Join(site, "index.html")
	index, err := os.ReadFile(indexPath)
	if err != nil {
		return nil, fmt.Errorf("reading the ledger page: %w", err)
	}
	var probs []string
	problem := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }

	for i := range l.Rows {
		r := &l.Rows[i]
		for _, p := range consistent(r) {
			problem("%s: row %s: %s", ledgerPath, r.Key(), p)
		}
	}
	banner := func(name string, page []byte) {
		has := strings.Contains(string(page), "data-banner")
		switch {
		case l.DryRun && !has:
			problem("%s: a dry run's page has no dry-run banner", name)
		case !l.DryRun && has:
			problem("%s: carries the dry-run banner, but the ledger is not a dry run's", name)
		}
	}
	banner(indexPath, index)

	got, dups := figures(index)
	for _, d := range dups {
		problem("%s: figure %s is shown twice", indexPath, d)
	}
	want := map[string]string{}
	for i := range l.Rows {
		for f, v := range rowFigures(&l.Rows[i]) {
			want[l.Rows[i].Key()+"|"+f] = v
		}
	}
	for _, k := range slices.Sorted(maps.Keys(want)) {
		g, ok := got[k]
		key, field := splitKey(k)
		switch {
		case !ok:
			problem("%s: row %s: %s is not on the page (the ledger says %s)", indexPath, key, field, want[k])
		case g != want[k]:
			problem("%s: row %s: %s: the page says %s, the ledger %s", indexPath, key, field, g, want[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			key, field := splitKey(k)
			problem("%s: shows %s for row %s, which the ledger does not have", indexPath, field, key)
		}
	}
	if len(l.Rows) == 0 && !strings.Contains(string(index), "data-empty") {
		problem("%s: the ledger is empty but the page does not say so", indexPath)
	}

	for i := range l.Rows {
		r := &l.Rows[i]
		if r.Page == "" {
			continue
		}
		name := filepath.Join(site, filepath.FromSlash(r.Page))
		page, err := os.ReadFile(name)
		if err != nil {
			problem("row %s: its run page: %v", r.Key(), err)
			continue
		}
		banner(name, page)
		got, _ := figures(page)
		figs := rowFigures(r)
		for _, f := range slices.Sorted(maps.Keys(figs)) {
			w := figs[f]
			if g, ok := got[f]; !ok {
				problem("%s: %s is not on the page (the ledger says %s)", name, f, w)
			} else if g != w {
				problem("%s: %s: the page says %s, the ledger %s", name, f, g, w)
			}
		}
	}
	return probs, nil
}

func splitKey(k string) (key, field string) {
	i := strings.LastIndex(k, "|")
	if i < 0 {
		return "", k
	}
	return k[:i], k[i+1:]
}

// consistent checks a row's figures against each other.
func consistent(r *Row) []string {
	var p []string
	for _, c := range []struct {
		name string
		c    grade.Counts
	}{{"as graded", r.AsGraded}, {"after review", r.AfterReview}} {
		if c.c.Graded != c.c.Passed+c.c.Failed {
			p = append(p, fmt.Sprintf("%s: graded %d is not passed %d + failed %d", c.name, c.c.Graded, c.c.Passed, c.c.Failed))
			continue
		}
		rate := 0.0
		if c.c.Graded > 0 {
			rate = float64(c.c.Passed) / float64(c.c.Graded)
		}
		lo, hi := stats.Wilson(c.c.Passed, c.c.Graded)
		if !near(rate, c.c.Rate) || !near(lo, c.c.WilsonLow) || !near(hi, c.c.WilsonHigh) {
			p = append(p, fmt.Sprintf("%s: rate %.4f [%.4f, %.4f] is not what %d/%d gives (%.4f [%.4f, %.4f])", c.name, c.c.Rate, c.c.WilsonLow, c.c.WilsonHigh, c.c.Passed, c.c.Graded, rate, lo, hi))
		}
	}
	if r.AfterReview.Graded != r.AsGraded.Graded || r.AfterReview.Errors != r.AsGraded.Errors {
		p = append(p, "after review grades other attempts than as graded")
	}
	if d := r.AfterReview.Passed - r.AsGraded.Passed; d != r.Reviews.GraderFalseFail {
		p = append(p, fmt.Sprintf("after review has %d more passes than as graded, but %d grader false fails", d, r.Reviews.GraderFalseFail))
	}
	p = append(p, consistentActions(r.Actions)...)
	rv := r.Reviews
	if n := rv.ModelFailure + rv.GraderFalseFail + rv.ExpectationInQuestion + rv.Unreviewed; n != r.AsGraded.Failed {
		p = append(p, fmt.Sprintf("%d failures as graded, but %d reviewed or not reviewed", r.AsGraded.Failed, n))
	}
	return p
}

// consistentActions checks a row's action columns: known, each scored of
// counted with the rate and interval those give, none counted twice.
func consistentActions(a *Actions) []string {
	if a == nil {
		return nil
	}
	var p []string
	seen := map[string]bool{}
	for _, c := range a.Columns {
		if columnName(c.Column) == c.Column {
			p = append(p, fmt.Sprintf("action column %q: no such column", c.Column))
		}
		if seen[c.Column] {
			p = append(p, fmt.Sprintf("action column %s: given twice", c.Column))
		}
		seen[c.Column] = true
		if c.Num < 0 || c.Num > c.Den {
			p = append(p, fmt.Sprintf("action column %s: %d scored of %d counted", c.Column, c.Num, c.Den))
			continue
		}
		want := format.Of(c.Num, c.Den)
		if !near(want.Value, c.Rate) || !near(want.Low, c.WilsonLow) || !near(want.High, c.WilsonHigh) {
			p = append(p, fmt.Sprintf("action column %s: rate %.4f [%.4f, %.4f] is not what %d/%d gives (%.4f [%.4f, %.4f])", c.Column, c.Rate, c.WilsonLow, c.WilsonHigh, c.Num, c.Den, want.Value, want.Low, want.High))
		}
	}
	return p
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
