package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/audit"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

const validateHelp = `
Usage: mcpeval validate [SUITE] [--target SPEC | --target NAME=SPEC...] [--offline] [--strict] [--json]

Checks a suite: its files (every problem with file:line) and the tolerance
each figure is judged with; then, against its target's live tool list,
that every tool it names exists, that a read-only suite is shown only
read-only tools, that every case's key fits its tools' input schemas (a
key argument a tool does not have makes the case unpassable), that no
prompt names the tools or arguments it should lead to (the leak audit,
less the suite's actions.leak_exceptions), and that the preflight
figures hold. It warns of a destructive case whose tool has no way to
take the approval, and of action cases whose fixtures name no {{token}}
(every attempt shares them) while the suite lets attempts run at once.
SUITE is a path or an embedded suite name (default: household). --target replaces the suite's target; for a suite of several
servers (targets:), --target NAME=SPEC replaces the server NAME alone and
may be repeated, and every server is reported.

With --offline the target is not started: the files, and the target's
settings a run would refuse before starting it (its spec, its oauth), are
checked.

Exit status: 2 when a case cannot pass as written (its key does not fit
the target) or the target's settings are refused, 3 when the preflight
finds the target's data drifted. Leaks and other warnings are printed and
leave the status 0, unless --strict.

Examples:
  mcpeval validate
  mcpeval validate ops --offline
  mcpeval validate my-suite/ --target "stdio:./bin/server" --strict
  mcpeval validate my-suite/ --json
  mcpeval validate my-suite/ --target 'office=stdio:./bin/server --dev'
`

const serveHelp = `
Usage: mcpeval serve-target [builtin:]NAME [--writable] [--http ADDR [--shared-state]]

Serves an embedded target so that any MCP client (the MCP Inspector, a
desktop assistant, another mcpeval) can use it: over stdio by default, or
over streamable HTTP at http://ADDR/mcp with --http. It serves the
read-only view (only the tools annotated read-only) unless --writable is
given. Over HTTP each session gets its own state, freshly seeded, so one
client's changes are not another's, unless --shared-state is given, and
every event stream opens with an event id and a retry time, so a client
whose stream dropped resumes it with Last-Event-ID.

Its garbage collector runs less often than Go's default would (GOGC=400,
with a 64 MiB soft limit): a served target holds little and allocates
much for each call, and so spends about a third less CPU a call for about
12 MiB more at its peak. GOGC and GOMEMLIMIT in the environment set
others.
`

func init() {
	register(&command{name: "validate", summary: "check a suite, and against its target's live tools", run: validateCmd})
	register(&command{name: "serve-target", summary: "serve an embedded target over stdio or streamable HTTP", run: serveCmd, gc: serverGC})
}

// validation is what validate found, as --json prints it.
type validation struct {
	Suite struct {
		Name   string `json:"name"`
		Path   string `json:"path"`
		Cases  int    `json:"cases"`
		Groups int    `json:"groups"`
	} `json:"suite"`
	Figures []figureTolerance `json:"figures"`
	// Given are the key arguments the deployment supplies (given:),
	// which fake:perfect sends and no grade judges.
	Given  []givenArg       `json:"given,omitempty"`
	Target *validatedTarget `json:"target,omitempty"`
	// Problems make a case unpassable as written (exit status 2).
	Problems []located `json:"problems"`
	// Warnings are worth a look: leaks, a suite with no cases.
	Warnings []located `json:"warnings"`
	// Preflight is what the preflight found, when the target was started.
	Preflight *validatedPreflight `json:"preflight,omitempty"`
}

type figureTolerance struct {
	Case      string  `json:"case"`
	Value     float64 `json:"value"`
	Kind      string  `json:"kind,omitempty"`
	Label     string  `json:"label,omitempty"`
	Tolerance string  `json:"tolerance"`
	// Source is where the tolerance comes from: figure, suite, default or
	// exact.
	Source string `json:"source"`
}

// givenArg is an argument of an action case's step whose value is given.
type givenArg struct {
	Case  string `json:"case"`
	Step  int    `json:"step"`
	Tool  string `json:"tool"`
	Arg   string `json:"arg"`
	Value any    `json:"value"`
}

