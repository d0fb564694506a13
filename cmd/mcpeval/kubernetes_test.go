package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/shard"
	"github.com/mcpeval/mcpeval/suite"
	"go.yaml.in/yaml/v4"
)

// k8sObject is a Kubernetes object of examples/kubernetes, as far as these
// tests read it: a Job or a PersistentVolumeClaim.
type k8sObject struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode string   `yaml:"completionMode"`
		Completions    *int     `yaml:"completions"`
		Parallelism    *int     `yaml:"parallelism"`
		AccessModes    []string `yaml:"accessModes"`
		Template       struct {
			Spec k8sPod `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type k8sPod struct {
	RestartPolicy  string         `yaml:"restartPolicy"`
	InitContainers []k8sContainer `yaml:"initContainers"`
	Containers     []k8sContainer `yaml:"containers"`
	Volumes        []struct {
		Name                  string `yaml:"name"`
		PersistentVolumeClaim *struct {
			ClaimName string `yaml:"claimName"`
		} `yaml:"persistentVolumeClaim"`
		ConfigMap *struct {
			Name string `yaml:"name"`
		} `yaml:"configMap"`
	} `yaml:"volumes"`
}

type k8sContainer struct {
	Name    string   `yaml:"name"`
	Image   string   `yaml:"image"`
	Command []string `yaml:"command"`
	Args    []string `yaml:"args"`
	Env     []struct {
		Name      string `yaml:"name"`
		Value     string `yaml:"value"`
		ValueFrom *struct {
			SecretKeyRef *struct {
				Name string `yaml:"name"`
				Key  string `yaml:"key"`
			} `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	EnvFrom      []any `yaml:"envFrom"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
}

// loadKubernetes reads every manifest of a directory, each possibly of
// several documents.
func loadKubernetes(t *testing.T, dir string) []k8sObject {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s: %v", dir, err)
	}
	var all []k8sObject
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var objs []k8sObject
		if err := yaml.Load(data, &objs, yaml.WithAllDocuments()); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, o := range objs {
			if o.Kind == "" || o.Metadata.Name == "" {
				t.Errorf("%s: a document with no kind or name", f)
			}
		}
		all = append(all, objs...)
	}
	return all
}

// secretName is an environment variable's name that holds a credential.
var secretName = regexp.MustCompile(`(?i)(key|token|secret|password|credential)`)

// fakeMcpeval is an mcpeval that writes its arguments to $MCPEVAL_LOG,
// one a line and each command ended by "--end--", makes the --out
// directory and a record in it, as the real one does, and prints
// "mcpeval COMMAND output".
const fakeMcpeval = `#!/bin/sh
for a in "$@"; do printf '%s\n' "$a" >> "$MCPEVAL_LOG"; done
printf '%s\n' --end-- >> "$MCPEVAL_LOG"
prev=
for a in "$@"; do
	if [ "$prev" = --out ]; then mkdir -p "$a" && : > "$a/record.jsonl"; fi
	prev=$a
done
echo "mcpeval $1 output"
`

// fakeShell runs the shell scripts of an example (a pod's containers, a
// workflow's steps) on this machine with a fake mcpeval (and a go that
// does nothing) first on PATH, and returns the mcpeval commands they ran.
// Secrets are given as "secret-NAME" and must never reach a command line.
type fakeShell struct {
	t            *testing.T
	root, bin    string
	secretValues []string
}

func newFakeShell(t *testing.T) *fakeShell {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run the examples' scripts")
	}
	r := &fakeShell{t: t, root: t.TempDir(), bin: t.TempDir()}
	for name, script := range map[string]string{"mcpeval": fakeMcpeval, "go": "#!/bin/sh\nexit 0\n"} {
		if err := os.WriteFile(filepath.Join(r.bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// secret returns the value standing for a secret.
func (r *fakeShell) secret(name string) string {
	v := "secret-" + name
	r.secretValues = append(r.secretValues, v)
	return v
}

// exec runs argv in dir with env (NAME=value) and returns the mcpeval
// commands it ran; where names it in messages.
func (r *fakeShell) exec(where, dir string, argv, env []string) [][]string {
	t := r.t
	t.Helper()
	logFile := filepath.Join(t.TempDir(), "log")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + r.bin + ":/usr/bin:/bin", "MCPEVAL_LOG=" + logFile}, env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", where, err, out)
	}
	data, err := os.ReadFile(logFile)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var cmds [][]string
	var cur []string
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if l == "--end--" {
			cmds = append(cmds, cur)
			cur = nil
			continue
		}
		cur = append(cur, l)
		for _, v := range r.secretValues {
			if strings.Contains(l, v) {
				t.Errorf("%s: a secret's value reaches mcpeval's command line: %s", where, l)
			}
		}
	}
	return cmds
}

// pod runs the containers of o's pod, init containers first, with each
// volume mount moved under root and extra environment variables, and
// returns the mcpeval commands they ran.
func (r *fakeShell) pod(o *k8sObject, extra ...string) [][]string {
	r.t.Helper()
	pod := &o.Spec.Template.Spec
	var cmds [][]string
	for _, c := range append(slices.Clone(pod.InitContainers), pod.Containers...) {
		if len(c.Command) == 0 || c.Command[0] != "/bin/sh" {
			continue
		}
		var env []string
		for _, e := range c.Env {
			v := e.Value
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				v = r.secret(e.ValueFrom.SecretKeyRef.Key)
			}
			env = append(env, e.Name+"="+v)
		}
		var moves []string
		for _, m := range c.VolumeMounts {
			moves = append(moves, m.MountPath, filepath.Join(r.root, m.MountPath))
		}
		move := strings.NewReplacer(moves...)
		argv := append(slices.Clone(c.Command), c.Args...)
		for i, s := range argv[1:] {
			argv[i+1] = move.Replace(s)
		}
		cmds = append(cmds, r.exec("job "+o.Metadata.Name+", container "+c.Name, r.root, argv, append(env, extra...))...)
	}
	return cmds
}

// checkCommand runs an mcpeval command line with --help added: it must
// name a command and flags mcpeval has.
func checkCommand(t *testing.T, where string, args []string) {
	t.Helper()
	if code := Main(context.Background(), append(slices.Clone(args), "--help"), nil, io.Discard, io.Discard); code != 0 {
		t.Errorf("%s: mcpeval %s: a command or flag mcpeval does not have (exit %d)", where, strings.Join(args, " "), code)
	}
}

// flagValue returns the value of --name in args.
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == "--"+name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	return ""
}

// TestKubernetesExample: examples/kubernetes is an Indexed Job whose pods
// each run their own shard, K = completion index + 1 of N = completions =
// parallelism, onto a ReadWriteMany volume, and a merge job that finds
// every shard there; every mcpeval command and flag they run exists, the
// suite they name is the one the README puts in the ConfigMap and has the
// dataset they run, the image is the one README.md builds, and the model's key
// comes from a Secret, never from the manifest or an argument.
func TestKubernetesExample(t *testing.T) {
	const dir = "../../examples/kubernetes"
	objs := loadKubernetes(t, dir)
	claims, indexed, merge := k8sJobs(t, objs)
	n := k8sShards(t, indexed)
	configMaps := k8sConfigMaps(t, dir)
	version := checkDockerfileVersion(t, dir)

	// Every job: restartPolicy Never, volumes that exist, secrets only
	// from secretKeyRef, and never in an argument.
	for _, o := range []*k8sObject{indexed, merge} {
		checkK8sJob(t, o, claims, configMaps, version)
	}

	// Each index runs its own shard, K = index+1 of N; together all of
	// them, each once.
	r := newFakeShell(t)
	var runDirs []string
	seenK := map[int]bool{}
	for i := range n {
		k, out := checkK8sShardIndex(t, r, indexed, i, n, configMaps, runDirs)
		seenK[k] = true
		runDirs = append(runDirs, out)
	}
	if len(seenK) != n {
		t.Errorf("the %d indexes ran shards %v", n, seenK)
	}

	checkK8sRestart(t, r, indexed, runDirs[0])
	checkK8sMerge(t, r, merge, runDirs)
}

// k8sJobs returns the claims the manifests make, the Indexed Job of
// shards and the merge Job; every claim must be ReadWriteMany.
func k8sJobs(t *testing.T, objs []k8sObject) (claims map[string]bool, indexed, merge *k8sObject) {
	t.Helper()
	claims = map[string]bool{}
	for i := range objs {
		o := &objs[i]
		switch {
		case o.Kind == "PersistentVolumeClaim":
			if !slices.Contains(o.Spec.AccessModes, "ReadWriteMany") {
				t.Errorf("claim %s is not ReadWriteMany: the shards' pods mount it at once, on any node", o.Metadata.Name)
			}
			claims[o.Metadata.Name] = true
		case o.Kind == "Job" && o.Spec.CompletionMode == "Indexed":
			if indexed != nil {
				t.Errorf("two indexed jobs: %s and %s", indexed.Metadata.Name, o.Metadata.Name)
			}
			indexed = o
		case o.Kind == "Job":
			merge = o
		}
	}
	if indexed == nil || merge == nil {
		t.Fatalf("want an Indexed Job of shards and a merge Job, have %d objects", len(objs))
	}
	return claims, indexed, merge
}

// k8sShards returns the number of shards of the Indexed Job: its
// completions, equal to its parallelism, 2 or more.
func k8sShards(t *testing.T, indexed *k8sObject) int {
	t.Helper()
	spec := &indexed.Spec
	if spec.Completions == nil || spec.Parallelism == nil || *spec.Completions != *spec.Parallelism || *spec.Completions < 2 {
		t.Fatalf("job %s: completions %s and parallelism %s must be one number of shards, 2 or more", indexed.Metadata.Name, intOrNone(spec.Completions), intOrNone(spec.Parallelism))
	}
	return *spec.Completions
}

// k8sConfigMaps returns the ConfigMaps README.md says how to make, each
// with the suite directory it is made from.
func k8sConfigMaps(t *testing.T, dir string) map[string]string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	configMaps := map[string]string{} // name: the suite directory it is made from
	for _, m := range regexp.MustCompile(`kubectl create configmap (\S+) --from-file=(\S+)`).FindAllSubmatch(readme, -1) {
		configMaps[string(m[1])] = string(m[2])
	}
	return configMaps
}

// checkDockerfileVersion checks the example's Dockerfile builds mcpeval
// from the checkout (the module has no tagged release to install), and
// returns the image tag README.md builds it as, the one the jobs must run.
func checkDockerfileVersion(t *testing.T, dir string) string {
	t.Helper()
	dockerfile, err := os.ReadFile(filepath.Join(dir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(dockerfile), "COPY . .") || !strings.Contains(string(dockerfile), "go install -trimpath ./cmd/mcpeval") {
		t.Error("the Dockerfile does not build mcpeval from the checkout (COPY . . and go install -trimpath ./cmd/mcpeval)")
	}
	if regexp.MustCompile(`go install \S+@`).Match(dockerfile) {
		t.Error("the Dockerfile installs a module version, and the module has no tag to install")
	}
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`docker build -t \S+:(\S+) -f examples/kubernetes/Dockerfile \.`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md does not build the image from the clone's root (docker build -t IMAGE:TAG -f examples/kubernetes/Dockerfile .)")
	}
	return string(m[1])
}

// checkK8sJob checks a job's pod: restartPolicy Never, volumes that
// exist, the pinned image, and secrets only from secretKeyRef, never in
// an argument.
func checkK8sJob(t *testing.T, o *k8sObject, claims map[string]bool, configMaps map[string]string, version string) {
	t.Helper()
	pod := &o.Spec.Template.Spec
	if pod.RestartPolicy != "Never" {
		t.Errorf("job %s: restartPolicy %q, want Never (a retried shard is a new pod that resumes the record)", o.Metadata.Name, pod.RestartPolicy)
	}
	for _, v := range pod.Volumes {
		if c := v.PersistentVolumeClaim; c != nil && !claims[c.ClaimName] {
			t.Errorf("job %s mounts claim %s, which no manifest makes", o.Metadata.Name, c.ClaimName)
		}
		if c := v.ConfigMap; c != nil && configMaps[c.Name] == "" {
			t.Errorf("job %s mounts ConfigMap %s, which README.md never says how to make", o.Metadata.Name, c.Name)
		}
	}
	for _, c := range append(slices.Clone(pod.InitContainers), pod.Containers...) {
		checkK8sContainer(t, o.Metadata.Name, c, version)
	}
}

// checkK8sContainer checks a container of job runs the pinned image and
// takes each secret from a secretKeyRef, never naming it in its command.
func checkK8sContainer(t *testing.T, job string, c k8sContainer, version string) {
	t.Helper()
	if strings.Contains(c.Image, "mcpeval") && !strings.HasSuffix(c.Image, ":"+version) {
		t.Errorf("job %s runs image %s, not the tag README.md builds, %s", job, c.Image, version)
	}
	if len(c.EnvFrom) > 0 {
		t.Errorf("job %s, container %s: envFrom; name each secret with secretKeyRef", job, c.Name)
	}
	script := strings.Join(append(slices.Clone(c.Command), c.Args...), " ")
	for _, e := range c.Env {
		fromSecret := e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil
		if secretName.MatchString(e.Name) && !fromSecret {
			t.Errorf("job %s, container %s: %s is not from a Secret (valueFrom.secretKeyRef)", job, c.Name, e.Name)
		}
		if e.ValueFrom != nil && !fromSecret {
			t.Errorf("job %s, container %s: %s comes from something other than secretKeyRef", job, c.Name, e.Name)
		}
		if fromSecret && strings.Contains(script, e.Name) {
			t.Errorf("job %s, container %s: the secret %s is named in the command line", job, c.Name, e.Name)
		}
	}
}

// checkK8sShardIndex runs the pod of completion index i of the Indexed
// Job: it must run mcpeval run once, on shard i+1 of n, on the suite
// README.md puts in the ConfigMap and a dataset that suite has, into an
// --out directory none of the earlier indexes' runDirs is. It returns the
// shard K run and that directory.
func checkK8sShardIndex(t *testing.T, r *fakeShell, indexed *k8sObject, i, n int, configMaps map[string]string, runDirs []string) (k int, out string) {
	t.Helper()
	var runs [][]string
	for _, cmd := range r.pod(indexed, "JOB_COMPLETION_INDEX="+strconv.Itoa(i)) {
		checkCommand(t, "job "+indexed.Metadata.Name, cmd)
		if cmd[0] == "run" {
			runs = append(runs, cmd)
		}
	}
	if len(runs) != 1 {
		t.Fatalf("index %d ran mcpeval run %d times, want once: %q", i, len(runs), runs)
	}
	cmd := runs[0]
	sh, err := shard.Parse(flagValue(cmd, "shard"))
	if err != nil {
		t.Fatalf("index %d: %v", i, err)
	}
	if sh.K != i+1 || sh.N != n {
		t.Errorf("index %d runs shard %d/%d, want %d/%d", i, sh.K, sh.N, i+1, n)
	}
	out = flagValue(cmd, "out")
	if out == "" || slices.Contains(runDirs, out) {
		t.Errorf("index %d writes its run to %q, not a directory of its own", i, out)
	}
	suitePath := flagValue(cmd, "suite")
	from := k8sSuiteSource(r, indexed, suitePath, configMaps)
	if from == "" {
		t.Fatalf("index %d runs suite %s, which is not the ConfigMap README.md makes", i, suitePath)
	}
	s, err := suite.Load(filepath.Join("../..", from))
	if err != nil {
		t.Fatalf("the suite README.md puts in the ConfigMap: %v", err)
	}
	if ds := flagValue(cmd, "dataset"); ds != "" && !slices.ContainsFunc(s.Cases, func(c *suite.Case) bool { return s.DatasetOf(c) == ds }) {
		t.Errorf("suite %s has no case in dataset %s", from, ds)
	}
	return sh.K, out
}

// k8sSuiteSource returns the suite directory README.md makes the
// ConfigMap from that the job's containers mount at suitePath (moved
// under r's root), or "" when none is.
func k8sSuiteSource(r *fakeShell, job *k8sObject, suitePath string, configMaps map[string]string) string {
	from := ""
	pod := &job.Spec.Template.Spec
	for _, c := range pod.Containers {
		for _, m := range c.VolumeMounts {
			for _, v := range pod.Volumes {
				if v.Name == m.Name && v.ConfigMap != nil && suitePath == filepath.Join(r.root, m.MountPath) {
					from = configMaps[v.ConfigMap.Name]
				}
			}
		}
	}
	return from
}

// checkK8sRestart: a pod started again resumes its shard's record in
// runDir, or does nothing when that record is finished.
func checkK8sRestart(t *testing.T, r *fakeShell, indexed *k8sObject, runDir string) {
	t.Helper()
	rec := filepath.Join(runDir, "record.jsonl")
	if err := os.WriteFile(rec, []byte(`{"header":{"format":"x"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	again := r.pod(indexed, "JOB_COMPLETION_INDEX=0")
	if len(again) != 1 || again[0][0] != "run" || flagValue(again[0], "resume") != runDir {
		t.Errorf("index 0 started again over its unfinished record ran %q, want run --resume %s", again, runDir)
	} else {
		checkCommand(t, "job "+indexed.Metadata.Name+" started again", again[0])
	}
	f, err := os.OpenFile(rec, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"end":{"finish":"2026-11-30T00:00:00Z","complete":true}}` + "\n")
	f.Close()
	if again := r.pod(indexed, "JOB_COMPLETION_INDEX=0"); len(again) != 0 {
		t.Errorf("index 0 started again over its finished record ran %q, want nothing", again)
	}
}

// checkK8sMerge: the merge job finds every shard's run in runDirs, and
// grades and reports.
func checkK8sMerge(t *testing.T, r *fakeShell, merge *k8sObject, runDirs []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, cmd := range r.pod(merge) {
		checkCommand(t, "job "+merge.Metadata.Name, cmd)
		seen[cmd[0]] = true
		if cmd[0] != "merge" {
			continue
		}
		shards := mergeOperands(cmd)
		sort.Strings(shards)
		want := slices.Clone(runDirs)
		sort.Strings(want)
		if !slices.Equal(shards, want) {
			t.Errorf("the merge job merges %q, want the shards' runs %q", shards, want)
		}
	}
	for _, c := range []string{"merge", "report"} {
		if !seen[c] {
			t.Errorf("the merge job never runs mcpeval %s", c)
		}
	}
}

// mergeOperands returns the runs a merge command line names: its
// arguments after the command that are not flags (--flag value or
// --flag=value).
func mergeOperands(cmd []string) []string {
	var shards []string
	for i := 1; i < len(cmd); i++ {
		switch {
		case strings.HasPrefix(cmd[i], "--") && !strings.Contains(cmd[i], "="):
			i++ // its value
		case strings.HasPrefix(cmd[i], "--"):
		default:
			shards = append(shards, cmd[i])
		}
	}
	return shards
}

func intOrNone(p *int) string {
	if p == nil {
		return "none"
	}
	return strconv.Itoa(*p)
}
