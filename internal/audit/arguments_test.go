package audit

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestArguments checks the leaf arguments of a schema: their names match
// coverage's, with types, required flags, enums and descriptions.
func TestArguments(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","required":["displayName","owner"],"properties":{
		"displayName":{"type":"string","description":"the name shown"},
		"size_gb":{"type":["integer","null"]},
		"role":{"type":"string","enum":["viewer","admin"]},
		"tags":{"type":"array","items":{"type":"string"}},
		"owner":{"type":"object","required":["id"],"properties":{"id":{"type":"string"},"note":{"type":"string"}}},
		"groups":{"type":"array","items":{"type":"object","required":["groupName"],"properties":{"groupName":{"type":"string"}}}},
		"either":{"anyOf":[{"type":"string"},{"type":"integer"}]},
		"free":{}}}`)
	got := Arguments(schema)
	want := []Argument{
		{Path: "displayName", Type: "string", Required: true, Description: "the name shown"},
		{Path: "either", Type: "string|integer"},
		{Path: "free"},
		{Path: "groups.*.groupName", Type: "string"}, // groups itself is optional
		{Path: "owner.id", Type: "string", Required: true},
		{Path: "owner.note", Type: "string"},
		{Path: "role", Type: "string", Enum: []any{"viewer", "admin"}},
		{Path: "size_gb", Type: "integer|null"},
		{Path: "tags", Type: "array of string"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Arguments:\n got %+v\nwant %+v", got, want)
	}
	var paths []string
	for _, a := range got {
		paths = append(paths, a.Path)
	}
	if l := leaves(schema); !reflect.DeepEqual(paths, l) {
		t.Errorf("argument paths %v, coverage's leaves %v", paths, l)
	}
	if Arguments(json.RawMessage(`not json`)) != nil {
		t.Error("a schema that is not JSON has arguments")
	}
}
