package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/suite"
	"go.yaml.in/yaml/v4"
)

// action is action.yml, as far as these tests read it.
type action struct {
	Name   string `yaml:"name"`
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Required    bool   `yaml:"required"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

// workflow is a GitHub Actions workflow, as far as these tests read it.
type workflow struct {
	Jobs map[string]struct {
		Steps []step `yaml:"steps"`
	} `yaml:"jobs"`
}

type step struct {
	Name  string            `yaml:"name"`
	Uses  string            `yaml:"uses"`
	Run   string            `yaml:"run"`
	With  map[string]string `yaml:"with"`
	Shell string            `yaml:"shell"`
}

func loadYAML(t *testing.T, path string, v any) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Load(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return data
}

// checkCommands runs every mcpeval command line of a step's script with
// --help added: each must name a command and flags mcpeval has. Shell
// expansions ("$DIR", "${extra[@]}") stand for values and are left out
// where they are whole arrays. It returns the commands seen.
func checkCommands(t *testing.T, where, script string) []string {
	t.Helper()
	var seen []string
	for _, line := range strings.Split(strings.ReplaceAll(script, "\\\n", " "), "\n") {
		words := shellWords(line)
		for i, w := range words {
			if !strings.HasSuffix(w, "mcpeval") || i+1 >= len(words) || strings.HasPrefix(words[i+1], "-") || i > 0 && words[i-1] == "-o" {
				continue
			}
			var args []string
			for _, a := range words[i+1:] {
				if a == ">>" || a == ">" || a == "|" || a == "&&" || a == ";" {
					break
				}
				if strings.HasPrefix(a, "${") && strings.HasSuffix(a, "[@]}") {
					continue // an array of flags, checked on its own
				}
				args = append(args, a)
			}
			seen = append(seen, args[0])
			args = append(args, "--help")
			if code := Main(context.Background(), args, nil, io.Discard, io.Discard); code != 0 {
				t.Errorf("%s: mcpeval %s: a command or flag mcpeval does not have (exit %d)", where, strings.Join(words[i+1:], " "), code)
			}
			break
		}
	}
	return seen
}

// TestAction: action.yml is a composite action whose every input is
// declared and used, that builds mcpeval from its own checked-out source
// (the ref the workflow's uses: names) unless its version input names a
// module version, and whose every mcpeval command and flag exists.
func TestAction(t *testing.T) {
	var a action
	data := loadYAML(t, "../../action.yml", &a)
	if a.Runs.Using != "composite" {
		t.Errorf("action.yml runs using %q, want composite", a.Runs.Using)
	}
	for _, in := range []string{"version", "suite", "model", "args", "spend"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("action.yml has no input %s", in)
		}
	}
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}`).FindAllSubmatch(data, -1) {
		name := string(m[1])
		used[name] = true
		if _, ok := a.Inputs[name]; !ok {
			t.Errorf("action.yml uses input %s, which it does not declare", name)
		}
	}
	for name, in := range a.Inputs {
		if !used[name] {
			t.Errorf("action.yml declares input %s and never uses it", name)
		}
		if strings.TrimSpace(in.Description) == "" {
			t.Errorf("action.yml: input %s has no description", name)
		}
	}
	if v := a.Inputs["version"].Default; v != "" {
		t.Errorf("action.yml: the default version is %q; the module has no tagged release, so by default the action builds its own checked-out source", v)
	}
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	module := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(mod), "\n", 2)[0], "module"))
	var commands []string
	installs := false
	for i, s := range a.Runs.Steps {
		if s.Run == "" {
			continue
		}
		if s.Shell == "" {
			t.Errorf("action.yml step %d (%s): a composite action's run step needs a shell", i+1, s.Name)
		}
		if strings.Contains(s.Run, "go install") {
			installs = true
			if !strings.Contains(s.Run, `"`+module+`/cmd/mcpeval@${MCPEVAL_VERSION}"`) {
				t.Errorf("action.yml installs something other than %s/cmd/mcpeval at the input version:\n%s", module, s.Run)
			}
			if !regexp.MustCompile(`cd "\$GITHUB_ACTION_PATH"[^\n]*go install ./cmd/mcpeval`).MatchString(s.Run) {
				t.Errorf("action.yml does not build mcpeval from its own source (cd \"$GITHUB_ACTION_PATH\" && go install ./cmd/mcpeval) when no version is given:\n%s", s.Run)
			}
		}
		if strings.Contains(s.Run, "${{") {
			t.Errorf("action.yml step %d (%s) puts an expression straight into its script; pass it through env", i+1, s.Name)
		}
		commands = append(commands, checkCommands(t, "action.yml step "+s.Name, s.Run)...)
	}
	if !installs {
		t.Error("action.yml never installs mcpeval")
	}
	// The flag the spend input adds.
	if code := Main(context.Background(), []string{"run", "--spend", "--help"}, nil, io.Discard, io.Discard); code != 0 {
		t.Errorf("mcpeval run has no --spend flag (exit %d)", code)
	}
	for _, c := range []string{"version", "run", "report"} {
		if !strings.Contains(" "+strings.Join(commands, " ")+" ", " "+c+" ") {
			t.Errorf("action.yml never runs mcpeval %s (it runs %v)", c, commands)
		}
	}
}

