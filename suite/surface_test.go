package suite

import (
	"reflect"
	"slices"
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
		{"unknown kind", `
  - name: individual
  - name: find
    kind: lookup`, "suite.yaml:5: surface find: kind \"lookup\": want kind: search"},
		{"search surface with a map", `
  - name: individual
  - name: find
    kind: search
    map:
      create_container: {tool: containers}`, "suite.yaml:5: surface find is a search surface and has a map"},
		{"turn cap of 0", `
  - name: individual
  - name: find
    kind: search
    turn_cap: 0`, "suite.yaml:7: surface find: turn_cap is 0: want a positive number"},
		{"fixed argument as an object", `
  - name: individual
  - name: meta
    target: builtin:ops-meta
    map:
      create_container: {tool: run, args: {params: {action: create}}}`, "suite.yaml:8: surface meta: map entry create_container: argument params is an object: name each nested argument by its dotted path, as params.KEY: VALUE"},
		{"fixed argument at a list index", `
  - name: individual
  - name: meta
    target: builtin:ops-meta
    map:
      create_container: {tool: run, args: {"steps.0": create}}`, "argument \"steps.0\" is no dotted path of object keys"},
		{"under with an empty segment", `
  - name: individual
  - name: meta
    target: builtin:ops-meta
    map:
      create_container: {tool: run, args: {action: create}, under: "a..b"}`, "under \"a..b\" is no dotted path of object keys"},
		{"search and mapped surfaces without a canonical one", `
  - name: find
    kind: search
  - name: meta
    target: builtin:ops-meta
    map:
      create_container: {tool: containers, args: {action: create}}`, "want exactly one canonical surface"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadYAML(t, "name: s\ntarget: builtin:ops\nsurfaces:"+tc.surfaces+"\ncases:\n  - id: a/b\n    prompt: hi\n    decline: true\n")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

const filteredSurfacesYAML = `name: s
target: builtin:ops
surfaces:
  - name: individual
  - name: meta
    target: builtin:ops-meta
    map:
      create_volume: {tool: volumes, args: {action: create}}
      list_volumes: {tool: volumes, args: {action: list}}
      remove_volume: {tool: volumes, args: {action: remove}}
      get_health: {tool: health, args: {action: get}}
tools:
  exclude: [get_health]
cases:
  - id: a/b
    prompt: hello
    tool_choice: {tool: create_volume}
    tools:
      exclude: [list_*]
    decline: true
  - id: a/c
    prompt: hello
    decline: true
`

// TestFiltersAndChoiceOnSurface: filters and a tool_choice written in
// canonical names are read through a mapped surface's map: a surface tool
// is shown when its actions are, a choice of a canonical tool chooses its
// surface tool, and a filter that shows some actions of a meta-tool and
// hides others is refused at the case (or at the map entry, for the
// suite's filter).
func TestFiltersAndChoiceOnSurface(t *testing.T) {
	s, err := loadYAML(t, filteredSurfacesYAML)
	if err != nil {
		t.Fatal(err)
	}
	meta, ind := s.Surface("meta"), s.Surface("individual")
	ab, ac := s.Cases[0], s.Cases[1]
	for _, tc := range []struct {
		sf   *Surface
		c    *Case
		tool string
		want bool
	}{
		{meta, ac, "volumes", true},      // create/list/remove all shown
		{meta, ac, "health", false},      // its one action hidden by the suite
		{meta, nil, "health", false},     // by the suite alone
		{meta, ac, "other_tool", true},   // not mapped: its own name
		{ind, ac, "get_health", false},   // the canonical surface: names as they are
		{ind, ac, "create_volume", true}, // ditto
		{ind, ab, "list_volumes", false}, // the case's filter
		{nil, ab, "list_volumes", false}, // no surface: Shows
	} {
		if got := s.ShowsOn(tc.sf, tc.c, tc.tool); got != tc.want {
			t.Errorf("ShowsOn(%v, %v, %s) = %v, want %v", tc.sf != nil && tc.sf.Canonical(), tc.c != nil, tc.tool, got, tc.want)
		}
	}
	if got := s.ChoiceOn(meta, ab); got == nil || got.Mode != ChoiceTool || got.Tool != "volumes" {
		t.Errorf("choice on meta: %+v, want tool volumes", got)
	}
	if got := s.ChoiceOn(ind, ab); got == nil || got.Tool != "create_volume" {
		t.Errorf("choice on individual: %+v, want tool create_volume", got)
	}
	if ab.ToolChoice.Tool != "create_volume" {
		t.Errorf("ChoiceOn changed the case's choice to %s", ab.ToolChoice.Tool)
	}
	if got := s.ChoiceOn(meta, ac); got != nil {
		t.Errorf("a case without a choice got %+v", got)
	}

	// Case a/b hides list_volumes but shows create_volume: volumes cannot
	// be shown in part.
	err = s.CheckFiltersOn(meta, []string{"volumes", "health"})
	if err == nil {
		t.Fatal("no error for a filter splitting volumes' actions")
	}
	want := "suite.yaml:15: case a/b: its tools filter cannot be kept on surface meta: the surface's tool volumes serves create_volume, list_volumes, remove_volume, and the filter shows create_volume, remove_volume but hides list_volumes"
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q,\nwant it to start %q", err, want)
	}
	if strings.Count(err.Error(), "\n") != 0 {
		t.Errorf("more than one problem: %v", err)
	}
	if err := s.CheckFiltersOn(ind, []string{"create_volume", "list_volumes"}); err != nil {
		t.Errorf("the canonical surface: %v", err)
	}

	// The suite's own filter splitting volumes is located at the map entry
	// of an action it hides.
	y := strings.Replace(filteredSurfacesYAML, "exclude: [get_health]", "exclude: [remove_volume]", 1)
	y = strings.Replace(y, "      exclude: [list_*]\n", "      exclude: [get_health]\n", 1)
	s, err = loadYAML(t, y)
	if err != nil {
		t.Fatal(err)
	}
	err = s.CheckFiltersOn(s.Surface("meta"), []string{"volumes", "health"})
	want = "suite.yaml:10: the suite's tools filter cannot be kept on surface meta: its tool volumes serves create_volume, list_volumes, remove_volume, and the filter shows create_volume, list_volumes but hides remove_volume"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v,\nwant it to start %q", err, want)
	}
}

