package main

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/shard"
)

// matrixWorkflow is a GitHub Actions workflow with a matrix, as far as
// TestShardedMatrix reads it.
type matrixWorkflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Needs    any `yaml:"needs"`
		Strategy struct {
			Matrix struct {
				Shard []int `yaml:"shard"`
			} `yaml:"matrix"`
		} `yaml:"strategy"`
		Env   map[string]string `yaml:"env"`
		Steps []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
			Env  map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// expr is a GitHub Actions expression, ${{ ... }}.
var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// TestShardedMatrix: examples/github-actions-sharded.yml runs a matrix
// over shards 1..N, where the job for shard K runs "mcpeval run --shard
// K/N" into a directory of its own and uploads that directory as an
// artifact of its own; the merge job needs the matrix, downloads every
// shard's artifact, merges exactly those runs and writes mcpeval report
// --markdown to the step summary. The scripts are run with a fake mcpeval,
// every command and flag they pass exists, no expression is put straight
// into a script, and the model's key comes from a secret, never in an
// argument.
func TestShardedMatrix(t *testing.T) {
	var wf matrixWorkflow
	loadYAML(t, "../../examples/github-actions-sharded.yml", &wf)
	r := newFakeShell(t)
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no bash to run the workflow's steps")
	}
	w := &workflowRunner{t: t, r: r, wf: &wf}
	matrixJob, shards := shardMatrix(t, &wf)
	n := len(shards)

	// Each shard's job runs its own shard and uploads its run.
	shardRuns := map[string]string{} // artifact name: the shard's run directory
	for _, k := range shards {
		dir := t.TempDir()
		cmds, up, _ := w.runJob(matrixJob, map[string]string{"shard": strconv.Itoa(k)}, true, dir, "RUNNER_TEMP="+r.bin)
		out := shardRunOut(t, k, n, cmds)
		checkShardUpload(t, k, out, dir, up, shardRuns)
	}

	// The merge job downloads them all, merges them, and reports.
	mergeJob := jobNeeding(&wf, matrixJob)
	if mergeJob == "" {
		t.Fatalf("no job needs %s to merge its shards", matrixJob)
	}
	dir := t.TempDir()
	_, _, down := w.runJob(mergeJob, nil, false, "")
	want := downloadArtifacts(t, dir, down, shardRuns)
	if len(want) != n {
		t.Fatalf("the merge job downloads %d of the %d shards' runs %v", len(want), n, shardRuns)
	}
	summary := filepath.Join(t.TempDir(), "summary.md")
	cmds, _, _ := w.runJob(mergeJob, nil, true, dir, "RUNNER_TEMP="+r.bin, "GITHUB_STEP_SUMMARY="+summary)
	checkShardMerge(t, cmds, want)
	if data, _ := os.ReadFile(summary); !strings.Contains(string(data), "mcpeval report output") {
		t.Errorf("the merge job's step summary does not hold mcpeval report's output: %q", data)
	}
}

// shardMatrix returns the job with a matrix over shard, and its shards,
// which must be 1 to N.
func shardMatrix(t *testing.T, wf *matrixWorkflow) (job string, shards []int) {
	t.Helper()
	for name, j := range wf.Jobs {
		if len(j.Strategy.Matrix.Shard) > 0 {
			job = name
		}
	}
	if job == "" {
		t.Fatal("no job has a matrix over shard")
	}
	shards = wf.Jobs[job].Strategy.Matrix.Shard
	for i, k := range shards {
		if k != i+1 {
			t.Fatalf("job %s: matrix shard %v, want 1 to %d", job, shards, len(shards))
		}
	}
	return job, shards
}

// jobNeeding returns the job of wf that needs job, or "".
func jobNeeding(wf *matrixWorkflow, job string) string {
	found := ""
	for name, j := range wf.Jobs {
		needs := j.Needs
		if s, ok := needs.(string); ok {
			needs = []any{s}
		}
		if l, ok := needs.([]any); ok && slices.Contains(l, any(job)) {
			found = name
		}
	}
	return found
}

// artifact is an artifact a workflow step uploads (name: path) or
// downloads (pattern: path).
type artifact struct{ name, path string }

// workflowRunner runs the jobs of a workflow with a fake shell.
type workflowRunner struct {
	t  *testing.T
	r  *fakeShell
	wf *matrixWorkflow
}

// eval replaces the expressions GitHub would in an env value or a with.
func (w *workflowRunner) eval(where, s string, matrix map[string]string, env map[string]string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		e := expr.FindStringSubmatch(m)[1]
		switch {
		case strings.HasPrefix(e, "matrix."):
			if v, ok := matrix[strings.TrimPrefix(e, "matrix.")]; ok {
				return v
			}
		case strings.HasPrefix(e, "secrets."):
			return w.r.secret(strings.TrimPrefix(e, "secrets."))
		case strings.HasPrefix(e, "env."):
			return env[strings.TrimPrefix(e, "env.")]
		}
		w.t.Fatalf("%s: expression %s, which this test does not evaluate", where, m)
		return ""
	})
}

