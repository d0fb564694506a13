package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/internal/report/junit"
	"github.com/mcpeval/mcpeval/record"
)

// FuzzRenderers drives untrusted strings (a case id, a tool name, a tool
// result, an error message, a model's answer and name, a run id) through
// every renderer of a run, and checks each output by its own rules:
// Markdown keeps its code spans balanced, its tables whole and holds no
// link, image, autolink or HTML the input brought; the HTML page holds no
// element or attribute a benign run's page does not; JUnit parses as XML
// with no element of the input's making; the terminal text holds no
// escape sequence.
func FuzzRenderers(f *testing.F) {
	f.Add("a`b", "get_x", "![](http://e/i.png)", "[x](javascript:alert(1))", "<script>alert(1)</script>", "m|n", "run`1")
	f.Add("``x``", "t|u", "<img src=x onerror=alert(1)>", "www.evil.example", "a@b.example", "\x1b]52;c;aGk=\x07", "\n# head")
	f.Add("1. x", "- y", "```\n<b>", "| a | b |\n|---|", "<![CDATA[x]]>", "&amp;&lt;", "\u009b31m")
	f.Add("", " ", "`", "\\", "]]>", "--><!--", "<details>")
	// What benign text makes: with the cases' own ids, and prefixed.
	htmlAllowed, xmlAllowed := map[string]bool{}, map[string]bool{}
	for _, prefix := range []string{"", "c"} {
		res0, rec0 := fuzzRun(f)
		base := renderAll(f, res0, rec0, [7]string{prefix, "t", "r", "e", "a", "m", "i"})
		for k := range htmlShape(f, base.html) {
			htmlAllowed[k] = true
		}
		for k := range xmlShape(f, base.junit) {
			xmlAllowed[k] = true
		}
	}
	f.Fuzz(func(t *testing.T, caseID, tool, result, errMsg, answer, modelName, runID string) {
		res, rec := fuzzRun(t)
		in := [7]string{caseID, tool, result, errMsg, answer, modelName, runID}
		out := renderAll(t, res, rec, in)
		if err := checkMarkdown(out.markdown); err != nil {
			t.Fatalf("markdown: %v\n%s", err, out.markdown)
		}
		for tag := range htmlShape(t, out.html) {
			if !htmlAllowed[tag] {
				t.Fatalf("html: the input brought %s", tag)
			}
		}
		for tag := range xmlShape(t, out.junit) {
			if !xmlAllowed[tag] {
				t.Fatalf("junit: the input brought %s", tag)
			}
		}
		if i := strings.IndexFunc(out.text, func(r rune) bool { return r == 0x1b || r >= 0x80 && r < 0xa0 || r == 0x07 }); i >= 0 {
			t.Fatalf("text: a control character at %d: %q", i, out.text[max(0, i-20):min(len(out.text), i+20)])
		}
	})
}

type rendered struct{ markdown, html, junit, text string }

// fuzzRun is the report tests' run, graded and read.
func fuzzRun(t testing.TB) (*grade.Result, *record.Run) {
	t.Helper()
	s, rec := testRun(t, "record")
	return grade.Run(s, rec), rec
}

// renderAll puts the strings in into the run where untrusted text lands
// and renders it every way.
func renderAll(t testing.TB, res *grade.Result, rec *record.Run, in [7]string) rendered {
	caseID, tool, result, errMsg, answer, modelName, runID := in[0], in[1], in[2], in[3], in[4], in[5], in[6]
	res.RunID, rec.Header.RunID = runID, runID
	res.Model, rec.Header.Model.Spec = modelName, modelName
	res.Warnings = append(res.Warnings, errMsg)
	for i := range rec.Header.Planned {
		rec.Header.Planned[i].Case = caseID + rec.Header.Planned[i].Case
	}
	for i := range res.Attempts {
		a := &res.Attempts[i]
		a.Case = caseID + a.Case
		for j := range a.Reasons {
			a.Reasons[j].Message = errMsg
		}
	}
	for i := range rec.Attempts {
		a := &rec.Attempts[i]
		a.Case = caseID + a.Case
		a.Answer = answer
		if a.Error != nil {
			a.Error.Message = errMsg
		}
		for j := range a.Turns {
			a.Turns[j].Text = answer
			for k := range a.Turns[j].Calls {
				a.Turns[j].Calls[k].Name = tool
				a.Turns[j].Calls[k].Result = result
			}
		}
	}
	var md, page, ju, text bytes.Buffer
	if err := Markdown(&md, res, &rec.Header, nil); err != nil {
		t.Fatal(err)
	}
	if err := htmlreport.Run(&page, &htmlreport.RunPage{Run: rec, Result: res}); err != nil {
		t.Fatal(err)
	}
	if err := junit.Write(&ju, junit.Run{Record: rec, Result: res}); err != nil {
		t.Fatal(err)
	}
	if err := Text(&text, res, &rec.Header, nil); err != nil {
		t.Fatal(err)
	}
	return rendered{md.String(), page.String(), ju.String(), text.String()}
}