// TestSurfacesWithTargetsRefused: a suite of several servers cannot
// declare surfaces; it is told so at its surfaces line.
func TestSurfacesWithTargetsRefused(t *testing.T) {
	y := strings.Replace(surfacesYAML, "target: builtin:ops\nsurfaces:", "targets:\n  ops: builtin:ops\n  home: builtin:household\nsurfaces:", 1)
	_, err := loadYAML(t, y)
	want := "suite.yaml:5: surfaces and targets: a surface presents the tools of one server"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
}

const slicedSurfacesYAML = `name: s
target: builtin:ops
slice:
  max_tools: 3
  domains:
    vol: ["*_volume*"]
surfaces:
  - name: individual
  - name: meta
    target: builtin:ops-meta
    map:
      create_volume: {tool: volumes, args: {action: create}}
      list_volumes: {tool: volumes, args: {action: list}}
      get_system_info: {tool: system, args: {action: get_info}}
      list_events: {tool: system, args: {action: list_events}}
      list_users: {tool: users, args: {action: list}}
      list_images: {tool: images, args: {action: list}}
cases:
  - id: v/new
    prompt: Make a volume.
    tools: {required: [create_volume]}
    key: {calls: [{tool: create_volume}], answer: "Done."}
`

// TestSliceOnSurface: a slice on a mapped surface is drawn over the
// canonical tools its tools stand for (the case's own and its domain's
// always in it) and shown as their surface tools, so the key's tool is
// never left out for a distractor.
func TestSliceOnSurface(t *testing.T) {
	s, err := loadYAML(t, slicedSurfacesYAML)
	if err != nil {
		t.Fatal(err)
	}
	meta, c := s.Surface("meta"), s.Cases[0]
	avail := []string{"images", "system", "users", "volumes", "unmapped"}
	if got, want := meta.CanonicalOf(avail), []string{"list_images", "get_system_info", "list_events", "list_users", "create_volume", "list_volumes", "unmapped"}; !reflect.DeepEqual(got, want) {
		t.Errorf("CanonicalOf: %v, want %v", got, want)
	}
	got, err := s.SliceOn(meta, c, avail)
	if err != nil {
		t.Fatal(err)
	}
	// create_volume and list_volumes (its domain) and one distractor:
	// volumes and one other tool.
	if len(got) != 2 || !slices.Contains(got, "volumes") {
		t.Errorf("slice on meta: %v, want volumes and one distractor", got)
	}
	again, _ := s.SliceOn(meta, c, avail)
	if !reflect.DeepEqual(got, again) {
		t.Errorf("the same slice drawn twice differs: %v, %v", got, again)
	}
	ind := []string{"list_images", "get_system_info", "list_events", "list_users", "create_volume", "list_volumes"}
	onInd, err := s.SliceOn(s.Surface("individual"), c, ind)
	if err != nil {
		t.Fatal(err)
	}
	direct, _ := s.SliceFor(c, ind)
	if !reflect.DeepEqual(onInd, direct) || len(onInd) != 3 {
		t.Errorf("on the canonical surface: %v, want SliceFor's %v (3 tools)", onInd, direct)
	}
}