// TestWorkflowExample: examples/github-actions.yml is valid YAML; it uses
// the action at the version the action pins, with inputs the action has
// (every required one given); each suite it names loads and has the
// dataset it asks for; every run flag it passes exists; and the server it
// installs is the one .ci/run installs, at the same version.
func TestWorkflowExample(t *testing.T) {
	var a action
	loadYAML(t, "../../action.yml", &a)
	var wf workflow
	data := loadYAML(t, "../../examples/github-actions.yml", &wf)
	uses := 0
	for job, j := range wf.Jobs {
		for _, s := range j.Steps {
			checkCommands(t, "job "+job, s.Run)
			ref, ok := strings.CutPrefix(s.Uses, "mcpeval/mcpeval@")
			if !ok {
				continue
			}
			uses++
			if !actionRefExists(t, ref) {
				t.Errorf("job %s uses the action at %s, which is neither main, a commit nor a tag of this repository", job, ref)
			}
			for k := range s.With {
				if _, ok := a.Inputs[k]; !ok {
					t.Errorf("job %s: the action has no input %s", job, k)
				}
			}
			for k, in := range a.Inputs {
				if in.Required && s.With[k] == "" {
					t.Errorf("job %s: the action's required input %s is not given", job, k)
				}
			}
			s2, err := suite.Load("../../" + s.With["suite"])
			if err != nil {
				t.Errorf("job %s: suite %s: %v", job, s.With["suite"], err)
				continue
			}
			args := append([]string{"run", "--suite", "X", "--model", "X"}, strings.Fields(s.With["args"])...)
			if s.With["spend"] == "true" {
				args = append(args, "--spend")
			}
			if code := Main(context.Background(), append(args, "--help"), nil, io.Discard, io.Discard); code != 0 {
				t.Errorf("job %s: mcpeval %s: a flag mcpeval run does not have (exit %d)", job, strings.Join(args, " "), code)
			}
			fields := strings.Fields(s.With["args"])
			for i, f := range fields {
				if f == "--dataset" && i+1 < len(fields) {
					n := 0
					for _, c := range s2.Cases {
						if s2.DatasetOf(c) == fields[i+1] {
							n++
						}
					}
					if n == 0 {
						t.Errorf("job %s: suite %s has no case in dataset %s", job, s.With["suite"], fields[i+1])
					}
				}
			}
		}
	}
	if uses < 2 {
		t.Errorf("the workflow uses the action %d times, want a pull-request job and a paid agent job", uses)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`@modelcontextprotocol/server-[a-z]+@[0-9.]+`).FindAll(data, -1) {
		if !strings.Contains(string(ci), string(m)) {
			t.Errorf("the workflow installs %s, which .ci/run does not: the example is not what CI tests", m)
		}
	}
	if !strings.Contains(string(data), "secrets.") {
		t.Error("the workflow spends without a secret")
	}
}

// TestShardedWorkflowExample: examples/github-actions-sharded.yml, the
// workflow of a repository that builds mcpeval itself, is valid YAML and
// every mcpeval command it runs names a command and flags mcpeval has.
func TestShardedWorkflowExample(t *testing.T) {
	var wf workflow
	loadYAML(t, "../../examples/github-actions-sharded.yml", &wf)
	seen := map[string]bool{}
	for job, j := range wf.Jobs {
		for _, s := range j.Steps {
			for _, c := range checkCommands(t, "job "+job, s.Run) {
				seen[c] = true
			}
		}
	}
	for _, c := range []string{"run", "merge", "compare"} {
		if !seen[c] {
			t.Errorf("the workflow never runs mcpeval %s", c)
		}
	}
}

// actionRefExists reports whether a workflow could check the action out
// at ref: the main branch, a full commit hash, or a tag the repository
// has (a release tag before any release is a dead reference).
func actionRefExists(t *testing.T, ref string) bool {
	t.Helper()
	if ref == "main" || regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(ref) {
		return true
	}
	out, err := exec.Command("git", "-C", "../..", "tag", "--list", ref).Output()
	if err != nil {
		t.Logf("listing the repository's tags: %v", err)
		return false
	}
	return strings.TrimSpace(string(out)) == ref
}

// shellWords splits a command line into words, honouring double quotes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
			in = true
		case !quoted && (r == ' ' || r == '\n' || r == '\t'):
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}
