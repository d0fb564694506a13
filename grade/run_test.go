package grade

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// testRun is a run over testdata/suite.yaml: net-worth-now passes twice
// and fails once, fixed-deposit passes once and errors twice, and a case
// the suite no longer has was attempted twice.
func testRun(t *testing.T) *record.Run {
	hh := loadHousehold(t)
	s := loadSuite(t)
	h := hh.header(false)
	h.Model.Spec = "fake:test"
	h.Suite.Hash = "0123456789abcdef-then"
	r := &record.Run{Header: *h}
	nw := mustCase(t, s, "single-tool/net-worth-now")
	fd := mustCase(t, s, "single-tool/fixed-deposit")
	add := func(a *record.Attempt, n int) {
		a.N = n
		r.Attempts = append(r.Attempts, *a)
	}
	add(answered(nw, "SGD 2,394,755.", hh.call(t, "get_net_worth", "")), 3)
	add(answered(nw, "S$2.39M", hh.call(t, "get_net_worth", "")), 1)
	add(answered(nw, "SGD 2,261,924.", hh.call(t, "get_net_worth", "")), 2)
	add(answered(fd, "SGD 210,000.", hh.call(t, "get_accounts", "")), 1)
	add(&record.Attempt{Case: fd.ID, End: record.EndError, Error: &record.Error{Kind: record.KindTimeout, Message: "timed out"}}, 2)
	add(&record.Attempt{Case: fd.ID, End: record.EndError, Error: &record.Error{Kind: record.KindProvider, Message: "overloaded"}}, 3)
	add(&record.Attempt{Case: "gone/case", End: record.EndAnswered, Answer: "x"}, 1)
	add(&record.Attempt{Case: "gone/case", End: record.EndAnswered, Answer: "y"}, 2)
	return r
}

func near(a, b float64) bool { return math.Abs(a-b) < 5e-4 }

func TestRun(t *testing.T) {
	s := loadSuite(t)
	res := Run(s, testRun(t))
	if !res.Valid || res.RunID != "test" || res.Model != "fake:test" {
		t.Fatalf("result header %+v", res)
	}
	var got []string
	for _, a := range res.Attempts {
		got = append(got, record.AttemptKey{Case: a.Case, N: a.N}.ID()+"="+string(a.Outcome))
	}
	want := []string{
		"single-tool/net-worth-now#1=pass", "single-tool/net-worth-now#2=fail", "single-tool/net-worth-now#3=pass",
		"single-tool/fixed-deposit#1=pass", "single-tool/fixed-deposit#2=error", "single-tool/fixed-deposit#3=error",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("attempts %q, want %q", got, want)
	}
	checkTestRunCases(t, res)
	checkTestRunTotals(t, res)
	for _, w := range []string{"case gone/case: 2 attempts recorded, but the suite has no such case: not graded", "the suite has changed since the run", "the run did not finish"} {
		if !strings.Contains(strings.Join(res.Warnings, "\n"), w) {
			t.Errorf("warnings %q lack %q", res.Warnings, w)
		}
	}
	checkJSONRoundTrip(t, res)
}

// checkTestRunCases checks the per-case figures of grading testRun.
func checkTestRunCases(t *testing.T, res *Result) {
	t.Helper()
	if len(res.Cases) != 2 {
		t.Fatalf("%d cases, want 2", len(res.Cases))
	}
	nw := res.Cases[0]
	if nw.ID != "single-tool/net-worth-now" || nw.Group != "single-tool" || nw.Passed != 2 || nw.Failed != 1 || nw.Graded != 3 || !nw.Inconsistent || nw.K != 3 {
		t.Errorf("net-worth-now stats %+v", nw)
	}
	// pass@3 over 3 attempts with 2 passes is 1; pass^3 is 0.
	if !near(nw.Rate, 2.0/3) || nw.PassAtK != 1 || nw.PassHatK != 0 || !near(nw.WilsonLow, 0.2077) || !near(nw.WilsonHigh, 0.9385) {
		t.Errorf("net-worth-now rates %+v", nw.Counts)
	}
	fd := res.Cases[1]
	if fd.Passed != 1 || fd.Errors != 2 || fd.Graded != 1 || fd.Rate != 1 || fd.Inconsistent || fd.K != 1 || fd.PassAtK != 1 || fd.PassHatK != 1 {
		t.Errorf("fixed-deposit stats %+v", fd)
	}
}

// checkTestRunTotals checks the group and run figures of grading testRun.
func checkTestRunTotals(t *testing.T, res *Result) {
	t.Helper()
	if len(res.Groups) != 1 || res.Groups[0].Name != "single-tool" || res.Groups[0].Passed != 3 || res.Groups[0].Graded != 4 || res.Groups[0].Errors != 2 {
		t.Errorf("groups %+v", res.Groups)
	}
	tot := res.Totals
	if tot.Passed != 3 || tot.Failed != 1 || tot.Errors != 2 || tot.Graded != 4 || tot.Rate != 0.75 ||
		!reflect.DeepEqual(tot.ErrorKinds, map[string]int{"timeout": 1, "provider": 1}) {
		t.Errorf("totals %+v", tot)
	}
}

// checkJSONRoundTrip checks that res survives JSON, as mcpeval report reads
// it back, and that the JSON carries the fields readers look for.
func checkJSONRoundTrip(t *testing.T, res *Result) {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, res) {
		t.Errorf("JSON round trip changed the result:\n%s", b)
	}
	for _, key := range []string{`"verdict":"fail"`, `"passed":3`, `"wilson_low":`, `"error_kind":"timeout"`, `"reasons":[]`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestRunInvalid(t *testing.T) {
	s := loadSuite(t)
	r := testRun(t)
	r.Header.Preflight = record.Preflight{Valid: false, Checks: []record.PreflightCheck{{Tool: "get_net_worth", Problems: []string{"net_worth_sgd is 2400000, want 2394755"}}}}
	res := Run(s, r)
	if res.Valid || len(res.Attempts) != 0 || len(res.Cases) != 0 || res.Totals.Graded != 0 {
		t.Fatalf("an invalid run was graded: %+v", res)
	}
	if !strings.Contains(res.Invalid, "get_net_worth: net_worth_sgd is 2400000, want 2394755") || !strings.Contains(res.Invalid, "nothing was graded") {
		t.Errorf("Invalid = %q", res.Invalid)
	}
	if res.Totals.WilsonLow != 0 || res.Totals.WilsonHigh != 1 {
		t.Errorf("an invalid run's interval is [%v, %v], want [0, 1]", res.Totals.WilsonLow, res.Totals.WilsonHigh)
	}
}

func TestRunComplete(t *testing.T) {
	s := loadSuite(t)
	r := testRun(t)
	r.Header.Suite.Hash = s.Hash
	r.End = &record.End{Complete: true}
	r.Attempts = r.Attempts[:6]
	if res := Run(s, r); len(res.Warnings) != 0 {
		t.Errorf("warnings on a complete run of the current suite: %q", res.Warnings)
	}
}
