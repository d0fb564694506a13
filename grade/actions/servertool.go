package actions

import (
	"sync"

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
	return resolverFor(h, tools).Case(c)
}

// lastResolver is the resolver of the run graded last: grading reads
// every attempt of a run through one.
var lastResolver struct {
	sync.Mutex
	h     *record.Header
	tools []record.Tool
	r     *suite.ToolResolver
}

// resolverFor returns the resolver of the run with header h, whose tools
// are tools, made once for as long as the same run is graded.
func resolverFor(h *record.Header, tools []record.Tool) *suite.ToolResolver {
	lr := &lastResolver
	lr.Lock()
	defer lr.Unlock()
	if lr.h == h && len(lr.tools) == len(tools) && &lr.tools[0] == &tools[0] {
		return lr.r
	}
	served := make([]suite.ServedTool, 0, len(tools))
	for _, t := range tools {
		name := t.ServerTool
		if name == "" {
			name = t.Name
		}
		served = append(served, suite.ServedTool{Name: t.Name, Server: t.Server, Tool: name})
	}
	lr.h, lr.tools, lr.r = h, tools, suite.NewToolResolver(served)
	return lr.r
}
