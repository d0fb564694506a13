package judge

import (
	"testing"

	"github.com/mcpeval/mcpeval/grade"
)

// FuzzParseVerdict holds ParseVerdict to its contract on any reply: it
// never panics, and it gives pass or fail with no error, or no verdict
// with one.
func FuzzParseVerdict(f *testing.F) {
	for _, s := range []string{pass, fail, "", "PASS", `{"verdict":"pass","reason":"x"} tail`, `{"verdict":"pass","reason":"x","y":1}`, `{"verdict":null,"reason":"x"}`, "\x00{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		v, _, err := ParseVerdict(reply)
		switch {
		case err == nil && v != grade.Pass && v != grade.Fail:
			t.Fatalf("ParseVerdict(%q) = %q with no error", reply, v)
		case err != nil && v != "":
			t.Fatalf("ParseVerdict(%q) = %q with error %v", reply, v, err)
		}
	})
}
