package actions

import (
	"encoding/json"
	"testing"
)

// TestColumnKeys checks that ColumnKeys name the columns as their JSON
// does, in the order of ColumnNames and List.
func TestColumnKeys(t *testing.T) {
	c := Columns{Pass: Column{1, 1}, Reached: Column{2, 2}, FirstTime: Column{3, 3}, Arguments: Column{4, 4},
		Confirmation: Column{5, 5}, Clean: Column{6, 6}, Declined: Column{7, 7}, Completion: Column{8, 8}}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]Column
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if len(ColumnKeys) != len(ColumnNames) || len(m) != len(ColumnKeys) {
		t.Fatalf("%d keys, %d names, %d JSON fields", len(ColumnKeys), len(ColumnNames), len(m))
	}
	for i, k := range ColumnKeys {
		if m[k] != c.List()[i] {
			t.Errorf("key %s is %v in JSON, column %d (%s) is %v", k, m[k], i, ColumnNames[i], c.List()[i])
		}
	}
}