// givenArgs lists the given arguments of s's action cases, in case, step
// and argument order.
func givenArgs(s *suite.Suite) []givenArg {
	var out []givenArg
	for _, c := range s.Cases {
		if c.Action == nil {
			continue
		}
		for i, st := range c.Action.Steps {
			for _, a := range slices.Sorted(maps.Keys(st.Args)) {
				if v := st.Args[a].Given; v != nil {
					out = append(out, givenArg{Case: c.ID, Step: i + 1, Tool: st.Tool, Arg: a, Value: v})
				}
			}
		}
	}
	return out
}

// validatedTarget is the target validate connected to. For a suite of
// several servers (targets:), Spec describes them all, Server and
// ServerVersion are empty and Tools counts every server's; Servers lists
// each server, and the one server of any other suite.
type validatedTarget struct {
	Spec          string            `json:"spec"`
	Server        string            `json:"server"`
	ServerVersion string            `json:"server_version"`
	Tools         int               `json:"tools"`
	Servers       []validatedServer `json:"servers"`
}

// validatedServer is one server of the target: its name in the suite
// (none for a suite of one server), its spec, what it reported of itself
// and how many of its tools the model would be shown.
type validatedServer struct {
	Name          string `json:"name,omitempty"`
	Spec          string `json:"spec"`
	Server        string `json:"server"`
	ServerVersion string `json:"server_version"`
	Tools         int    `json:"tools"`
}

// several reports whether the target is made of several servers
// (targets:), each named.
func (t *validatedTarget) several() bool {
	return len(t.Servers) > 0 && t.Servers[0].Name != ""
}

type validatedPreflight struct {
	Checks   int      `json:"checks"`
	Problems []string `json:"problems"`
}

