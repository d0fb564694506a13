package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/mcpeval/mcpeval/target"
)

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
