package anthropic

import (
	"fmt"
	"slices"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/mcpeval/mcpeval/internal/toolname"
	"github.com/mcpeval/mcpeval/model"
)

// toolChoice maps a request's tool choice to the Messages API's
// tool_choice: {type: auto | any | none} or {type: tool, name}, the name
// on the wire. It refuses a tool the request does not offer, and a forced
// tool use with extended thinking, which the API refuses.
func (m *Model) toolChoice(req *model.Request, mp *toolname.Mapping) (sdk.ToolChoiceUnionParam, error) {
	tc := req.ToolChoice
	var u sdk.ToolChoiceUnionParam
	forced := tc.Mode == model.ChoiceAny || tc.Mode == model.ChoiceTool
	if forced && m.thinking.OfEnabled != nil || forced && m.thinking.OfAdaptive != nil {
		return u, fmt.Errorf("tool_choice %s forces a tool call, which the Messages API refuses with thinking on: leave thinking off for this suite", tc)
	}
	switch tc.Mode {
	case model.ChoiceAuto:
		u.OfAuto = &sdk.ToolChoiceAutoParam{}
	case model.ChoiceAny:
		u.OfAny = &sdk.ToolChoiceAnyParam{}
	case model.ChoiceNone:
		u.OfNone = &sdk.ToolChoiceNoneParam{}
	case model.ChoiceTool:
		if !slices.ContainsFunc(req.Tools, func(t model.Tool) bool { return t.Name == tc.Tool }) {
			return u, fmt.Errorf("tool_choice names %s, which the request does not offer", tc.Tool)
		}
		u.OfTool = &sdk.ToolChoiceToolParam{Name: mp.Wire(tc.Tool)}
	default:
		return u, fmt.Errorf("tool_choice %q: want auto, any, none or tool", tc.Mode)
	}
	return u, nil
}
