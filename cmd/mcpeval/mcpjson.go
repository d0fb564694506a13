package main

import (
	"github.com/mcpeval/mcpeval/target"
)

// flagTarget returns the target --target gives: a spec (builtin:NAME,
// stdio:COMMAND, an http(s) URL), or a server of an mcp.json file as
// FILE.json or FILE.json#NAME.
func flagTarget(spec string) (target.Config, error) {
	if !target.IsMCPJSONRef(spec) {
		return target.Config{Spec: spec}, nil
	}
	return target.FromMCPJSON(target.SplitMCPJSONRef(spec))
}
