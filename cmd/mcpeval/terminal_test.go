package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/audit"
	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/record"
)

// hostileText holds what must never reach a terminal raw: a CSI (clear
// screen), an OSC 52 (write the clipboard) ended by BEL, a C1 CSI, and a
// newline that would forge a line of output.
const hostileText = "x\x1b[2J\x1b]52;c;SGVsbG8=\x07\u009b31m\nINJECTED line"

// checkTerminal fails when out holds a control sequence or a forged line.
func checkTerminal(t *testing.T, where, out string) {
	t.Helper()
	if strings.ContainsAny(out, "\x1b\x07\u009b") {
		t.Errorf("%s prints a raw control sequence: %q", where, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "INJECTED") {
			t.Errorf("%s prints a forged line: %q", where, out)
		}
	}
	if !strings.Contains(out, `\x1b[2J`) {
		t.Errorf("%s does not show the escaped text at all: %q", where, out)
	}
}

// TestTerminalOutputsEscaped feeds ESC, OSC 52, C1 and newlines through
// every place the hardening pass found them printed raw: a case id and a
// group in the run table, a run id, model and suite name from a record
// header, tool names and case ids in coverage, and a provider's error
// text in probe.
func TestTerminalOutputsEscaped(t *testing.T) {
	res := &grade.Result{RunID: hostileText, Model: hostileText, Valid: true,
		Groups: []grade.GroupStats{{Name: hostileText}},
		Cases:  []grade.CaseStats{{ID: hostileText, Group: hostileText}},
	}
	h := &record.Header{RunID: hostileText, Filter: hostileText}
	h.Suite.Name = hostileText
	var b bytes.Buffer
	if err := report.Text(&b, res, h, nil); err != nil {
		t.Fatal(err)
	}
	checkTerminal(t, "the run table", b.String())

	cov := &audit.Coverage{Tools: []audit.ToolCoverage{{Tool: hostileText, Cases: []string{hostileText},
		Args: []audit.ArgCoverage{{Arg: hostileText, Uncovered: hostileText}}}}}
	b.Reset()
	if err := cov.Write(&b); err != nil {
		t.Fatal(err)
	}
	checkTerminal(t, "coverage", b.String())

	for api, spec := range providerSpecs {
		body := `{"error":{"type":"invalid_request_error","message":"bad \u001b[2J\u001b]52;c;SGVsbG8=\u0007\u009b31m\nINJECTED line"}}`
		wire(t, api, wiremodel.Fault{Status: 400, Body: body})
		stdout, stderr, _ := cli("probe", "--model", spec, "--spend")
		checkTerminal(t, "probe "+string(api), stdout+stderr)
	}
}