// TestSurfaceNestedPaths: a map entry's fixed arguments at dotted paths
// and its under path put a canonical call into a meta-tool taking
// {action, params: {...}} (or {params: {action, ...}}), and the call reads
// back to the same canonical call; the caller's arguments are not changed.
func TestSurfaceNestedPaths(t *testing.T) {
	s, err := loadYAML(t, `name: s
target: builtin:ops
surfaces:
  - name: individual
  - name: nested
    target: builtin:ops-meta
    map:
      create_volume: {tool: volumes, args: {action: create}, under: params}
      remove_volume: {tool: volumes, args: {action: remove}, under: params}
      list_volumes: {tool: run, args: {"params.action": list, "params.domain": volumes}}
      get_volume: {tool: run, args: {"params.action": get, "params.domain": volumes}}
cases:
  - id: a/b
    prompt: hi
    decline: true
`)
	if err != nil {
		t.Fatal(err)
	}
	sf := s.Surface("nested")
	for _, tc := range []struct {
		canon string
		args  map[string]any
		tool  string
		sent  map[string]any
	}{
		{"create_volume", map[string]any{"name": "v", "labels": map[string]any{"a": "b"}},
			"volumes", map[string]any{"action": "create", "params": map[string]any{"name": "v", "labels": map[string]any{"a": "b"}}}},
		{"create_volume", nil, "volumes", map[string]any{"action": "create", "params": map[string]any{}}},
		{"list_volumes", map[string]any{"all": true},
			"run", map[string]any{"all": true, "params": map[string]any{"action": "list", "domain": "volumes"}}},
		{"get_volume", map[string]any{"params": map[string]any{"id": "v1"}},
			"run", map[string]any{"params": map[string]any{"action": "get", "domain": "volumes", "id": "v1"}}},
	} {
		in := deepCopy(tc.args)
		tool, sent := sf.Forward(tc.canon, tc.args)
		if tool != tc.tool || !reflect.DeepEqual(sent, tc.sent) {
			t.Errorf("Forward(%s, %v) = %s %v, want %s %v", tc.canon, tc.args, tool, sent, tc.tool, tc.sent)
		}
		if !reflect.DeepEqual(in, tc.args) {
			t.Errorf("Forward changed its arguments: %v, was %v", tc.args, in)
		}
		want := tc.args
		if want == nil {
			want = map[string]any{}
		}
		canon, cargs, ok := sf.Back(tool, sent)
		if !ok || canon != tc.canon || !reflect.DeepEqual(cargs, want) {
			t.Errorf("Back(%s, %v) = %s %v %v, want %s %v", tool, sent, canon, cargs, ok, tc.canon, want)
		}
		if !reflect.DeepEqual(sent, tc.sent) {
			t.Errorf("Back changed its arguments: %v", sent)
		}
	}
	// An argument beside under is kept; a call without the nested action
	// is no canonical action.
	canon, cargs, ok := sf.Back("volumes", map[string]any{"action": "remove", "force": true, "params": map[string]any{"id": "v1"}})
	if !ok || canon != "remove_volume" || !reflect.DeepEqual(cargs, map[string]any{"id": "v1", "force": true}) {
		t.Errorf("Back with an argument beside params: %s %v %v", canon, cargs, ok)
	}
	if _, _, ok := sf.Back("run", map[string]any{"action": "list", "domain": "volumes"}); ok {
		t.Errorf("fixed arguments at the top read back as nested ones")
	}
	if _, _, ok := sf.Back("run", map[string]any{"params": "list"}); ok {
		t.Errorf("a params that is no object read back as a canonical action")
	}
}