// located is a problem or warning, with where it is when known.
type located struct {
	// Kind says which check found it: "file", "key", "leak", "confirm",
	// "cleanup", "shared-state", "no-cases", "surface" or "target".
	Kind    string `json:"kind"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// fileLine splits a "file:line: message" warning into its parts.
var fileLine = regexp.MustCompile(`^(.+?):(\d+): (.*)$`)

// problemsSay says what validate's problems stop: the cases, the target's
// settings, or both.
func problemsSay(ps []located) string {
	target := 0
	for _, p := range ps {
		if p.Kind == "target" {
			target++
		}
	}
	cases := len(ps) - target
	var say []string
	if cases > 0 {
		say = append(say, either(cases, "a case", "cases")+" cannot pass as written")
	}
	if target > 0 {
		say = append(say, "the target's settings are refused")
	}
	return strings.Join(say, "; ")
}

func locate(kind, w string) located {
	if m := fileLine.FindStringSubmatch(w); m != nil {
		n, _ := strconv.Atoi(m[2])
		return located{Kind: kind, File: m[1], Line: n, Message: m[3]}
	}
	return located{Kind: kind, Message: w}
}

func (l located) String() string {
	switch {
	case l.File != "" && l.Line > 0:
		return fmt.Sprintf("%s:%d: %s", l.File, l.Line, l.Message)
	case l.File != "":
		return l.File + ": " + l.Message
	}
	return l.Message
}

func validateCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "validate", validateHelp)
	var tgt targetFlag
	tgt.register(fs.FlagSet)
	var headers, envs repeated
	fs.Var(&headers, "target-header", "send `NAME: VALUE` to an HTTP target; ${VAR} in VALUE is read from the environment; repeatable")
	fs.Var(&envs, "target-env", "set `KEY=VALUE` for a stdio target; ${VAR} in VALUE is read from the environment; repeatable")
	var ct connectTimeout
	ct.register(fs.FlagSet)
	offline := fs.Bool("offline", false, "check the files and the target's settings; do not start the target")
	strict := fs.Bool("strict", false, "treat warnings (leaks, no cases) as problems: exit status 2")
	asJSON := fs.Bool("json", false, "print what was found as JSON on stdout")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("want at most one SUITE (see mcpeval help validate)")
	}
	p := ""
	if len(pos) == 1 {
		p = pos[0]
	}
	s, err := loadSuite(p)
	if err != nil {
		if *asJSON {
			return fileProblemsJSON(e, p, err)
		}
		return err
	}
	v := &validation{Problems: []located{}, Warnings: []located{}, Figures: []figureTolerance{}}
	v.Suite.Name, v.Suite.Path, v.Suite.Cases, v.Suite.Groups = s.Name, s.Path, len(s.Cases), len(s.Groups())
	for _, ft := range s.FigureTolerances() {
		v.Figures = append(v.Figures, figureTolerance{Case: ft.Case.ID, Value: ft.Figure.Value, Kind: ft.Figure.Kind, Label: ft.Figure.Label,
			Tolerance: ft.Tolerance.String(), Source: ft.Source})
	}
	v.Given = givenArgs(s)
	if len(s.Cases) == 0 {
		v.Warnings = append(v.Warnings, located{Kind: "no-cases", File: s.Path, Message: "the suite has no cases yet: write cases from what users of the server ask (see docs/suite.md), then run mcpeval validate again"})
	}
	for _, w := range audit.CleanupWarnings(s) {
		v.Warnings = append(v.Warnings, locate("cleanup", w))
	}
	for _, w := range audit.SharedStateWarnings(s, 0) {
		v.Warnings = append(v.Warnings, locate("shared-state", w))
	}
	if *offline {
		if err := validateOffline(s, tgt, headers, envs, ct, v); err != nil {
			return err
		}
	} else if err := validateLive(ctx, s, tgt, headers, envs, ct, v); err != nil {
		return err
	}
	if *asJSON {
		if err := printJSON(e.stdout, v); err != nil {
			return err
		}
	} else {
		printValidation(e, v, *offline)
	}
	switch {
	case len(v.Problems) > 0:
		return usagef("%d %s: %s", len(v.Problems), either(len(v.Problems), "problem", "problems"), problemsSay(v.Problems))
	case v.Preflight != nil && len(v.Preflight.Problems) > 0:
		return exitf(exitInvalid, "preflight: %d problems: the target's data is not what the suite expects", len(v.Preflight.Problems))
	case *strict && len(v.Warnings) > 0:
		return usagef("%d %s, and --strict is set", len(v.Warnings), either(len(v.Warnings), "warning", "warnings"))
	}
	return nil
}

// fileProblemsJSON prints, for --json, the problems that kept the suite at
// path from loading, located, and returns err.
func fileProblemsJSON(e *env, path string, err error) error {
	v := &validation{Problems: []located{}, Warnings: []located{}, Figures: []figureTolerance{}}
	v.Suite.Path = path
	var es suite.Errors
	if _, lerr := os.Stat(path); lerr == nil {
		if _, lerr := suite.Load(path); errors.As(lerr, &es) {
			for _, e := range es {
				v.Problems = append(v.Problems, located{Kind: "file", File: e.File, Line: e.Line, Message: e.Msg})
			}
		}
	}
	if len(v.Problems) == 0 {
		v.Problems = append(v.Problems, located{Kind: "file", Message: err.Error()})
	}
	if perr := printJSON(e.stdout, v); perr != nil {
		return perr
	}
	return err
}

// validateOffline checks what a run checks of s's target before starting
// it (target.Config.Check: its spec, oauth and notify settings) and adds
// what it refuses as a problem, located. A suite that names no target
// and no --target has nothing to check. An override that does not apply
// (--target-env on an HTTP target) is refused as a run refuses it.
func validateOffline(s *suite.Suite, override targetFlag, headers, envs []string, ct connectTimeout, v *validation) error {
	o := runner.TargetOverrides{Specs: override, Headers: headers, Env: envs, ConnectTimeout: time.Duration(ct)}
	if len(override) == 0 {
		if t, err := runner.ResolveTarget(s, o); err == nil && t.Spec == "" {
			return nil
		}
	}
	o.Base.Builtins, o.Check = builtin.All(), true
	_, err := runner.ResolveTarget(s, o)
	if err == nil {
		return nil
	}
	if len(headers)+len(envs) > 0 {
		o.Headers, o.Env = nil, nil
		if _, cerr := runner.ResolveTarget(s, o); cerr == nil {
			return badInput(err) // the target is fine; the flags do not fit it
		}
	}
	v.Problems = append(v.Problems, locate("target", err.Error()))
	return nil
}

// validateLive checks s against its target's live tools: the key audit,
// the leak audit and the preflight.
func validateLive(ctx context.Context, s *suite.Suite, override targetFlag, headers, envs []string, ct connectTimeout, v *validation) error {
	tcfg, err := resolveTarget(s, runner.TargetOverrides{Specs: override, Headers: headers, Env: envs, ConnectTimeout: time.Duration(ct)})
	if err != nil {
		return err
	}
	ins, err := runner.Validate(ctx, s, tcfg)
	if err != nil {
		return badInput(err)
	}
	v.Target = &validatedTarget{Spec: tcfg.Describe(), Server: ins.Server.Name, ServerVersion: ins.Server.Version, Tools: len(ins.Tools)}
	if len(ins.Servers) == 0 {
		v.Target.Servers = []validatedServer{{Spec: v.Target.Spec, Server: v.Target.Server, ServerVersion: v.Target.ServerVersion, Tools: v.Target.Tools}}
	} else {
		v.Target.Server, v.Target.ServerVersion = "", "" // each server's is below
		for _, s := range ins.Servers {
			v.Target.Servers = append(v.Target.Servers, validatedServer{Name: s.Name, Spec: s.Target, Server: s.Server.Name, ServerVersion: s.Server.Version, Tools: s.Tools})
		}
	}
	if err := audit.Key(s, ins.Tools); err != nil {
		var es suite.Errors
		if !errors.As(err, &es) {
			return err
		}
		for _, e := range es {
			v.Problems = append(v.Problems, located{Kind: "key", File: e.File, Line: e.Line, Message: e.Msg})
		}
	}
	leaks := audit.Leaks(s, ins.Tools)
	if len(override) == 0 {
		problems, surfaceLeaks := surfaceProblems(ctx, s, tcfg) // surfaces.go
		v.Problems = append(v.Problems, problems...)
		leaks = append(leaks, surfaceLeaks...)
	}
	for _, l := range leaks {
		v.Warnings = append(v.Warnings, located{Kind: "leak", File: l.File, Line: l.Line,
			Message: fmt.Sprintf("case %s: the prompt says %q, which names %s: a model told the answer measures nothing (reword it, or list the word under actions.leak_exceptions with the reason)", l.Case, l.Found, l.What)})
	}
	for _, w := range audit.ConfirmWarnings(s, ins.Tools) {
		l := locate("confirm", w)
		if !slices.ContainsFunc(v.Problems, func(p located) bool { return p.File == l.File && p.Line == l.Line }) {
			v.Warnings = append(v.Warnings, l) // else the key audit's problem on that step says it already
		}
	}
	v.Preflight = &validatedPreflight{Checks: len(ins.Preflight.Checks), Problems: []string{}}
	for _, c := range ins.Preflight.Checks {
		for _, pr := range c.Problems {
			v.Preflight.Problems = append(v.Preflight.Problems, c.Tool+": "+pr)
		}
	}
	return nil
}

func printValidation(e *env, v *validation, offline bool) {
	w := e.stdout
	fmt.Fprintf(w, "suite %s: %d cases in %d groups, files ok\n", termsafe.Line(v.Suite.Name), v.Suite.Cases, v.Suite.Groups)
	if len(v.Figures) > 0 {
		fmt.Fprintf(w, "figures: %d, each judged within (a figure with no kind and no tolerance is exact):\n", len(v.Figures))
		for _, f := range v.Figures {
			label := ""
			if f.Label != "" {
				label = "  (" + termsafe.Line(f.Label) + ")"
			}
			fmt.Fprintf(w, "  %-38s %14s  ±%-6s %s%s\n", termsafe.Line(f.Case), strconv.FormatFloat(f.Value, 'f', -1, 64), f.Tolerance, toleranceSource(f), label)
		}
	}
	if len(v.Given) > 0 {
		fmt.Fprintf(w, "given: %d %s the user never says, sent as given and never judged:\n", len(v.Given), either(len(v.Given), "argument", "arguments"))
		for _, g := range v.Given {
			val, _ := json.Marshal(g.Value)
			fmt.Fprintf(w, "  %s step %d: %s %s = %s (given)\n", termsafe.Line(g.Case), g.Step, termsafe.Line(g.Tool), termsafe.Line(g.Arg), termsafe.Line(string(val)))
		}
	}
	if t := v.Target; t != nil {
		if t.several() {
			fmt.Fprintf(w, "target %s (%d servers): %d tools, every tool the suite names is listed\n", termsafe.Line(t.Spec), len(t.Servers), t.Tools)
			for _, s := range t.Servers {
				fmt.Fprintf(w, "  server %s: %s\n", termsafe.Line(s.Name), targetLine(s.Spec, s.Server, s.ServerVersion, s.Tools))
			}
		} else {
			fmt.Fprintf(w, "target %s, every tool the suite names is listed\n", targetLine(t.Spec, t.Server, t.ServerVersion, t.Tools))
		}
		if len(v.Problems) == 0 {
			fmt.Fprintln(w, "keys: every case's key fits its tools' input schemas")
		}
		leaks := 0
		for _, x := range v.Warnings {
			if x.Kind == "leak" {
				leaks++
			}
		}
		if leaks == 0 {
			fmt.Fprintln(w, "leaks: no prompt names its tools or their arguments")
		}
	}
	for _, x := range v.Problems {
		fmt.Fprintf(w, "problem: %s\n", termsafe.Line(x.String()))
	}
	for _, x := range v.Warnings {
		fmt.Fprintf(w, "warning: %s\n", termsafe.Line(x.String()))
	}
	if pf := v.Preflight; pf != nil {
		for _, pr := range pf.Problems {
			fmt.Fprintf(w, "preflight %s\n", termsafe.Line(pr)) // it quotes the server
		}
		switch {
		case len(pf.Problems) > 0:
		case pf.Checks == 0:
			fmt.Fprintln(w, "preflight: none; checks under preflight: catch a drift in the target's data before anything is graded")
		default:
			fmt.Fprintf(w, "preflight: %d checks hold\n", pf.Checks)
		}
	}
	if offline {
		fmt.Fprintln(w, "offline: the target was not started; keys, leaks and the preflight were not checked")
	}
}

func toleranceSource(f figureTolerance) string {
	switch f.Source {
	case "figure":
		return "its own"
	case "suite":
		return "the suite's " + f.Kind + " tolerance"
	case "exact":
		if f.Kind == "" {
			return "exact: no kind, no tolerance"
		}
		return "exact: a " + f.Kind
	}
	return "the default for " + f.Kind
}

// either returns one when n is 1, else many.
func either(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func serveCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "serve-target", serveHelp)
	writable := fs.Bool("writable", false, "serve the write and destructive tools too")
	shared := fs.Bool("shared-state", false, "over HTTP, let every session share one state (default: each session its own)")
	addr := fs.String("http", "", "serve streamable HTTP on `ADDR` (e.g. 127.0.0.1:8080) instead of stdio")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one target NAME (have %s)", strings.Join(builtin.Names(), ", "))
	}
	name := strings.TrimPrefix(pos[0], "builtin:") // as every other command spells a target
	if *addr == "" {
		server, err := servedServer(ctx, name, *writable)
		if err != nil {
			return usagef("%v", err)
		}
		err = server.Run(ctx, target.NewStdioServerTransport(os.Stdin, os.Stdout))
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	h, err := serveHandler(ctx, name, *writable, *shared)
	if err != nil {
		return usagef("%v", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", *addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(e.stderr, "serving %s at http://%s/mcp (Ctrl-C to stop)\n", name, ln.Addr())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		return err
	}
	return nil
}
