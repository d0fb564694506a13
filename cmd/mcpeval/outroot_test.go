package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/record"
)

// outRootSuite writes the publish tests' suite into base/evals/my-suite and
// returns that folder.
func outRootSuite(t *testing.T, base string) string {
	t.Helper()
	data, err := os.ReadFile("../../internal/publish/testdata/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "evals", "my-suite")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "suite.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// onlyRun returns the one run directory under runs, failing unless there
// is exactly one and it holds a record.
func onlyRun(t *testing.T, runs string) string {
	t.Helper()
	es, err := os.ReadDir(runs)
	if err != nil || len(es) != 1 {
		t.Fatalf("%s: %d entries (%v), want one run directory", runs, len(es), err)
	}
	dir := filepath.Join(runs, es[0].Name())
	if _, err := os.Stat(filepath.Join(dir, record.FileName)); err != nil {
		t.Fatalf("the run directory %s holds no record: %v", dir, err)
	}
	return dir
}

// TestRunOutRoot: a run with no --out goes to runs/RUN_ID in the current
// folder, except from inside the suite's own folder: then it goes beside
// that folder, never into it, and the run says where. --out-root and
// MCPEVAL_OUT_ROOT name the root, and the printed record path is where
// the record is.
func TestRunOutRoot(t *testing.T) {
	t.Setenv(rundir.RootEnv, "")
	base := t.TempDir()
	suiteDir := outRootSuite(t, base)
	args := []string{"run", "--quiet", "--target", "builtin:household", "--case", "single-tool/net-worth", "--attempts", "1"}

	// From inside the suite's folder: beside it, in evals/runs, and said.
	t.Chdir(suiteDir)
	out, errs, code := cli(append(args, "--suite", ".")...)
	if code != 0 {
		t.Fatalf("run from the suite's folder: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(suiteDir, "runs")); err == nil {
		t.Error("a run from inside the suite's folder was written into it")
	}
	run := onlyRun(t, filepath.Join(base, "evals", "runs"))
	if !strings.Contains(errs, suiteDir) || !strings.Contains(errs, filepath.Join(base, "evals", "runs")) {
		t.Errorf("the run does not say it wrote beside the suite's folder %s:\n%s", suiteDir, errs)
	}
	if !strings.Contains(out, "record: "+filepath.Join(run, record.FileName)) {
		t.Errorf("the printed record path is not %s:\n%s", filepath.Join(run, record.FileName), out)
	}

	// From a folder under the suite's: beside the suite's folder too.
	sub := filepath.Join(suiteDir, "notes")
	os.Mkdir(sub, 0o755)
	t.Chdir(sub)
	if out, errs, code := cli(append(args, "--suite", "..")...); code != 0 {
		t.Fatalf("run from under the suite's folder: exit %d\n%s%s", code, out, errs)
	}
	if es, _ := os.ReadDir(filepath.Join(base, "evals", "runs")); len(es) != 2 {
		t.Errorf("evals/runs holds %d runs after a run from under the suite's folder, want 2", len(es))
	}
	if _, err := os.Stat(filepath.Join(sub, "runs")); err == nil {
		t.Error("a run from under the suite's folder was written into it")
	}

	// From elsewhere: the current folder's runs/, as a relative path.
	elsewhere := filepath.Join(base, "work")
	os.Mkdir(elsewhere, 0o755)
	t.Chdir(elsewhere)
	out, errs, code = cli(append(args, "--suite", suiteDir)...)
	if code != 0 {
		t.Fatalf("run from elsewhere: exit %d\n%s%s", code, out, errs)
	}
	run = onlyRun(t, filepath.Join(elsewhere, "runs"))
	if want := "record: " + filepath.Join("runs", filepath.Base(run), record.FileName); !strings.Contains(out, want) {
		t.Errorf("the printed record path is not %q:\n%s", want, out)
	}

	// --out-root, and the environment's root.
	flagged := filepath.Join(base, "flagged")
	if out, errs, code := cli(append(args, "--suite", suiteDir, "--out-root", flagged)...); code != 0 {
		t.Fatalf("run --out-root: exit %d\n%s%s", code, out, errs)
	}
	onlyRun(t, filepath.Join(flagged, "runs"))
	t.Setenv(rundir.RootEnv, filepath.Join(base, "fromenv"))
	t.Chdir(suiteDir) // the root named wins over the suite's folder
	if out, errs, code := cli(append(args, "--suite", ".")...); code != 0 {
		t.Fatalf("run with %s: exit %d\n%s%s", rundir.RootEnv, code, out, errs)
	}
	onlyRun(t, filepath.Join(base, "fromenv", "runs"))

	// --out names the run's folder itself: no root goes with it.
	if _, errs, code := cli(append(args, "--suite", ".", "--out", "x", "--out-root", "y")...); code != exitUsage || !strings.Contains(errs, "--out-root") {
		t.Errorf("--out with --out-root: exit %d, want %d naming --out-root\n%s", code, exitUsage, errs)
	}
}

// TestPublishDryRunOutRoot: publish --dry-run writes its pages into
// dist/ under the same root as run: beside the suite's folder when run
// from inside it, else the current folder's, else --out-root's; and it
// names the files it wrote.
func TestPublishDryRunOutRoot(t *testing.T) {
	t.Setenv(rundir.RootEnv, "")
	base := t.TempDir()
	suiteDir := outRootSuite(t, base)
	t.Chdir(base)
	if out, errs, code := cli("run", "--quiet", "--suite", suiteDir, "--target", "builtin:household",
		"--attempts", "1", "--out", filepath.Join(base, "r")); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	run := filepath.Join(base, "r")

	t.Chdir(suiteDir)
	out, errs, code := cli("publish", run, "--dry-run")
	if code != 0 {
		t.Fatalf("publish --dry-run from the suite's folder: exit %d\n%s%s", code, out, errs)
	}
	site := filepath.Join(base, "evals", "dist")
	if _, err := os.Stat(filepath.Join(site, "index.html")); err != nil {
		t.Errorf("publish --dry-run from the suite's folder wrote no %s: %v", filepath.Join(site, "index.html"), err)
	}
	if _, err := os.Stat(filepath.Join(suiteDir, "dist")); err == nil {
		t.Error("publish --dry-run from the suite's folder wrote into it")
	}
	if !strings.Contains(out, filepath.Join(site, "index.html")) {
		t.Errorf("publish does not name the page it wrote, %s:\n%s", filepath.Join(site, "index.html"), out)
	}

	t.Chdir(base)
	if out, errs, code := cli("publish", run, "--dry-run"); code != 0 || !strings.Contains(out, filepath.Join("dist", "index.html")) {
		t.Fatalf("publish --dry-run from elsewhere: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(base, "dist", "index.html")); err != nil {
		t.Errorf("publish --dry-run from elsewhere: %v", err)
	}
	if out, errs, code := cli("publish", run, "--dry-run", "--out-root", "out"); code != 0 || !strings.Contains(out, filepath.Join("out", "dist", "index.html")) {
		t.Fatalf("publish --dry-run --out-root: exit %d\n%s%s", code, out, errs)
	}
}
