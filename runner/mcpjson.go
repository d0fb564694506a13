package runner

import (
	"fmt"

	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// ResolveTarget returns the target suite s names: its target setting, or,
// when it reads the target from an mcp.json file (target: {from: FILE,
// name: NAME}), that file's server, with the suite's inherit_env and
// connect_timeout. The caller adds the builtin targets.
func ResolveTarget(s *suite.Suite) (target.Config, error) {
	if len(s.Targets) > 0 { // several servers
		return SuiteTargets(s)
	}
	if s.Target.From == "" {
		return SuiteTarget(s), nil
	}
	t, err := target.FromMCPJSON(s.TargetFile(), s.Target.Name)
	if err != nil {
		return t, fmt.Errorf("suite %s: target: %w", s.Path, err)
	}
	t.InheritEnv, t.ConnectTimeout = s.Target.InheritEnv, s.Target.ConnectTimeout
	return t, nil
}
