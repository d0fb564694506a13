package ops

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func connect(t *testing.T, st *State) *mcp.ClientSession {
	t.Helper()
	return connectTo(t, NewServer(st))
}

// connectTo connects a test client to srv over the in-memory transport.
func connectTo(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ct, stt := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), stt, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func seeded(t *testing.T) *State {
	t.Helper()
	st, err := Seed()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// call calls a tool and decodes its structured result.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (map[string]any, bool, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	var out map[string]any
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &out)
	}
	return out, res.IsError, text
}

func TestTools(t *testing.T) {
	cs := connect(t, seeded(t))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) < 30 {
		t.Errorf("%d tools, want several dozen", len(res.Tools))
	}
	kinds := map[string]int{}
	for _, tool := range res.Tools {
		a := tool.Annotations
		switch {
		case a == nil:
			t.Errorf("%s has no annotations", tool.Name)
		case a.ReadOnlyHint:
			kinds["read"]++
		case a.DestructiveHint != nil && *a.DestructiveHint:
			kinds["destructive"]++
			if !strings.Contains(string(mustJSON(t, tool.InputSchema)), `"confirm"`) {
				t.Errorf("destructive %s has no confirm argument", tool.Name)
			}
		case a.DestructiveHint != nil:
			kinds["write"]++
		default:
			t.Errorf("%s: write tool without a destructive hint", tool.Name)
		}
	}
	if kinds["read"] == 0 || kinds["write"] == 0 || kinds["destructive"] == 0 {
		t.Errorf("tool kinds %v: want read, write and destructive tools", kinds)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDestructiveNeedsConfirm(t *testing.T) {
	st := seeded(t)
	cs := connect(t, st)
	c, isErr, text := call(t, cs, "create_container", map[string]any{"name": "web-1", "image": "nginx:1.27"})
	if isErr {
		t.Fatalf("create: %s", text)
	}
	id := c["id"].(string)
	_, isErr, text = call(t, cs, "remove_container", map[string]any{"container_id": "web-1"})
	if !isErr || !strings.Contains(text, "confirm: true") {
		t.Fatalf("remove without confirm: error %v %q, want a refusal naming confirm: true", isErr, text)
	}
	if _, err := st.container(id); err != nil {
		t.Fatal("the refused removal removed the container")
	}
	// Named by short id, with confirm.
	out, isErr, text := call(t, cs, "remove_container", map[string]any{"container_id": id[:12], "confirm": true})
	if isErr || out["removed"] != "web-1" {
		t.Fatalf("remove with confirm: %v %s", isErr, text)
	}
}

func TestSchemaRejectsUnknownArguments(t *testing.T) {
	cs := connect(t, seeded(t))
	_, isErr, text := call(t, cs, "list_users", map[string]any{"role": "superuser"})
	if !isErr || !strings.Contains(text, "validating") {
		t.Errorf("role superuser: %v %q, want a schema failure", isErr, text)
	}
	_, isErr, _ = call(t, cs, "get_volume", map[string]any{"volume_id": "pgdata", "colour": "red"})
	if !isErr {
		t.Error("an unknown argument was accepted")
	}
}

func TestRequirementsAreDiscoverable(t *testing.T) {
	cs := connect(t, seeded(t))
	_, isErr, text := call(t, cs, "create_container", map[string]any{"name": "cache", "image": "redis:7.4"})
	if !isErr || !strings.Contains(text, "pull_image") {
		t.Fatalf("missing image: %v %q, want a hint to pull_image", isErr, text)
	}
	if _, isErr, text = call(t, cs, "pull_image", map[string]any{"ref": "redis:7.4"}); isErr {
		t.Fatal(text)
	}
	if _, isErr, text = call(t, cs, "create_container", map[string]any{"name": "cache", "image": "redis:7.4"}); isErr {
		t.Fatal(text)
	}
	_, isErr, text = call(t, cs, "remove_volume", map[string]any{"volume_id": "pgdata", "confirm": true})
	if !isErr || !strings.Contains(text, "shop-db") {
		t.Errorf("removing a mounted volume: %v %q", isErr, text)
	}
}

func TestFreshStatePerServer(t *testing.T) {
	a, b := seeded(t), seeded(t)
	if !reflect.DeepEqual(a.Snapshot(), b.Snapshot()) {
		t.Fatal("two seeded states differ: ids must be deterministic")
	}
	cs := connect(t, a)
	call(t, cs, "create_volume", map[string]any{"name": "scratch"})
	if reflect.DeepEqual(a.Snapshot(), b.Snapshot()) {
		t.Fatal("a change to one state shows in the other")
	}
	// Prune removes only what no container mounts: here, the new volume.
	out, isErr, text := call(t, cs, "prune_volumes", map[string]any{"confirm": true})
	if isErr || !reflect.DeepEqual(out["removed"], []any{"scratch"}) {
		t.Fatalf("prune: %v %s", isErr, text)
	}
	if !reflect.DeepEqual(a.Snapshot(), b.Snapshot()) {
		t.Fatal("after the prune the state should be the seed again")
	}
}
