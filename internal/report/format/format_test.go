package format

import (
	"testing"

	"github.com/mcpeval/mcpeval/grade"
)

func TestRate(t *testing.T) {
	for _, c := range []struct {
		r                                  Rate
		count, percent, ci, rng, str, cell string
	}{
		{Of(10, 12), "10/12", "83%", "[55%, 95%]", "55%–95%", "83% [55%, 95%] n=12", "83% 10/12"},
		{Of(0, 0), "0/0", "—", "[0%, 100%]", "0%–100%", "— n=0", "—"},
		{Of(3, 3), "3/3", "100%", "[44%, 100%]", "44%–100%", "100% [44%, 100%] n=3", "100% 3/3"},
		{Counts(grade.Counts{Passed: 1, Failed: 1, Graded: 2, Rate: 0.5, WilsonLow: 0.0945, WilsonHigh: 0.9055}), "1/2", "50%", "[9%, 91%]", "9%–91%", "50% [9%, 91%] n=2", "50% 1/2"},
	} {
		if got := c.r.Count(); got != c.count {
			t.Errorf("%+v Count = %q, want %q", c.r, got, c.count)
		}
		if got := c.r.Percent(); got != c.percent {
			t.Errorf("%+v Percent = %q, want %q", c.r, got, c.percent)
		}
		if got := c.r.CI(); got != c.ci {
			t.Errorf("%+v CI = %q, want %q", c.r, got, c.ci)
		}
		if got := c.r.Range(); got != c.rng {
			t.Errorf("%+v Range = %q, want %q", c.r, got, c.rng)
		}
		if got := c.r.String(); got != c.str {
			t.Errorf("%+v String = %q, want %q", c.r, got, c.str)
		}
		if got := c.r.Cell(); got != c.cell {
			t.Errorf("%+v Cell = %q, want %q", c.r, got, c.cell)
		}
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 attempts", 1: "1 attempt", 2: "2 attempts"} {
		if got := N(n, "attempt"); got != want {
			t.Errorf("N(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Points(-0.4); got != "-40pts" {
		t.Errorf("Points(-0.4) = %q", got)
	}
	if got := Points(0.25); got != "+25pts" {
		t.Errorf("Points(0.25) = %q", got)
	}
}

// TestMarkdown checks that hostile text cannot break a table, open a
// link or an image, run HTML or act on a terminal.
func TestMarkdown(t *testing.T) {
	for in, want := range map[string]string{
		"a|b":                          `a\|b`,
		"![x](http://e/i.png)":         `!\[x\](http:\/\/e/i.png)`,
		"[click](javascript:alert(1))": `\[click\](javascript:alert(1))`,
		"<img src=x onerror=alert(1)>": "&lt;img src=x onerror=alert(1)&gt;",
		"`code` *bold* _it_":           `'code' \*bold\* \_it\_`,
		"two\nlines\r\n":               `two lines\\r `,
		`end\|`:                        `end\\\|`,
		"\x1b[2J":                      `\\x1b\[2J`,
		"&#124;":                       "&amp;#124;",
	} {
		if got := Markdown(in); got != want {
			t.Errorf("Markdown(%q) = %q, want %q", in, got, want)
		}
	}
}
