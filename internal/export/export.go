// Package export sends a recorded run where teams already watch their
// agents: OpenTelemetry back ends (package otlp) and Langfuse (package
// langfuse). It is the one call `mcpeval export` and `mcpeval run --otlp`
// make: it pairs each attempt of the record with its grade and its case,
// builds the redaction content goes through, and hands the result to the
// right sender. The record stays the source of truth: nothing here writes
// to the run directory.
package export

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/export/langfuse"
	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// ErrBadInput marks an error in what a person gave (a redaction list that
// does not parse, a grades file that does not read, Langfuse keys that
// are missing): the command exits 2 for it.
var ErrBadInput = errors.New("bad input")

func bad(err error) error { return fmt.Errorf("%w: %w", ErrBadInput, err) }

// Options say what to send and how.
type Options struct {
	// Suite is the run's suite as it is now, for groups and datasets and
	// to grade a run that has no grades.json; nil when it could not be
	// loaded (SuiteErr says why).
	Suite    *suite.Suite
	SuiteErr error
	// Content sends prompts, answers, tool arguments and results, redacted.
	Content bool
	// RedactFile lists identifiers to remove from content and reasons
	// (see mcpeval help publish); "" for none.
	RedactFile string
	// Endpoint is the OTLP collector's URL; "" for what the standard
	// OTEL_EXPORTER_OTLP_* variables say.
	Endpoint string
	// Timeout bounds the whole send, retries included.
	Timeout time.Duration
	// Getenv reads the environment (OTEL_*, LANGFUSE_*, and the variables
	// a redaction list or target names).
	Getenv func(string) string
	// Warn is told what was left out (nil: nothing is said).
	Warn func(string)
}

func (o *Options) getenv(k string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(k)
}

// CheckEndpoint checks a collector URL given by a person.
func CheckEndpoint(s string) error {
	_, err := otlp.ParseEndpoint(s)
	return err
}

// Where names the collector the traces go to, without credentials.
func Where(endpoint string, getenv func(string) string) string {
	for _, v := range []string{endpoint, getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), getenv("OTEL_EXPORTER_OTLP_ENDPOINT")} {
		if v != "" {
			return redact.Secrets(v)
		}
	}
	return "http://localhost:4318"
}

// Sent counts what an export sent.
type Sent struct {
	// Attempts is how many attempts of the run were sent.
	Attempts int
	// Traces counts spans, sent and not.
	Traces otlp.Stats
	// Langfuse is what Langfuse was sent; the zero value for OTLP.
	Langfuse langfuse.Stats
	// Host is the Langfuse host, without credentials.
	Host string
}

// OTLP sends the run rd reads as OpenTelemetry traces, attempt by
// attempt: a run of any size is sent without holding its attempts.
func OTLP(ctx context.Context, rd *record.Reader, opts Options) (Sent, error) {
	items, oo, err := prepare(rd, opts, false)
	if err != nil {
		return Sent{}, err
	}
	oo.Endpoint = opts.Endpoint
	st, err := otlp.SendSeq(ctx, items, oo)
	return Sent{Attempts: rd.Len(), Traces: st}, err
}

// Langfuse sends the run rd reads to Langfuse, attempt by attempt: its
// traces, a dataset per suite dataset, a dataset run, and scores per
// attempt. It needs the suite.
func Langfuse(ctx context.Context, rd *record.Reader, opts Options) (Sent, error) {
	c, err := langfuse.New(opts.getenv("LANGFUSE_HOST"), opts.getenv("LANGFUSE_PUBLIC_KEY"), opts.getenv("LANGFUSE_SECRET_KEY"))
	if err != nil {
		return Sent{}, bad(err)
	}
	items, oo, err := prepare(rd, opts, true)
	if err != nil {
		return Sent{}, err
	}
	if oo.Redactor != nil { // the keys are never content
		oo.Redactor.AddSecret(opts.getenv("LANGFUSE_SECRET_KEY"))
	}
	if opts.Timeout > 0 { // one bound for every phase and retry, not one per phase
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	st, err := langfuse.Export(ctx, c, langfuse.Input{Suite: opts.Suite, Run: rd.Run(), Each: items, OTLP: oo})
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("exporting to Langfuse: not done within %v: %w", opts.Timeout, err)
	}
	return Sent{Attempts: rd.Len(), Traces: st.Traces, Langfuse: st, Host: redact.Secrets(c.Host())}, err
}

// prepare pairs the attempts with their grades and cases and builds the
// sender's options.
func prepare(rd *record.Reader, opts Options, needSuite bool) (iter.Seq2[otlp.Attempt, error], otlp.Options, error) {
	oo := otlp.Options{Content: opts.Content, Timeout: opts.Timeout}
	items, err := Gather(rd, opts, needSuite)
	if err != nil {
		return nil, oo, err
	}
	if opts.Content || opts.RedactFile != "" { // a list also applies to reasons and dataset items
		if oo.Redactor, err = redactor(rd.Run(), opts); err != nil {
			return nil, oo, err
		}
	}
	return items, oo, nil
}

