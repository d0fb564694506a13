package ops

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func connectMeta(t *testing.T, st *State) *mcp.ClientSession {
	t.Helper()
	return connectTo(t, NewMetaServer(st))
}

// TestMetaSurfaceCoversEveryAction: the meta surface's tools hold every
// tool of the individual surface, each once, as an action of its domain.
func TestMetaSurfaceCoversEveryAction(t *testing.T) {
	ind, err := connect(t, seeded(t)).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := connectMeta(t, seeded(t)).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range meta.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"containers", "images", "networks", "projects", "system", "users", "volumes"}; !slices.Equal(names, want) {
		t.Fatalf("meta tools %v, want %v", names, want)
	}
	actions := 0
	for _, tool := range meta.Tools {
		var s struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		json.Unmarshal(mustJSON(t, tool.InputSchema), &s)
		if !slices.Contains(s.Required, "action") {
			t.Errorf("%s does not require action", tool.Name)
		}
		actions += len(s.Properties["action"].Enum)
		for _, a := range s.Properties["action"].Enum {
			if !strings.Contains(tool.Description, "\n- "+a+": ") {
				t.Errorf("%s's description does not describe action %s", tool.Name, a)
			}
		}
	}
	if actions != len(ind.Tools) || actions != 36 {
		t.Errorf("meta surface has %d actions, individual surface %d tools; want 36 each", actions, len(ind.Tools))
	}
	// The annotations are the most cautious of the domain's actions.
	for _, tool := range meta.Tools {
		a := tool.Annotations
		switch tool.Name {
		case "system":
			if !a.ReadOnlyHint {
				t.Errorf("system (read-only actions) is not annotated read-only")
			}
		default:
			if a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint {
				t.Errorf("%s (with destructive actions) is annotated %+v", tool.Name, a)
			}
		}
	}
}

// TestMetaSurfaceRunsTheSameHandlers: the same calls on the two surfaces
// give the same results and leave the same state.
func TestMetaSurfaceRunsTheSameHandlers(t *testing.T) {
	ind, meta := connect(t, seeded(t)), connectMeta(t, seeded(t))
	steps := []struct {
		tool, domain, action string
		args                 map[string]any
	}{
		{"create_volume", "volumes", "create", map[string]any{"name": "cache", "size_gb": 5, "driver": "nfs"}},
		{"create_container", "containers", "create", map[string]any{"name": "web-x", "image": "nginx:1.27"}},
		{"start_container", "containers", "start", map[string]any{"container_id": "web-x"}},
		{"get_container_logs", "containers", "get_logs", map[string]any{"container_id": "web-x", "tail": 3}},
		{"remove_volume", "volumes", "remove", map[string]any{"volume_id": "cache"}}, // refused: no confirm
		{"remove_volume", "volumes", "remove", map[string]any{"volume_id": "cache", "confirm": true}},
		{"list_volumes", "volumes", "list", nil},
		{"get_system_info", "system", "get_info", nil},
	}
	for _, s := range steps {
		margs := map[string]any{"action": s.action}
		for k, v := range s.args {
			margs[k] = v
		}
		wantOut, wantErr, wantText := call(t, ind, s.tool, s.args)
		gotOut, gotErr, gotText := call(t, meta, s.domain, margs)
		if wantErr != gotErr || !reflect.DeepEqual(wantOut, gotOut) {
			t.Errorf("%s on the meta surface: error %v, %v\n(text %s)\nindividual %s: error %v, %v\n(text %s)", s.domain, gotErr, gotOut, gotText, s.tool, wantErr, wantOut, wantText)
		}
	}
}

// TestMetaSurfaceRefuses: an unknown action, an argument of another
// action, or one missing, is a tool error and changes nothing.
func TestMetaSurfaceRefuses(t *testing.T) {
	cs := connectMeta(t, seeded(t))
	before, _, _ := call(t, cs, "containers", map[string]any{"action": "list"})
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"action": "explode"}, "action"},
		{map[string]any{"action": "create", "name": "x", "image": "nginx:1.27", "new_name": "y"}, "new_name"},
		{map[string]any{"action": "create", "name": "x"}, "image"},
		{map[string]any{"name": "x", "image": "nginx:1.27"}, "action"},
	} {
		_, isErr, text := call(t, cs, "containers", tc.args)
		if !isErr || !strings.Contains(text, tc.want) {
			t.Errorf("containers %v: error %v, %q; want an error naming %s", tc.args, isErr, text, tc.want)
		}
	}
	after, _, _ := call(t, cs, "containers", map[string]any{"action": "list"})
	if !reflect.DeepEqual(before, after) {
		t.Errorf("refused calls changed the host:\nbefore %v\nafter  %v", before, after)
	}
}

// TestMetaSurfaceSpeaksItsOwnNames: the meta surface's descriptions and
// errors name its own tools and actions, never a tool it does not list;
// an argument named like a tool is left alone.
func TestMetaSurfaceSpeaksItsOwnNames(t *testing.T) {
	cs := connectMeta(t, seeded(t))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var individual []string
	for _, o := range ops() {
		individual = append(individual, o.tool.Name)
	}
	text := ""
	for _, tool := range res.Tools {
		text += tool.Description + string(mustJSON(t, tool.InputSchema))
	}
	_, _, refusal := call(t, cs, "containers", map[string]any{"action": "remove", "container_id": "shop-web"})
	text += refusal
	for _, n := range individual {
		if n == "list_events" { // also the action's own name on system
			continue
		}
		if regexp.MustCompile(`\b` + n + `\b`).MatchString(text) {
			t.Errorf("the meta surface names %s, a tool it does not list", n)
		}
	}
	for _, want := range []string{"images with action pull", "remove_containers", "containers with action remove is destructive"} {
		if !strings.Contains(text, want) {
			t.Errorf("the meta surface does not say %q", want)
		}
	}
}
