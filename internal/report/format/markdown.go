package format

import (
	"strings"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
	"github.com/mcpeval/mcpeval/internal/termsafe"
)

// Untrusted text (what a model, a server or a suite wrote) is escaped for
// the Markdown context it lands in:
//
//   - Markdown: inline text in a paragraph, a list item or a table cell;
//   - MarkdownCode: the inside of a single-backtick code span;
//   - CodeSpan and CodeSpanCell: a whole code span, text kept as written;
//   - CodeBlock: a whole fenced code block.
//
// None lets the text end the construct it sits in, start another (a link,
// an image, an autolink, HTML, emphasis, a heading, a list), or act on a
// terminal that shows the Markdown.

var mdReplacer = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "\r\n", " ", "\n", " ", "\r", " ",
	"<", "&lt;", ">", "&gt;", "&", "&amp;",
	"`", "'", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "~", `\~`,
	// GFM turns bare URLs, www. addresses and e-mail addresses into links.
	"://", `:\/\/`, "www.", `www\.`, "WWW.", `WWW\.`, "@", `\@`,
)

// leadingList matches text that would start a list item, a heading or a
// thematic break when it begins a line.
var leadingList = lazyregexp.New(`^(\d+)([.)])|^([-+=#])`)

// Markdown makes text a model, a server or a suite wrote safe as inline
// text in a Markdown paragraph, list item or table cell: one line, no
// HTML, no table break, no emphasis, code span, link, image or autolink,
// nothing that starts a block, nothing a terminal would act on.
func Markdown(s string) string {
	s = mdReplacer.Replace(termsafe.String(s))
	return leadingList.ReplaceAllStringFunc(s, func(m string) string {
		return m[:len(m)-1] + `\` + m[len(m)-1:] // "1\." or "\-"
	})
}

// MarkdownCode makes text safe inside a single-backtick code span on one
// line (a table cell's included): backticks become quotes. CodeSpan keeps
// them.
func MarkdownCode(s string) string {
	return strings.NewReplacer("`", "'", "\r", " ", "\n", " ", "|", `\|`).Replace(termsafe.String(s))
}

// CodeSpan returns s as a whole code span on one line, its backticks kept:
// the span's fence is longer than any run of backticks in s, and padded
// with spaces where s begins or ends with one. Not for a table cell (see
// CodeSpanCell).
func CodeSpan(s string) string {
	s = oneLine(termsafe.String(s))
	if s == "" {
		return "` `"
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if s[0] == '`' || s[0] == ' ' || s[len(s)-1] == '`' || s[len(s)-1] == ' ' {
		s = " " + s + " "
	}
	return fence + s + fence
}

// CodeSpanCell is CodeSpan for a table cell, whose pipes end the cell
// even inside a code span unless escaped (GFM drops the backslash there).
func CodeSpanCell(s string) string {
	return CodeSpan(strings.ReplaceAll(s, "|", `\|`))
}

// CodeBlock returns s as a fenced code block, ending in a newline: the
// fence is longer than any run of backticks in s, so s cannot close it.
func CodeBlock(s string) string {
	s = termsafe.String(s)
	fence := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return fence + "\n" + s + fence + "\n"
}

func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
