package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
)

const replayHelp = `
Usage: mcpeval replay RUN [--target SPEC] [--suite PATH] [--json | --markdown]

Sends every tool call the run RUN made to a target again, in order within
each attempt, with no model, and compares each result with the one the
run recorded: the text (as indented JSON when it is JSON), the structured
content, isError and a protocol rejection. It answers "does this server
build still answer the calls the model made as the recorded one did?".

The target is --target SPEC (builtin:NAME, stdio:COMMAND ARGS..., an
http(s) URL, or FILE.json#NAME), else the suite's own. The suite is the
one the run recorded, else --suite. Its replay: setting names what
volatile parts of a result to ignore (docs/ci.md, "Replay").

Calls that never reached the server are not sent: a tool the model was
not shown, arguments that were not JSON, a tool-call case's first calls.
A run of action cases is refused: replay does not rebuild their fixtures;
so is a run on a search surface.

It prints how many calls were replayed, the same, different and errors
(the target failed to answer), then each difference as a unified diff of
the recorded result (-) and the replayed one (+). --markdown writes the
same for a pull-request comment, --json as one object.

Exit status: 0 when every call answered as recorded, 5 when one differs
or the target failed on one, 2 for bad usage, a run or suite that cannot
be read, or a run of action cases.

Examples:
  mcpeval replay RUN --target builtin:household
  mcpeval replay RUN --target 'stdio:./bin/server --fixture new.yaml' --markdown
`

func init() {
	register(&command{name: "replay", summary: "send a run's tool calls to a target again, without a model, and diff each result", run: replayCmd})
}

// replayJSON is what replay --json prints.
type replayJSON struct {
	Run         string           `json:"run"`
	Target      string           `json:"target"`
	Replayed    int              `json:"replayed"`
	Same        int              `json:"same"`
	Different   int              `json:"different"`
	Errors      int              `json:"errors"`
	Differences []replayDiffJSON `json:"differences"`
}

// replayDiffJSON is one call that differs, or that the target failed.
type replayDiffJSON struct {
	Attempt string          `json:"attempt"`
	Turn    int             `json:"turn"`
	Call    int             `json:"call"`
	Tool    string          `json:"tool"`
	Args    json.RawMessage `json:"args"`
	Diff    string          `json:"diff,omitempty"`
	Error   string          `json:"error,omitempty"`
}

func replayCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "replay", replayHelp)
	var tf targetFlags
	tf.register(fs.FlagSet)
	spec := fs.String("target", "", "send the calls to `SPEC` (default: the suite's target)")
	suitePath := fs.String("suite", "", "read the suite at `PATH` (default: the one the run recorded)")
	timeout := fs.Duration("timeout", 60*time.Second, "longest each call may take")
	asJSON := fs.Bool("json", false, "print the replay as one JSON object")
	asMD := fs.Bool("markdown", false, "print the replay as Markdown, for a pull-request comment")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 1:
		return usagef("want one RUN directory (see mcpeval help replay)")
	case *asJSON && *asMD:
		return usagef("give --json or --markdown, not both")
	case *timeout <= 0:
		return usagef("--timeout %s: want a positive duration", *timeout)
	}
	rec, err := record.Read(pos[0]) // every attempt, with its calls
	if err != nil {
		return badInput(err)
	}
	p := *suitePath
	if p == "" {
		if p, err = rec.Header.Suite.Locate(rec.Dir); err != nil {
			return badInput(err)
		}
	}
	s, err := loadSuite(p)
	if err != nil {
		return err
	}
	var specs []string
	if *spec != "" {
		specs = []string{*spec}
	}
	o := tf.overrides(specs...)
	if sf := rec.Header.Surface; sf != nil { // the surface's own target, when it has one
		for _, x := range s.Surfaces {
			if x.Name == sf.Name {
				o.Surface = x
			}
		}
	}
	tcfg, err := resolveTarget(s, o)
	if err != nil {
		return err
	}
	got, err := runner.Replay(ctx, runner.ReplayConfig{Suite: s, Record: rec, Target: tcfg, CallTimeout: *timeout})
	if errors.Is(err, runner.ErrNotReplayable) {
		return badInput(err)
	}
	if err != nil {
		return err
	}
	out := replaySummary(pos[0], tcfg.Describe(), got)
	switch {
	case *asJSON:
		err = printJSON(e.stdout, out)
	case *asMD:
		writeReplayMarkdown(e.stdout, out)
	default:
		writeReplayText(e.stdout, out)
	}
	if err != nil {
		return err
	}
	if out.Different+out.Errors > 0 {
		return exitf(exitGate, "replay: %d of %d calls differ from the run, %d failed", out.Different, out.Replayed, out.Errors)
	}
	return nil
}

