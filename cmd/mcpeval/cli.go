package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
)

// Exit statuses.
const (
	exitOK         = 0
	exitFailure    = 1 // something went wrong that is not the input's fault
	exitUsage      = 2 // bad usage or bad input (a located error says which)
	exitInvalid    = 3 // the run is invalid: the target's data drifted
	exitIncomplete = 4 // the run stopped early (interrupted, budget); --resume continues it
	exitGate       = 5 // a gate failed: a significant regression or a pass rate below the threshold
	exitTooFew     = 6 // too few graded attempts to judge: none (gate or no gate), or too many errors for a gate
)

// usage is the top-level help; the command list comes from the commands
// themselves, so it cannot go stale.
func usageText() string {
	return `mcpeval measures how well AI models use the tools of an MCP server.

Usage:
  mcpeval <command> [flags] [arguments]

` + commandList() + `

With no flags, "mcpeval run" runs the embedded household suite against the
embedded household target with fake:perfect, a model that follows each
case's key. Choose a real model with --model.

RUN is a run's directory (the one --out named, by default ROOT/runs/RUN_ID
under the output root: see mcpeval help run).

Exit status:
  0  done (the run completed; grades do not change the status unless a gate
     is set, or no attempt was graded: see 6)
  1  an unexpected failure, or an output that could not be written (a full disk)
  2  bad usage or bad input: the error names the file and line
  3  invalid run: the preflight found the target's data drifted; nothing was graded
  4  incomplete run: stopped early (interrupted, budget); the record says why
  5  a gate failed
  6  too few graded attempts to judge: every attempt ended in an error (an
     outage, not a result: gate or no gate), or a gate is set and more
     attempts ended in an error than --max-error-rate allows
`
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *env, args []string) error
	// gc, when set, applies the command's garbage-collector settings for
	// as long as it runs and returns what puts the previous ones back: a
	// soft heap limit for the commands that read whole runs (limitHeap),
	// collection less often for serve-target (serverGC). The others keep
	// the runtime's defaults.
	gc func() (restore func())
}

// env is what a command may touch: no globals, so tests run the CLI in
// process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// isTerminal reports whether stderr is a terminal (for progress).
	isTerminal bool
	// parsed, when not nil, is shown each flag set as it is parsed, every
	// flag defined: tests read the commands' flags from it.
	parsed func(*flag.FlagSet)
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// Main runs mcpeval with args and returns the exit status.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, isTerminal: isTerminal(stderr)}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		fmt.Fprint(stdout, usageText())
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	name := args[0]
	if name == "--version" || name == "-version" {
		name, args = "version", append([]string{"version"}, args[1:]...)
	}
	if name == "help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				c.run(ctx, e, []string{"--help"})
				return exitOK
			}
			fmt.Fprintf(stderr, "mcpeval help: no command %q\n\n%s", termsafe.Line(args[1]), commandList())
			return exitUsage
		}
		fmt.Fprint(stdout, usageText())
		return exitOK
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "mcpeval: unknown command %q\n\n%s", name, commandList())
		return exitUsage
	}
	if c.gc != nil {
		defer c.gc()()
	}
	err := c.run(ctx, e, args[1:])
	if err == nil {
		return exitOK
	}
	if badInputErr(err) {
		err = badInput(err)
	}
	var ex *exitError
	if errors.As(err, &ex) {
		if ex.msg != "" {
			// err.Error() keeps any context a caller wrapped around ex.
			fmt.Fprintf(stderr, "mcpeval %s: %s\n", name, termsafe.String(err.Error())) // it may quote a server or a file
		}
		return ex.code
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	fmt.Fprintf(stderr, "mcpeval %s: %s\n", name, termsafe.String(err.Error()))
	return exitFailure
}

