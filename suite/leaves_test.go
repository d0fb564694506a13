package suite

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLeaves lists every leaf of a result with the path Lookup follows
// back to it, and skips the keys a dotted path cannot name.
func TestLeaves(t *testing.T) {
	var v any
	src := `{"accounts": [{"id": "dbs", "balance": 84250}, {"id": "ocbc", "tags": []}],
		"total": 1.5, "ok": true, "none": null, "meta": {}, "a.b": 1, "x[0]": 2, "*": 3, "": 4, "7": {"deep": "yes"}}`
	if err := json.Unmarshal([]byte(src), &v); err != nil {
		t.Fatal(err)
	}
	got := Leaves(v)
	want := []Leaf{
		{"7.deep", "yes"},
		{"accounts.0.balance", 84250.0},
		{"accounts.0.id", "dbs"},
		{"accounts.1.id", "ocbc"},
		{"accounts.1.tags", []any{}},
		{"meta", map[string]any{}},
		{"none", nil},
		{"ok", true},
		{"total", 1.5},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Leaves (-want +got):\n%s", d)
	}
	for _, l := range got {
		if found := Lookup(v, l.Path); len(found) != 1 || !cmp.Equal(found[0], l.Value) {
			t.Errorf("Lookup(%q) = %v, want [%v]", l.Path, found, l.Value)
		}
	}
	if d := cmp.Diff([]Leaf{{"", "plain text"}}, Leaves("plain text")); d != "" {
		t.Errorf("a scalar (-want +got):\n%s", d)
	}
}
