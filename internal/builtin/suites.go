package builtin

import (
	"embed"
	"fmt"
	"io/fs"
	"maps"
	"slices"

	"github.com/mcpeval/mcpeval/internal/builtin/household"
	"github.com/mcpeval/mcpeval/internal/builtin/mcpserver"
	"github.com/mcpeval/mcpeval/internal/builtin/ops"
	"github.com/mcpeval/mcpeval/suite"
)

// memory is the suite for the go-sdk's example memory server, a server
// mcpeval does not embed; the other suites live beside their servers.
//
//go:embed all:memory
var memory embed.FS

// suites maps each embedded suite's name to its files.
var suites = map[string]fs.FS{
	"household": household.Suite(),
	"ops":       ops.Suite(),
	"memory":    mcpserver.Suite(memory, "memory"),
}

// SuiteNames lists the embedded suites, so that `mcpeval run` works with
// no files of its own.
func SuiteNames() []string {
	return slices.Sorted(maps.Keys(suites))
}

// LoadSuite reads the embedded suite name. Each is a directory of YAML
// files a person edits, read by package suite as any other.
func LoadSuite(name string) (*suite.Suite, error) {
	f, ok := suites[name]
	if !ok {
		return nil, fmt.Errorf("no embedded suite %q (have %v)", name, SuiteNames())
	}
	return suite.LoadFS(f, ".", "embedded:"+name)
}
