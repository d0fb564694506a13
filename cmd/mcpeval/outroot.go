package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/runner"
)

// outRootHelp says where outputs go when no path is named; run, publish
// and view print it in their help.
const outRootHelp = `
Outputs go under one root: runs in ROOT/runs/RUN_ID, a dry run's pages in
ROOT/dist. The root is --out-root, else $MCPEVAL_OUT_ROOT, else the
current folder, except inside a suite's folder (one holding suite.yaml, or
the folder of the suite being run, or under it): a suite's folder is
edited by hand and kept under version control, so the root is the folder
beside it, its parent, and the command says so.
`

const outRootUsage = "write outputs under `DIR`: runs in DIR/runs, a dry run's pages in DIR/dist (default: $MCPEVAL_OUT_ROOT, else the current folder, else beside the suite's folder when in it)"

// outRoot returns the output root: flagged (--out-root) when given, else
// the environment's MCPEVAL_OUT_ROOT, else rundir.Root of the current
// folder and the suite at suitePath, "" standing for the current folder so
// that paths under it stay relative. beside is the suite's folder the root
// was moved out of, else "".
func outRoot(e *env, flagged, suitePath string) (root, beside string, err error) {
	if flagged != "" {
		return flagged, "", nil
	}
	if v := e.getenv(rundir.RootEnv); v != "" {
		return v, "", nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", "", fmt.Errorf("finding the current folder for the output root: %w", err)
	}
	root, beside = rundir.Root(cwd, rundir.SuiteDir(suitePath))
	if beside == "" {
		return "", "", nil
	}
	return root, beside, nil
}

// besideNote is what a command says when it wrote beside a suite's
// folder rather than into the current folder.
func besideNote(cmd, suiteDir, path string) string {
	return fmt.Sprintf("mcpeval %s: %s is a suite's folder, kept for what people write: writing beside it, to %s (--out-root DIR or %s=DIR to choose)\n",
		cmd, termsafe.Line(suiteDir), termsafe.Line(path), rundir.RootEnv)
}

// defaultOut gives a new run that has no --out its directory,
// ROOT/runs/RUN_ID, and reports whether it did. A resumed run keeps its
// own.
func (f *runFlags) defaultOut(e *env, cfg *runner.Config) (bool, error) {
	if f.out != "" || cfg.Resume != nil {
		return false, nil
	}
	root, beside, err := outRoot(e, f.outRoot, cfg.Suite.Path)
	if err != nil {
		return false, err
	}
	id := ""
	switch {
	case cfg.NewID != nil:
		id = cfg.NewID()
	case cfg.Now != nil:
		id = runner.NewRunID(cfg.Now(), cfg.ModelInfo.Spec)
	default:
		id = runner.NewRunID(time.Now(), cfg.ModelInfo.Spec)
	}
	if cfg.Surface != nil {
		id = withSurface(id, cfg.Surface.Name)
	}
	cfg.NewID = func() string { return id }
	cfg.OutDir = filepath.Join(root, rundir.Runs, id)
	if beside != "" {
		fmt.Fprint(e.stderr, besideNote("run", beside, cfg.OutDir))
	}
	return true, nil
}

// unsafeInID is what a surface's name may not bring into a run ID.
var unsafeInID = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// withSurface names surface sf in run ID id, before its random suffix
// (DATE-TIME-MODEL-SURFACE-RANDOM), so that each model's run on each
// surface has a directory of its own name under the output root.
func withSurface(id, sf string) string {
	safe := strings.Trim(unsafeInID.ReplaceAllString(sf, "-"), "-.")
	i := strings.LastIndexByte(id, '-')
	if safe == "" || i < 0 {
		return id
	}
	return id[:i] + "-" + safe + id[i:]
}
