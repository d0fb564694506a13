// Package script provides script:FILE, a model that replays turns written
// in a YAML file, keyed by case id. The same turns are replayed on every
// attempt; a case not in the file gets the answer "I can't help with that."
// and no tool calls.
//
//	single-tool/net-worth-now:
//	  - call: get_net_worth            # one tool call in a model turn
//	    args: {}
//	  - calls:                          # several calls in one model turn
//	      - {name: get_holdings, args: {}}
//	      - {name: get_upcoming_vests, args: {}}
//	  - say: "Your net worth is S$2,394,755."   # the final answer
//
// Strings in a script may name {{token}} and {{fact.NAME}}, as the suite's
// own files do: in every argument value (keys are left alone) and in every
// answer, they become the values of the attempt being answered, read back
// from the prompt the model was sent (matched against the case's prompt
// template, so a placeholder the prompt does not show has no value and is
// left as written). That is how a script acts on what an action case's
// fixtures built under the attempt's fresh token:
//
//	write/note:
//	  - call: write_file
//	    args: {path: "notes-{{token}}.txt", content: "milk, eggs"}
//	  - say: "I wrote notes-{{token}}.txt."
//
// The turns are replayed in order, one a model turn, whoever spoke before
// it: on a case with user turns (its turns:), the turn after a say that
// asks answers the user's reply.
//
// A script proves what the graders do with a given answer; it is a fake
// and its runs are never published.
package script

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/internal/yamlloc"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
	"go.yaml.in/yaml/v4"
)

// NotInScript is the answer to a case the script does not name.
const NotInScript = "I can't help with that."

// Turn is one scripted model turn: tool calls, or a final answer.
type Turn struct {
	Calls []Call
	Say   string
	// IsSay is true for a final answer (which may be empty).
	IsSay bool
}

// Call is one scripted tool call.
type Call struct {
	Name string
	// Args is written to the model's call verbatim, as JSON.
	Args json.RawMessage
}

// Script is a parsed script file.
type Script struct {
	Path  string
	Cases map[string][]Turn
	// Suite is the suite the script answers, for the prompt templates its
	// {{token}} and {{fact.NAME}} are read back from; without it they are
	// sent as written.
	Suite *suite.Suite
	// Lines are the lines of the case ids in the file, for CheckCases.
	Lines map[string]int
}

// MaxSize is the largest script file read.
const MaxSize = 8 << 20

// Load reads a script file.
func Load(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading script: %w", err)
	}
	return Parse(data, path)
}

// Parse reads a script from data; name is used in error messages, which
// are all of the form name:line:col: message.
func Parse(data []byte, name string) (*Script, error) {
	if len(data) > MaxSize {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d a script may have", name, len(data), MaxSize)
	}
	if line := yamlloc.InvalidUTF8Line(data); line > 0 {
		return nil, fmt.Errorf("%s:%d: not valid UTF-8: a script is UTF-8 text", name, line)
	}
	var doc yaml.Node
	if err := yaml.Load(data, &doc); err != nil {
		return nil, locate(name, data, err)
	}
	s := &Script{Path: name, Cases: map[string][]Turn{}}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return s, nil
	}
	root := doc.Content[0]
	if doc.Kind == yaml.DocumentNode && root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return s, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d:%d: want a mapping of case id to a list of turns", name, root.Line, root.Column)
	}
	var errs []error
	bad := func(n *yaml.Node, format string, args ...any) {
		msg := strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", `\n`) // one error, one line
		errs = append(errs, fmt.Errorf("%s:%d:%d: %s", name, n.Line, n.Column, msg))
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		id := k.Value
		s.Lines = setLine(s.Lines, id, k.Line)
		if _, dup := s.Cases[id]; dup {
			bad(k, "case %s scripted twice", id)
			continue
		}
		if v.Kind != yaml.SequenceNode {
			bad(v, "case %s: want a list of turns (call, calls or say)", id)
			continue
		}
		var turns []Turn
		for _, t := range v.Content {
			turn, err := parseTurn(t)
			if err != nil {
				bad(t, "case %s: %v", id, err)
				continue
			}
			turns = append(turns, turn)
		}
		s.Cases[id] = turns
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return s, nil
}

func locate(name string, data []byte, err error) error {
	ps := yamlloc.Problems(data, err)
	if ps == nil {
		return fmt.Errorf("%s:1: %v", name, err)
	}
	errs := make([]error, len(ps))
	for i, p := range ps {
		errs[i] = fmt.Errorf("%s:%d:%d: %s", name, p.Line, p.Col, strings.ReplaceAll(p.Msg, "\n", `\n`))
	}
	return errors.Join(errs...)
}

func parseTurn(n *yaml.Node) (Turn, error) {
	if n.Kind != yaml.MappingNode {
		return Turn{}, errors.New("a turn is a mapping with call (and args), calls, or say")
	}
	var t Turn
	var call *Call
	var args *yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		seen[k] = true
		switch k {
		case "call":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				return Turn{}, errors.New("call: want a tool name")
			}
			call = &Call{Name: v.Value}
		case "args":
			args = v
		case "calls":
			if v.Kind != yaml.SequenceNode {
				return Turn{}, errors.New("calls: want a list of {name, args}")
			}
			for _, c := range v.Content {
				cc, err := parseCall(c)
				if err != nil {
					return Turn{}, err
				}
				t.Calls = append(t.Calls, cc)
			}
		case "say":
			if v.Kind != yaml.ScalarNode {
				return Turn{}, errors.New("say: want the answer as text")
			}
			t.Say, t.IsSay = v.Value, true
		default:
			return Turn{}, fmt.Errorf("unknown key %q: a turn has call (and args), calls, or say", k)
		}
	}
	kinds := 0
	for _, k := range []string{"call", "calls", "say"} {
		if seen[k] {
			kinds++
		}
	}
	if kinds != 1 {
		return Turn{}, errors.New("a turn has exactly one of call, calls or say")
	}
	if args != nil && call == nil {
		return Turn{}, errors.New("args goes with call")
	}
	if call != nil {
		raw, err := argsJSON(args)
		if err != nil {
			return Turn{}, err
		}
		call.Args = raw
		t.Calls = []Call{*call}
	}
	return t, nil
}

