package compare

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
)

func col(num, den int) actions.Column { return actions.Column{Num: num, Den: den} }

// actionResult is a model's action columns with one write kind: twenty
// attempts, reached of twenty steps, first time of those reached.
func actionResult(model string, reached, firstTime int) *actions.Report {
	write := actions.Row{Model: model, Kind: "write", Scored: 20,
		Columns: actions.Columns{Pass: col(firstTime, 20), Reached: col(reached, 20), FirstTime: col(firstTime, reached),
			Arguments: col(20, 20), Clean: col(20, 20), Completion: col(20, 20)}}
	all := write
	all.Kind = ""
	return &actions.Report{Models: []actions.Row{all}, Kinds: []actions.Row{write}}
}

// TestActionColumnsMove compares two runs whose First time column falls
// from 20/20 to 5/19 (significant) while Reached slips from 20/20 to
// 19/20 (noise): only First time, and Pass with it, are called out, over
// every action case and for the write kind.
func TestActionColumnsMove(t *testing.T) {
	s := testSuite(5)
	base, nw := testRun(s, "base", allPass), testRun(s, "new", allPass)
	gb, gn := grade.Run(s, base), grade.Run(s, nw)
	gb.Actions = actionResult("fake:perfect", 20, 20)
	gn.Actions = actionResult("fake:perfect", 19, 5)
	c := Compare(base, nw, gb, gn)

	verdicts := map[string]string{}
	for _, r := range c.Actions {
		verdicts[r.Kind+"/"+r.Column] = r.Verdict
	}
	want := map[string]string{
		"/pass": Regressed, "/reached": Noise, "/first_time": Regressed, "/arguments": Noise, "/clean": Noise, "/completion": Noise,
		"write/pass": Regressed, "write/reached": Noise, "write/first_time": Regressed, "write/arguments": Noise, "write/clean": Noise, "write/completion": Noise,
	}
	if diff := cmp.Diff(want, verdicts); diff != "" {
		t.Errorf("action verdicts (-want +got); columns neither run counted must be left out:\n%s", diff)
	}
	var regs []string
	for _, r := range c.ActionRegressions() {
		regs = append(regs, r.Describe())
	}
	if len(regs) != 4 || regs[1] != "action column First time, all action cases: 100% (20/20) → 26% (5/19), p=7.7e-07" {
		t.Errorf("action regressions = %q", regs)
	}
	if len(c.Regressions()) != 0 {
		t.Errorf("the question rows regressed: %+v", c.Regressions())
	}
	golden(t, "action_moves", c)

	var md bytes.Buffer
	Markdown(&md, c)
	if !strings.Contains(md.String(), "**Regressed**") || !strings.Contains(md.String(), "#### What moved in the action columns") {
		t.Errorf("Markdown does not lead with the action regression:\n%s", md.String())
	}

	// The same runs at a level where nothing is significant are noise.
	c.SetAlpha(1e-9)
	if regs := c.ActionRegressions(); len(regs) != 0 {
		t.Errorf("at alpha 1e-9, action regressions %+v", regs)
	}
}

// TestActionColumnsAbsent: runs without action cases compare as before,
// and a kind only one run has is added or removed, not tested.
func TestActionColumnsAbsent(t *testing.T) {
	s := testSuite(3)
	base, nw := testRun(s, "base", allPass), testRun(s, "new", allPass)
	gb, gn := grade.Run(s, base), grade.Run(s, nw)
	if c := Compare(base, nw, gb, gn); len(c.Actions) != 0 {
		t.Errorf("runs without action cases have action rows: %+v", c.Actions)
	}
	gn.Actions = actionResult("fake:perfect", 20, 20)
	c := Compare(base, nw, gb, gn)
	if len(c.Actions) == 0 {
		t.Fatal("no action rows")
	}
	for _, r := range c.Actions {
		if r.Verdict != Added || r.Significant {
			t.Errorf("%s %s: verdict %q, significant %v; want added", r.Scope(), r.Name, r.Verdict, r.Significant)
		}
	}
}