func deepCopy(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := map[string]any{}
	for k, v := range m {
		if inner, ok := v.(map[string]any); ok {
			v = deepCopy(inner)
		}
		out[k] = v
	}
	return out
}

// TestSearchSurface: a search surface has no map, takes the canonical
// surface's target unless it names one, keeps its turn cap, and needs no
// canonical surface when it is the only kind declared.
func TestSearchSurface(t *testing.T) {
	s, err := loadYAML(t, `name: s
target: builtin:household
surfaces:
  - name: individual
    target: builtin:ops
  - name: find
    kind: search
    turn_cap: 30
  - name: find-meta
    kind: search
    target: builtin:ops-meta
cases:
  - id: a/b
    prompt: hi
    decline: true
`)
	if err != nil {
		t.Fatal(err)
	}
	find := s.Surface("find")
	if !find.Search() || !find.Canonical() || find.TurnCap != 30 || s.CanonicalSurface() != s.Surface("individual") {
		t.Errorf("find: search %v, no map %v, turn cap %d; canonical surface %v", find.Search(), find.Canonical(), find.TurnCap, s.CanonicalSurface())
	}
	if got := s.SurfaceTarget(find).Spec; got != "builtin:ops" {
		t.Errorf("find's target is %s, want the canonical surface's", got)
	}
	if got := s.SurfaceTarget(s.Surface("find-meta")).Spec; got != "builtin:ops-meta" {
		t.Errorf("find-meta's target is %s, want its own", got)
	}
	if tool, args := find.Forward("create_volume", map[string]any{"name": "v"}); tool != "create_volume" || args["name"] != "v" {
		t.Errorf("a search surface forwards %s %v", tool, args)
	}
	if c, _, ok := find.Back("create_volume", nil); !ok || c != "create_volume" {
		t.Errorf("a search surface reads back %s %v", c, ok)
	}
	alone, err := loadYAML(t, "name: s\ntarget: builtin:ops\nsurfaces:\n  - name: find\n    kind: search\ncases:\n  - id: a/b\n    prompt: hi\n    decline: true\n")
	if err != nil {
		t.Fatalf("a search surface alone: %v", err)
	}
	if alone.CanonicalSurface() != nil || alone.SurfaceTarget(alone.Surface("find")).Spec != "builtin:ops" {
		t.Errorf("a search surface alone: canonical %v, target %v", alone.CanonicalSurface(), alone.SurfaceTarget(alone.Surface("find")))
	}
}
