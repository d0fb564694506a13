package suite

import (
	"errors"
	"slices"
)

// ToolChoice is a case's tool_choice: what its first model request asks of
// the model's use of tools. It is written as auto, any or none, or as
// {tool: NAME}.
type ToolChoice struct {
	// Mode is "auto" (call tools or answer, the providers' default), "any"
	// (some tool must be called), "none" (no tool may be) or "tool" (Tool
	// must be called).
	Mode string `yaml:"-"`
	// Tool is the tool a "tool" choice names.
	Tool string `yaml:"tool"`
}

// The modes of a ToolChoice.
const (
	ChoiceAuto = "auto"
	ChoiceAny  = "any"
	ChoiceNone = "none"
	ChoiceTool = "tool"
)

// UnmarshalYAML reads a ToolChoice from a mode or a {tool: NAME} mapping.
func (t *ToolChoice) UnmarshalYAML(construct func(any) error) error {
	var mode string
	if err := construct(&mode); err == nil {
		*t = ToolChoice{Mode: mode}
		return nil
	}
	var m struct {
		Tool string `yaml:"tool"`
	}
	if err := construct(&m); err != nil {
		return errors.New("tool_choice: want auto, any, none or {tool: NAME}")
	}
	*t = ToolChoice{Mode: ChoiceTool, Tool: m.Tool}
	return nil
}

// MarshalYAML writes the choice back as a suite holds it.
func (t ToolChoice) MarshalYAML() (any, error) {
	if t.Mode == ChoiceTool {
		return map[string]string{"tool": t.Tool}, nil
	}
	return t.Mode, nil
}

// String returns "auto", "any", "none" or "tool:NAME".
func (t ToolChoice) String() string {
	if t.Mode == ChoiceTool {
		return "tool:" + t.Tool
	}
	return t.Mode
}

// checkToolChoices checks every case's tool_choice: a known mode, a named
// tool the case is shown, and no choice that makes every attempt of a
// tool-call case fail.
func (l *loader) checkToolChoices(s *Suite) {
	for _, c := range s.Cases {
		tc := c.ToolChoice
		if tc == nil {
			continue
		}
		at := func(format string, args ...any) {
			l.errorf(c.File, c.Line, 0, "case %s: "+format, append([]any{c.ID}, args...)...)
		}
		switch tc.Mode {
		case ChoiceAuto, ChoiceAny:
		case ChoiceNone:
			if c.IsToolCall() {
				at("tool_choice none forbids the tool call a tool-call case asserts: want auto, any or {tool: NAME}")
			}
		case ChoiceTool:
			switch {
			case tc.Tool == "":
				at("tool_choice names no tool: want {tool: NAME}")
			case !s.Shows(c, tc.Tool):
				at("tool_choice names %s, but the tools filter (include/exclude) hides it from the model", tc.Tool)
			case c.IsToolCall() && len(c.ExpectTools) > 0 && !slices.Contains(c.ExpectTools, tc.Tool):
				at("tool_choice makes the model call %s, which expect_tools does not list: every attempt would fail", tc.Tool)
			}
		default:
			at("tool_choice %q: want auto, any, none or {tool: NAME}", tc.Mode)
		}
	}
}
