package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/mcpeval/mcpeval/internal/builtin"
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

// apply adds the flags' headers, environment and connect timeout to t,
// each refused where it cannot apply.
func (f targetFlags) apply(t *target.Config) error {
	if err := addTargetFlags(t, f.headers, f.envs); err != nil {
		return err
	}
	f.timeout.apply(t)
	return nil
}

// specTarget returns the target a command-line spec names (a spec, or
// FILE.json#NAME), checked, with the flags applied. A bad spec is bad
// input.
func specTarget(spec string, f targetFlags) (target.Config, error) {
	tcfg, err := flagTarget(spec)
	tcfg.Builtins = builtin.All()
	if err == nil {
		err = tcfg.Check()
	}
	if err != nil {
		return tcfg, badInput(err)
	}
	return tcfg, f.apply(&tcfg)
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

// apply sets t's connect timeout when the flag was given.
func (c connectTimeout) apply(t *target.Config) {
	if c > 0 {
		t.ConnectTimeout = time.Duration(c)
	}
}
