// Package buildinfo says which mcpeval is running and where a suite came
// from, for records: mcpeval's own build comes from what the Go toolchain
// stamped into the binary, never from the directory it runs in; a suite's
// provenance comes from the git checkout holding the suite's own files.
package buildinfo

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/mcpeval/mcpeval/record"
)

// Version, when set at link time (-ldflags "-X
// github.com/mcpeval/mcpeval/internal/buildinfo.Version=v1.2.3"), is
// mcpeval's version; otherwise the module version the Go toolchain
// stamped is used ("(devel)" for a build from a checkout).
var Version = ""

// Unknown is recorded for what the binary does not say.
const Unknown = "unknown"

// Module is mcpeval's module path.
const Module = "github.com/mcpeval/mcpeval"

// Get returns mcpeval's own build: its version, the VCS revision and
// modified flag the Go toolchain stamped into the binary (Unknown when it
// stamped none, as under `go run` or `go test`), and the Go release. It
// runs no command and reads no directory.
func Get() record.Build {
	info, ok := debug.ReadBuildInfo()
	return fromInfo(info, ok)
}

// fromInfo makes the build from what debug.ReadBuildInfo returned.
func fromInfo(info *debug.BuildInfo, ok bool) record.Build {
	b := record.Build{Name: "mcpeval", Version: Unknown, Commit: Unknown, Go: runtime.Version()}
	if ok && info != nil {
		if v := info.Main.Version; v != "" {
			b.Version = v
		} else {
			b.Version = "(devel)"
		}
		if info.GoVersion != "" {
			b.Go = info.GoVersion
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if s.Value != "" {
					b.Commit = s.Value
				}
			case "vcs.modified":
				b.Dirty = s.Value == "true"
			}
		}
	}
	if Version != "" {
		b.Version = Version
	}
	return b
}

// Stamped reports whether b names a revision (the binary was built with
// VCS stamping).
func Stamped(b record.Build) bool {
	return b.Commit != "" && b.Commit != Unknown
}

// Source is where a suite's files came from.
type Source struct {
	// Kind is record.SourceGit, record.SourceEmbedded or
	// record.SourceFiles.
	Kind string
	// Commit is the commit checked out where the suite's files are (Kind
	// record.SourceGit).
	Commit string
	// Dirty is true when the suite's files have uncommitted changes to
	// tracked files or are not tracked at all.
	Dirty bool
}

// Suite returns the provenance of the suite at path, as a loaded suite
// names it (suite.Suite.Path): an embedded suite ("embedded:NAME") is part
// of mcpeval's build; a file or directory is looked up in the git checkout
// that holds it, which need not be the directory mcpeval runs in. Files in
// no checkout (or when git is not installed) have no commit.
func Suite(path string) Source {
	if path == "" || strings.HasPrefix(path, "embedded:") {
		return Source{Kind: record.SourceEmbedded}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Source{Kind: record.SourceFiles}
	}
	dir := abs
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		dir = filepath.Dir(abs)
	}
	out, err := git(dir, "rev-parse", "HEAD")
	if err != nil {
		return Source{Kind: record.SourceFiles}
	}
	src := Source{Kind: record.SourceGit, Commit: strings.TrimSpace(out)}
	// Tracked changes, and files git does not track (a suite never
	// committed), under the suite's path only: changes elsewhere in the
	// checkout are not the suite's.
	st, err := git(dir, "status", "--porcelain", "--untracked-files=all", "--", abs)
	src.Dirty = err != nil || strings.TrimSpace(st) != ""
	if !src.Dirty { // a suite git ignores is in no commit either
		tracked, err := git(dir, "ls-files", "--", abs)
		src.Dirty = err != nil || strings.TrimSpace(tracked) == ""
	}
	return src
}

// Record fills the provenance fields of a record's suite information.
func (s Source) Record(info *record.SuiteInfo) {
	info.Source, info.Commit, info.Dirty = s.Kind, s.Commit, s.Dirty
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0") // a status must not take the index lock
	out, err := cmd.Output()
	return string(out), err
}
