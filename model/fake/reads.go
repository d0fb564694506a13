package fake

import (
	"math"
	"strings"

	"github.com/mcpeval/mcpeval/grade/figures"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

// reads is fake:reads: it makes the key's calls and asks the key's
// questions as fake:perfect does, then answers from what the tools
// returned rather than from the key: it states each of the case's figures
// that a tool result it was shown holds as a number, and says it could not
// find the others. A case whose figure is worked out from several numbers
// fails under it; one whose figure a tool states passes until an output
// overlay takes the number out of what the model is shown. On an action
// case, and a case that declines, it answers as fake:perfect does.
func reads(c *suite.Case, turn int, req *model.Request) model.Message {
	perfect := behaviour(perfectVariant)(c, turn, req)
	if c.Action != nil || c.Decline || len(c.Figures) == 0 || turn < len(c.Key.Asks)+len(c.Key.Calls) {
		return perfect
	}
	var shown []float64
	for _, m := range req.Messages {
		for _, b := range m.Blocks {
			if b.Kind == model.ToolResult && b.Result != nil && !b.Result.IsError {
				for _, f := range figures.Extract(b.Result.Content) {
					if !f.IsDate {
						shown = append(shown, f.Value)
					}
				}
			}
		}
	}
	var found, missing []string
	for _, f := range c.Figures {
		if v, ok := nearest(shown, f.Value); ok {
			found = append(found, FormatFigure(f, v))
		} else {
			label := f.Label
			if label == "" {
				label = "figure asked for"
			}
			missing = append(missing, label)
		}
	}
	var parts []string
	if len(found) > 0 {
		parts = append(parts, "From what the tools returned: "+strings.Join(found, "; ")+".")
	}
	if len(missing) > 0 {
		parts = append(parts, "The tools did not return the "+strings.Join(missing, " or the ")+", so I won't give a figure for it.")
	}
	return Say(strings.Join(parts, " "))
}

// nearest returns the number of shown that is want, to the cent.
func nearest(shown []float64, want float64) (float64, bool) {
	for _, v := range shown {
		if math.Abs(v-want) < 0.005 {
			return v, true
		}
	}
	return 0, false
}
