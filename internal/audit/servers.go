package audit

import (
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// served returns suite s as the audits must read it against tools: when
// the tools are of several servers (each carries its server), with every
// tool the suite names SERVER/TOOL named as the model is shown it; else s
// itself. A name it cannot resolve is left as written, for the audit to
// report as unknown.
func served(s *suite.Suite, tools []record.Tool) *suite.Suite {
	if len(tools) == 0 || tools[0].Server == "" {
		return s
	}
	st := make([]suite.ServedTool, 0, len(tools))
	for _, t := range tools {
		name := t.ServerTool
		if name == "" {
			name = t.Name
		}
		st = append(st, suite.ServedTool{Name: t.Name, Server: t.Server, Tool: name})
	}
	r, _ := s.ResolveTools(st)
	return r
}
