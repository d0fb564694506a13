package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/target"
)

// targetFlags are the flags of the commands that connect to a target
// named on the command line (tools, init, call): --target-header,
// --target-env and --connect-timeout.
type targetFlags struct {
	headers, envs repeated
	timeout       connectTimeout
}

// register adds the flags to fs.
func (f *targetFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.headers, "target-header", "send `NAME: VALUE` to an HTTP target; ${VAR} in VALUE is read from the environment and never shown; repeatable")
	fs.Var(&f.envs, "target-env", "set `KEY=VALUE` for a stdio target; ${VAR} in VALUE is read from the environment; repeatable")
	f.timeout.register(fs)
}

// overrides returns the flags as runner.ResolveTarget takes them, with
// specs in place of the suite's target.
func (f targetFlags) overrides(specs ...string) runner.TargetOverrides {
	return runner.TargetOverrides{Specs: specs, Headers: f.headers, Env: f.envs, ConnectTimeout: time.Duration(f.timeout)}
}

// specTarget returns the target a command-line spec names (a spec, or
// FILE.json#NAME), checked, with the flags applied. A bad spec is bad
// input.
func specTarget(spec string, f targetFlags) (target.Config, error) {
	return resolveTarget(nil, f.overrides(spec))
}

// connectTimeout is the --connect-timeout flag of the commands that start
// a target: how long starting it, its initialize handshake and listing
// its tools may each take. Zero leaves the suite's target.connect_timeout,
// else target.DefaultConnectTimeout.
type connectTimeout time.Duration

func (c *connectTimeout) register(fs *flag.FlagSet) {
	fs.Var(c, "connect-timeout", fmt.Sprintf("longest starting the target, its initialize handshake and listing its tools may each take (default: the suite's target.connect_timeout, else %s)", target.DefaultConnectTimeout))
}

func (c *connectTimeout) String() string {
	if c == nil || *c == 0 {
		return ""
	}
	return time.Duration(*c).String()
}

// Set refuses zero, negative and unparseable durations.
func (c *connectTimeout) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return fmt.Errorf("want a positive duration such as 45s")
	}
	*c = connectTimeout(d)
	return nil
}