// htmlShape returns the elements and element attributes of page, as
// "tag" and "tag@attr".
func htmlShape(t testing.TB, page string) map[string]bool {
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	shape := map[string]bool{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			shape[n.Data] = true
			for _, a := range n.Attr {
				shape[n.Data+"@"+a.Key] = true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return shape
}

// xmlShape parses doc as XML and returns its element names.
func xmlShape(t testing.TB, doc string) map[string]bool {
	shape := map[string]bool{}
	d := xml.NewDecoder(strings.NewReader(doc))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return shape
		}
		if err != nil {
			t.Fatalf("junit does not parse: %v\n%s", err, doc)
		}
		if se, ok := tok.(xml.StartElement); ok {
			shape[se.Name.Local] = true
			for _, a := range se.Attr {
				shape[se.Name.Local+"@"+a.Name.Local] = true
			}
		}
	}
}

// The report's own HTML in Markdown: anything else was brought.
var (
	mdTag     = regexp.MustCompile(`<(/?)([A-Za-z][A-Za-z0-9-]*|!--|!\[CDATA\[|\?)`)
	mdOwnTags = map[string]bool{"details": true, "summary": true, "sub": true}
)

// checkMarkdown checks md by the rules of Markdown as GitHub reads it.
func checkMarkdown(md string) error {
	lines := strings.Split(md, "\n")
	var cells int // the cells of the table being read, 0 outside one
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if n := fenceLen(l); n >= 3 { // a fenced block: skip to its end
			j := i + 1
			for ; j < len(lines) && fenceLen(lines[j]) < n; j++ {
			}
			if j == len(lines) {
				return errors.New("a code block is never closed")
			}
			i = j
			continue
		}
		rest, err := outsideCode(l)
		if err != nil {
			return err
		}
		if m := mdTag.FindStringSubmatch(rest); m != nil && !mdOwnTags[m[2]] {
			return errors.New("HTML in the text: " + m[0])
		}
		for _, bad := range []string{"](", "://", "www.", "@"} {
			if i := unescaped(rest, bad); i >= 0 {
				return errors.New("a link, image or autolink in the text: " + rest[max(0, i-10):min(len(rest), i+10)])
			}
		}
		if strings.HasPrefix(l, "|") {
			n := len(splitCells(l)) // GFM splits a row before it reads code spans
			if cells == 0 {
				cells = n
			} else if n != cells {
				return errors.New("a table row with another number of cells: " + l)
			}
		} else {
			cells = 0
		}
	}
	return nil
}

// fenceLen returns the length of the backtick fence l opens or closes, 0
// when it is no fence.
func fenceLen(l string) int {
	n := 0
	for n < len(l) && l[n] == '`' {
		n++
	}
	if n < 3 || strings.Contains(l[n:], "`") {
		return 0
	}
	return n
}

// outsideCode returns line l without its code spans (CommonMark: a run of
// n backticks opens a span that the next run of exactly n closes), and an
// error when a run of backticks is left unclosed.
func outsideCode(l string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(l); {
		switch {
		case l[i] == '\\' && i+1 < len(l):
			b.WriteString(l[i : i+2])
			i += 2
		case l[i] == '`':
			n := run(l, i)
			j := i + n
			for j < len(l) {
				if l[j] == '`' {
					m := run(l, j)
					if m == n {
						break
					}
					j += m
					continue
				}
				j++
			}
			if j >= len(l) {
				return "", errors.New("an unbalanced code span: " + l)
			}
			b.WriteString("CODE")
			i = j + n
		default:
			b.WriteByte(l[i])
			i++
		}
	}
	return b.String(), nil
}

func run(l string, i int) int {
	n := 0
	for i+n < len(l) && l[i+n] == '`' {
		n++
	}
	return n
}

// unescaped returns the index of sub in s where its first character is not
// escaped by a backslash, or -1.
func unescaped(s, sub string) int {
	for i := 0; ; {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return -1
		}
		j += i
		bs := 0
		for k := j - 1; k >= 0 && s[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return j
		}
		i = j + 1
	}
}

// splitCells splits a table row at its unescaped pipes.
func splitCells(row string) []string {
	var cells []string
	start := 0
	for i := 0; i < len(row); i++ {
		if row[i] == '\\' {
			i++
			continue
		}
		if row[i] == '|' {
			cells = append(cells, row[start:i])
			start = i + 1
		}
	}
	return append(cells, row[start:])
}
