package report

import (
	"bytes"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
)

// hostileText is what a model, a server or its stderr might put in front
// of a reader: escape sequences, C1 controls, a bidi override.
const hostileText = "S$1\x1b[2J\x1b]0;owned\x07 \u009b31m \u202egnol\r"

// TestTerminalSafe checks that no text a model or a server wrote reaches
// a terminal able to act on it, in the text and Markdown reports.
func TestTerminalSafe(t *testing.T) {
	res := &grade.Result{RunID: "r", Model: "fake:x", Valid: true,
		Attempts: []grade.AttemptGrade{
			{Case: "a/b", N: 1, Outcome: grade.Fail, Reasons: []grade.Reason{{Check: "figures", Message: "answer says " + hostileText}},
				Judge: &grade.Opinion{Reason: hostileText, Model: "judge"}},
			{Case: "a/b", N: 2, Outcome: grade.Error, ErrorKind: "target", Reasons: []grade.Reason{{Check: "error", Message: "server stderr: " + hostileText}}},
		},
		Warnings: []string{"warning " + hostileText},
	}
	res.Totals.Failed, res.Totals.Errors, res.Totals.Graded = 1, 1, 1
	h := &record.Header{Target: record.TargetInfo{Spec: "stdio:srv", Server: record.Build{Name: hostileText, Version: "1"}}}
	var text, md bytes.Buffer
	if err := Text(&text, res, h, nil); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, res, h, nil); err != nil {
		t.Fatal(err)
	}
	invalid := *res
	invalid.Valid, invalid.Invalid = false, "preflight: total: expected 42, found "+hostileText
	var inv bytes.Buffer
	if err := Text(&inv, &invalid, h, nil); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string][]byte{"text": text.Bytes(), "markdown": md.Bytes(), "invalid": inv.Bytes()} {
		for _, r := range string(out) {
			if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || r == 0x202e {
				t.Errorf("%s report holds %U:\n%s", name, r, out)
				break
			}
		}
		if !bytes.Contains(out, []byte(`\x1b[2J`)) {
			t.Errorf("%s report does not show the escape sequence visibly:\n%s", name, out)
		}
	}
}
