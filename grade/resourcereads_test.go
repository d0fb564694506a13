package grade

import (
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// TestResourceReads counts the model's reads of the server's resources,
// the calls recorded with kind "resource", and the attempts that made
// any; a run with none has no count at all.
func TestResourceReads(t *testing.T) {
	s := loadSuite(t)
	r := testRun(t)
	if res := Run(s, r); res.ResourceReads != nil {
		t.Fatalf("a run without resource reads counts %+v, want none", *res.ResourceReads)
	}
	read := func(name string) record.Call {
		return record.Call{ID: name, Name: name, Kind: record.CallResource}
	}
	r.Attempts[0].Turns = append([]record.Turn{{Calls: []record.Call{read("list_resources"), read("read_resource")}}}, r.Attempts[0].Turns...)
	r.Attempts[1].Turns = append([]record.Turn{{Calls: []record.Call{read("read_resource")}}}, r.Attempts[1].Turns...)
	got := Run(s, r).ResourceReads
	if got == nil || *got != (ResourceReads{Reads: 3, Attempts: 2}) {
		t.Fatalf("resource reads = %+v, want 3 reads in 2 attempts", got)
	}
}
