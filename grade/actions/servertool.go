package actions

import (
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// ServedCase returns case c as the run with header h must read it: when
// the run's target was several servers (its tools carry their server),
// every tool the case names SERVER/TOOL is named as the model was shown
// it, so that it matches the calls recorded of that server's tool; else
// c itself.
func ServedCase(c *suite.Case, h *record.Header) *suite.Case {
	if c == nil || h == nil {
		return c
	}
	tools := h.ServerTools // as listed, when an overlay changed what was shown
	if len(tools) == 0 {
		tools = h.Tools
	}
	if len(tools) == 0 || tools[0].Server == "" {
		return c
	}
	served := make([]suite.ServedTool, 0, len(tools))
	for _, t := range tools {
		name := t.ServerTool
		if name == "" {
			name = t.Name
		}
		served = append(served, suite.ServedTool{Name: t.Name, Server: t.Server, Tool: name})
	}
	return suite.ResolveCase(c, served)
}
