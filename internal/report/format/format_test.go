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
		for _, m := range []struct{ method, got, want string }{
			{"Count", c.r.Count(), c.count},
			{"Percent", c.r.Percent(), c.percent},
			{"CI", c.r.CI(), c.ci},
			{"Range", c.r.Range(), c.rng},
			{"String", c.r.String(), c.str},
			{"Cell", c.r.Cell(), c.cell},
		} {
			if m.got != m.want {
				t.Errorf("%+v %s = %q, want %q", c.r, m.method, m.got, m.want)
			}
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