func parseCall(n *yaml.Node) (Call, error) {
	if n.Kind != yaml.MappingNode {
		return Call{}, errors.New("calls: each call is {name, args}")
	}
	var c Call
	var args *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch k, v := n.Content[i].Value, n.Content[i+1]; k {
		case "name":
			c.Name = v.Value
		case "args":
			args = v
		default:
			return Call{}, fmt.Errorf("calls: unknown key %q: want name, args", k)
		}
	}
	if c.Name == "" {
		return Call{}, errors.New("calls: a call has no name")
	}
	raw, err := argsJSON(args)
	if err != nil {
		return Call{}, err
	}
	c.Args = raw
	return c, nil
}

// argsJSON turns a YAML args node into JSON. A string scalar is taken as
// the raw JSON the model wrote, so scripts can replay malformed calls.
func argsJSON(n *yaml.Node) (json.RawMessage, error) {
	if n == nil {
		return json.RawMessage("{}"), nil
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		return json.RawMessage(n.Value), nil
	}
	var v any
	if err := n.Load(&v); err != nil {
		return nil, fmt.Errorf("args: %v", err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("args: %v", err)
	}
	return b, nil
}

// IDs lists the scripted case ids.
func (s *Script) IDs() []string {
	ids := slices.Sorted(maps.Keys(s.Cases))
	return ids
}

// Generate implements model.Model.
func (s *Script) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	turn := 0
	for _, m := range req.Messages {
		if m.Role == model.Assistant {
			turn++
		}
	}
	msg := model.Message{Role: model.Assistant}
	turns, ok := s.Cases[req.CaseID]
	switch {
	case !ok:
		msg.Blocks = []model.Block{{Kind: model.Text, Text: NotInScript}}
	case turn >= len(turns):
		msg.Blocks = []model.Block{{Kind: model.Text, Text: ""}}
	case turns[turn].IsSay:
		msg.Blocks = []model.Block{{Kind: model.Text, Text: render(turns[turn].Say, s.vars(req))}}
	default:
		vars := s.vars(req)
		for i, c := range turns[turn].Calls {
			msg.Blocks = append(msg.Blocks, model.Block{Kind: model.ToolUse, Call: &model.Call{
				ID: fmt.Sprintf("call_%d_%d", turn+1, i+1), Name: c.Name, Args: renderArgs(c.Args, vars)}})
		}
	}
	stop := "end_turn"
	if len(msg.Calls()) > 0 {
		stop = "tool_use"
	}
	return &model.Response{Message: msg, StopReason: stop}, nil
}

// vars are the values of the placeholders of the attempt req belongs to:
// those its case's prompt template takes in the prompt req starts with.
func (s *Script) vars(req *model.Request) suite.Vars {
	v := suite.Vars{Facts: map[string]string{}}
	if s.Suite == nil || len(req.Messages) == 0 {
		return v
	}
	c := s.Suite.Case(req.CaseID)
	if c == nil {
		return v
	}
	vals, ok := suite.MatchTemplate(c.Prompt, req.Messages[0].TextOf())
	if !ok {
		return v
	}
	for k, x := range vals {
		if k == "token" {
			v.Token = x
		} else if f, ok := strings.CutPrefix(k, "fact."); ok {
			v.Facts[f] = x
		}
	}
	return v
}

// render renders the placeholders of text that have a value and leaves
// the others as written.
func render(text string, v suite.Vars) string {
	out, _ := suite.Render(text, v)
	return out
}

// renderArgs renders the placeholders in the string values of a call's
// arguments. Arguments that are not valid JSON (a malformed call replayed
// on purpose) are rendered as text, each value escaped as inside a JSON
// string, and otherwise left as written.
func renderArgs(raw json.RawMessage, v suite.Vars) json.RawMessage {
	if !bytes.Contains(raw, []byte("{{")) {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if json.Valid(raw) && dec.Decode(&x) == nil {
		if b, err := json.Marshal(renderValue(x, v)); err == nil {
			return b
		}
		return raw
	}
	esc := suite.Vars{Token: escape(v.Token), Facts: map[string]string{}}
	for k, f := range v.Facts {
		esc.Facts[k] = escape(f)
	}
	return json.RawMessage(render(string(raw), esc))
}

// renderValue renders every string value in x, through maps and lists,
// leaving a placeholder with no value as written.
func renderValue(x any, v suite.Vars) any {
	switch x := x.(type) {
	case string:
		if r, err := suite.RenderValue(x, v); err == nil {
			return r
		}
		return render(x, v)
	case map[string]any:
		for k, e := range x {
			x[k] = renderValue(e, v)
		}
	case []any:
		for i, e := range x {
			x[i] = renderValue(e, v)
		}
	}
	return x
}

// escape writes s as it appears inside a JSON string.
func escape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
