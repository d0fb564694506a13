package htmlreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
)

// TestStreamedPageIsTheWholePage: a page made of a run without its
// attempts reads them from the record in its directory, and is the page
// of the run read whole.
func TestStreamedPageIsTheWholePage(t *testing.T) {
	p := fixture(t)
	whole := render(t, p)
	slim := *p.Run
	slim.Attempts = nil
	q := *p
	q.Run = &slim
	if d := cmp.Diff(whole, render(t, &q)); d != "" {
		t.Errorf("page (-whole +streamed):\n%s", d)
	}
}

var (
	shownRE   = regexp.MustCompile(`<details class="attempt"[^>]*data-outcome="(\w+)"[^>]*data-case="([^"]*)"`)
	unshownRE = regexp.MustCompile(`<td class="mono">(#\d+(, #\d+)*)</td>`)
)

// TestLargeRunIsPaged: the page of a run of SmallRun attempts or more
// shows failures and errors by case, ShownPerCase at most of each, lists
// the others by number, counts the passes and shows none, and says so;
// read whole or as a stream, the page is the same.
func TestLargeRunIsPaged(t *testing.T) {
	base, s := testRun(t)
	dir := filepath.Join(t.TempDir(), "run")
	times := SmallRun/len(base.Attempts) + 1
	big := replayed(t, base, dir, times)
	res := grade.Run(s, big)
	if res.Totals.Passed == 0 || res.Totals.Failed == 0 {
		t.Fatalf("totals %+v: want passes and failures", res.Totals)
	}
	page := render(t, &RunPage{Run: big, Result: res})
	slim := *big
	slim.Attempts = nil
	if d := cmp.Diff(page, render(t, &RunPage{Run: &slim, Result: res})); d != "" {
		t.Errorf("page (-whole +streamed):\n%s", d)
	}
	if !strings.Contains(page, "Passes are summarised") || !strings.Contains(page, fmt.Sprintf("of %d recorded", len(big.Attempts))) {
		t.Error("the page does not say that passes are summarised")
	}
	perCase := map[string]int{}
	for _, m := range shownRE.FindAllStringSubmatch(page, -1) {
		if m[1] == "pass" {
			t.Errorf("a passing attempt of %s is shown", m[2])
		}
		perCase[m[2]]++
	}
	notPassing := map[string]int{}
	for _, a := range res.Attempts {
		if a.Outcome != grade.Pass {
			notPassing[a.Case]++
		}
	}
	unshown := 0
	for _, m := range unshownRE.FindAllStringSubmatch(page, -1) {
		unshown += strings.Count(m[1], "#")
	}
	shown := 0
	for c, n := range notPassing {
		if want := min(n, ShownPerCase); perCase[c] != want {
			t.Errorf("%s: %d attempts shown, want %d", c, perCase[c], want)
		}
		shown += perCase[c]
	}
	if shown+unshown != res.Totals.Failed+res.Totals.Errors+judgedNotPassing(res) {
		t.Errorf("%d shown and %d listed, want every one of %d failing or errored attempts", shown, unshown, res.Totals.Failed+res.Totals.Errors)
	}
}

func judgedNotPassing(res *grade.Result) int {
	if res.Judged == nil {
		return 0
	}
	return res.Judged.Failed + res.Judged.Errors
}

// replayed writes in dir base's attempts replayed times-fold, numbered on
// per case, and returns the run as read back.
func replayed(t *testing.T, base *record.Run, dir string, times int) *record.Run {
	t.Helper()
	perCase := map[string]int{}
	for _, a := range base.Attempts {
		perCase[a.Case] = max(perCase[a.Case], a.N)
	}
	h := base.Header
	h.Planned = nil
	for k := 0; k < times; k++ {
		for _, a := range base.Attempts {
			h.Planned = append(h.Planned, record.Planned{Case: a.Case, N: k*perCase[a.Case] + a.N})
		}
	}
	w, err := record.Create(dir, &h)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	var buf bytes.Buffer
	for k := 0; k < times; k++ {
		for _, a := range base.Attempts {
			a.N += k * perCase[a.Case]
			b, err := jsonLine(&a)
			if err != nil {
				t.Fatal(err)
			}
			buf.Write(b)
		}
	}
	buf.WriteString(`{"end":{"complete":true}}` + "\n")
	f, err := os.OpenFile(filepath.Join(dir, record.FileName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	f.Close()
	run, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// jsonLine writes a as a record's attempt line.
func jsonLine(a *record.Attempt) ([]byte, error) {
	b, err := json.Marshal(struct {
		Attempt *record.Attempt `json:"attempt"`
	}{a})
	return append(b, '\n'), err
}
