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
	matrixJob := ""
	for name, j := range wf.Jobs {
		if len(j.Strategy.Matrix.Shard) > 0 {
			matrixJob = name
		}
	}
	if matrixJob == "" {
		t.Fatal("no job has a matrix over shard")
	}
	shards := wf.Jobs[matrixJob].Strategy.Matrix.Shard
	n := len(shards)
	for i, k := range shards {
		if k != i+1 {
			t.Fatalf("job %s: matrix shard %v, want 1 to %d", matrixJob, shards, n)
		}
	}
	// eval replaces the expressions GitHub would in an env value or a with.
	eval := func(where, s string, matrix map[string]string, env map[string]string) string {
		return expr.ReplaceAllStringFunc(s, func(m string) string {
			e := expr.FindStringSubmatch(m)[1]
			switch {
			case strings.HasPrefix(e, "matrix."):
				if v, ok := matrix[strings.TrimPrefix(e, "matrix.")]; ok {
					return v
				}
			case strings.HasPrefix(e, "secrets."):
				return r.secret(strings.TrimPrefix(e, "secrets."))
			case strings.HasPrefix(e, "env."):
				return env[strings.TrimPrefix(e, "env.")]
			}
			t.Fatalf("%s: expression %s, which this test does not evaluate", where, m)
			return ""
		})
	}
	// runJob runs a job's run steps in dir and returns the mcpeval
	// commands, and the artifacts it uploads (name: path) and downloads
	// (pattern: path).
	type artifact struct{ name, path string }
	runJob := func(job string, matrix map[string]string, execute bool, dir string, extra ...string) (cmds [][]string, up, down []artifact) {
		t.Helper()
		j := wf.Jobs[job]
		env := map[string]string{}
		for _, m := range []map[string]string{wf.Env, j.Env} {
			for k, v := range m {
				env[k] = eval("job "+job+" env "+k, v, matrix, env)
			}
		}
		for _, s := range j.Steps {
			where := "job " + job + " step " + s.Name + s.Uses
			switch {
			case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
				up = append(up, artifact{eval(where, s.With["name"], matrix, env), eval(where, s.With["path"], matrix, env)})
			case strings.HasPrefix(s.Uses, "actions/download-artifact@"):
				down = append(down, artifact{eval(where, s.With["pattern"], matrix, env), eval(where, s.With["path"], matrix, env)})
			}
			if s.Run == "" || !execute {
				continue
			}
			if strings.Contains(s.Run, "${{") {
				t.Errorf("%s puts an expression straight into its script; pass it through env", where)
			}
			stepEnv := maps.Clone(env)
			for k, v := range s.Env {
				stepEnv[k] = eval(where+" env "+k, v, matrix, env)
			}
			var list []string
			for k, v := range stepEnv {
				list = append(list, k+"="+v)
			}
			list = append(list, extra...)
			cmds = append(cmds, r.exec(where, dir, []string{"/bin/bash", "-e", "-c", s.Run}, list)...)
		}
		for _, c := range cmds {
			checkCommand(t, "job "+job, c)
		}
		return cmds, up, down
	}

	// Each shard's job runs its own shard and uploads its run.
	shardRuns := map[string]string{} // artifact name: the shard's run directory
	for _, k := range shards {
		dir := t.TempDir()
		cmds, up, _ := runJob(matrixJob, map[string]string{"shard": strconv.Itoa(k)}, true, dir, "RUNNER_TEMP="+r.bin)
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

	// The merge job downloads them all, merges them, and reports.
	mergeJob := ""
	for name, j := range wf.Jobs {
		needs := j.Needs
		if s, ok := needs.(string); ok {
			needs = []any{s}
		}
		if l, ok := needs.([]any); ok && slices.Contains(l, any(matrixJob)) {
			mergeJob = name
		}
	}
	if mergeJob == "" {
		t.Fatalf("no job needs %s to merge its shards", matrixJob)
	}
	// download-artifact before the scripts run: each artifact whose name
	// matches the pattern into PATH/NAME.
	dir := t.TempDir()
	_, _, down := runJob(mergeJob, nil, false, "")
	var want []string
	for _, d := range down {
		for name, run := range shardRuns {
			if ok, _ := filepath.Match(d.name, name); ok {
				to := filepath.Join(dir, d.path, name)
				if err := os.CopyFS(to, os.DirFS(run)); err != nil {
					t.Fatal(err)
				}
				want = append(want, filepath.Join(d.path, name))
			}
		}
	}
	if len(want) != n {
		t.Fatalf("the merge job downloads %d of the %d shards' runs %v", len(want), n, shardRuns)
	}
	summary := filepath.Join(t.TempDir(), "summary.md")
	cmds, _, _ := runJob(mergeJob, nil, true, dir, "RUNNER_TEMP="+r.bin, "GITHUB_STEP_SUMMARY="+summary)
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
	if data, _ := os.ReadFile(summary); !strings.Contains(string(data), "mcpeval report output") {
		t.Errorf("the merge job's step summary does not hold mcpeval report's output: %q", data)
	}
}