func redactor(rec *record.Run, opts Options) (*redact.Redactor, error) {
	var cfg *redact.Config
	if opts.RedactFile != "" {
		var err error
		if cfg, err = redact.LoadConfig(opts.RedactFile); err != nil {
			return nil, bad(err)
		}
	}
	red, err := redact.New(cfg, opts.Getenv)
	if err != nil {
		return nil, bad(err)
	}
	if s := opts.Suite; s != nil {
		red.AddTarget(s.Target.Spec, s.Target.Headers, s.Target.Env, opts.Getenv)
	}
	red.AddTarget(rec.Header.Target.Spec, nil, nil, opts.Getenv)
	return red, nil
}

// Gather grades the attempts of the run rd reads (from its grades.json,
// or against opts.Suite when it has none, attempt by attempt) and returns
// them, each paired with its grade and its case's group and dataset, to be
// read back one at a time, as often as ranged over. Without a suite an
// export goes without groups and datasets (opts.Warn is told), unless
// needSuite.
func Gather(rd *record.Reader, opts Options, needSuite bool) (iter.Seq2[otlp.Attempt, error], error) {
	s, rec := opts.Suite, rd.Run()
	var grades *grade.Result
	g, gerr := rundir.ReadGrades(rec.Dir)
	switch {
	case gerr == nil:
		grades = g
	case !errors.Is(gerr, rundir.ErrNoGrades):
		return nil, bad(fmt.Errorf("%v (re-create it with mcpeval score)", gerr))
	case s != nil:
		gr := grade.NewGrader(s, rec)
		if err := rd.Each(func(a *record.Attempt) error { gr.Add(a); return nil }); err != nil {
			return nil, fmt.Errorf("grading %s: %w", rec.Dir, err)
		}
		grades = gr.Result()
	}
	if s == nil {
		serr := opts.SuiteErr
		if serr == nil {
			serr = errors.New("no suite")
		}
		if needSuite || grades == nil {
			return nil, fmt.Errorf("loading the run's suite: %w", serr)
		}
		if opts.Warn != nil {
			opts.Warn(fmt.Sprintf("%s: sending without groups and datasets", strings.TrimSpace(serr.Error())))
		}
	}
	verdicts := map[record.AttemptKey]*grade.AttemptGrade{}
	scored := map[record.AttemptKey]*actions.Result{}
	if grades != nil {
		for i := range grades.Attempts {
			a := &grades.Attempts[i]
			verdicts[record.AttemptKey{Case: a.Case, N: a.N}] = a
		}
		if grades.Actions != nil {
			for i := range grades.Actions.Attempts {
				r := &grades.Actions.Attempts[i].Result
				scored[record.AttemptKey{Case: r.Case, N: r.N}] = r
			}
		}
	}
	return func(yield func(otlp.Attempt, error) bool) {
		for a, err := range rd.Attempts() {
			if err != nil {
				yield(otlp.Attempt{}, fmt.Errorf("reading %s: %w", rec.Dir, err))
				return
			}
			k := record.AttemptKey{Case: a.Case, N: a.N}
			it := otlp.Attempt{Header: &rec.Header, Attempt: a, Grade: verdicts[k], Actions: scored[k]}
			if s != nil {
				if c := s.Case(a.Case); c != nil {
					it.Group, it.Dataset = c.Group, s.DatasetOf(c)
				}
			}
			if !yield(it, nil) {
				return
			}
		}
	}, nil
}

// Live sends each attempt of a run as OpenTelemetry traces as it is
// recorded (`mcpeval run --otlp`), off the attempt's path: a slow or dead
// collector costs a warning and a count of spans not sent, never an
// attempt.
type Live struct {
	s   *suite.Suite
	exp *otlp.Exporter
}

// NewLive starts a live exporter for a run of s, with metrics. Only
// opts.Endpoint, opts.Content and opts.Warn are used.
func NewLive(s *suite.Suite, opts Options) (*Live, error) {
	exp, err := otlp.NewExporter(otlp.Options{Endpoint: opts.Endpoint, Content: opts.Content, Metrics: true, Warn: opts.Warn})
	if err != nil {
		return nil, bad(err)
	}
	return &Live{s: s, exp: exp}, nil
}

// Attempt grades a finished attempt against the suite and queues it; it
// never blocks.
func (l *Live) Attempt(h *record.Header, a *record.Attempt) {
	if c := l.s.Case(a.Case); c != nil {
		g := grade.Attempt(l.s, c, h, a)
		l.exp.Attempt(h, a, &g)
	}
}

// Close sends what is still queued, until ctx ends, and returns what was
// and was not sent.
func (l *Live) Close(ctx context.Context) otlp.Stats { return l.exp.Close(ctx) }
