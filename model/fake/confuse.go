package fake

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

// Confuse is the name of the fake that mistakes one tool for another:
// fake:confuse;want=A;call=B plays every case as fake:perfect does, but
// calls tool B, with the arguments the key gives A, wherever the key
// calls A. Its tool confusion (grade.Confusion) has exactly one cell off
// the diagonal: (A, B).
const Confuse = "confuse"

// NewWithOptions returns the fake model name over suite s with the spec's
// options: fake:confuse takes want (the tool the key calls) and call (the
// tool it calls instead), and no other fake takes any.
func NewWithOptions(name string, options map[string]string, s *suite.Suite) (*Model, error) {
	if name != Confuse {
		if len(options) > 0 {
			return nil, fmt.Errorf("fake:%s takes no options (only fake:%s does: want=TOOL;call=TOOL)", name, Confuse)
		}
		return New(name, s)
	}
	want, call := options["want"], options["call"]
	for k := range options {
		if k != "want" && k != "call" {
			return nil, fmt.Errorf("fake:%s: unknown option %q (it takes want=TOOL and call=TOOL)", Confuse, k)
		}
	}
	if want == "" || call == "" {
		return nil, fmt.Errorf("fake:%s needs both want=TOOL (the tool the key calls) and call=TOOL (the tool to call instead)", Confuse)
	}
	if want == call {
		return nil, fmt.Errorf("fake:%s: want and call are both %q: nothing to confuse", Confuse, want)
	}
	if s != nil && !keyCalls(s, want) {
		return nil, fmt.Errorf("fake:%s: no case of suite %s has a key that calls %q", Confuse, s.Name, want)
	}
	return &Model{s: s, b: confuse(want, call), name: Confuse}, nil
}

// confuse is fake:perfect with every call of want made to call instead.
func confuse(want, call string) Behaviour {
	perfect := behaviour(perfectVariant)
	return func(c *suite.Case, turn int, req *model.Request) model.Message {
		msg := perfect(c, turn, req)
		for _, b := range msg.Blocks {
			if b.Call != nil && b.Call.Name == want {
				b.Call.Name = call
			}
		}
		return msg
	}
}

// keyCalls reports whether some case of s has a key, or an action case
// steps, that call tool.
func keyCalls(s *suite.Suite, tool string) bool {
	for _, c := range s.Cases {
		if slices.ContainsFunc(c.Key.Calls, func(k suite.KeyCall) bool { return k.Tool == tool }) {
			return true
		}
		if c.Action != nil && slices.ContainsFunc(c.Action.Steps, func(st suite.Step) bool { return st.Tool == tool }) {
			return true
		}
	}
	return false
}

// allNames lists the fakes for messages, fake:confuse with its options.
func allNames() string {
	return strings.Join(append(Names(), Confuse+";want=TOOL;call=TOOL"), ", ")
}
