package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcpeval/mcpeval/internal/buildinfo"
)

const versionHelp = `
Usage: mcpeval version [--json]
       mcpeval --version

Prints which mcpeval this is: its module version ("(devel)" for a build
from a checkout), the source revision the Go toolchain stamped into the
binary ("unknown" under go run, or a build without VCS stamping), whether
that source had uncommitted changes, and the Go release it was built
with. Every record names the same build; the suite's own commit is
recorded apart, from the suite's directory.

Examples:
  mcpeval version
  mcpeval --version
  mcpeval version --json
`

func init() {
	register(&command{name: "version", summary: "print mcpeval's version, source revision and Go release", run: versionCmd})
}

// versionJSON is what version --json prints.
type versionJSON struct {
	Name     string `json:"name"`
	Module   string `json:"module"`
	Version  string `json:"version"`
	Revision string `json:"revision"`
	Modified bool   `json:"modified"`
	Go       string `json:"go"`
}

func versionCmd(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "version", versionHelp)
	asJSON := fs.Bool("json", false, "print the build as JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q (see mcpeval help version)", pos[0])
	}
	b := buildinfo.Get()
	if *asJSON {
		return printJSON(e.stdout, versionJSON{Name: b.Name, Module: buildinfo.Module, Version: b.Version, Revision: b.Commit, Modified: b.Dirty, Go: b.Go})
	}
	rev := b.Commit
	if b.Dirty {
		rev += " (modified)"
	}
	fmt.Fprintf(e.stdout, "mcpeval %s\nrevision %s\n%s\n", b.Version, rev, b.Go)
	return nil
}

// printJSON writes v to w as indented JSON, for --json.
func printJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
