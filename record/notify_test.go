package record

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestNotifyFieldsOmitted checks that a record of a run whose server sent
// no notification, and that declared no roots, is written as before: none
// of the fields for them appears, and a line written before them loads.
func TestNotifyFieldsOmitted(t *testing.T) {
	h, _ := json.Marshal(Header{})
	a, _ := json.Marshal(Attempt{Turns: []Turn{{Calls: []Call{{Name: "x", Args: json.RawMessage(`{}`)}}}}})
	for _, key := range []string{`"roots"`, `"log_level"`, `"tool_changes"`, `"notes"`, `"notes_dropped"`} {
		if strings.Contains(string(h), key) || strings.Contains(string(a), key) {
			t.Errorf("%s written for a run without it", key)
		}
	}
	var old Attempt
	if err := json.Unmarshal([]byte(`{"case":"a/b","n":1,"turns":[{"calls":[{"id":"1","name":"x","args":{},"result":"ok","shown":true,"duration_ms":1}]}],"end":"answered"}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.ToolChanges != nil || old.Turns[0].Calls[0].Notes != nil {
		t.Errorf("an old line loads with notifications: %+v", old)
	}
}

func TestToolsSeen(t *testing.T) {
	h := &Header{Tools: []Tool{{Name: "a", Description: "one"}, {Name: "b"}}}
	a := &Attempt{ToolChanges: []ToolChange{
		{Turn: 1, Added: []Tool{{Name: "c"}}, Removed: []string{"b"}},
		{Turn: 2, Changed: []Tool{{Name: "a", Description: "two"}}},
	}}
	var got []string
	for _, t := range ToolsSeen(h, a) {
		got = append(got, t.Name+":"+t.Description)
	}
	if want := "a:two b: c:"; strings.Join(got, " ") != want {
		t.Errorf("ToolsSeen = %q, want %q", strings.Join(got, " "), want)
	}
}