// runJob runs a job's run steps in dir (only when execute) and returns
// the mcpeval commands, and the artifacts it uploads (name: path) and
// downloads (pattern: path).
func (w *workflowRunner) runJob(job string, matrix map[string]string, execute bool, dir string, extra ...string) (cmds [][]string, up, down []artifact) {
	t := w.t
	t.Helper()
	j := w.wf.Jobs[job]
	env := map[string]string{}
	for _, m := range []map[string]string{w.wf.Env, j.Env} {
		for k, v := range m {
			env[k] = w.eval("job "+job+" env "+k, v, matrix, env)
		}
	}
	for _, s := range j.Steps {
		where := "job " + job + " step " + s.Name + s.Uses
		switch {
		case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
			up = append(up, artifact{w.eval(where, s.With["name"], matrix, env), w.eval(where, s.With["path"], matrix, env)})
		case strings.HasPrefix(s.Uses, "actions/download-artifact@"):
			down = append(down, artifact{w.eval(where, s.With["pattern"], matrix, env), w.eval(where, s.With["path"], matrix, env)})
		}
		if s.Run == "" || !execute {
			continue
		}
		if strings.Contains(s.Run, "${{") {
			t.Errorf("%s puts an expression straight into its script; pass it through env", where)
		}
		stepEnv := maps.Clone(env)
		for k, v := range s.Env {
			stepEnv[k] = w.eval(where+" env "+k, v, matrix, env)
		}
		var list []string
		for k, v := range stepEnv {
			list = append(list, k+"="+v)
		}
		list = append(list, extra...)
		cmds = append(cmds, w.r.exec(where, dir, []string{"/bin/bash", "-e", "-c", s.Run}, list)...)
	}
	for _, c := range cmds {
		checkCommand(t, "job "+job, c)
	}
	return cmds, up, down
}

// shardRunOut checks the job of matrix shard k of n runs mcpeval run
// once, on shard k/n, and returns the run's --out directory.
func shardRunOut(t *testing.T, k, n int, cmds [][]string) string {
	t.Helper()
	var out string
	for _, c := range cmds {
		if c[0] != "run" {
			continue
		}
		sh, err := shard.Parse(flagValue(c, "shard"))
		if err != nil {
			t.Fatalf("shard %d: %v", k, err)
		}
		if sh.K != k || sh.N != n {
			t.Errorf("matrix shard %d runs shard %d/%d, want %d/%d", k, sh.K, sh.N, k, n)
		}
		if out != "" {
			t.Errorf("matrix shard %d runs mcpeval run twice", k)
		}
		out = flagValue(c, "out")
	}
	if out == "" {
		t.Fatalf("matrix shard %d never runs mcpeval run --out", k)
	}
	return out
}

// checkShardUpload checks the job of matrix shard k, run in dir, uploads
// its run out as an artifact of its own name, and notes that run in
// shardRuns (artifact name: run directory).
func checkShardUpload(t *testing.T, k int, out, dir string, up []artifact, shardRuns map[string]string) {
	t.Helper()
	uploaded := false
	for _, a := range up {
		if filepath.Clean(a.path) == filepath.Clean(out) {
			if _, dup := shardRuns[a.name]; dup || a.name == "" {
				t.Errorf("matrix shard %d uploads its run as %q, the name of another shard's", k, a.name)
			}
			shardRuns[a.name] = filepath.Join(dir, out)
			uploaded = true
		}
	}
	if !uploaded {
		t.Errorf("matrix shard %d never uploads its run %s (it uploads %v)", k, out, up)
	}
}

// downloadArtifacts does what download-artifact does before the scripts
// run: copies each of shardRuns (artifact name: run directory) whose
// name matches a pattern of down into dir/PATH/NAME. It returns the
// PATH/NAME of each.
func downloadArtifacts(t *testing.T, dir string, down []artifact, shardRuns map[string]string) []string {
	t.Helper()
	var got []string
	for _, d := range down {
		for name, run := range shardRuns {
			if ok, _ := filepath.Match(d.name, name); ok {
				to := filepath.Join(dir, d.path, name)
				if err := os.CopyFS(to, os.DirFS(run)); err != nil {
					t.Fatal(err)
				}
				got = append(got, filepath.Join(d.path, name))
			}
		}
	}
	return got
}

// checkShardMerge checks the merge job's commands merge exactly the runs
// want and run mcpeval report --markdown.
func checkShardMerge(t *testing.T, cmds [][]string, want []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, c := range cmds {
		seen[c[0]] = true
		if c[0] == "merge" {
			var got []string
			for i := 1; i < len(c); i++ {
				if strings.HasPrefix(c[i], "--") {
					i++ // merge's flags here all take a value
					continue
				}
				got = append(got, c[i])
			}
			sort.Strings(got)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				t.Errorf("the merge job merges %q, want the downloaded shards %q", got, want)
			}
		}
		if c[0] == "report" && slices.Contains(c, "--markdown") {
			seen["report --markdown"] = true
		}
	}
	for _, c := range []string{"merge", "report --markdown"} {
		if !seen[c] {
			t.Errorf("the merge job never runs mcpeval %s", c)
		}
	}
}
