package script

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
)

const sample = `single-tool/net-worth-now:
  - call: get_net_worth            # one tool call in a model turn
    args: {}
  - calls:                          # several calls in one model turn
      - {name: get_holdings, args: {}}
      - {name: get_upcoming_vests, args: {months: 7}}
  - say: "Your net worth is S$2,394,755."
broken/args:
  - call: get_net_worth_history
    args: '{"months": 7'
  - say: ""
`

func TestReplay(t *testing.T) {
	s, err := Parse([]byte(sample), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	req := &model.Request{CaseID: "single-tool/net-worth-now"}
	var turns []model.Message
	for i := 0; i < 3; i++ {
		resp, err := s.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		turns = append(turns, resp.Message)
		req.Messages = append(req.Messages, resp.Message)
	}
	if c := turns[0].Calls(); len(c) != 1 || c[0].Name != "get_net_worth" || string(c[0].Args) != "{}" {
		t.Errorf("turn 1 calls %+v", c)
	}
	if c := turns[1].Calls(); len(c) != 2 || c[1].Name != "get_upcoming_vests" || string(c[1].Args) != `{"months":7}` || c[0].ID == c[1].ID {
		t.Errorf("turn 2 calls %+v", c)
	}
	if turns[2].TextOf() != "Your net worth is S$2,394,755." || len(turns[2].Calls()) != 0 {
		t.Errorf("turn 3 %+v", turns[2])
	}
	// A malformed call is replayed verbatim, never repaired.
	resp, _ := s.Generate(context.Background(), &model.Request{CaseID: "broken/args"})
	if c := resp.Message.Calls(); string(c[0].Args) != `{"months": 7` {
		t.Errorf("malformed args replayed as %q", c[0].Args)
	}
	// A case not in the script gets the fixed answer and no calls.
	resp, _ = s.Generate(context.Background(), &model.Request{CaseID: "other/case"})
	if resp.Message.TextOf() != NotInScript || len(resp.Message.Calls()) != 0 {
		t.Errorf("unscripted case: %+v", resp.Message)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"not a mapping", "- a\n- b\n", "s.yaml:1:1: want a mapping"},
		{"turns not a list", "a/b: hello\n", "s.yaml:1:6: case a/b: want a list of turns"},
		{"unknown key", "a/b:\n  - cal: x\n", `s.yaml:2:5: case a/b: unknown key "cal"`},
		{"two kinds", "a/b:\n  - call: x\n    say: y\n", "s.yaml:2:5: case a/b: a turn has exactly one of"},
		{"args without call", "a/b:\n  - say: y\n    args: {}\n", "s.yaml:2:5: case a/b: args goes with call"},
		{"call without name", "a/b:\n  - calls:\n      - {args: {}}\n", "calls: a call has no name"},
		{"syntax", "a/b: [\n", "s.yaml:"},
		{"duplicate", "a/b:\n  - say: x\na/b:\n  - say: y\n", "s.yaml:3:1"},
		{"invalid utf8", "a/b:\n  - say: \xff\n", "not valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.body), "s.yaml")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse: %v, want %q", err, tc.want)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("a: [\n"))
	f.Add([]byte("a/b:\n  - calls: [{name: x, args: {a: [1, {b: c}]}}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "f.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yaml") {
				t.Errorf("error not located: %v", err)
			}
			return
		}
		for id := range s.Cases {
			s.Generate(context.Background(), &model.Request{CaseID: id})
		}
	})
}
