package main

import (
	"flag"
	"strings"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// targetFlag is --target, as run, validate and coverage take it: one SPEC
// replacing the target of a suite of one server, or, for a suite of
// several (targets:), NAME=SPEC replacing that server alone, repeatable.
type targetFlag []string

func (t *targetFlag) String() string { return strings.Join(*t, " ") }

// Set implements flag.Value.
func (t *targetFlag) Set(v string) error {
	*t = append(*t, v)
	return nil
}

// register adds --target to fs.
func (t *targetFlag) register(fs *flag.FlagSet) {
	fs.Var(t, "target", "target `SPEC` (default: the suite's); for a suite of several servers, NAME=SPEC replaces the server NAME alone (repeatable)")
}

// resolveTarget returns the target runner.ResolveTarget makes of suite s
// (nil: of the one spec o.Specs gives) and the command's flags in o,
// checked, with the builtin servers. A refusal is bad input.
func resolveTarget(s *suite.Suite, o runner.TargetOverrides) (target.Config, error) {
	o.Base.Builtins, o.Check = builtin.All(), true
	t, err := runner.ResolveTarget(s, o)
	if err != nil {
		return t, badInput(err)
	}
	return t, nil
}
