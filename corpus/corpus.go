package corpus

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"

	"github.com/mcpeval/mcpeval/suite"
)

//go:embed all:household all:ops all:memory
var files embed.FS

// FS returns the embedded suites, one directory each.
func FS() fs.FS { return files }

// Names lists the embedded suites.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// Load reads the embedded suite name.
func Load(name string) (*suite.Suite, error) {
	if _, err := fs.Stat(files, name); err != nil {
		return nil, fmt.Errorf("no embedded suite %q (have %v)", name, Names())
	}
	return suite.LoadFS(files, name, "embedded:"+name)
}
