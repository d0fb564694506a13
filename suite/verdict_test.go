package suite

import "testing"

// TestVerdictSettings checks decline_phrases and tool_errors: read when
// right, refused at the line that is wrong.
func TestVerdictSettings(t *testing.T) {
	const cases = "cases:\n  - id: a/b\n    prompt: p\n    decline: true\n"
	s, err := Load(write(t, t.TempDir(), "suite.yaml", "name: x\ntool_errors: note\ndecline_phrases: [Not Permitted]\n"+cases))
	if err != nil {
		t.Fatal(err)
	}
	if s.FailsOnToolErrors() || len(s.DeclinePhrases) != 1 || s.DeclinePhrases[0] != "Not Permitted" {
		t.Errorf("tool_errors %q (fails %v), decline_phrases %q", s.ToolErrors, s.FailsOnToolErrors(), s.DeclinePhrases)
	}
	s, err = Load(write(t, t.TempDir(), "suite.yaml", "name: x\n"+cases))
	if err != nil || !s.FailsOnToolErrors() {
		t.Errorf("without tool_errors: fails on tool errors %v, %v; want true", s != nil && s.FailsOnToolErrors(), err)
	}
	for _, tc := range []struct{ name, body, want string }{
		{"unknown tool_errors", "name: x\ntool_errors: ignore\n" + cases, `suite.yaml:2: tool_errors "ignore": want fail or note`},
		{"empty decline phrase", "name: x\nattempts: 2\ndecline_phrases: [\"\"]\n" + cases, "suite.yaml:3: decline_phrases 1 is empty"},
		{"decline_phrases as a string", "name: x\ndecline_phrases: no\n" + cases, "suite.yaml:2:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(write(t, t.TempDir(), "suite.yaml", tc.body))
			wantLoadError(t, err, tc.want)
		})
	}
}
