package suite

import "testing"

const elicitSuite = `name: demo
target: builtin:household
elicitation: {action: accept, content: {name: Ada}}
cases:
  - id: a/one
    prompt: Hi?
    decline: true
  - id: a/list
    prompt: Hi?
    decline: true
    elicitation:
      - {match: "(?i)delete", action: decline}
      - {match: "name", action: accept, content: {name: Grace}}
`

// TestElicitationPerRequest: a case's list of answers answers each
// request with its first entry whose match matches the server's message,
// none when no entry does; a single answer answers every request, and a
// case without one takes the suite's.
func TestElicitationPerRequest(t *testing.T) {
	s, err := Load(write(t, t.TempDir(), "suite.yaml", elicitSuite))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id, message string
		want        string // the action, "" for none
		name        any
	}{
		{"a/one", "Delete the file?", ElicitAccept, "Ada"},
		{"a/list", "Really DELETE the file?", ElicitDecline, nil},
		{"a/list", "Your name, please", ElicitAccept, "Grace"},
		{"a/list", "Your age?", "", nil},
	} {
		e, set := s.ElicitationFor(s.Case(tc.id), tc.message)
		got := ""
		if e != nil {
			got = e.Action
		}
		if !set || got != tc.want || e != nil && e.Content["name"] != tc.name {
			t.Errorf("%s, %q: answered %+v (set %v); want %q with name %v", tc.id, tc.message, e, set, tc.want, tc.name)
		}
	}
	if e, set := (&Suite{}).ElicitationFor(&Case{}, "x"); e != nil || set {
		t.Errorf("no answer set: got %+v, set %v", e, set)
	}
}

func TestElicitationErrors(t *testing.T) {
	for _, tc := range []struct {
		name, elicitation string
		want              string
	}{
		{"bad match", `[{match: "(x", action: decline}, {action: accept}]`, `case a/b: elicitation: answer 1: match "(x" is not a regular expression`},
		{"content on a decline", `[{match: x, action: accept}, {action: decline, content: {a: 1}}]`, "case a/b: elicitation: answer 2: content is for action accept only"},
		{"bad action", `{action: maybe}`, `case a/b: elicitation: action "maybe": want accept, decline or cancel`},
		{"empty list", `[]`, "elicitation is an empty list"},
		{"a string", `decline`, "elicitation is a mapping (one answer for every request) or a list of answers"},
		{"unknown field", `[{matches: x, action: decline}]`, `unknown field "matches" in an elicitation answer`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := "name: demo\ntarget: builtin:household\ncases:\n  - id: a/b\n    prompt: Hi?\n    decline: true\n    elicitation: " + tc.elicitation + "\n"
			_, err := Load(write(t, t.TempDir(), "suite.yaml", body))
			wantLoadError(t, err, tc.want)
		})
	}
}