func commandList() string {
	names := slices.Sorted(maps.Keys(commands))
	width := len("help")
	for _, n := range names {
		width = max(width, len(n))
	}
	var b strings.Builder
	b.WriteString("Commands:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintf(&b, "  %-*s  %s\n", width, "help", `show this text, or "mcpeval help COMMAND" for one command`)
	return b.String()
}

// exitError carries an exit status and a message for people.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

func exitf(code int, format string, args ...any) error {
	return &exitError{code: code, msg: fmt.Sprintf(format, args...)}
}

// badInputErr reports whether err, however deeply wrapped, is the
// input's fault: another writer holds the run, a path or run the user
// named will not do, or the suite does not fit the target.
func badInputErr(err error) bool {
	var se suite.Errors
	return errors.Is(err, rundir.ErrLocked) || errors.Is(err, rundir.ErrBadOutput) ||
		errors.Is(err, pipeline.ErrNothingToResume) || errors.Is(err, record.ErrExists) ||
		errors.Is(err, runner.ErrDuplicateTool) || errors.Is(err, runner.ErrTargetNotAllowed) || errors.As(err, &se)
}

// badInput wraps an input error (a suite, a script) as exit status 2.
func badInput(err error) error {
	return &exitError{code: exitUsage, msg: err.Error()}
}

// flagSet is a command's flags and its help text.
type flagSet struct {
	*flag.FlagSet
	help func()
	env  *env
}

// newFlags returns a flag set for command name, whose -h prints help and
// the flags' defaults on stdout.
func newFlags(e *env, name, help string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parse reports errors itself, in one line
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, env: e, help: func() {
		fmt.Fprint(e.stdout, strings.TrimLeft(help, "\n"))
		fmt.Fprintln(e.stdout, "\nFlags:")
		fs.SetOutput(e.stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}}
}

// parse parses flags wherever they stand among the arguments (so that
// "mcpeval score RUN --json" works) and returns the positional arguments.
func parse(fs *flagSet, args []string) ([]string, error) {
	if fs.env != nil && fs.env.parsed != nil {
		fs.env.parsed(fs.FlagSet)
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.help()
				return nil, err
			}
			return nil, usagef("%v (see mcpeval help %s)", err, fs.Name())
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// repeated is a repeatable flag whose values are kept whole (a header
// value may hold commas).
type repeated []string

func (r *repeated) String() string { return strings.Join(*r, "; ") }

// Set implements flag.Value.
func (r *repeated) Set(v string) error {
	*r = append(*r, v)
	return nil
}

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*s = append(*s, p)
		}
	}
	return nil
}

// shownSuite loads a suite as loadSuite does, for a command that shows
// or sends its text beside a run (view, export): the secrets a run of it
// scrubs from its record are scrubbed from its text too.
func shownSuite(p string) (*suite.Suite, error) {
	s, err := loadSuite(p)
	if err != nil {
		return nil, err
	}
	pipeline.HideSecrets(s, pipeline.Secrets(s))
	return s, nil
}

// loadSuite reads a suite from a path, or an embedded one by name
// ("household" or "embedded:household"); the default is the embedded
// household suite.
func loadSuite(p string) (*suite.Suite, error) {
	if p == "" {
		p = "embedded:household"
	}
	if name, ok := strings.CutPrefix(p, "embedded:"); ok {
		s, err := builtin.LoadSuite(name)
		if err != nil {
			return nil, badInput(err)
		}
		return s, nil
	}
	if _, err := os.Stat(p); err != nil || isCodeDir(p) {
		for _, n := range builtin.SuiteNames() {
			if n == p {
				return loadSuite("embedded:" + p)
			}
		}
		return nil, usagef("suite %s: no such file or directory (embedded suites: %s)", p, strings.Join(builtin.SuiteNames(), ", "))
	}
	s, err := suite.Load(p)
	if err != nil {
		return nil, badInput(err)
	}
	return s, nil
}

// isCodeDir reports whether p is a directory that holds no suite.yaml (a
// Go package named like an embedded suite, say): then a bare name means
// the embedded suite.
func isCodeDir(p string) bool {
	st, err := os.Stat(p)
	if err != nil || !st.IsDir() {
		return false
	}
	_, err = os.Stat(filepath.Join(p, "suite.yaml"))
	return err != nil
}

// pricesFlag is --prices, shared by the commands that price a run (run,
// score, report).
type pricesFlag struct{ path string }

func (p *pricesFlag) register(fs *flag.FlagSet) {
	fs.StringVar(&p.path, "prices", "", "price `FILE` replacing the built-in price table of each provider it names (see docs/models.md)")
}

// load returns the price tables: the built-in ones, with the file's in
// place of those of the providers it names. A bad file is bad input.
func (p *pricesFlag) load() (*usage.Prices, error) {
	s, err := usage.LoadPrices(p.path)
	if err != nil {
		return nil, badInput(err)
	}
	return s, nil
}
