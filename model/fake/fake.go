package fake

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

// Behaviour answers one turn of a case's conversation. turn counts the
// model turns already taken (0 for the first).
type Behaviour func(c *suite.Case, turn int, req *model.Request) model.Message

// behaviours are the fake models by name: the one registry of fakes, the
// same whatever else is imported.
var behaviours = map[string]Behaviour{
	"perfect":      behaviour(perfectVariant),
	"refuse":       refuse,
	"invent":       invent,
	"wrong-args":   behaviour(wrongArgsVariant),
	"no-confirm":   behaviour(noConfirmVariant),
	"declines":     behaviour(declinesVariant),
	"extra-change": behaviour(extraChangeVariant),
	"gives-up":     behaviour(givesUpVariant),
	"user":         user,
	// It answers from the tool results it was shown, not from the key:
	// the proof that an output overlay reaches the model.
	"reads": reads,
	// The fakes of a conversation: they differ from fake:perfect only on
	// a case whose key asks the user something.
	"acts-first":     behaviour(actsFirstVariant),
	"ignores-answer": behaviour(ignoresAnswerVariant),
	"asks-forever":   behaviour(asksForeverVariant),
}

// Names lists the fake models.
func Names() []string {
	ns := slices.Sorted(maps.Keys(behaviours))
	return ns
}

// Model is a fake model over one suite.
type Model struct {
	s    *suite.Suite
	b    Behaviour
	name string
}

// New returns the fake model name over suite s.
func New(name string, s *suite.Suite) (*Model, error) {
	b, ok := behaviours[name]
	if !ok {
		return nil, fmt.Errorf("no fake model %q (have %s)", name, allNames())
	}
	return &Model{s: s, b: b, name: name}, nil
}

// Generate implements model.Model.
func (m *Model) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if req.Sampling {
		return &model.Response{Message: model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.Text, Text: SampledText(m.name)}}}, StopReason: "end_turn"}, nil
	}
	c := m.s.Case(req.CaseID)
	if c == nil {
		return nil, fmt.Errorf("fake model: no case %q in suite %s", req.CaseID, m.s.Name)
	}
	msg := m.b(c, Turns(req), req)
	msg.Role = model.Assistant
	shownAs(msg, req.Tools)
	stop := "end_turn"
	if len(msg.Calls()) > 0 {
		stop = "tool_use"
	}
	return &model.Response{Message: msg, StopReason: stop}, nil
}

// SampledText is what the fake model name answers every server's
// sampling request with, whatever it asks: a fixed text that says it
// is a fake.
func SampledText(name string) string {
	return "fake:" + name + " answers sampling with this fixed text; no model was asked"
}

// Turns counts the assistant turns already in req.
func Turns(req *model.Request) int {
	n := 0
	for _, m := range req.Messages {
		if m.Role == model.Assistant {
			n++
		}
	}
	return n
}

// Say returns an assistant message with text only.
func Say(text string) model.Message {
	return model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.Text, Text: text}}}
}

// CallMsg returns an assistant message making the given calls.
func CallMsg(turn int, calls ...suite.KeyCall) model.Message {
	msg := model.Message{Role: model.Assistant}
	for i, k := range calls {
		args := k.Args
		if args == nil {
			args = map[string]any{}
		}
		b, _ := json.Marshal(args)
		msg.Blocks = append(msg.Blocks, model.Block{Kind: model.ToolUse, Call: &model.Call{
			ID: fmt.Sprintf("call_%d_%d", turn+1, i+1), Name: k.Tool, Args: b}})
	}
	return msg
}

// PerfectAnswer is the answer fake:perfect gives: the key's answer, or the
// expected figures stated plainly.
func PerfectAnswer(c *suite.Case) string {
	if c.Key.Answer != "" {
		return c.Key.Answer
	}
	if c.Decline || len(c.Figures) == 0 {
		return "The data available to me cannot answer that, so I won't give a figure."
	}
	var parts []string
	for _, f := range c.Figures {
		parts = append(parts, FormatFigure(f, f.Value))
	}
	return "From your data: " + strings.Join(parts, "; ") + "."
}

func refuse(*suite.Case, int, *model.Request) model.Message {
	return Say("I'm sorry, I can't help with that.")
}

func invent(c *suite.Case, _ int, _ *model.Request) model.Message {
	if len(c.Figures) == 0 {
		return Say("It's SGD 123,457, up 4.2% on last month.")
	}
	var parts []string
	for _, f := range c.Figures {
		v := f.Value*1.37 + 11
		if f.Kind == suite.Count {
			v = f.Value + 7
		}
		parts = append(parts, FormatFigure(f, v))
	}
	return Say("It's " + strings.Join(parts, " and ") + ".")
}

// FormatFigure writes value as figure f would be written in an answer:
// "SGD 2,394,755", "17.2%", "450 units".
func FormatFigure(f suite.Figure, value float64) string {
	switch f.Kind {
	case suite.Percent:
		return fmt.Sprintf("%.1f%%", value)
	case suite.Count:
		s := Group(value, 0)
		if f.Unit != "" {
			s += " " + f.Unit
		}
		return s
	default:
		cur := f.Currency
		if cur == "" {
			cur = "SGD"
		}
		dec := 0
		if value != float64(int64(value)) {
			dec = 2
		}
		return cur + " " + Group(value, dec)
	}
}

// Group formats v with thousands separators and dec decimals.
func Group(v float64, dec int) string {
	neg := v < 0
	if neg {
		v = -v
	}
	s := fmt.Sprintf("%.*f", dec, v)
	intPart, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, ch := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	out := b.String()
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}

// shownAs renames each call of a tool the key names SERVER/TOOL (a suite
// of several servers) to the name the request shows it under:
// SERVER__TOOL where several servers list TOOL, else TOOL.
func shownAs(msg model.Message, tools []model.Tool) {
	shown := map[string]bool{}
	for _, t := range tools {
		shown[t.Name] = true
	}
	for _, b := range msg.Blocks {
		if b.Call != nil {
			b.Call.Name = shownName(b.Call.Name, shown)
		}
	}
}

// shownName returns the name a tool the suite names SERVER/TOOL is shown
// under, given the names shown: SERVER__TOOL, else TOOL. Any other name
// is returned as it is.
func shownName[V any](name string, shown map[string]V) string {
	server, tool, ok := strings.Cut(name, "/")
	if _, as := shown[name]; !ok || as {
		return name
	}
	if p := server + "__" + tool; hasKey(shown, p) {
		return p
	}
	return tool
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}
