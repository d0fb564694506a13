package rundir

import (
	"os"
	"path/filepath"
	"strings"
)

// RootEnv is the environment variable that names the output root when no
// --out-root is given.
const RootEnv = "MCPEVAL_OUT_ROOT"

// The folders under an output root.
const (
	// Runs holds run directories, one per run (runs/RUN_ID).
	Runs = "runs"
	// Site holds the pages of a rehearsed publish (publish --dry-run).
	Site = "dist"
)

// SuiteFile is the file that makes a folder a suite's folder.
const SuiteFile = "suite.yaml"

// Root returns the output root for a command run in folder cwd (absolute)
// on the suite in folder suiteDir (absolute; "" for an embedded suite or
// none), when the user named no root. Outputs never land inside a suite's
// folder, which a person edits and keeps under version control: when cwd
// is suiteDir or lies under it, or is itself a suite's folder (it holds
// SuiteFile), the root is that folder's parent and beside names the folder
// it was moved out of. Otherwise the root is cwd and beside is "".
func Root(cwd, suiteDir string) (root, beside string) {
	if suiteDir != "" {
		rel, err := filepath.Rel(resolved(suiteDir), resolved(cwd))
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.Dir(suiteDir), suiteDir
		}
	}
	if st, err := os.Stat(filepath.Join(cwd, SuiteFile)); err == nil && st.Mode().IsRegular() {
		return filepath.Dir(cwd), cwd
	}
	return cwd, ""
}

// SuiteDir returns the folder of the suite at path p, absolute: p itself
// when it is a folder, else the folder that holds it. An embedded suite
// ("embedded:NAME"), an empty path and a path that does not exist have
// none: "".
func SuiteDir(p string) string {
	if p == "" || strings.HasPrefix(p, "embedded:") {
		return ""
	}
	st, err := os.Stat(p)
	if err != nil {
		return ""
	}
	if !st.IsDir() {
		p = filepath.Dir(p)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	return abs
}

// resolved is p with its symbolic links followed, or p when they cannot be.
func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}
