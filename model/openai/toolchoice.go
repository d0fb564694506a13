package openai

import (
	"fmt"
	"slices"

	"github.com/mcpeval/mcpeval/internal/toolname"
	"github.com/mcpeval/mcpeval/model"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
)

// toolChoice maps a request's tool choice to chat completions'
// tool_choice: "auto", "required" (any), "none", or {type: function,
// function: {name}}, the name on the wire. It refuses a tool the request
// does not offer.
func toolChoice(req *model.Request, mp *toolname.Mapping) (sdk.ChatCompletionToolChoiceOptionUnionParam, error) {
	tc := req.ToolChoice
	var u sdk.ChatCompletionToolChoiceOptionUnionParam
	switch tc.Mode {
	case model.ChoiceAuto:
		u.OfAuto = param.NewOpt("auto")
	case model.ChoiceAny:
		u.OfAuto = param.NewOpt("required")
	case model.ChoiceNone:
		u.OfAuto = param.NewOpt("none")
	case model.ChoiceTool:
		if !slices.ContainsFunc(req.Tools, func(t model.Tool) bool { return t.Name == tc.Tool }) {
			return u, fmt.Errorf("tool_choice names %s, which the request does not offer", tc.Tool)
		}
		u.OfFunctionToolChoice = &sdk.ChatCompletionNamedToolChoiceParam{Function: sdk.ChatCompletionNamedToolChoiceFunctionParam{Name: mp.Wire(tc.Tool)}}
	default:
		return u, fmt.Errorf("tool_choice %q: want auto, any, none or tool", tc.Mode)
	}
	return u, nil
}
