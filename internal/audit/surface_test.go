package audit

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// covSuite loads a suite over builtin:ops with one write case and a meta
// surface over builtin:ops-meta whose map entries are mapLines.
func covSuite(t *testing.T, mapLines string) *suite.Suite {
	t.Helper()
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(`
name: cov
target: builtin:ops
allow_writes: true
surfaces:
  - name: individual
  - name: meta
    target: builtin:ops-meta
    map:` + mapLines + `
cases:
  - id: write/new
    prompt: Make a volume called data.
    action:
      kind: write
      steps:
        - tool: create_volume
          args: {name: {literal: data}}
`)}}, "suite.yaml", "suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSurfaceCoverage: a surface tool stands for the canonical tools mapped
// to it and is reached by their cases; a surface tool nothing maps to, an
// action value the map does not name, and a canonical tool the surface
// does not map are gaps.
func TestSurfaceCoverage(t *testing.T) {
	s := covSuite(t, `
      create_volume: {tool: volumes, args: {action: create}}
      list_volumes: {tool: volumes, args: {action: list}}`)
	canonical := &Coverage{Tools: []ToolCoverage{
		{Tool: "create_volume", Cases: []string{"write/new"}},
		{Tool: "list_volumes"},
		{Tool: "remove_volume"},
	}}
	tools := []record.Tool{
		{Name: "volumes", InputSchema: json.RawMessage(`{"type":"object","properties":{"action":{"type":"string","enum":["create","list","remove"]}}}`)},
		{Name: "whoami", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	sc := SurfaceCoverageOf(s, s.Surface("meta"), canonical, tools)
	if len(sc.Tools) != 2 || !slices.Equal(sc.Tools[0].Actions, []string{"create_volume", "list_volumes"}) || !slices.Equal(sc.Tools[0].Cases, []string{"write/new"}) {
		t.Errorf("volumes: %+v", sc.Tools)
	}
	want := []string{
		"surface meta: tool volumes action remove: no canonical action maps to it",
		"surface meta: tool whoami: no canonical action maps to it",
		"surface meta: canonical tool remove_volume: the surface does not map it",
	}
	if !slices.Equal(sc.Gaps, want) {
		t.Errorf("gaps:\n%s\nwant:\n%s", strings.Join(sc.Gaps, "\n"), strings.Join(want, "\n"))
	}
	var b strings.Builder
	if err := sc.Write(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "whoami") || !strings.Contains(b.String(), "NONE") || !strings.Contains(b.String(), "2 tools; 3 gaps") {
		t.Errorf("table:\n%s", b.String())
	}
}

// TestSurfaceCoverageNestedAction: a selecting argument written as a path
// (op.action) is read against the enum nested at that path of the
// tool's input schema, so a value no entry names is a gap there too.
func TestSurfaceCoverageNestedAction(t *testing.T) {
	s := covSuite(t, `
      create_volume: {tool: volumes, under: op.params, args: {op.action: create}}
      list_volumes: {tool: volumes, under: op.params, args: {op.action: list}}`)
	canonical := &Coverage{Tools: []ToolCoverage{{Tool: "create_volume", Cases: []string{"write/new"}}, {Tool: "list_volumes"}}}
	tools := []record.Tool{{Name: "volumes", InputSchema: json.RawMessage(`{"type":"object","properties":{"op":{"type":"object","properties":{
		"action":{"type":"string","enum":["create","list","remove"]},"params":{"type":"object"}}}}}`)}}
	sc := SurfaceCoverageOf(s, s.Surface("meta"), canonical, tools)
	want := []string{"surface meta: tool volumes op.action remove: no canonical action maps to it"}
	if !slices.Equal(sc.Gaps, want) {
		t.Errorf("gaps:\n%s\nwant:\n%s", strings.Join(sc.Gaps, "\n"), strings.Join(want, "\n"))
	}
}
