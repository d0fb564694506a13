package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/export"
	"github.com/mcpeval/mcpeval/internal/termsafe"
)

const exportHelp = `
Usage: mcpeval export RUN --otlp [ENDPOINT] [--content] [--redact FILE]
       mcpeval export RUN --langfuse [--content] [--redact FILE]

Sends a recorded run where teams already watch their agents. The record
stays the source of truth: exporting reads it and changes nothing, and
exporting again sends the same trace and span ids.

--otlp sends the run as OpenTelemetry traces over OTLP/HTTP: one trace per
attempt (its case, number, verdict, reasons and action columns), a
"chat MODEL" span per model turn and an "execute_tool TOOL" span per tool
call, after the GenAI and MCP semantic conventions, timed as the record
says they happened. The endpoint, headers and protocol come from the
standard OTEL_EXPORTER_OTLP_* variables (http://localhost:4318 when none
is set); an ENDPOINT given here overrides them.

--langfuse sends the same traces to Langfuse's OTLP endpoint, then makes
(or updates) a Langfuse dataset per suite dataset, with the cases as
items, a dataset run named after the run linking each item to its
attempts' traces, and scores per attempt: the verdict, each check and
each action column. Keys come from LANGFUSE_PUBLIC_KEY and
LANGFUSE_SECRET_KEY, the host from LANGFUSE_HOST
(https://cloud.langfuse.com when unset).

Grades are the run's (RUN/grades.json), or the suite's verdicts when the
run has none. Prompts, answers, tool arguments and results are sent only
with --content, through the redaction publishing uses (--redact FILE adds
a list of identifiers to remove). Spans that cannot be sent within
--timeout make the export fail (exit 1), saying how many.

See docs/observability.md for Jaeger, Grafana Tempo, Phoenix and Langfuse.
`

func init() {
	register(&command{name: "export", summary: "send a recorded run as OpenTelemetry traces or to Langfuse", run: exportCmd})
}

// optionalValue is a flag that may stand alone (--otlp) or carry a value
// (--otlp=URL).
type optionalValue struct {
	set   bool
	value string
}

func (o *optionalValue) String() string { return o.value }
func (o *optionalValue) Set(s string) error {
	o.set = true
	if s != "true" {
		o.value = s
	}
	return nil
}
func (o *optionalValue) IsBoolFlag() bool { return true }

func exportCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "export", exportHelp)
	var toOTLP optionalValue
	fs.Var(&toOTLP, "otlp", "send the run as OpenTelemetry traces over OTLP/HTTP (to `ENDPOINT`, or as OTEL_EXPORTER_OTLP_* say)")
	toLangfuse := fs.Bool("langfuse", false, "send the run to Langfuse: traces, datasets, a dataset run and scores")
	content := fs.Bool("content", false, "send prompts, answers, tool arguments and results too (redacted)")
	redactPath := fs.String("redact", "", "remove the identifiers listed in `FILE` from content (see mcpeval help publish)")
	suitePath := fs.String("suite", "", "suite `PATH` for groups and datasets, and to grade an ungraded run (default: the run's)")
	timeout := fs.Duration("timeout", 30*time.Second, "give up sending after `DURATION`, retries included")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	endpoint := toOTLP.value
	switch {
	case len(pos) == 2 && toOTLP.set && endpoint == "":
		endpoint = pos[1]
	case len(pos) != 1:
		return usagef("want one RUN directory (see mcpeval help export)")
	}
	if toOTLP.set == *toLangfuse {
		return usagef("say where to send the run: --otlp or --langfuse (see mcpeval help export)")
	}
	if endpoint != "" {
		if err := export.CheckEndpoint(endpoint); err != nil {
			return usagef("%v", err)
		}
	}
	if *timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	// The record is read as a stream: each attempt is read back, sent
	// and let go.
	rd, err := openRun(pos[0])
	if err != nil {
		return err
	}
	defer rd.Close()
	rec := rd.Run()
	p, perr := *suitePath, error(nil)
	if p == "" {
		p, perr = rec.Header.Suite.Locate(rec.Dir)
	}
	opts := export.Options{
		Content: *content, RedactFile: *redactPath, Endpoint: endpoint, Timeout: *timeout, Getenv: e.getenv,
		Warn: func(m string) { fmt.Fprintf(e.stderr, "mcpeval export: warning: %s\n", termsafe.Line(m)) },
	}
	if opts.SuiteErr = perr; perr == nil {
		opts.Suite, opts.SuiteErr = shownSuite(p)
	}
	if *toLangfuse {
		st, err := export.Langfuse(ctx, rd, opts)
		if err != nil {
			return exportErr(err)
		}
		fmt.Fprintf(e.stdout, "sent %d spans (%d attempts) to %s, project %s\n", st.Traces.Sent, st.Attempts, st.Host, termsafe.Line(st.Langfuse.Project))
		fmt.Fprintf(e.stdout, "datasets %d, items %d, dataset run items %d, scores %d\n", st.Langfuse.Datasets, st.Langfuse.Items, st.Langfuse.RunItems, st.Langfuse.Scores)
		for _, r := range st.Langfuse.DatasetRuns {
			fmt.Fprintf(e.stdout, "dataset run %s\n", termsafe.Line(r))
		}
		return nil
	}
	st, err := export.OTLP(ctx, rd, opts)
	if err != nil {
		return exportErr(err)
	}
	fmt.Fprintf(e.stdout, "sent %d spans (%d attempts) to %s\n", st.Traces.Sent, st.Attempts, export.Where(endpoint, e.getenv))
	return nil
}

// exportErr makes a mistake in what a person gave exit 2.
func exportErr(err error) error {
	if errors.Is(err, export.ErrBadInput) {
		return badInput(errors.New(strings.TrimPrefix(err.Error(), export.ErrBadInput.Error()+": ")))
	}
	return err
}