// replaySummary counts the replayed calls and keeps those that differ.
func replaySummary(run, tgt string, got []runner.Replayed) replayJSON {
	out := replayJSON{Run: run, Target: tgt, Replayed: len(got), Differences: []replayDiffJSON{}}
	for _, p := range got {
		switch {
		case p.Err != "":
			out.Errors++
		case p.Diff != "":
			out.Different++
		default:
			out.Same++
			continue
		}
		args := json.RawMessage(p.Args)
		if !json.Valid(args) {
			args = json.RawMessage("null")
		}
		out.Differences = append(out.Differences, replayDiffJSON{Attempt: p.Attempt.ID(), Turn: p.Turn, Call: p.Call, Tool: p.Tool, Args: args, Diff: p.Diff, Error: p.Err})
	}
	return out
}

// writeReplayText prints the replay for a terminal: what the server wrote
// made safe for it.
func writeReplayText(w io.Writer, r replayJSON) {
	fmt.Fprintf(w, "replay of %s against %s\n", termsafe.Line(r.Run), termsafe.Line(r.Target))
	fmt.Fprintf(w, "  %d call%s replayed: %d same, %d different, %d error%s\n", r.Replayed, format.S(r.Replayed), r.Same, r.Different, r.Errors, format.S(r.Errors))
	for _, d := range r.Differences {
		fmt.Fprintf(w, "\n%s, turn %d, call %d: %s %s\n", termsafe.Line(d.Attempt), d.Turn, d.Call, termsafe.Line(d.Tool), termsafe.Line(bounded(string(d.Args), 200)))
		if d.Error != "" {
			fmt.Fprintf(w, "  the target failed: %s\n", termsafe.Line(d.Error))
			continue
		}
		writeIndented(w, strings.TrimSuffix(d.Diff, "\n"))
	}
}

// writeReplayMarkdown prints the replay as Markdown: everything the server
// wrote inside code spans and fenced blocks it cannot close.
func writeReplayMarkdown(w io.Writer, r replayJSON) {
	fmt.Fprintf(w, "### mcpeval replay of %s against %s\n\n", format.CodeSpan(r.Run), format.CodeSpan(r.Target))
	fmt.Fprintln(w, "| replayed | same | different | errors |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|")
	fmt.Fprintf(w, "| %d | %d | %d | %d |\n", r.Replayed, r.Same, r.Different, r.Errors)
	for _, d := range r.Differences {
		fmt.Fprintf(w, "\n#### %s, turn %d, call %d: %s\n\n", format.CodeSpan(d.Attempt), d.Turn, d.Call, format.CodeSpan(d.Tool))
		fmt.Fprintf(w, "Arguments: %s\n\n", format.CodeSpan(bounded(string(d.Args), 200)))
		if d.Error != "" {
			fmt.Fprintf(w, "The target failed: %s\n", format.CodeSpan(d.Error))
			continue
		}
		block := format.CodeBlock(d.Diff)
		i := strings.IndexByte(block, '\n')
		fmt.Fprint(w, block[:i]+"diff"+block[i:])
	}
}
