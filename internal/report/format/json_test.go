package format

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// TestIndentJSONAsJSONIndent: within its bounds, IndentJSON writes what
// json.Indent writes, and leaves what is not an object or array alone.
func TestIndentJSONAsJSONIndent(t *testing.T) {
	for _, s := range []string{
		`{"a":1,"b":[1,2,{"c":"x,y:{z}"}],"d":{},"e":[],"f":"q\"uo\\te"}`,
		` [ 1 , { "k" : [ ] } , "] }" ] `,
		`{"nested":{"deeper":{"deepest":[true,false,null,-1.5e3]}}}`,
		`[{}, [], [[]], {"a": {}}]`,
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(strings.TrimSpace(s)), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := IndentJSON(s); got != want.String() {
			t.Errorf("IndentJSON(%s) =\n%s\nwant\n%s", s, got, want.String())
		}
	}
	for _, s := range []string{"", "plain text", "42", `"a string"`, `{"torn": [1, 2`, `[1] trailing`} {
		if got := IndentJSON(s); got != s {
			t.Errorf("IndentJSON(%q) = %q, want it as it is", s, got)
		}
	}
}

// TestIndentJSONBounded: a tool result built to explode (20 KB nested
// 10,000 deep; a wide array at the deepest level allowed) comes back no
// larger than the bound, and indenting it allocates a bounded number of
// bytes, not the 200 MB json.Indent writes for it.
func TestIndentJSONBounded(t *testing.T) {
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	wide := strings.Repeat("[", MaxIndentDepth) + "0" + strings.Repeat(",0", 10000) + strings.Repeat("]", MaxIndentDepth)
	justDeepEnough := strings.Repeat(`{"a":`, MaxIndentDepth) + "1" + strings.Repeat("}", MaxIndentDepth)
	for name, s := range map[string]string{"deep": deep, "wide": wide, "just deep enough": justDeepEnough} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out := IndentJSON(s)
		runtime.ReadMemStats(&after)
		bound := MaxIndentGrowth*len(s) + MaxIndentSlack
		if len(out) > bound {
			t.Errorf("%s: %d bytes in, %d out, want at most %d", name, len(s), len(out), bound)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(4*bound) {
			t.Errorf("%s: indenting %d bytes allocated %d bytes, want at most %d", name, len(s), alloc, 4*bound)
		}
	}
	if IndentJSON(deep) != deep || IndentJSON(wide) != wide {
		t.Error("a value past the bounds is not returned as it came")
	}
	if !strings.Contains(IndentJSON(justDeepEnough), "\n"+strings.Repeat("  ", MaxIndentDepth)+`"a": 1`+"\n") {
		t.Errorf("a value nested %d deep is not indented", MaxIndentDepth)
	}
}
