package htmlreport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
)

// TestRunActions checks that a run page shows the action columns per
// model and kind, marks the model's figures for the ledger's check, and
// shows a hostile model name as text.
func TestRunActions(t *testing.T) {
	p := fixture(t)
	res := *p.Result
	res.Actions = reporttest.ActionReport(`<script>alert(1)</script>`)
	p.Result = &res
	page := render(t, p)
	got := checks(page)
	for k, v := range map[string]string{
		"action-pass": "60% 3/5", "action-reached": "100% 3/3", "action-first_time": "67% 2/3", "action-arguments": "83% 5/6",
		"action-confirmation": "—", "action-clean": "80% 4/5", "action-declined": "50% 1/2", "action-completion": "100% 5/5",
	} {
		if got[k] != v {
			t.Errorf("%s: page says %q, want %q", k, got[k], v)
		}
	}
	reporttest.Contains(t, "the page", page, "<h2>Action scores</h2>", "&nbsp;&nbsp;write", "&nbsp;&nbsp;decline", "provider 1", "[23%, 88%]", `title="Arguments: 83% [44%, 97%] n=6"`)
	if strings.Contains(page, "<script>alert(1)") || !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the model name is not escaped")
	}
	if n := strings.Count(page, `data-check="action-`); n != 8 {
		t.Errorf("%d action figures marked, want 8 (the model's row only)", n)
	}

	// A run without action cases has no action table.
	if page := render(t, fixture(t)); strings.Contains(page, "Action scores") {
		t.Error("a run without action cases shows an action table")
	}
	// Nor does a run of a suite with action cases that ran none of them.
	res = *p.Result
	res.Actions = &actions.Report{Suite: "report-test", Models: []actions.Row{{Model: "m", PassHigh: 1}}}
	p.Result = &res
	if page := render(t, p); strings.Contains(page, "Action scores") {
		t.Error("a run without action attempts shows an action table")
	}
}

// TestLedgerActions checks the ledger page's action figures.
func TestLedgerActions(t *testing.T) {
	key := "anthropic:m | builtin:ops | ops"
	row := LedgerRow{Key: key, Model: "anthropic:m", Target: "builtin:ops", Suite: "ops",
		Actions: []LedgerAction{{Key: "pass", Name: "Pass", Rate: format.Of(3, 5)}, {Key: "first_time", Name: "First time", Rate: format.Of(2, 3)}, {Key: "declined", Name: "Declined", Rate: format.Of(0, 0)}}}
	bare := LedgerRow{Key: "anthropic:m | builtin:household | household", Model: "anthropic:m"}
	var b bytes.Buffer
	if err := Ledger(&b, &LedgerPage{Rows: []LedgerRow{row, bare}}); err != nil {
		t.Fatal(err)
	}
	got := checks(b.String())
	for k, v := range map[string]string{key + "|action-pass": "60% 3/5", key + "|action-first_time": "67% 2/3", key + "|action-declined": "—"} {
		if got[k] != v {
			t.Errorf("%s: page says %q, want %q", k, got[k], v)
		}
	}
	for k := range got {
		if strings.HasPrefix(k, bare.Key+"|action-") {
			t.Errorf("a row without action columns shows %s", k)
		}
	}
	if !strings.Contains(b.String(), `title="First time: 67% [21%, 94%] n=3"`) {
		t.Errorf("the ledger page does not give the interval and n:\n%s", b.String())
	}
}
