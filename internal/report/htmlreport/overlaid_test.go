package htmlreport

import (
	"strings"
	"testing"
)

// TestOverlaidResultOnThePage: a result an output overlay rewrote is
// marked, drawn as the model was shown it, with the server's own result
// beside it, both escaped; a result no overlay touched has no marker.
func TestOverlaidResultOnThePage(t *testing.T) {
	p := fixture(t)
	if page := render(t, p); strings.Contains(page, `class="tag overlaid"`) {
		t.Fatal("a run without an output overlay shows its marker")
	}
	a := &p.Run.Attempts[0]
	call := firstCall(t, a)
	call.Overlaid = true
	call.ServerResult = "Net worth <b>SGD 2,394,755</b>"
	call.Result = `{"as_of":"2026-09-30"}`
	page := render(t, p)
	for _, want := range []string{`class="tag overlaid"`, "as the server returned it, before the output overlay", "Net worth &lt;b&gt;SGD 2,394,755&lt;/b&gt;", "&#34;as_of&#34;: &#34;2026-09-30&#34;"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not hold %q", want)
		}
	}
	if strings.Contains(page, "<b>SGD 2,394,755</b>") {
		t.Error("the server's result went onto the page unescaped")
	}
}
