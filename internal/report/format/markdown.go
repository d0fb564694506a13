package format

import (
	"strings"

	"github.com/mcpeval/mcpeval/internal/termsafe"
)

var mdReplacer = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "\r\n", " ", "\n", " ", "\r", " ",
	"<", "&lt;", ">", "&gt;", "&", "&amp;",
	"`", "'", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
)

// Markdown makes text a model, a server or a suite wrote safe in a
// Markdown table cell or paragraph: one line, no HTML, no table break, no
// emphasis, code span, link or image, nothing a terminal would act on.
func Markdown(s string) string { return mdReplacer.Replace(termsafe.String(s)) }

// MarkdownCode makes text safe inside a code span on one line.
func MarkdownCode(s string) string {
	return strings.NewReplacer("`", "'", "\r", " ", "\n", " ", "|", `\|`).Replace(termsafe.String(s))
}
