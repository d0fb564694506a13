package format

import (
	"strings"
	"testing"
)

func TestCodeSpan(t *testing.T) {
	for in, want := range map[string]string{
		"single-tool/net-worth": "`single-tool/net-worth`",
		"a`b":                   "``a`b``",
		"``x``":                 "``` ``x`` ```",
		"`":                     "`` ` ``",
		"":                      "` `",
		"two\nlines":            "`two lines`",
		"[x](javascript:1)":     "`[x](javascript:1)`", // literal inside a span
		"esc\x1b[2J":            "`esc\\x1b[2J`",
	} {
		if got := CodeSpan(in); got != want {
			t.Errorf("CodeSpan(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := CodeSpanCell("a|b"), "`a\\|b`"; got != want {
		t.Errorf("CodeSpanCell(a|b) = %q, want %q", got, want)
	}
}

func TestCodeBlock(t *testing.T) {
	for in, want := range map[string]string{
		"model x\n":      "```\nmodel x\n```\n",
		"no newline":     "```\nno newline\n```\n",
		"```\n# heading": "````\n```\n# heading\n````\n",
		"a ````` b":      "``````\na ````` b\n``````\n",
	} {
		if got := CodeBlock(in); got != want {
			t.Errorf("CodeBlock(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMarkdownLinks: nothing GitHub would make a link of survives.
func TestMarkdownLinks(t *testing.T) {
	for in, want := range map[string]string{
		"see https://evil.example/x": `see https:\/\/evil.example/x`,
		"www.evil.example":           `www\.evil.example`,
		"mail a@b.example":           `mail a\@b.example`,
		"[x](javascript:alert(1))":   `\[x\](javascript:alert(1))`,
		"<https://e>":                `&lt;https:\/\/e&gt;`,
		"# heading":                  `\# heading`,
		"1. item":                    `1\. item`,
		"- item":                     `\- item`,
		"~~struck~~":                 `\~\~struck\~\~`,
		"plain 1. text - here #3":    "plain 1. text - here #3",
	} {
		if got := Markdown(in); got != want {
			t.Errorf("Markdown(%q) = %q, want %q", in, got, want)
		}
		if strings.Contains(Markdown(in), "](") && !strings.Contains(Markdown(in), `\](`) {
			t.Errorf("Markdown(%q) keeps a link", in)
		}
	}
}
