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

// overrideTarget returns the target of suite s that the --target values
// make: for a suite of one server, the one spec given; for a suite of
// several, the suite's servers with each NAME=SPEC given in place of the
// server NAME. Each spec is a target spec or FILE.json#NAME. A plain spec
// on a suite of several is refused, as are a server replaced twice and
// several specs for one server: bad input.
func overrideTarget(s *suite.Suite, values targetFlag) (target.Config, error) {
	if len(s.Targets) == 0 {
		if len(values) > 1 {
			return target.Config{}, usagef("--target is given %d times: suite %s has one target (NAME=SPEC replaces a server of a suite of several)", len(values), s.Name)
		}
		return checkedTarget(flagTarget(values[0])) // a spec, or FILE.json#NAME
	}
	t, err := runner.SuiteTargets(s)
	if err != nil {
		return t, badInput(err)
	}
	names := s.TargetNames()
	seen := map[string]bool{}
	for _, v := range values {
		name, spec, ok := s.ServerOverride(v)
		switch {
		case !ok:
			return t, usagef("--target %s: suite %s has several servers (%s): replace one with --target NAME=SPEC, as --target '%s=%s'",
				v, s.Name, strings.Join(names, ", "), names[0], v)
		case seen[name]:
			return t, usagef("--target %s=...: server %s is replaced twice", name, name)
		}
		seen[name] = true
		c, err := flagTarget(spec)
		if err != nil {
			return t, badInput(err)
		}
		for i := range t.Servers {
			if t.Servers[i].Name == name {
				t.Servers[i].Config = c
			}
		}
	}
	return checkedTarget(t, nil)
}

// checkedTarget returns t, with the builtin servers, once it is checked;
// err, or a failed check, is bad input.
func checkedTarget(t target.Config, err error) (target.Config, error) {
	t.Builtins = builtin.All()
	if err == nil {
		err = t.Check()
	}
	if err != nil {
		return t, badInput(err)
	}
	return t, nil
}
