package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mcpeval/mcpeval/internal/corpus"
	"github.com/mcpeval/mcpeval/internal/export/langfuse"
	"github.com/mcpeval/mcpeval/internal/ingest"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/internal/termsafe"
)

// langfuseFlags are import's flags that choose a Langfuse project's
// traces.
type langfuseFlags struct {
	name, session, from, to string
	tags                    stringList
}

func (l *langfuseFlags) register(fs *flagSet) {
	fs.StringVar(&l.name, "name", "", "with --langfuse: only the traces named `NAME`")
	fs.Var(&l.tags, "tag", "with --langfuse: only the traces with `TAG` (repeatable: every one)")
	fs.StringVar(&l.session, "session", "", "with --langfuse: only the traces of session `ID`")
	fs.StringVar(&l.from, "from", "", "with --langfuse: only the traces from `TIME` on (RFC 3339, or a date)")
	fs.StringVar(&l.to, "to", "", "with --langfuse: only the traces before `TIME` (RFC 3339, or a date)")
}

func (l *langfuseFlags) set() bool {
	return l.name != "" || l.session != "" || l.from != "" || l.to != "" || len(l.tags) > 0
}

// filter reads the flags into a filter.
func (l *langfuseFlags) filter() (langfuse.TraceFilter, error) {
	f := langfuse.TraceFilter{Name: l.name, Tags: l.tags, SessionID: l.session}
	for _, t := range []struct {
		flag, v string
		to      *time.Time
	}{{"--from", l.from, &f.From}, {"--to", l.to, &f.To}} {
		if t.v == "" {
			continue
		}
		var err error
		if *t.to, err = time.Parse(time.RFC3339, t.v); err != nil {
			if *t.to, err = time.Parse(time.DateOnly, t.v); err != nil {
				return f, usagef("%s %q: want a time (2026-11-30T09:00:00Z) or a date (2026-11-30)", t.flag, t.v)
			}
		}
	}
	return f, nil
}

// langfuseClient opens the Langfuse project the environment names, as
// export --langfuse does.
func langfuseClient(e *env) (*langfuse.Client, error) {
	c, err := langfuse.New(e.getenv("LANGFUSE_HOST"), e.getenv("LANGFUSE_PUBLIC_KEY"), e.getenv("LANGFUSE_SECRET_KEY"))
	if err != nil {
		return nil, badInput(err)
	}
	return c, nil
}

// importLangfuse reads the conversations of the project's traces f
// selects.
func importLangfuse(ctx context.Context, e *env, f langfuse.TraceFilter) ([]ingest.Conversation, string, error) {
	c, err := langfuseClient(e)
	if err != nil {
		return nil, "", err
	}
	convs, skipped, err := ingest.ReadLangfuse(ctx, c, f)
	if err != nil {
		return nil, "", fmt.Errorf("importing from Langfuse: %w", err)
	}
	for _, id := range skipped {
		fmt.Fprintf(e.stderr, "mcpeval import: langfuse trace %s holds no generation, tool or agent: not a conversation\n", termsafe.Line(id))
	}
	return convs, ingest.LangfuseFrom(redact.Secrets(c.Host()), f), nil
}

// importLangfuseDataset writes the cases of a Langfuse dataset's items
// to the suite file out.
func importLangfuseDataset(ctx context.Context, e *env, name, out string) error {
	c, err := langfuseClient(e)
	if err != nil {
		return err
	}
	_, items, err := c.Dataset(ctx, name)
	if err != nil {
		return fmt.Errorf("importing from Langfuse: %w", err)
	}
	in := make([]corpus.DatasetItem, len(items))
	for i, it := range items {
		in[i] = corpus.DatasetItem{ID: it.ID, Input: it.Input, ExpectedOutput: it.ExpectedOutput, Metadata: it.Metadata}
	}
	text, skipped := corpus.FromDataset(name, in)
	if err := os.WriteFile(out, text, 0o644); err != nil {
		return badInput(fmt.Errorf("writing the cases: %w", err))
	}
	n := len(items) - len(skipped)
	fmt.Fprintf(e.stdout, "wrote %d case%s from the %d item%s of Langfuse dataset %s to %s (verified: false: check them)\n",
		n, plural(n), len(items), plural(len(items)), termsafe.Line(name), termsafe.Line(out))
	for _, s := range skipped {
		fmt.Fprintf(e.stdout, "  skipped item %s: %s\n", termsafe.Line(s.ID), termsafe.Line(s.Why))
	}
	return nil
}
