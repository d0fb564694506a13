package suite

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

const surfacesYAML = `name: s
target: builtin:ops
surfaces:
  - name: individual
  - name: meta
    target: builtin:ops-meta
    map:
      create_container: {tool: containers, args: {action: create}}
      list_containers: {tool: containers, args: {action: list}}
      create_contaner: {tool: containers, args: {action: make}}
cases:
  - id: a/b
    prompt: hello
    decline: true
`

func loadYAML(t *testing.T, y string) (*Suite, error) {
	t.Helper()
	return LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(y)}}, "suite.yaml", "suite.yaml")
}

// TestSurfaceMapsBothWays: a canonical call goes to the surface's tool with
// the fixed arguments, and reads back to the same canonical call.
func TestSurfaceMapsBothWays(t *testing.T) {
	s, err := loadYAML(t, surfacesYAML)
	if err != nil {
		t.Fatal(err)
	}
	meta := s.Surface("meta")
	tool, args := meta.Forward("create_container", map[string]any{"name": "web"})
	if tool != "containers" || !reflect.DeepEqual(args, map[string]any{"name": "web", "action": "create"}) {
		t.Fatalf("Forward: %s %v", tool, args)
	}
	canon, cargs, ok := meta.Back(tool, args)
	if !ok || canon != "create_container" || !reflect.DeepEqual(cargs, map[string]any{"name": "web"}) {
		t.Fatalf("Back: %s %v %v", canon, cargs, ok)
	}
	if _, _, ok := meta.Back("containers", map[string]any{"action": "explode"}); ok {
		t.Errorf("an action the map does not have read back as a canonical action")
	}
	if _, _, ok := meta.Back("containers", map[string]any{"name": "web"}); ok {
		t.Errorf("a call without the action read back as a canonical action")
	}
	ind := s.Surface("individual")
	if tool, _ := ind.Forward("create_container", nil); tool != "create_container" || !ind.Canonical() || s.CanonicalSurface() != ind {
		t.Errorf("the canonical surface maps %s", tool)
	}
	if got := s.SurfaceTarget(meta).Spec; got != "builtin:ops-meta" {
		t.Errorf("meta's target is %s", got)
	}
	if got := s.SurfaceTarget(ind).Spec; got != "builtin:ops" {
		t.Errorf("individual's target is %s, want the suite's", got)
	}
}

// TestCheckSurfaceLocatesUnknownTools: a map entry naming a tool the
// canonical surface does not list, or mapping to one the surface does not
// list, is an error at its own line.
func TestCheckSurfaceLocatesUnknownTools(t *testing.T) {
	s, err := loadYAML(t, surfacesYAML)
	if err != nil {
		t.Fatal(err)
	}
	err = s.CheckSurface(s.Surface("meta"), []string{"create_container", "list_containers"}, []string{"containers"})
	if err == nil {
		t.Fatal("no error for create_contaner")
	}
	want := "suite.yaml:10: surface meta maps create_contaner, which is no canonical tool"
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to start %q", err, want)
	}
	err = s.CheckSurface(s.Surface("meta"), []string{"create_container", "list_containers", "create_contaner"}, []string{"volumes"})
	if err == nil || !strings.Contains(err.Error(), "suite.yaml:8: surface meta maps create_container to containers, which its target does not list") {
		t.Errorf("error %v, want containers reported unlisted at line 8", err)
	}
	if err := s.CheckSurface(s.Surface("meta"), []string{"create_container", "list_containers", "create_contaner"}, []string{"containers"}); err != nil {
		t.Errorf("a map that fits its catalogs: %v", err)
	}
}

// TestSurfacesLoadErrors: mistakes in surfaces are reported at their line
// when the suite is loaded.
func TestSurfacesLoadErrors(t *testing.T) {
	for _, tc := range []struct{ name, surfaces, want string }{
		{"no canonical surface", `
  - name: meta
    target: builtin:ops-meta
    map:
      create_container: {tool: containers, args: {action: create}}`, "suite.yaml:3: surfaces: want exactly one canonical surface"},
		{"two canonical surfaces", `
  - name: a
  - name: b`, "have 2 (a, b)"},
		{"mapped surface without a target", `
  - name: individual
  - name: meta
    map:
      create_container: {tool: containers, args: {action: create}}`, "suite.yaml:5: surface meta maps tools but has no target"},
		{"entry without a tool", `
  - name: individual
  - name: meta
    target: builtin:ops-meta
    map:
      create_container: {args: {action: create}}`, "suite.yaml:8: surface meta: map entry create_container names no tool"},
		{"two entries, one call", `
  - name: individual
  - name: meta
    target: builtin:ops-meta
    map:
      create_container: {tool: containers, args: {action: create}}
      make_container: {tool: containers, args: {action: create}}`, "suite.yaml:9: surface meta: create_container and make_container map to the same call"},
		{"duplicate name", `
  - name: individual
  - name: individual`, "suite.yaml:5: surface individual is declared twice"},
		{"unknown field", `
  - name: individual
    mapping: {}`, "unknown field \"mapping\" in a surface"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadYAML(t, "name: s\ntarget: builtin:ops\nsurfaces:"+tc.surfaces+"\ncases:\n  - id: a/b\n    prompt: hi\n    decline: true\n")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
