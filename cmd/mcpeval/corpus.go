package main

import (
	"context"

	"github.com/mcpeval/mcpeval/internal/corpus"
)

const corpusHelp = `
Usage: mcpeval corpus SUITE [--json | --markdown]

Lists every case of SUITE (a path, or an embedded suite's name) with its
prompt, its key (the tools a correct agent calls, in order) and its kind
(question, decline, judged, tool-call, or action/KIND), then counts the
cases by group, by kind and by tool, and says how many a person has
checked: every case but those marked verified: false, which mcpeval
promote drafts and publish refuses until checked.

--markdown writes it for a README, every cell escaped so that what the
suite says cannot end its cell or become a link or HTML; --json writes it
as JSON (cases, verified, groups, kinds, tools, case_list).

Examples:
  mcpeval corpus household
  mcpeval corpus ops --markdown
  mcpeval corpus household --json
`

func init() {
	register(&command{name: "corpus", summary: "list a suite's cases by group, kind and tool, with the share a person has checked", run: corpusCmd})
}

func corpusCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "corpus", corpusHelp)
	asJSON := fs.Bool("json", false, "print the corpus as JSON on stdout")
	md := fs.Bool("markdown", false, "print the corpus as Markdown, for a README")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 1:
		return usagef("want one SUITE (see mcpeval help corpus)")
	case *asJSON && *md:
		return usagef("--json and --markdown: choose one")
	}
	s, err := loadSuite(pos[0])
	if err != nil {
		return err
	}
	c := corpus.Describe(s)
	switch {
	case *asJSON:
		return printJSON(e.stdout, c)
	case *md:
		return c.Markdown(e.stdout)
	}
	return c.Text(e.stdout)
}
