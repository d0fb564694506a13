package htmlreport

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
)

// TestResourceReadsFigure: a run whose model read the server's resources
// shows how often, and in how many attempts; a run that read none shows
// no such figure.
func TestResourceReadsFigure(t *testing.T) {
	figure := func(page, check string) string {
		m := regexp.MustCompile(`data-check="` + check + `">([^<]*)<`).FindStringSubmatch(page)
		if m == nil {
			return ""
		}
		return m[1]
	}
	for _, reads := range []bool{true, false} {
		rec, s := testRun(t)
		if reads {
			read := func(name string) record.Call {
				return record.Call{ID: name, Name: name, Args: json.RawMessage(`{}`), Result: "{}", Kind: record.CallResource}
			}
			rec.Attempts[0].Turns = append([]record.Turn{{Calls: []record.Call{read("list_resources"), read("read_resource")}}}, rec.Attempts[0].Turns...)
			rec.Attempts[2].Turns = append([]record.Turn{{Calls: []record.Call{read("read_resource")}}}, rec.Attempts[2].Turns...)
		}
		page := render(t, &RunPage{Run: rec, Result: grade.Run(s, rec)})
		n, in := figure(page, "resource-reads"), figure(page, "resource-read-attempts")
		switch {
		case reads && (n != "3" || in != "2"):
			t.Errorf("resource reads shown as %q in %q attempts, want 3 in 2", n, in)
		case !reads && (strings.Contains(page, "resource-reads") || strings.Contains(page, "Resource reads")):
			t.Errorf("a run without resource reads shows a figure for them")
		}
	}
}
