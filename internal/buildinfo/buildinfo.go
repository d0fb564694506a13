// Package buildinfo says which mcpeval is running: its version and the
// commit it was built from, for records.
package buildinfo

import (
	"os/exec"
	"runtime/debug"
	"strings"

	"github.com/mcpeval/mcpeval/record"
)

// Version is mcpeval's version; release builds set it with -ldflags.
var Version = "0.1.0-dev"

// Get returns mcpeval's build: the VCS revision stamped into the binary,
// or, under `go run`, the commit checked out in the working directory.
func Get() record.Build {
	b := record.Build{Name: "mcpeval", Version: Version}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.modified":
				b.Dirty = s.Value == "true"
			}
		}
	}
	if b.Commit == "" {
		b.Commit, b.Dirty = GitState(".")
	}
	return b
}

// GitState returns the commit checked out in dir and whether tracked files
// have uncommitted changes; an empty commit when dir is not in a git
// checkout.
func GitState(dir string) (commit string, dirty bool) {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return "", false
	}
	commit = strings.TrimSpace(string(out))
	st, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output()
	return commit, err == nil && len(strings.TrimSpace(string(st))) > 0
}
