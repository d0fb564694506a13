package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/export/langfuse"
	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
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
		if _, err := otlp.ParseEndpoint(endpoint); err != nil {
			return usagef("%v", err)
		}
	}
	if *timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	rec, err := readRun(e, pos[0])
	if err != nil {
		return err
	}
	ex, err := gatherExport(e, rec, *suitePath, *toLangfuse)
	if err != nil {
		return err
	}
	opts := otlp.Options{Content: *content, Timeout: *timeout}
	if *content || *redactPath != "" { // a list also applies to reasons and dataset items
		var cfg *redact.Config
		if *redactPath != "" {
			if cfg, err = redact.LoadConfig(*redactPath); err != nil {
				return badInput(err)
			}
		}
		red, err := redact.New(cfg, e.getenv)
		if err != nil {
			return badInput(err)
		}
		if ex.suite != nil {
			t := ex.suite.Target
			red.AddTarget(t.Spec, t.Headers, t.Env, e.getenv)
		}
		red.AddTarget(rec.Header.Target.Spec, nil, nil, e.getenv)
		opts.Redactor = red
	}
	if *toLangfuse {
		return exportLangfuse(ctx, e, rec, ex, opts)
	}
	opts.Endpoint = endpoint
	st, err := otlp.Send(ctx, ex.items, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "sent %d spans (%d attempts) to %s\n", st.Sent, len(ex.items), otlpWhere(e, endpoint))
	return nil
}

// otlpWhere names the collector the SDK sends to, without credentials.
func otlpWhere(e *env, endpoint string) string {
	for _, v := range []string{endpoint, e.getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), e.getenv("OTEL_EXPORTER_OTLP_ENDPOINT")} {
		if v != "" {
			return redact.Secrets(v)
		}
	}
	return "http://localhost:4318"
}

// exported is a run gathered for an export: its attempts with their
// grades, and the suite when it could be loaded.
type exported struct {
	suite  *suite.Suite
	grades *grade.Result
	items  []otlp.Attempt
}

// gatherExport grades the run's attempts (from RUN/grades.json, or
// against the suite) and pairs them with their cases. The suite is needed
// for Langfuse (needSuite); otherwise a suite that cannot be loaded only
// leaves groups and datasets out.
func gatherExport(e *env, rec *record.Run, suitePath string, needSuite bool) (*exported, error) {
	ex := &exported{}
	p := suitePath
	if p == "" {
		p = rec.Header.Suite.Path
	}
	s, serr := loadSuite(p)
	if serr == nil {
		ex.suite = s
	}
	g, gerr := rundir.ReadGrades(rec.Dir)
	switch {
	case gerr == nil:
		ex.grades = g
	case !errors.Is(gerr, rundir.ErrNoGrades):
		return nil, badInput(fmt.Errorf("%v (re-create it with mcpeval score)", gerr))
	case s != nil:
		ex.grades = grade.Run(s, rec)
	}
	if serr != nil && (needSuite || ex.grades == nil) {
		return nil, fmt.Errorf("loading the run's suite: %w", serr)
	}
	if serr != nil {
		fmt.Fprintf(e.stderr, "mcpeval export: warning: %s: sending without groups and datasets\n", strings.TrimSpace(serr.Error()))
	}
	type key struct {
		c string
		n int
	}
	verdicts := map[key]*grade.AttemptGrade{}
	scored := map[key]*actions.Result{}
	if ex.grades != nil {
		for i := range ex.grades.Attempts {
			a := &ex.grades.Attempts[i]
			verdicts[key{a.Case, a.N}] = a
		}
		if ex.grades.Actions != nil {
			for i := range ex.grades.Actions.Attempts {
				r := &ex.grades.Actions.Attempts[i].Result
				scored[key{r.Case, r.N}] = r
			}
		}
	}
	for i := range rec.Attempts {
		a := &rec.Attempts[i]
		it := otlp.Attempt{Header: &rec.Header, Attempt: a, Grade: verdicts[key{a.Case, a.N}], Actions: scored[key{a.Case, a.N}]}
		if ex.suite != nil {
			if c := ex.suite.Case(a.Case); c != nil {
				it.Group, it.Dataset = c.Group, ex.suite.DatasetOf(c)
			}
		}
		ex.items = append(ex.items, it)
	}
	return ex, nil
}

func exportLangfuse(ctx context.Context, e *env, rec *record.Run, ex *exported, opts otlp.Options) error {
	c, err := langfuse.New(e.getenv("LANGFUSE_HOST"), e.getenv("LANGFUSE_PUBLIC_KEY"), e.getenv("LANGFUSE_SECRET_KEY"))
	if err != nil {
		return usagef("%v", err)
	}
	if opts.Redactor != nil { // the keys are never content
		opts.Redactor.AddSecret(e.getenv("LANGFUSE_SECRET_KEY"))
	}
	st, err := langfuse.Export(ctx, c, langfuse.Input{Suite: ex.suite, Run: rec, Attempts: ex.items, OTLP: opts})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "sent %d spans (%d attempts) to %s, project %s\n", st.Traces.Sent, len(ex.items), redact.Secrets(c.Host()), termsafe.Line(st.Project))
	fmt.Fprintf(e.stdout, "datasets %d, items %d, dataset run items %d, scores %d\n", st.Datasets, st.Items, st.RunItems, st.Scores)
	for _, r := range st.DatasetRuns {
		fmt.Fprintf(e.stdout, "dataset run %s\n", r)
	}
	return nil
}
