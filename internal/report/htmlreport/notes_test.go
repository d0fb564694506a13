package htmlreport

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// TestNotesOnThePage checks that a call's progress and log notifications
// are drawn with it, escaped, with the count the record dropped, and
// that a change of the server's tools is drawn before the turn it preceded.
func TestNotesOnThePage(t *testing.T) {
	p := fixture(t)
	a := &p.Run.Attempts[0]
	call := firstCall(t, a)
	call.Notes = []record.Note{{Kind: "progress", Progress: 1, Total: 2}, {Kind: "log", Level: "info", Logger: "db", Message: "<script>x</script>"}}
	call.NotesDropped = 4
	a.ToolChanges = []record.ToolChange{{Turn: 0, Added: []record.Tool{{Name: "read_<vault>"}}, Removed: []string{"peek"}}}
	page := render(t, p)
	for _, want := range []string{"2 notifications from the server, 4 more dropped", "progress 1/2\n", "log info (db): &lt;script&gt;x&lt;/script&gt;\n",
		"the server's tools changed before this turn: added read_&lt;vault&gt;; removed peek"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
	if strings.Contains(page, "<script>x</script>") {
		t.Error("a log message went onto the page unescaped")
	}
}
